//! `pbrain-inarow`: the engine as a Gomocup brain, under the file name
//! gomoku managers expect (`pbrain-*`). Same as `inarow pbrain`.

use clap::Parser;

#[path = "../numbers.rs"]
#[allow(dead_code)] // The brain reads a seed; the other parsers are `inarow`'s.
mod numbers;
#[path = "../pbrain.rs"]
mod pbrain;

/// The inarow gomoku engine speaking the Gomocup brain protocol.
#[derive(Parser, Debug)]
#[command(name = "pbrain-inarow", version, about)]
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
