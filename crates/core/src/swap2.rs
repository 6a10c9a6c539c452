//! The Swap2 opening of gomoku and the game after it, independent of any
//! protocol: the opener places two black stones and one white; the
//! answerer takes black, places a white stone and takes white, or places
//! one more stone of each colour and lets the opener choose. Then the
//! colour with fewer stones moves, black on equal counts.
//!
//! [`Swap2`] is the phase machine: every front (the judge's referee, the
//! web page, the Gomocup `SWAP2BOARD` handler) feeds it the [`Step`]s it
//! hears and asks it whose turn it is. [`Strategy`] is a Swap2 player.

use std::fmt;

use crate::renju::Forbidden;
use crate::{Game, Mnk, Outcome, PlayError, Player, Point};

/// The answer to the opener's three stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Swap {
    /// Take black: the opener plays white and moves next.
    Black,
    /// Place this white stone and play white.
    White(Point),
    /// Place one stone of each colour and let the opener choose a colour.
    Place {
        /// The black stone.
        black: Point,
        /// The white stone.
        white: Point,
    },
}

/// Who acts in a Swap2 game: the opener places the three stones and may
/// choose a colour; the answerer answers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Places the three opening stones.
    Opener,
    /// Answers the three opening stones.
    Answerer,
}

impl Role {
    /// The other role.
    pub fn other(self) -> Role {
        match self {
            Role::Opener => Role::Answerer,
            Role::Answerer => Role::Opener,
        }
    }
}

/// Where a Swap2 game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The opener places two black stones, then one white.
    Open,
    /// The answerer answers the three stones.
    Answer,
    /// The opener chooses a colour after the answerer's two stones.
    Colour,
    /// Moves alternate, the colour with fewer stones first.
    Play,
    /// Five in a row, a full board, or (renju) a black stone on a
    /// forbidden point.
    Over,
}

/// Under renju, a black stone put on a point forbidden to black: it loses
/// the game at once for the role that put it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Foul {
    /// Who put the stone: black's player in the game phase; in the opening
    /// whoever placed the black stones (the opener, or the answerer's
    /// `Place`), whatever colour it ends up playing.
    pub role: Role,
    /// Where the stone stands.
    pub point: Point,
    /// Why the point is forbidden.
    pub why: Forbidden,
}

/// One thing a player does in a Swap2 game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The opener's three stones: black, black, white.
    Open([Point; 3]),
    /// One of the opener's stones, for fronts that place them one at a
    /// time: black, black, then white.
    OpenStone(Point),
    /// The answerer's answer.
    Answer(Swap),
    /// The colour the opener plays.
    Colour(Player),
    /// A stone for the side to move.
    Play(Point),
}

impl Step {
    /// The phase in which this step is legal.
    pub fn phase(self) -> Phase {
        match self {
            Step::Open(_) | Step::OpenStone(_) => Phase::Open,
            Step::Answer(_) => Phase::Answer,
            Step::Colour(_) => Phase::Colour,
            Step::Play(_) => Phase::Play,
        }
    }
}

/// Why a step was refused; the game is left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Error {
    /// The step is not the one the game waits for, or not from the player
    /// whose turn it is.
    OutOfTurn {
        /// Who tried.
        role: Role,
        /// What they tried, by its phase.
        step: Phase,
        /// Where the game stands.
        phase: Phase,
    },
    /// One step names the same point twice.
    Repeated(Point),
    /// The point already holds a stone.
    Occupied(Point),
    /// The point is not on the board.
    OffBoard(Point),
}

impl fmt::Display for Swap2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swap2Error::OutOfTurn { role, step, phase } => write!(
                f,
                "out of turn: the {role:?} cannot act in the {step:?} phase while the game is in the {phase:?} phase"
            ),
            Swap2Error::Repeated(p) => write!(f, "point {p} is named twice"),
            Swap2Error::Occupied(p) => write!(f, "point {p} is already taken"),
            Swap2Error::OffBoard(p) => write!(f, "point {p} is off the board"),
        }
    }
}

