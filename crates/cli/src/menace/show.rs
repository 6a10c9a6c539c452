//! `inarow menace show`: all boxes, or the box for one board.

use std::io::{self, Write};

use anyhow::{Context, bail};
use inarow_core::{Game, Player, TicTacToe};

use super::{MachineArgs, store};

/// Options of `inarow menace show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    machine: MachineArgs,
    /// A board as nine cells of X, O and . (row-major; / and spaces are
    /// ignored): print only the box MENACE uses for it.
    board: Option<String>,
}

/// Runs `inarow menace show`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (memory, _) = store::open(&args.machine, false)?;
    if let Some(path) = &args.machine.state
        && !path.exists()
    {
        eprintln!("no state file at {}: showing fresh boxes", path.display());
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let Some(text) = args.board else {
        for i in 0..memory.x.boxes().len() {
            writeln!(out, "{}", memory.x.box_line(i))?;
        }
        return Ok(());
    };
    let board: TicTacToe = text.parse().with_context(|| format!("board {text:?}"))?;
    if let Some(outcome) = board.outcome() {
        bail!(
            "board {}: the game is over ({outcome}), so there is no box",
            board.compact()
        );
    }
    let menace = match (board.to_move(), &memory.o) {
        (Player::X, _) => &memory.x,
        (Player::O, Some(o)) => o,
        (Player::O, None) => bail!(
            "board {}: O is to move, and MENACE plays X (no second learner is stored in the state)",
            board.compact()
        ),
    };
    if let Some(outcome) = board.outcome() {
        bail!(
            "board {}: the game is over ({outcome}), so there is no box",
            board.compact()
        );
    }
    let Some(slot) = menace.layout().slot(&board) else {
        bail!(
            "board {}: only one empty square is left, so the move is forced and there is no box",
            board.compact()
        );
    };
    writeln!(out, "{}", menace.box_line(slot.matchbox as usize))?;
    Ok(())
}
