//! The `bot` subcommand: the project's own gomoku bot, speaking the
//! king-of-the-hill protocol on stdin and stdout.

use std::io::{BufRead, Write};

use anyhow::Context;
use inarow_judge::house::{HouseBot, Reply};

/// Options of `inarow bot`. The judge appends the opponent's name and the seed.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The opponent's name (unused by this simple bot).
    opponent: Option<String>,
    /// Seed for every random choice.
    #[arg(default_value_t = 0)]
    seed: u64,
}

/// Runs `inarow bot` until `EXIT` or the end of input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut bot = HouseBot::new("house", args.seed);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.context("cannot read the judge's line")?;
        match bot
            .reply(&line)
            .with_context(|| format!("cannot answer {line:?}"))?
        {
            Reply::Answer(answer) => {
                writeln!(stdout, "{answer}")?;
                stdout.flush()?;
            }
            Reply::Exit => break,
        }
    }
    Ok(())
}
