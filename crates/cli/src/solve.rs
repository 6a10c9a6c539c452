//! `inarow solve`: perfect tic-tac-toe analysis of one position.

use anyhow::{Context, bail};
use clap::ValueEnum;
use inarow_agents::order::LinesThrough;
use inarow_agents::search::{DrawEval, Options};
use inarow_agents::{Search, classic, minimax, score};
use inarow_core::tictactoe::has_line;
use inarow_core::{Game, Player, TicTacToe, notation};

/// The search that solves the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// Full-width minimax over the whole game tree.
    Minimax,
    /// Alpha-beta, squares in row-major order, no table.
    Alphabeta,
    /// The project's best: alpha-beta with a symmetric transposition table,
    /// move ordering and a win-now check.
    Best,
    /// The source document's minimax as written (depth-blind scores).
    DocumentMinimax,
    /// The source document's alpha-beta as written (depth-blind scores).
    DocumentAlphabeta,
}

/// Options of `inarow solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The board: 9 cells of X, O and . in row-major order (`XOX.O.X..`), or
    /// three rows separated by `/` or newlines (`XOX/.O./X..`).
    pub board: String,
    /// The search to use.
    #[arg(long, value_enum, default_value_t = Algo::Best)]
    pub algo: Algo,
    /// Who moves. As in the source document, X unless told otherwise.
    #[arg(long, value_parser = parse_player, default_value = "X")]
    pub to_move: Player,
}

fn parse_player(s: &str) -> Result<Player, String> {
    let mut chars = s.chars();
    match (chars.next().and_then(Player::from_symbol), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(format!("expected X or O, got {s:?}")),
    }
}

/// What the solver says about a position.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    /// The best move, if the game goes on.
    pub best: Option<inarow_core::Point>,
    /// The value for X in the document's scale (+10 = X wins on the next move).
    pub value_for_x: i32,
    /// Positions visited, root included.
    pub nodes: u64,
}

/// Solves `game` with `algo`.
pub fn solve(game: &TicTacToe, algo: Algo) -> Answer {
    let for_x = |s: score::Score| {
        let v = score::document_scale(s);
        if game.to_move() == Player::X { v } else { -v }
    };
    match algo {
        Algo::Minimax | Algo::Alphabeta => {
            let s = if algo == Algo::Minimax {
                minimax::minimax(game)
            } else {
                minimax::alphabeta(game)
            };
            Answer {
                best: s.best,
                value_for_x: for_x(s.score),
                nodes: s.nodes,
            }
        }
        Algo::Best => {
            let options = Options {
                table_bits: 10,
                symmetric: true,
                ..Options::default()
            };
            let r = Search::new(options, LinesThrough::default(), DrawEval).solve(game);
            Answer {
                best: r.best,
                value_for_x: for_x(r.score),
                nodes: r.nodes,
            }
        }
        Algo::DocumentMinimax | Algo::DocumentAlphabeta => {
            let (best, value, nodes) = classic::best_move(game, algo == Algo::DocumentAlphabeta);
            Answer {
                best,
                value_for_x: value,
                nodes,
            }
        }
    }
}

/// Runs `inarow solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let game = TicTacToe::parse_with_turn(&args.board, args.to_move)
        .with_context(|| format!("invalid board {:?}", args.board))?;
    if let Err(why) = reachable(&game) {
        bail!("impossible board {}: {why}", game.compact());
    }
    // Drawn with the letters and numbers the best move is named by.
    crate::play::write_board(&game, None, &mut std::io::stdout().lock())?;
    if let Some(outcome) = game.outcome() {
        println!("game over: {outcome}");
        return Ok(());
    }
    let [x, o] = inarow_core::count_stones(&game);
    println!("{} to move", game.to_move());
    if game.to_move() == Player::X && x > o {
        println!("(X has more stones than O: pass --to-move O if O is to move)");
    }
    let answer = solve(&game, args.algo);
    let Some(best) = answer.best else {
        bail!("no legal move in an unfinished game");
    };
    println!("best move: {}", notation::square_name(best));
    let value = match answer.value_for_x {
        0 => "0".to_string(),
        v => format!("{v:+}"),
    };
    println!(
        "value: {value} ({})",
        describe(answer.value_for_x, args.algo)
    );
    println!("positions searched: {}", answer.nodes);
    Ok(())
}

