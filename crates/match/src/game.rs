//! One game of a match: two contenders play on from an opening, refereed by
//! the game core (every move is checked there, and an illegal move loses).
//! A game ends as a tournament's does, in the judge's words: its
//! [`Ending`], and the [`Fault`] a refused move forfeits for.

use std::time::Duration;

use inarow_contest::{Ending, Fault};
use inarow_core::renju::Forbidden;
use inarow_core::{Game, GameResult, Mnk, Player, Point, Rule};
use inarow_engine::player::{PositionError, board_of};
use inarow_engine::score::DECIDED;
use inarow_engine::search::{Limits, Request, Searcher};

use crate::brain::error::BrainError;

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// The result for the first contender.
    pub result: GameResult,
    /// Moves after the opening, as core points.
    pub moves: Vec<Point>,
    /// How it ended: a five, the board full, a forbidden point, or a
    /// forfeit (the mover gave an illegal move or none, and lost).
    pub ending: Ending,
    /// Longest think of the game.
    pub longest: Duration,
    /// With the ending forfeit: what the loser did.
    pub lost: Option<Lost>,
    /// Under renju, why black's last stone was forbidden, when the game
    /// ended by it (white won).
    pub forbidden: Option<Forbidden>,
    /// For the first contender and the second, when it won by a five: how
    /// many plies before the end it said it had proven the win (its score
    /// decided, on every move of its since), if it did.
    pub proven: [Option<usize>; 2],
}

impl MatchGame {
    /// Why the loser gave no move, when it could not answer (rather than
    /// answering with an illegal one): for the front to say.
    pub fn unanswered(&self) -> Option<&Unanswered> {
        match &self.lost {
            Some(Lost::Unanswered(why)) => Some(why),
            _ => None,
        }
    }
}

/// Why a contender lost a game without being beaten on the board.
#[derive(Clone, Debug)]
pub enum Lost {
    /// Its move was refused by the board: the fault a judge's bot forfeits
    /// for.
    Refused(Fault),
    /// It gave no move.
    Unanswered(Unanswered),
}

/// Why a contender gave no move: one line.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Unanswered {
    /// A brain could not answer.
    #[error(transparent)]
    Brain(#[from] BrainError),
    /// The engine could not take the position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A contender's move: the point, how long it took, and whether the
/// contender says the move wins by force (its score a proven win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The point played.
    pub point: Point,
    /// How long the contender took.
    pub took: Duration,
    /// Whether it says it has a forced win.
    pub proven: bool,
}

/// One side of a match: the engine itself, or another engine driven over
/// the Gomocup protocol ([`crate::brain`]).
pub trait Contender {
    /// Forgets the last game before a new one.
    fn new_game(&mut self);

    /// The move for the side to move in `game`, within `limits`, how long
    /// it took and whether it is a proven win; an error if the contender
    /// cannot answer. `history` is every stone of the game in the order
    /// played (the opening's first), for contenders that are told moves one
    /// at a time.
    fn think(
        &mut self,
        game: &Mnk,
        history: &[Point],
        limits: Limits,
    ) -> Result<Thought, Unanswered>;
}

impl Contender for Searcher {
    fn new_game(&mut self) {
        self.clear();
    }

    fn think(
        &mut self,
        game: &Mnk,
        _history: &[Point],
        limits: Limits,
    ) -> Result<Thought, Unanswered> {
        let mut b = board_of(game, None)?;
        b.set_to_move(game.to_move());
        let found = self.search(&mut b, &mut Request::new(limits));
        Ok(Thought {
            point: b.point(found.best),
            took: found.elapsed,
            proven: found.score >= DECIDED,
        })
    }
}

