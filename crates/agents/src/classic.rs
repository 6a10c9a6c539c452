//! Minimax and alpha-beta exactly as the source document teaches them.
//!
//! X maximizes and O minimizes; a position won by X is worth +10, by O -10,
//! a full board 0, whatever the distance; squares are tried in row-major
//! order. These exist to reproduce the document's figures (549,946 positions
//! for minimax, 18,297 for alpha-beta); the rest of the crate uses scores
//! that prefer the fastest win.

use inarow_core::{Game, Outcome, Player};

/// The document's value of a finished game.
fn evaluate<G: Game>(game: &G) -> Option<i32> {
    game.outcome().map(|o| match o {
        Outcome::Win(Player::X) => 10,
        Outcome::Win(Player::O) => -10,
        Outcome::Draw => 0,
    })
}

/// The document's minimax: the value for X, counting every position visited.
pub fn minimax<G: Game>(game: &mut G, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(v) = evaluate(game) {
        return v;
    }
    let maximizing = game.to_move() == Player::X;
    let mut best = if maximizing { -1000 } else { 1000 };
    for m in game.moves() {
        game.play_unchecked(m);
        let v = minimax(game, nodes);
        game.undo(m);
        best = if maximizing { best.max(v) } else { best.min(v) };
    }
    best
}

/// The document's alpha-beta: the value for X within `alpha`..`beta`,
/// counting every position visited.
pub fn alphabeta<G: Game>(game: &mut G, mut alpha: i32, mut beta: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(v) = evaluate(game) {
        return v;
    }
    let maximizing = game.to_move() == Player::X;
    let mut best = if maximizing { -1000 } else { 1000 };
    for m in game.moves() {
        game.play_unchecked(m);
        let v = alphabeta(game, alpha, beta, nodes);
        game.undo(m);
        if maximizing {
            best = best.max(v);
            alpha = alpha.max(best);
        } else {
            best = best.min(v);
            beta = beta.min(best);
        }
        if beta <= alpha {
            break;
        }
    }
    best
}

/// The document's search at the root: the best move for the side to move
/// (the first best in row-major order), its value for X and the positions
/// visited, root included.
pub fn best_move<G: Game>(game: &G, pruning: bool) -> (Option<inarow_core::Point>, i32, u64) {
    let mut game = game.clone();
    let mut nodes = 1;
    let maximizing = game.to_move() == Player::X;
    if let Some(v) = evaluate(&game) {
        return (None, v, nodes);
    }
    let (mut alpha, mut beta) = (-1000, 1000);
    let mut best = (None, if maximizing { -1000 } else { 1000 });
    for m in game.moves() {
        game.play_unchecked(m);
        let v = if pruning {
            alphabeta(&mut game, alpha, beta, &mut nodes)
        } else {
            minimax(&mut game, &mut nodes)
        };
        game.undo(m);
        if (maximizing && v > best.1) || (!maximizing && v < best.1) {
            best = (Some(m), v);
        }
        if pruning {
            if maximizing {
                alpha = alpha.max(best.1);
            } else {
                beta = beta.min(best.1);
            }
            if beta <= alpha {
                break;
            }
        }
    }
    (best.0, best.1, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use inarow_core::{Mnk, TicTacToe};

    #[test]
    fn minimax_counts() {
        let mut nodes = 0;
        assert_eq!(minimax(&mut TicTacToe::new(), &mut nodes), 0);
        assert_eq!(nodes, 549_946);
        let mut nodes = 0;
        assert_eq!(minimax(&mut Mnk::tictactoe(), &mut nodes), 0);
        assert_eq!(nodes, 549_946);
    }

    #[test]
    fn alphabeta_counts() {
        let mut nodes = 0;
        assert_eq!(alphabeta(&mut TicTacToe::new(), -1000, 1000, &mut nodes), 0);
        assert_eq!(nodes, 18_297);
    }

    #[test]
    fn worked_example() {
        let mut game = TicTacToe::parse_with_turn("XOX.O.X..", Player::X).unwrap();
        let mut nodes = 0;
        assert_eq!(alphabeta(&mut game, -1000, 1000, &mut nodes), 10);
        assert_eq!(nodes, 16);
        let (best, value, nodes) = best_move(&game, true);
        assert_eq!(best, Some(inarow_core::Point::at(0, 1, 3)));
        assert_eq!((value, nodes), (10, 16));
    }

    #[test]
    fn root_search_counts_like_the_recursion() {
        let game = TicTacToe::new();
        assert_eq!(best_move(&game, false).1, 0);
        assert_eq!(best_move(&game, false).2, 549_946);
        assert_eq!(best_move(&game, true).2, 18_297);
    }
}
