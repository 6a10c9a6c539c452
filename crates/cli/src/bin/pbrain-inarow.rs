//! `pbrain-inarow`: the engine as a Gomocup brain, under the file name
//! gomoku managers expect (`pbrain-*`). Same as `inarow pbrain`.

use clap::Parser;

#[path = "../numbers.rs"]
#[allow(dead_code)] // The brain reads a seed; the other parsers are `inarow`'s.
mod numbers;
#[path = "../pbrain.rs"]
mod pbrain;
#[path = "../said.rs"]
#[allow(dead_code)] // The brain writes scores for managers; people's words are `inarow play`'s.
mod said;

/// The brain binary's command line: its own description and the protocol
/// it answers, not the `inarow` program's.
#[derive(Parser, Debug)]
#[command(name = "pbrain-inarow", version, about = pbrain::ABOUT, after_help = pbrain::COMMANDS)]
struct Cli {
    #[command(flatten)]
    args: pbrain::Args,
}

fn main() {
    // Help as clap prints it; a mistake in one line.
    let cli: Cli = numbers::parse_from(std::env::args_os())
        .unwrap_or_else(|e| numbers::exit_on(e, "pbrain-inarow"));
    if let Err(err) = pbrain::run(cli.args) {
        eprintln!("pbrain-inarow: {err:#}");
        std::process::exit(1);
    }
}