impl std::error::Error for Swap2Error {}

/// A Swap2 game: the board, the phase and who plays which colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap2 {
    game: Mnk,
    phase: Phase,
    /// The answerer's colour, once settled.
    answerer: Option<Player>,
    /// Every stone in the order it was placed.
    stones: Vec<(Point, Player)>,
    /// Moves of the play phase so far.
    moves: usize,
    /// The black stone on a forbidden point that ended the game, if one did.
    foul: Option<Foul>,
}

impl Swap2 {
    /// A new game on `rules` (its board is cleared to empty).
    pub fn new(rules: &Mnk) -> Swap2 {
        let game = Mnk::new(rules.rows(), rules.cols(), rules.k(), rules.rule())
            .expect("the rules of a game are valid");
        Swap2 {
            game,
            phase: Phase::Open,
            answerer: None,
            stones: Vec::new(),
            moves: 0,
            foul: None,
        }
    }

    /// A game whose opening is settled without Swap2: a free start (the
    /// empty board, black first) or a position set up by hand. `stones`
    /// are put down in order, each by the role playing its colour and
    /// judged as a step's would be (a black stone on a point renju forbids
    /// ends the game: see [`foul`](Swap2::foul)); the answerer plays
    /// `answerer`, and the game is in the play phase, or over when the
    /// stones end it. Refused like a step when a stone is off the board or
    /// on a taken point.
    pub fn settled(
        rules: &Mnk,
        stones: &[(Point, Player)],
        answerer: Player,
    ) -> Result<Swap2, Swap2Error> {
        let mut game = Swap2::new(rules);
        game.answerer = Some(answerer);
        for &(p, colour) in stones {
            if game.game.outcome().is_some() || game.foul.is_some() {
                break;
            }
            let role = game.role(colour).expect("colours settled above");
            game.put(role, &[(p, colour)])?;
        }
        game.settle(answerer);
        if game.foul.is_some() {
            game.phase = Phase::Over;
        }
        Ok(game)
    }