/// Plays one game from `opening` on a `size` board under `rule`: `first` plays black
/// when `first_is_black`. Both think within `limits` per move. A contender
/// that fails to answer or plays an illegal move loses.
pub fn play_match_game(
    first: &mut dyn Contender,
    second: &mut dyn Contender,
    first_is_black: bool,
    opening: &[Point],
    size: usize,
    rule: Rule,
    limits: Limits,
) -> MatchGame {
    let mut game = Mnk::new(size, size, 5, rule).expect("a supported size");
    let mut history = Vec::with_capacity(size * size);
    for &p in opening {
        game.play(p).expect("a legal opening");
        history.push(p);
    }
    first.new_game();
    second.new_game();
    let mut record = MatchGame {
        result: GameResult::Draw,
        moves: Vec::new(),
        ending: Ending::FullBoard,
        longest: Duration::ZERO,
        lost: None,
        forbidden: None,
        proven: [None; 2],
    };
    // Per contender, the move (of the game's) from which it has said on
    // every move of its that it wins by force.
    let mut since: [Option<usize>; 2] = [None; 2];
    let first_colour = if first_is_black { Player::X } else { Player::O };
    while game.outcome().is_none() {
        let mover = game.to_move();
        let answer = if mover == first_colour {
            first.think(&game, &history, limits)
        } else {
            second.think(&game, &history, limits)
        };
        let side = usize::from(mover != first_colour);
        let played = match answer {
            Ok(Thought {
                point: p,
                took,
                proven,
            }) => {
                record.longest = record.longest.max(took);
                let forbidden = if mover == Player::X {
                    game.forbidden(p)
                } else {
                    None
                };
                let played = game.play(p).map(|()| p);
                record.forbidden = played.as_ref().ok().and(forbidden);
                // A five needs no claim: brains often play it without a
                // word.
                let five = played.is_ok()
                    && record.forbidden.is_none()
                    && game
                        .outcome()
                        .is_some_and(|o| GameResult::for_side(o, mover) == GameResult::Win);
                since[side] = if proven || five {
                    since[side].or(Some(record.moves.len()))
                } else {
                    None
                };
                played.map_err(|refused| Lost::Refused(Fault::refused(refused, size)))
            }
            Err(why) => Err(Lost::Unanswered(why)),
        };
        let p = match played {
            Ok(p) => p,
            Err(lost) => {
                record.ending = Ending::Forfeit;
                record.lost = Some(lost);
                record.result = if mover == first_colour {
                    GameResult::Loss
                } else {
                    GameResult::Win
                };
                return record;
            }
        };
        record.moves.push(p);
        history.push(p);
    }
    let outcome = game.outcome().expect("the game is over");
    record.result = GameResult::for_side(outcome, first_colour);
    record.ending = match record.forbidden {
        Some(_) => Ending::Forbidden,
        None => Ending::of(outcome),
    };
    let winner = match record.result {
        GameResult::Win => Some(0),
        GameResult::Loss => Some(1),
        GameResult::Draw => None,
    };
    if let Some(w) = winner.filter(|_| record.forbidden.is_none()) {
        record.proven[w] = since[w].map(|k| record.moves.len() - k);
    }
    record
}

#[cfg(test)]
mod tests {
    use inarow_engine::search::{Options, Params};

    use super::*;
    use crate::openings::random_openings;

    #[test]
    fn long_seeded_self_play_is_legal() {
        let limits = Limits {
            time: None,
            depth: 40,
            nodes: 2_000,
        };
        let options = Options {
            tt_bytes: 1 << 20,
            ..Options::default()
        };
        let mut a = Searcher::new(options);
        let mut b = Searcher::new(Options {
            params: Params {
                lmr_base: 60,
                ..Params::default()
            },
            ..options
        });
        let mut decisive = 0;
        for opening in random_openings(21, 10, 15) {
            for a_black in [true, false] {
                let g = play_match_game(
                    &mut a,
                    &mut b,
                    a_black,
                    &opening,
                    15,
                    Rule::Freestyle,
                    limits,
                );
                assert_ne!(g.ending, Ending::Forfeit, "illegal move in {:?}", g.moves);
                decisive += usize::from(g.result != GameResult::Draw);
                // Replay on the core: every move legal, and the result stands.
                let mut game = Mnk::gomoku();
                for &p in opening.iter().chain(&g.moves) {
                    game.play(p).unwrap();
                }
                assert!(game.outcome().is_some());
            }
        }
        assert!(decisive > 0);
    }

