//! `inarow`: k-in-a-row games and the machines that play them.

use clap::{Parser, Subcommand};

mod args;
mod bot;
mod eval;
mod judge;
mod menace;
mod openings;
mod pbrain;
mod play;
mod selfplay;
mod serve;
mod solve;

/// k-in-a-row games (tic-tac-toe, gomoku) and the machines that play them.
#[derive(Parser, Debug)]
#[command(name = "inarow", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a tic-tac-toe position: best move, value and positions searched.
    Solve(solve::Args),
    /// Play a game in the terminal against a machine.
    Play(play::Args),
    /// MENACE, the matchbox machine: play it, train it, show its boxes.
    Menace(menace::Args),
    /// Run the gomoku king-of-the-hill tournament between bot programs.
    Judge(judge::Args),
    /// Play gomoku as a king-of-the-hill bot over stdin/stdout.
    Bot(bot::Args),
    /// Speak the Gomocup brain protocol on stdin/stdout.
    Pbrain(pbrain::Args),
    /// Serve the local web page: watch MENACE learn, play gomoku, follow tournaments.
    Serve(serve::Args),
    /// Match two engine settings: score, Elo with error bars, SPRT.
    Selfplay(Box<selfplay::Args>),
    /// The learned evaluation: play games for it, fit its tables, check a tables file.
    Eval(eval::Args),
}

/// The hidden first argument that makes this program the judge's launcher
/// (`inarow_sandbox::launcher`), which contains a contestant.
pub const LAUNCHER: &str = "__contain";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(LAUNCHER) {
        std::process::exit(inarow_sandbox::launcher::main(&[LAUNCHER], &args[2..]));
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Play(args) => play::run(args),
        Command::Menace(args) => menace::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Bot(args) => bot::run(args),
        Command::Pbrain(args) => pbrain::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Selfplay(args) => selfplay::run(*args),
        Command::Eval(args) => eval::run(args),
    };
    if let Err(err) = result {
        if is_broken_pipe(&err) {
            // The reader stopped early (`inarow menace show | head`): that
            // is how a pipe ends, not a failure.
            std::process::exit(0);
        }
        eprintln!("inarow: {err:#}");
        std::process::exit(1);
    }
}

/// Whether `err` comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