    /// The board now; its side to move is the colour with fewer stones.
    pub fn game(&self) -> &Mnk {
        &self.game
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Every stone in the order it was placed, opening stones first.
    pub fn stones(&self) -> &[(Point, Player)] {
        &self.stones
    }

    /// Moves of the play phase so far.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// Who acts next; `None` once the game is over.
    pub fn to_act(&self) -> Option<Role> {
        match self.phase {
            Phase::Open | Phase::Colour => Some(Role::Opener),
            Phase::Answer => Some(Role::Answerer),
            Phase::Play => self.role(self.game.to_move()),
            Phase::Over => None,
        }
    }

    /// The colour `role` plays, once settled.
    pub fn colour(&self, role: Role) -> Option<Player> {
        let answerer = self.answerer?;
        Some(match role {
            Role::Answerer => answerer,
            Role::Opener => answerer.opponent(),
        })
    }

    /// The role playing `colour`, once settled.
    pub fn role(&self, colour: Player) -> Option<Role> {
        let answerer = self.answerer?;
        Some(if colour == answerer {
            Role::Answerer
        } else {
            Role::Opener
        })
    }

    /// The colour of the opener's next stone: two black, then one white.
    pub fn opening_colour(&self) -> Player {
        if self.game.stones() < 2 {
            Player::X
        } else {
            Player::O
        }
    }

    /// How the game ended, once over. After a [`Foul`] it is white's win
    /// on the board, as the core's renju has it; in the opening, where
    /// colours may not be settled yet, [`foul`](Swap2::foul) says who lost.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The black stone on a forbidden point (renju) that ended the game.
    pub fn foul(&self) -> Option<Foul> {
        self.foul
    }

    /// Takes `step` from `role`, or refuses it and changes nothing.
    pub fn apply(&mut self, role: Role, step: Step) -> Result<(), Swap2Error> {
        if self.to_act() != Some(role) || step.phase() != self.phase {
            return Err(Swap2Error::OutOfTurn {
                role,
                step: step.phase(),
                phase: self.phase,
            });
        }
        match step {
            Step::Open(stones) => {
                if self.game.stones() > 0 {
                    return Err(Swap2Error::OutOfTurn {
                        role,
                        step: Phase::Open,
                        phase: self.phase,
                    });
                }
                let [b1, b2, w] = stones;
                self.put(role, &[(b1, Player::X), (b2, Player::X), (w, Player::O)])?;
                self.phase = Phase::Answer;
            }
            Step::OpenStone(p) => {
                self.put(role, &[(p, self.opening_colour())])?;
                if self.game.stones() == 3 {
                    self.phase = Phase::Answer;
                }
            }
            Step::Answer(Swap::Black) => self.settle(Player::X),
            Step::Answer(Swap::White(w)) => {
                self.put(role, &[(w, Player::O)])?;
                self.settle(Player::O);
            }
            Step::Answer(Swap::Place { black, white }) => {
                self.put(role, &[(black, Player::X), (white, Player::O)])?;
                self.phase = Phase::Colour;
            }
            Step::Colour(colour) => self.settle(colour.opponent()),
            Step::Play(p) => {
                self.put(role, &[(p, self.game.to_move())])?;
                self.moves += 1;
                if self.game.outcome().is_some() {
                    self.phase = Phase::Over;
                }
            }
        }
        if self.foul.is_some() {
            self.phase = Phase::Over;
        }
        Ok(())
    }

    /// Colours are settled: the game phase begins.
    fn settle(&mut self, answerer: Player) {
        self.answerer = Some(answerer);
        self.phase = if self.game.outcome().is_some() {
            Phase::Over
        } else {
            Phase::Play
        };
    }

    /// Puts the stones of one step of `role` on the board, all or none
    /// (but none after one that ends the game).
    fn put(&mut self, role: Role, stones: &[(Point, Player)]) -> Result<(), Swap2Error> {
        for (i, &(p, _)) in stones.iter().enumerate() {
            if stones[..i].iter().any(|&(other, _)| other == p) {
                return Err(Swap2Error::Repeated(p));
            }
        }
        for &(p, _) in stones {
            if p.index() >= self.game.points() {
                return Err(Swap2Error::OffBoard(p));
            }
            if self.game.stone(p).is_some() {
                return Err(Swap2Error::Occupied(p));
            }
        }
        for &(p, colour) in stones {
            // Renju judges a point before the stone stands. Every black
            // stone goes through here, the opening's too, although with
            // three black stones at most no point of the opening can be
            // forbidden yet (the fewest a forbidden point needs is four
            // black stones besides its own, for a double three): its placer
            // would lose, whatever colour it went on to play.
            let forbidden = match colour {
                Player::X => self.game.forbidden(p),
                Player::O => None,
            };
            match self.game.place(p, colour) {
                Ok(()) => self.stones.push((p, colour)),
                // A five in the opening ends the game: later stones stay off.
                Err(PlayError::GameOver) => break,
                Err(e) => unreachable!("checked above: {e}"),
            }
            if let Some(why) = forbidden {
                self.foul = Some(Foul {
                    role,
                    point: p,
                    why,
                });
                break;
            }
        }
        Ok(())
    }
}

/// A Swap2 gomoku player: what it does at each point of the game. Boards
/// come as the core's [`Mnk`], the side to move by the opening rule.
pub trait Strategy {
    /// Why the player cannot answer a position.
    type Error;
    /// Two black stones, then one white, on the empty board `game`.
    fn open(&mut self, game: &Mnk) -> Result<[Point; 3], Self::Error>;
    /// The answer to the opener's three stones.
    fn swap(&mut self, game: &Mnk) -> Result<Swap, Self::Error>;
    /// The colour the opener plays after the answerer's two stones.
    fn colour(&mut self, game: &Mnk) -> Result<Player, Self::Error>;
    /// The next stone for the side to move.
    fn play(&mut self, game: &Mnk) -> Result<Point, Self::Error>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn at(x: usize, y: usize) -> Point {
        Point::at(x, y, 15)
    }

