//! One game of MENACE against anyone, a move at a time.
//!
//! The terminal program, the web page and the trainer all play through a
//! [`Session`]: the other side's moves come in one by one (typed, clicked
//! or picked by a [`Seat`]), MENACE answers with a bead from one of its
//! boxes, and when the game ends MENACE learns its result. A session keeps
//! the board and every move with the box and bead behind it, so it can be
//! put aside between moves and shown at any time.

use std::fmt;

use inarow_core::{Game, GameResult, Outcome, PlayError, Player, Point, TicTacToe};

use crate::machine::{Choice, Menace};
use crate::seat::Seat;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A line or a full board.
    Board(Outcome),
    /// This player resigned.
    Resigned(Player),
}

impl Ending {
    /// The result for `player`.
    #[inline]
    pub fn result_for(self, player: Player) -> GameResult {
        match self {
            Ending::Board(outcome) => GameResult::for_side(outcome, player),
            Ending::Resigned(p) if p == player => GameResult::Loss,
            Ending::Resigned(_) => GameResult::Win,
        }
    }
}

/// A bead MENACE drew for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bead {
    /// The box it came from (0-based).
    pub matchbox: usize,
    /// Its colour: a square of the box's image.
    pub square: u8,
}

/// One move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Who played it.
    pub player: Player,
    /// The square played on the real board.
    pub square: Point,
    /// The bead behind MENACE's move; `None` for the other side's moves and
    /// for a forced last move, which has no box.
    pub bead: Option<Bead>,
}

/// Why a session refused the other side's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// It is MENACE's turn.
    NotYourTurn,
    /// The move breaks the rules: the game is over (a resignation ends it
    /// too), or the square is off the board or taken.
    Illegal(PlayError),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotYourTurn => write!(f, "it is MENACE's turn"),
            Refused::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Refused {}

/// A game MENACE plays, from the empty board to its result.
///
/// The session does not own the machine: each call that may end the game
/// takes it, and when the game ends the machine learns from it at once.
/// Pass the same machine to every call of one session. A session never
/// allocates, so the trainer plays millions of them.
#[derive(Clone, Debug)]
pub struct Session {
    board: TicTacToe,
    /// The side MENACE plays.
    side: Player,
    moves: [Move; 9],
    played: usize,
    ending: Option<Ending>,
}

impl Session {
    /// A new game from the empty board for `menace`, on the side it plays.
    pub fn new(menace: &Menace) -> Session {
        const NO_MOVE: Move = Move {
            player: Player::X,
            square: Point(0),
            bead: None,
        };
        Session {
            board: TicTacToe::new(),
            side: menace.player(),
            moves: [NO_MOVE; 9],
            played: 0,
            ending: None,
        }
    }

    /// The board as it stands.
    pub fn board(&self) -> &TicTacToe {
        &self.board
    }

    /// The moves so far, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.played]
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The result from MENACE's side, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.ending.map(|e| e.result_for(self.side))
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// Whether MENACE is to move next.
    pub fn menace_to_move(&self) -> bool {
        !self.is_over() && self.board.to_move() == self.side
    }

    /// MENACE's turn: it draws a bead and plays it, or resigns on an empty
    /// box (then `None`, and the game is over). Does nothing and returns
    /// `None` when it is not MENACE's turn.
    #[inline]
    pub fn menace_move(&mut self, menace: &mut Menace) -> Option<Move> {
        debug_assert_eq!(menace.player(), self.side, "one machine per session");
        if !self.menace_to_move() {
            return None;
        }
        let before = menace.drawn().count();
        match menace.choose(&self.board)? {
            Choice::Play(square) => {
                // A forced last move draws no bead; the drawn list does not grow.
                let bead = menace
                    .drawn()
                    .nth(before)
                    .map(|(matchbox, square)| Bead { matchbox, square });
                self.board.play_unchecked(square);
                Some(self.record(menace, self.side, square, bead))
            }
            Choice::Resign => {
                self.end(menace, Ending::Resigned(self.side));
                None
            }
        }
    }

    /// The other side plays `square`; MENACE learns at once if that ends
    /// the game.
    #[inline]
    pub fn play(&mut self, menace: &mut Menace, square: Point) -> Result<Move, Refused> {
        if self.is_over() {
            return Err(Refused::Illegal(PlayError::GameOver));
        }
        if self.menace_to_move() {
            return Err(Refused::NotYourTurn);
        }
        let player = self.board.to_move();
        self.board.play(square).map_err(Refused::Illegal)?;
        Ok(self.record(menace, player, square, None))
    }

    /// The other side gives up: MENACE wins and learns it.
    pub fn resign(&mut self, menace: &mut Menace) {
        if !self.is_over() {
            self.end(menace, Ending::Resigned(self.side.opponent()));
        }
    }

    /// Plays the game to its end against `opponent` and tells it the
    /// result too. A pick that is no legal move counts as resigning.
    #[inline]
    pub fn play_out<O: Seat + ?Sized>(&mut self, menace: &mut Menace, opponent: &mut O) -> Ending {
        while !self.is_over() {
            if self.menace_to_move() {
                self.menace_move(menace);
            } else {
                let pick = opponent.pick(&self.board);
                if pick.is_none_or(|p| self.play(menace, p).is_err()) {
                    self.resign(menace);
                }
            }
        }
        let ending = self.ending.expect("the game is over");
        opponent.finish(ending.result_for(self.side.opponent()));
        ending
    }

    /// The result as a line for the person at the board, once the game is
    /// over; `other_wins` says the other side won ("you win", "O wins").
    pub fn result_line(&self, other_wins: &str) -> Option<String> {
        let ending = self.ending?;
        Some(match (ending, ending.result_for(self.side)) {
            (Ending::Resigned(p), _) if p == self.side => format!("MENACE resigns: {other_wins}"),
            (_, GameResult::Win) => "MENACE wins".to_string(),
            (_, GameResult::Loss) => other_wins.to_string(),
            (_, GameResult::Draw) => "draw".to_string(),
        })
    }

