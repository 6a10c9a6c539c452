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

/// Full-width minimax with the root's moves shared among `threads` threads:
/// the same positions and value as [`minimax`], on several cores.
pub fn minimax_parallel<G: Game>(game: &G, threads: usize) -> Solution {
    if game.is_over() || threads <= 1 {
        return minimax(game);
    }
    let moves: Vec<Point> = game.moves().collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(moves.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.min(moves.len()) {
            scope.spawn(|| {
                let mut local = game.clone();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&m) = moves.get(i) else { break };
                    let mut nodes = 0;
                    local.play_unchecked(m);
                    let v = -negamax(&mut local, 1, &mut nodes);
                    local.undo(m);
                    results
                        .lock()
                        .expect("no thread panics holding it")
                        .push((i, v, nodes));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("no thread panicked");
    // Take the first best in move order, exactly as the serial search does.
    results.sort_unstable_by_key(|&(i, _, _)| i);
    let nodes = 1 + results.iter().map(|&(_, _, n)| n).sum::<u64>();
    let (best, score) = results
        .iter()
        .fold((None, -INFINITY), |(bm, bv), &(i, v, _)| {
            if v > bv {
                (Some(moves[i]), v)
            } else {
                (bm, bv)
            }
        });
    Solution { best, score, nodes }
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

/// The best child value of an unfinished position with `empties` empty points.
///
/// Most positions of a full tree lie in its last three layers. They are still
/// visited, counted and scored one by one, but here in the parent's loop
/// rather than through a call: a won child is seen with [`Game::wins_now`]
/// without being played, a child that fills the board is a draw, and a child
/// with two empty points left is scored by [`two_left`].
fn children<G: Game>(game: &mut G, ply: u32, empties: u32, nodes: &mut u64) -> Score {
    let win_now = WIN - (ply as Score + 1);
    let mut best = -INFINITY;
    for m in game.empty_points() {
        *nodes += 1;
        let v = if game.wins_now(m) {
            win_now
        } else if empties == 1 {
            0
        } else {
            game.play_unchecked(m);
            let v = if empties == 3 {
                -two_left(game, ply + 1, nodes)
            } else if empties == 2 {
                // One point left: the opponent's forced move wins or draws.
                *nodes += 1;
                let last = game.empty_points().next().expect("one point left");
                if game.wins_now(last) {
                    -(WIN - (ply as Score + 2))
                } else {
                    0
                }
            } else {
                -children(game, ply + 1, empties - 1, nodes)
            };
            game.undo(m);
            v
        };
        best = best.max(v);
    }
    best
}

/// The value of an unfinished position with exactly two empty points `a`
/// and `b`, counting the positions below it. Whoever moves takes one; the
/// other player's forced reply on the last point wins or draws, and the
/// stone just played cannot change which.
#[inline(always)]
fn two_left<G: Game>(game: &G, ply: u32, nodes: &mut u64) -> Score {
    let mut points = game.empty_points();
    let (Some(a), Some(b)) = (points.next(), points.next()) else {
        unreachable!("two empty points")
    };
    let (me, them) = (game.to_move(), game.to_move().opponent());
    let value = |mine: Point, theirs: Point, nodes: &mut u64| {
        *nodes += 1;
        if game.wins_with(me, mine) {
            WIN - (ply as Score + 1)
        } else {
            *nodes += 1;
            if game.wins_with(them, theirs) {
                -(WIN - (ply as Score + 2))
            } else {
                0
            }
        }
    };
    let va = value(a, b, nodes);
    let vb = value(b, a, nodes);
    va.max(vb)
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
    fn parallel_minimax_is_the_same_search() {
        let example = TicTacToe::parse_with_turn("XOX.O.X..", Player::X).unwrap();
        for game in [TicTacToe::new(), example, "X...O....".parse().unwrap()] {
            for threads in [1, 2, 3] {
                assert_eq!(minimax_parallel(&game, threads), minimax(&game));
            }
        }
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
            assert_eq!(s.best, Some(Point::at(0, 1, 3)));
            assert_eq!(s.score, score::WIN - 1);
            assert_eq!(score::document_scale(s.score), 10);
        }
    }
}