    #[test]
    fn each_answer_settles_the_colours() {
        let open = Step::Open([at(7, 7), at(8, 8), at(7, 8)]);
        let mut black = Swap2::new(&Mnk::gomoku());
        black.apply(Role::Opener, open).unwrap();
        black
            .apply(Role::Answerer, Step::Answer(Swap::Black))
            .unwrap();
        assert_eq!(black.colour(Role::Answerer), Some(Player::X));
        // Three stones: white moves first, the opener.
        assert_eq!(black.to_act(), Some(Role::Opener));

        let mut white = Swap2::new(&Mnk::gomoku());
        white.apply(Role::Opener, open).unwrap();
        let answer = Step::Answer(Swap::White(at(0, 0)));
        white.apply(Role::Answerer, answer).unwrap();
        assert_eq!(white.colour(Role::Opener), Some(Player::X));
        assert_eq!(white.to_act(), Some(Role::Opener));

        let mut place = Swap2::new(&Mnk::gomoku());
        place.apply(Role::Opener, open).unwrap();
        let answer = Swap::Place {
            black: at(1, 1),
            white: at(2, 2),
        };
        place.apply(Role::Answerer, Step::Answer(answer)).unwrap();
        assert_eq!(
            (place.phase(), place.colour(Role::Opener)),
            (Phase::Colour, None)
        );
        place.apply(Role::Opener, Step::Colour(Player::O)).unwrap();
        assert_eq!(place.colour(Role::Answerer), Some(Player::X));
        assert_eq!(place.to_act(), Some(Role::Opener));
        assert_eq!(place.game().stones(), 5);
        let order: Vec<Point> = place.stones().iter().map(|&(p, _)| p).collect();
        assert_eq!(order, [at(7, 7), at(8, 8), at(7, 8), at(1, 1), at(2, 2)]);
    }

    #[test]
    fn under_renju_black_on_a_forbidden_point_loses_for_its_player() {
        // The opener plays black after the answer `white`, and its third
        // move (7,7) makes two open threes: down from (7,5), across from (5,7).
        let steps = [
            (Role::Opener, Step::Open([at(7, 5), at(7, 6), at(0, 14)])),
            (Role::Answerer, Step::Answer(Swap::White(at(0, 0)))),
            (Role::Opener, Step::Play(at(5, 7))),
            (Role::Answerer, Step::Play(at(0, 1))),
            (Role::Opener, Step::Play(at(6, 7))),
            (Role::Answerer, Step::Play(at(0, 2))),
            (Role::Opener, Step::Play(at(7, 7))),
        ];
        let mut renju = Swap2::new(&Mnk::renju());
        let mut free = Swap2::new(&Mnk::gomoku());
        for (role, step) in steps {
            renju.apply(role, step).unwrap();
            free.apply(role, step).unwrap();
        }
        let foul = Foul {
            role: Role::Opener,
            point: at(7, 7),
            why: Forbidden::DoubleThree,
        };
        assert_eq!(renju.foul(), Some(foul));
        assert_eq!(renju.outcome(), Some(Outcome::Win(Player::O)));
        assert_eq!((renju.phase(), renju.to_act()), (Phase::Over, None));
        assert_eq!(renju.stones().last(), Some(&(at(7, 7), Player::X)));
        // Under freestyle it is just a move.
        assert_eq!((free.foul(), free.outcome()), (None, None));
        assert_eq!(free.to_act(), Some(Role::Answerer));
    }

