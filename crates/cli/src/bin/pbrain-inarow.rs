//! `pbrain-inarow`: the engine as a Gomocup brain, under the file name
//! gomoku managers expect (`pbrain-*`). Same as `inarow pbrain`.

use clap::Parser;

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
    if let Err(err) = pbrain::run(Cli::parse().args) {
        eprintln!("pbrain-inarow: {err:#}");
        std::process::exit(1);
    }
}