/// Whether a game from the empty board, X first and turns taken in order,
/// can reach the stones of `game`; the reason when it cannot. The side to
/// move is not checked: as in the source document, it is whoever is told.
pub fn reachable(game: &TicTacToe) -> Result<(), Unreachable> {
    let [x, o] = inarow_core::count_stones(game);
    if o > x {
        return Err(Unreachable::MoreO { x, o });
    }
    if x > o + 1 {
        return Err(Unreachable::MoreX { x, o });
    }
    let x_won = has_line(game.stones_of(Player::X));
    let o_won = has_line(game.stones_of(Player::O));
    if x_won && o_won {
        return Err(Unreachable::BothWon);
    }
    if x_won && x == o {
        return Err(Unreachable::OPlayedOn);
    }
    if o_won && x > o {
        return Err(Unreachable::XPlayedOn);
    }
    Ok(())
}

/// Why a board cannot be reached from the empty one: one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreachable {
    /// More O stones than X.
    #[error(
        "O has {o} {} and X {x}, but X moves first, so O never has more",
        if *.o == 1 { "stone" } else { "stones" }
    )]
    MoreO {
        /// X's stones.
        x: usize,
        /// O's stones.
        o: usize,
    },
    /// X two or more stones ahead.
    #[error("X has {x} stones and O {o}: turns alternate, so X has at most one more")]
    MoreX {
        /// X's stones.
        x: usize,
        /// O's stones.
        o: usize,
    },
    /// Both sides have a line.
    #[error("both X and O have three in a row")]
    BothWon,
    /// O moved after X's line.
    #[error("X has three in a row, and O played on after the game was over")]
    OPlayedOn,
    /// X moved after O's line.
    #[error("O has three in a row, and X played on after the game was over")]
    XPlayedOn,
}

fn describe(value_for_x: i32, algo: Algo) -> String {
    let winner = if value_for_x > 0 { "X" } else { "O" };
    match (value_for_x, algo) {
        (0, _) => "a draw with best play".into(),
        (_, Algo::DocumentMinimax | Algo::DocumentAlphabeta) => format!("a win for {winner}"),
        (v, _) => {
            let plies = 11 - v.abs();
            let s = if plies == 1 { "" } else { "s" };
            format!("a win for {winner} in {plies} move{s}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_agrees_on_every_position() {
        // All reachable positions with X or O to move, checked against minimax.
        fn walk(game: &mut TicTacToe, seen: &mut std::collections::HashSet<u64>) {
            if !seen.insert(game.hash()) || game.is_over() {
                return;
            }
            let want = solve(game, Algo::Minimax);
            for algo in [Algo::Alphabeta, Algo::Best] {
                let got = solve(game, algo);
                assert_eq!(got.value_for_x, want.value_for_x, "{game:?} {algo:?}");
            }
            let doc = solve(game, Algo::DocumentAlphabeta);
            assert_eq!(doc.value_for_x.signum(), want.value_for_x.signum());
            for m in game.moves() {
                game.play_unchecked(m);
                walk(game, seen);
                game.undo(m);
            }
        }
        walk(&mut TicTacToe::new(), &mut Default::default());
    }

    #[test]
    fn impossible_boards_are_refused() {
        let board = |text| TicTacToe::parse_with_turn(text, Player::X).unwrap();
        for text in [
            ".........",
            "XOX.O.X..",
            "XXXOO....",
            "OOOXX.X..",
            "XXXOOXOOX",
        ] {
            assert_eq!(reachable(&board(text)), Ok(()), "{text}");
        }
        for (text, want) in [
            ("OOO......", "O has 3 stones and X 0"),
            ("O........", "O has 1 stone and X 0"),
            ("XX.......", "X has 2 stones and O 0"),
            ("XXXOO.O..", "X has three in a row, and O played on"),
            ("OOOXX.XX.", "O has three in a row, and X played on"),
        ] {
            let why = reachable(&board(text)).unwrap_err().to_string();
            assert!(why.starts_with(want), "{text}: {why}");
        }
    }

    #[test]
    fn the_documents_figures() {
        let empty = TicTacToe::new();
        assert_eq!(solve(&empty, Algo::Minimax).nodes, 549_946);
        assert_eq!(solve(&empty, Algo::DocumentMinimax).nodes, 549_946);
        assert_eq!(solve(&empty, Algo::DocumentAlphabeta).nodes, 18_297);
        let example = TicTacToe::parse_with_turn("XOX.O.X..", Player::X).unwrap();
        let doc = solve(&example, Algo::DocumentAlphabeta);
        assert_eq!(
            (doc.best, doc.value_for_x, doc.nodes),
            (Some(inarow_core::Point(3)), 10, 16)
        );
        for algo in [Algo::Minimax, Algo::Alphabeta, Algo::Best] {
            let a = solve(&example, algo);
            assert_eq!(
                (a.best, a.value_for_x),
                (Some(inarow_core::Point(3)), 10),
                "{algo:?}"
            );
        }
    }
}