    #[test]
    fn a_settled_game_starts_in_play_with_its_stones() {
        // Nothing set up: black (the opener here) moves first.
        let empty = Swap2::settled(&Mnk::gomoku(), &[], Player::O).unwrap();
        assert_eq!(
            (empty.phase(), empty.to_act()),
            (Phase::Play, Some(Role::Opener))
        );
        assert_eq!(empty.colour(Role::Answerer), Some(Player::O));
        // Three stones set up: white (the answerer) moves.
        let stones = [
            (at(7, 7), Player::X),
            (at(8, 8), Player::O),
            (at(9, 9), Player::X),
        ];
        let mut g = Swap2::settled(&Mnk::gomoku(), &stones, Player::O).unwrap();
        assert_eq!(g.stones(), &stones);
        assert_eq!((g.to_act(), g.moves()), (Some(Role::Answerer), 0));
        g.apply(Role::Answerer, Step::Play(at(1, 1))).unwrap();
        assert_eq!(g.to_act(), Some(Role::Opener));
        // A taken or off-board point is refused as a step's.
        let twice = [(at(7, 7), Player::X), (at(7, 7), Player::O)];
        assert_eq!(
            Swap2::settled(&Mnk::gomoku(), &twice, Player::X),
            Err(Swap2Error::Occupied(at(7, 7)))
        );
        // A five set up ends the game; so does black on a renju foul.
        let mut five = Vec::new();
        for i in 0..5 {
            five.push((at(i, 0), Player::X));
            if i < 4 {
                five.push((at(i, 5), Player::O));
            }
        }
        let over = Swap2::settled(&Mnk::gomoku(), &five, Player::O).unwrap();
        assert_eq!(over.outcome(), Some(Outcome::Win(Player::X)));
        assert_eq!((over.phase(), over.to_act()), (Phase::Over, None));
        let double_three = [
            (at(7, 5), Player::X),
            (at(0, 0), Player::O),
            (at(7, 6), Player::X),
            (at(0, 1), Player::O),
            (at(5, 7), Player::X),
            (at(0, 2), Player::O),
            (at(6, 7), Player::X),
            (at(0, 3), Player::O),
            (at(7, 7), Player::X),
        ];
        let fouled = Swap2::settled(&Mnk::renju(), &double_three, Player::O).unwrap();
        assert_eq!(
            fouled.foul().map(|f| (f.point, f.why)),
            Some((at(7, 7), Forbidden::DoubleThree))
        );
        assert_eq!(fouled.phase(), Phase::Over);
        let free = Swap2::settled(&Mnk::gomoku(), &double_three, Player::O).unwrap();
        assert_eq!(free.phase(), Phase::Play);
    }

    #[test]
    fn refused_steps_change_nothing() {
        let mut g = Swap2::new(&Mnk::gomoku());
        let before = g.clone();
        assert!(matches!(
            g.apply(Role::Answerer, Step::Answer(Swap::Black)),
            Err(Swap2Error::OutOfTurn { .. })
        ));
        assert_eq!(
            g.apply(Role::Opener, Step::Open([at(1, 1), at(2, 2), at(1, 1)])),
            Err(Swap2Error::Repeated(at(1, 1)))
        );
        assert_eq!(
            g.apply(Role::Opener, Step::Open([at(1, 1), at(2, 2), Point(225)])),
            Err(Swap2Error::OffBoard(Point(225)))
        );
        assert_eq!(g, before);
        g.apply(Role::Opener, Step::OpenStone(at(1, 1))).unwrap();
        assert_eq!(
            g.apply(Role::Opener, Step::OpenStone(at(1, 1))),
            Err(Swap2Error::Occupied(at(1, 1)))
        );
        assert!(
            g.apply(Role::Opener, Step::Open([at(3, 3), at(4, 4), at(5, 5)]))
                .is_err()
        );
    }