    /// Plays the points it is given, in order.
    struct Scripted(Vec<Point>);

    impl Contender for Scripted {
        fn new_game(&mut self) {}
        fn think(&mut self, _: &Mnk, _: &[Point], _: Limits) -> Result<Thought, Unanswered> {
            if self.0.is_empty() {
                return Err(PositionError::Over.into());
            }
            Ok(Thought {
                point: self.0.remove(0),
                took: Duration::ZERO,
                proven: false,
            })
        }
    }

    /// Plays the points it is given, in order, saying it wins by force on
    /// the moves marked so.
    struct Claiming(Vec<(Point, bool)>);

    impl Contender for Claiming {
        fn new_game(&mut self) {}
        fn think(&mut self, _: &Mnk, _: &[Point], _: Limits) -> Result<Thought, Unanswered> {
            let (point, proven) = self.0.remove(0);
            Ok(Thought {
                point,
                took: Duration::ZERO,
                proven,
            })
        }
    }

    #[test]
    fn a_win_is_proven_from_the_claim_that_lasts_to_the_end() {
        let at = |r, c| Point::at(c, r, 15);
        let limits = Limits::nodes(1);
        // Black makes five along row 7 on its fifth move; white plays far
        // away and claims wins too, which a loser's claims never count.
        let white = || Claiming((0..5).map(|c| (at(0, 2 * c), c >= 1)).collect());
        for (claims, proven) in [
            // Claimed from its second move: it and the seven plies after it.
            ([false, true, true, true, true], Some(7)),
            // A claim that lapses counts from the next that lasts.
            ([true, false, false, true, true], Some(3)),
            // The five needs no word: it keeps a claim, or proves itself.
            ([true, true, true, true, false], Some(9)),
            ([false, false, false, false, false], Some(1)),
        ] {
            let mut black = Claiming((0..5).map(|c| (at(7, 3 + c), claims[c])).collect());
            let g = play_match_game(
                &mut black,
                &mut white(),
                true,
                &[],
                15,
                Rule::Freestyle,
                limits,
            );
            assert_eq!(g.result, GameResult::Win);
            assert_eq!(g.moves.len(), 9);
            assert_eq!(g.proven, [proven, None], "{claims:?}");
        }
        // The same from the second contender's side (it plays black here).
        let mut black = Claiming((0..5).map(|c| (at(7, 3 + c), c >= 3)).collect());
        let g = play_match_game(
            &mut white(),
            &mut black,
            false,
            &[],
            15,
            Rule::Freestyle,
            limits,
        );
        assert_eq!((g.result, g.proven), (GameResult::Loss, [None, Some(3)]));
    }

    #[test]
    fn a_black_stone_on_a_forbidden_point_loses_and_says_why() {
        // Black's double three at row 7, column 7 after this opening.
        let at = |r, c| Point::at(c, r, 15);
        let opening = [
            at(5, 7),
            at(0, 0),
            at(6, 7),
            at(0, 2),
            at(7, 5),
            at(0, 4),
            at(7, 6),
            at(0, 6),
        ];
        let limits = Limits::nodes(1);
        for (rule, lost) in [(Rule::Renju, true), (Rule::Freestyle, false)] {
            let mut black = Scripted(vec![at(7, 7), at(14, 14)]);
            let mut white = Scripted(vec![at(0, 8), at(0, 10)]);
            let g = play_match_game(&mut black, &mut white, true, &opening, 15, rule, limits);
            if lost {
                assert_eq!(g.forbidden, Some(Forbidden::DoubleThree));
                assert_eq!((g.result, g.ending), (GameResult::Loss, Ending::Forbidden));
                assert_eq!(g.moves, [at(7, 7)]);
            } else {
                // Freestyle: the same point is a move like any other.
                assert_eq!(g.forbidden, None);
                assert!(g.moves.len() > 1);
            }
        }
    }
}
