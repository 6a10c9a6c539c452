//! `pbrain-inarow`: the engine as a Gomocup brain, under the file name
//! gomoku managers expect (`pbrain-*`). Same as `inarow pbrain`.

use clap::Parser;

#[path = "../pbrain.rs"]
mod pbrain;

/// The brain binary's command line: its own description and the protocol
/// it answers, not the `inarow` program's.
#[derive(Parser, Debug)]
#[command(name = "pbrain-inarow", version, about = pbrain::ABOUT, after_help = pbrain::COMMANDS)]
struct Cli {
    #[command(flatten)]
    args: pbrain::Args,
}

fn main() {
    if let Err(err) = pbrain::run(Cli::parse().args) {
        eprintln!("pbrain-inarow: {err:#}");
        std::process::exit(1);
    }
}