    /// A random legal step for whoever acts, or an illegal one.
    fn random_step(g: &Swap2, rng: &mut ChaCha8Rng) -> Step {
        let empty: Vec<Point> = g.game().moves().collect();
        let pick = |n: usize, rng: &mut ChaCha8Rng| -> Vec<Point> {
            let mut out = Vec::new();
            while out.len() < n {
                let p = empty[rng.random_range(0..empty.len())];
                if !out.contains(&p) {
                    out.push(p);
                }
            }
            out
        };
        match g.phase() {
            Phase::Open if g.game().stones() == 0 && rng.random() => {
                let s = pick(3, rng);
                Step::Open([s[0], s[1], s[2]])
            }
            Phase::Open => Step::OpenStone(pick(1, rng)[0]),
            Phase::Answer => match rng.random_range(0..3) {
                0 => Step::Answer(Swap::Black),
                1 => Step::Answer(Swap::White(pick(1, rng)[0])),
                _ => {
                    let s = pick(2, rng);
                    Step::Answer(Swap::Place {
                        black: s[0],
                        white: s[1],
                    })
                }
            },
            Phase::Colour => Step::Colour(if rng.random() { Player::X } else { Player::O }),
            Phase::Play | Phase::Over => Step::Play(pick(1, rng)[0]),
        }
    }

    proptest! {
        #[test]
        fn random_legal_drives_reach_play_with_consistent_colours(seed in any::<u64>()) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut g = Swap2::new(&Mnk::new(9, 9, 5, crate::Rule::Freestyle).unwrap());
            let mut steps = 0;
            while let Some(role) = g.to_act() {
                let step = random_step(&g, &mut rng);
                let phase = g.phase();
                g.apply(role, step).unwrap();
                steps += 1;
                if let (Some(answerer), Some(opener)) = (g.colour(Role::Answerer), g.colour(Role::Opener)) {
                    prop_assert_eq!(answerer.opponent(), opener);
                    prop_assert_eq!(g.role(answerer), Some(Role::Answerer));
                    prop_assert_eq!(g.role(opener), Some(Role::Opener));
                    prop_assert!(matches!(g.phase(), Phase::Play | Phase::Over));
                } else {
                    prop_assert!(matches!(g.phase(), Phase::Open | Phase::Answer | Phase::Colour));
                }
                if phase == Phase::Play && g.phase() == Phase::Play {
                    // Colours alternate in play.
                    prop_assert_eq!(g.to_act(), Some(role.other()));
                }
                prop_assert!(steps < 200);
            }
            prop_assert!(g.outcome().is_some());
        }

        #[test]
        fn illegal_steps_are_refused(seed in any::<u64>(), length in 0usize..12) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut g = Swap2::new(&Mnk::gomoku());
            for _ in 0..length {
                let Some(role) = g.to_act() else { break };
                let step = random_step(&g, &mut rng);
                g.apply(role, step).unwrap();
            }
            let Some(role) = g.to_act() else { return Ok(()) };
            let before = g.clone();
            // The other role, or a step of another phase, is out of turn.
            let step = random_step(&g, &mut rng);
            let refused = matches!(g.apply(role.other(), step), Err(Swap2Error::OutOfTurn { .. }));
            prop_assert!(refused);
            let wrong = match g.phase() {
                Phase::Answer => Step::Colour(Player::X),
                _ => Step::Answer(Swap::Black),
            };
            let refused = matches!(g.apply(role, wrong), Err(Swap2Error::OutOfTurn { .. }));
            prop_assert!(refused);
            // A stone on a taken point is refused.
            if let Some(taken) = (0..225).map(Point).find(|&p| g.game().stone(p).is_some()) {
                let step = match g.phase() {
                    Phase::Open => Step::OpenStone(taken),
                    Phase::Answer => Step::Answer(Swap::White(taken)),
                    Phase::Play => Step::Play(taken),
                    _ => return Ok(()),
                };
                prop_assert_eq!(g.apply(role, step), Err(Swap2Error::Occupied(taken)));
            }
            prop_assert_eq!(g, before);
        }
    }
}
