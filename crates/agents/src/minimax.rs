//! Plain minimax and alpha-beta in negamax form, with scores that prefer
//! the fastest win and the slowest loss. Both count every position they
//! visit, the root included, and try moves in row-major order.

use inarow_core::{Game, Point};

use crate::score::{self, INFINITY, Score, WIN};

/// What a search found at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best move (the first of equals in the order searched).
    pub best: Option<Point>,
    /// Its score for the side to move.
    pub score: Score,
    /// Positions visited, root included.
    pub nodes: u64,
}

/// Full-width minimax: visits every position of the game tree.
pub fn minimax<G: Game>(game: &G) -> Solution {
    let mut game = game.clone();
    let mut nodes = 0;
    root(&mut game, &mut nodes, |g, n| -negamax(g, 1, n))
}

/// Alpha-beta: the same value as [`minimax`], skipping branches that
/// cannot change it.
pub fn alphabeta<G: Game>(game: &G) -> Solution {
    let mut game = game.clone();
    let mut nodes = 1;
    let mut best = None;
    let mut alpha = -INFINITY;
    if let Some(o) = game.outcome() {
        return Solution {
            best: None,
            score: score::terminal(&game, o, 0),
            nodes,
        };
    }
    for m in game.moves() {
        game.play_unchecked(m);
        let v = -negamax_ab(&mut game, 1, -INFINITY, -alpha, &mut nodes);
        game.undo(m);
        if v > alpha {
            alpha = v;
            best = Some(m);
        }
    }
    Solution {
        best,
        score: alpha,
        nodes,
    }
}

fn root<G: Game>(
    game: &mut G,
    nodes: &mut u64,
    child: impl Fn(&mut G, &mut u64) -> Score,
) -> Solution {
    *nodes += 1;
    if let Some(o) = game.outcome() {
        return Solution {
            best: None,
            score: score::terminal(game, o, 0),
            nodes: *nodes,
        };
    }
    let mut best = (None, -INFINITY);
    for m in game.moves() {
        game.play_unchecked(m);
        let v = child(game, nodes);
        game.undo(m);
        if v > best.1 {
            best = (Some(m), v);
        }
    }
    Solution {
        best: best.0,
        score: best.1,
        nodes: *nodes,
    }
}

/// The minimax value of `game` for the side to move, `ply` moves below the root.
pub fn negamax<G: Game>(game: &mut G, ply: u32, nodes: &mut u64) -> Score {
    *nodes += 1;
    if let Some(o) = game.outcome() {
        return score::terminal(game, o, ply);
    }
    let empties = (game.points() - game.stones()) as u32;
    children(game, ply, empties, nodes)
}

/// The best child value of an unfinished position.
///
/// Most positions of a full tree lie in its last two layers. They are still
/// visited, counted and scored one by one, but here in the parent's loop
/// rather than through a call: a won child is seen with [`Game::wins_now`]
/// without being played, a child that fills the board is a draw, and a child
/// with one empty point left has that point as its only move.
fn children<G: Game>(game: &mut G, ply: u32, empties: u32, nodes: &mut u64) -> Score {
    let win_now = WIN - (ply as Score + 1);
    let mut best = -INFINITY;
    for m in game.empty_points() {
        *nodes += 1;
        let v = if game.wins_now(m) {
            win_now
        } else {
            match empties {
                1 => 0,
                2 => {
                    // The child's only move fills the board: the opponent
                    // either wins with it or the game is drawn.
                    *nodes += 1;
                    game.play_unchecked(m);
                    let last = game.empty_points().next().expect("one point left");
                    let lost = game.wins_now(last);
                    game.undo(m);
                    if lost { -(WIN - (ply as Score + 2)) } else { 0 }
                }
                _ => {
                    game.play_unchecked(m);
                    let v = -children(game, ply + 1, empties - 1, nodes);
                    game.undo(m);
                    v
                }
            }
        };
        best = best.max(v);
    }
    best
}

/// The alpha-beta value of `game` within `alpha`..`beta` (fail-soft).
pub fn negamax_ab<G: Game>(
    game: &mut G,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    nodes: &mut u64,
) -> Score {
    *nodes += 1;
    if let Some(o) = game.outcome() {
        return score::terminal(game, o, ply);
    }
    let mut best = -INFINITY;
    for m in game.moves() {
        game.play_unchecked(m);
        let v = -negamax_ab(game, ply + 1, -beta, -alpha, nodes);
        game.undo(m);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use inarow_core::{Player, TicTacToe};

    #[test]
    fn minimax_visits_the_whole_tree() {
        let s = minimax(&TicTacToe::new());
        assert_eq!((s.score, s.nodes), (0, 549_946));
    }

    #[test]
    fn alphabeta_agrees_and_prunes() {
        let s = alphabeta(&TicTacToe::new());
        assert_eq!(s.score, 0);
        assert!(s.nodes < 549_946 / 10, "{}", s.nodes);
    }

    #[test]
    fn worked_example_wins_at_once() {
        let game = TicTacToe::parse_with_turn("XOX.O.X..", Player::X).unwrap();
        for s in [minimax(&game), alphabeta(&game)] {
            assert_eq!(s.best, Some(Point::at(1, 0, 3)));
            assert_eq!(s.score, score::WIN - 1);
            assert_eq!(score::document_scale(s.score), 10);
        }
    }
}
