//! The `pbrain` subcommand (also the `pbrain-inarow` binary): the engine
//! speaking the Gomocup brain protocol on stdin and stdout.

use anyhow::Context;
use inarow_engine::brain::{Pbrain, Settings};
use inarow_protocol::gomocup;

/// Options of `inarow pbrain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seed for the opening's random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Do not print a MESSAGE line with the search figures before each move.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs a brain session until `END` or the end of input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let settings = Settings {
        seed: args.seed,
        messages: !args.quiet,
        ..Settings::default()
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut brain = Pbrain::new(settings);
    gomocup::run(&mut brain, stdin.lock(), stdout.lock()).context("brain protocol session failed")
}
