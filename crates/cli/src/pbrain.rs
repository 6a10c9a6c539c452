//! The `pbrain` subcommand (also the `pbrain-inarow` binary): the engine
//! speaking the Gomocup brain protocol on stdin and stdout.

use anyhow::Context;
// A path relative to this file: the `pbrain-inarow` binary includes this
// file by path too.
#[path = "pbrain/brain.rs"]
mod brain;

use brain::{Pbrain, Settings};
use inarow_protocol::gomocup;

/// Options of `inarow pbrain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seed for the opening's random choices.
    #[arg(long, default_value_t = 0, value_parser = crate::numbers::seed)]
    pub seed: u64,
    /// Do not print a MESSAGE line with the search figures before each move.
    #[arg(long)]
    pub quiet: bool,
    /// Search settings, as `inarow selfplay --a` takes them (e.g.
    /// `lmr_base=40,tt_mb=64`); settings not named keep their defaults.
    #[arg(long, default_value = "", value_name = "SETTINGS")]
    pub settings: String,
    /// The learned evaluation's tables from this file (written by `inarow
    /// eval fit`) instead of the embedded ones; the same as `eval=FILE` in
    /// the settings.
    #[arg(long, value_name = "FILE")]
    pub eval: Option<std::path::PathBuf>,
}

/// Runs a brain session until `END` or the end of input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut options: inarow_engine::search::Options = args
        .settings
        .parse()
        .map_err(|e| anyhow::anyhow!("bad --settings: {e}"))?;
    if let Some(path) = &args.eval {
        let path = path.to_str().context("--eval: the path is not UTF-8")?;
        let tables = inarow_engine::options::load_tables(path)
            .map_err(|e| anyhow::anyhow!("--eval: {e}"))?;
        options.eval = inarow_engine::eval::Eval::Learned(tables);
    }
    let settings = Settings {
        seed: args.seed,
        options,
        messages: !args.quiet,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut brain = Pbrain::new(settings);
    gomocup::run(&mut brain, stdin.lock(), stdout.lock()).context("brain protocol session failed")
}