    /// Notes a move just played and ends the game if it made a line or
    /// filled the board.
    fn record(
        &mut self,
        menace: &mut Menace,
        player: Player,
        square: Point,
        bead: Option<Bead>,
    ) -> Move {
        let played = Move {
            player,
            square,
            bead,
        };
        self.moves[self.played] = played;
        self.played += 1;
        if let Some(outcome) = self.board.outcome() {
            self.end(menace, Ending::Board(outcome));
        }
        played
    }

    fn end(&mut self, menace: &mut Menace, ending: Ending) {
        self.ending = Some(ending);
        menace.learn(ending.result_for(self.side));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;
    use crate::seat::AgentSeat;

    fn squares(session: &Session) -> Vec<(char, u16)> {
        session
            .moves()
            .iter()
            .map(|m| (m.player.symbol(), m.square.0))
            .collect()
    }

    #[test]
    fn endings_from_both_sides() {
        let win = Ending::Board(Outcome::Win(Player::X));
        assert_eq!(win.result_for(Player::X), GameResult::Win);
        assert_eq!(win.result_for(Player::O), GameResult::Loss);
        let resign = Ending::Resigned(Player::X);
        assert_eq!(resign.result_for(Player::X), GameResult::Loss);
        assert_eq!(resign.result_for(Player::O), GameResult::Win);
        assert_eq!(
            Ending::Board(Outcome::Draw).result_for(Player::O),
            GameResult::Draw
        );
    }

    #[test]
    fn a_game_move_by_move_draws_beads_and_learns_at_the_end() {
        let mut menace = Menace::new(Preset::Challenge, Player::X, 3);
        let beads = menace.total_beads();
        let mut session = Session::new(&menace);
        assert!(session.menace_to_move());
        assert_eq!(
            session.play(&mut menace, Point(0)),
            Err(Refused::NotYourTurn)
        );
        let first = session.menace_move(&mut menace).expect("a first move");
        assert_eq!(first.player, Player::X);
        let bead = first.bead.expect("the first move comes from box 1");
        assert_eq!(bead.matchbox, 0);
        assert_eq!(menace.total_beads(), beads - 1);
        assert_eq!(session.menace_move(&mut menace), None, "O is to move");
        assert_eq!(
            session.play(&mut menace, Point(9)),
            Err(Refused::Illegal(PlayError::OffBoard(Point(9))))
        );
        assert_eq!(
            session.play(&mut menace, first.square),
            Err(Refused::Illegal(PlayError::Occupied(first.square)))
        );
        // O plays the first empty square each time until the game ends.
        while !session.is_over() {
            if session.menace_to_move() {
                session.menace_move(&mut menace);
            } else {
                let p = session.board().moves().next().unwrap();
                session.play(&mut menace, p).unwrap();
            }
        }
        assert_eq!(menace.games(), 1);
        assert_eq!(menace.drawn().count(), 0, "learning empties the hand");
        let result = session.result().unwrap();
        assert_eq!(
            session
                .board()
                .outcome()
                .map(|o| GameResult::for_side(o, Player::X)),
            Some(result)
        );
        assert_eq!(
            session.play(&mut menace, Point(0)),
            Err(Refused::Illegal(PlayError::GameOver))
        );
        let line = session.result_line("you win").unwrap();
        assert_eq!(
            line,
            match result {
                GameResult::Win => "MENACE wins",
                GameResult::Draw => "draw",
                GameResult::Loss => "you win",
            }
        );
    }

    #[test]
    fn an_empty_box_under_michie_resigns() {
        let mut menace = Menace::new(Preset::Michie, Player::X, 1);
        let mut record = crate::Memory {
            x: menace.clone(),
            o: None,
        }
        .to_record();
        record.machines[0].boxes[0].beads = [0; 9];
        menace = crate::Memory::from_record(&record, 1).unwrap().x;
        let mut session = Session::new(&menace);
        assert_eq!(session.menace_move(&mut menace), None);
        assert_eq!(session.ending(), Some(Ending::Resigned(Player::X)));
        assert_eq!(session.result(), Some(GameResult::Loss));
        assert_eq!(
            session.result_line("O wins").unwrap(),
            "MENACE resigns: O wins"
        );
        assert_eq!(menace.games(), 1);
        // The other side resigning is a win, told as one.
        let mut other = Session::new(&menace);
        other.resign(&mut menace);
        assert_eq!(other.result(), Some(GameResult::Win));
        assert_eq!(other.result_line("O wins").unwrap(), "MENACE wins");
    }

    #[test]
    fn playing_out_tells_both_sides() {
        let mut x = Menace::new(Preset::Challenge, Player::X, 4);
        let mut o = Menace::new(Preset::Challenge, Player::O, 5);
        let mut session = Session::new(&x);
        let ending = session.play_out(&mut x, &mut o);
        assert_eq!(session.ending(), Some(ending));
        assert_eq!((x.games(), o.games()), (1, 1));
        let mut board = TicTacToe::new();
        for m in session.moves() {
            assert_eq!(m.player, board.to_move());
            board.play(m.square).unwrap();
        }
        assert_eq!(&board, session.board());
        // A random opponent moves after MENACE's first bead.
        let mut random = AgentSeat(inarow_agents::RandomAgent::new(6));
        let mut session = Session::new(&x);
        session.play_out(&mut x, &mut random);
        assert_eq!(squares(&session)[0].0, 'X');
        assert_eq!(squares(&session)[1].0, 'O');
    }
}
