//! `inarow`: k-in-a-row games and the machines that play them.

use clap::{Parser, Subcommand};

mod agree;
mod args;
mod bot;
mod eval;
mod judge;
mod menace;
mod numbers;
mod openings;
mod pbrain;
mod play;
mod progress;
mod said;
mod score;
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
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if argv.get(1).is_some_and(|first| first == LAUNCHER) {
        let args: Vec<String> = std::env::args().collect();
        std::process::exit(inarow_sandbox::launcher::main(&[LAUNCHER], &args[2..]));
    }
    // Clap's mistakes in one line, numbers refused naming the flag.
    let cli: Cli = numbers::parse_from(argv).unwrap_or_else(|e| numbers::exit_on(e, "inarow"));
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
        // The one gate: an error may quote a bot, a brain, a meta or a
        // part file, and it is the last line the organiser's terminal sees.
        eprintln!(
            "inarow: {}",
            inarow_sandbox::shown::escape(&format!("{err:#}"))
        );
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

#[cfg(test)]
mod tests {
    use std::any::TypeId;

    use clap::CommandFactory;
    use clap::error::ErrorKind;

    use super::*;

    /// Every command's path from `inarow` (`["judge", "merge"]`) with its
    /// options that take a value, by long name, and whether the value is a
    /// number.
    fn options() -> Vec<(Vec<String>, String, bool)> {
        fn walk(
            cmd: &clap::Command,
            path: Vec<String>,
            found: &mut Vec<(Vec<String>, String, bool)>,
        ) {
            for arg in cmd.get_arguments() {
                let (Some(long), true) = (arg.get_long(), arg.get_action().takes_values()) else {
                    continue;
                };
                let kind = arg.get_value_parser().type_id();
                let numeric = [
                    TypeId::of::<u16>(),
                    TypeId::of::<u32>(),
                    TypeId::of::<u64>(),
                    TypeId::of::<usize>(),
                    TypeId::of::<f64>(),
                ]
                .into_iter()
                .any(|t| kind == t);
                found.push((path.clone(), format!("--{long}"), numeric));
            }
            for sub in cmd.get_subcommands() {
                let mut deeper = path.clone();
                deeper.push(sub.get_name().to_string());
                walk(sub, deeper, found);
            }
        }
        let mut found = Vec::new();
        walk(&Cli::command(), Vec::new(), &mut found);
        found
    }

    fn parse(path: &[String], more: &[&str]) -> Result<Cli, clap::Error> {
        let argv = std::iter::once("inarow")
            .chain(path.iter().map(String::as_str))
            .chain(more.iter().copied());
        numbers::parse_from(argv)
    }

    #[test]
    fn a_negative_number_is_always_a_value_never_a_flag() {
        let options = options();
        assert!(options.len() > 60, "{}", options.len());
        for (path, flag, _) in &options {
            for value in ["-5", "-0.5"] {
                if let Err(e) = parse(path, &[flag, value]) {
                    assert_ne!(
                        e.kind(),
                        ErrorKind::UnknownArgument,
                        "{path:?} {flag} {value}: {e}"
                    );
                    assert_ne!(
                        e.kind(),
                        ErrorKind::NoEquals,
                        "{path:?} {flag} {value}: {e}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_numeric_flag_refuses_a_word_naming_itself_and_what_it_allows() {
        let numeric: Vec<_> = options().into_iter().filter(|o| o.2).collect();
        // Each command's numbers, at least: a list of them would go stale.
        assert!(numeric.len() > 40, "{}", numeric.len());
        for (path, flag, _) in numeric {
            for value in ["many", "-5", "0"] {
                // A number in range is taken (`--elo0 -5`, `--seed 0`): the
                // command may then miss its other arguments.
                let refused = parse(&path, &[&flag, value])
                    .err()
                    .filter(|e| e.kind() == ErrorKind::ValueValidation);
                let Some(e) = refused else {
                    assert_ne!(value, "many", "{path:?} {flag} takes a word");
                    continue;
                };
                let line = numbers::one_line(&e);
                let want = format!("{flag} must be a");
                assert!(line.starts_with(&want), "{path:?}: {line}");
                assert!(
                    line.ends_with(&format!(", got {value}")),
                    "{path:?}: {line}"
                );
                assert!(!line.contains('\n'), "{line}");
            }
        }
    }

    #[test]
    fn clap_errors_come_out_in_one_line_and_help_stays_whole() {
        for (argv, says) in [
            (
                &["menace", "train", "--gmes", "5"][..],
                "unexpected argument '--gmes' found (tip: a similar argument exists: '--games')",
            ),
            (
                &["menace", "train"],
                "the following required arguments were not provided: --games <GAMES>",
            ),
            (
                &["judge", "-j", "-1"],
                "--jobs must be a whole number of at least 1, got -1",
            ),
            (
                &["selfplay", "--pairs=-5"],
                "--pairs must be a whole number of at least 1, got -5",
            ),
            (&["play", "chess"], "invalid value 'chess' for '<GAME>'"),
        ] {
            let e = parse(&[], argv).map(|_| ()).unwrap_err();
            assert!(!numbers::is_display(&e));
            let line = numbers::one_line(&e);
            assert!(line.starts_with(says), "{argv:?}: {line}");
            assert!(!line.contains('\n') && !line.contains("Usage"), "{line}");
        }
        for argv in [&["--help"][..], &["judge", "--help"], &["--version"], &[]] {
            let e = parse(&[], argv).map(|_| ()).unwrap_err();
            assert!(numbers::is_display(&e), "{argv:?}: {:?}", e.kind());
        }
        let help = parse(&[], &["judge", "--help"])
            .map(|_| ())
            .unwrap_err()
            .render()
            .to_string();
        assert!(
            help.contains("Usage: inarow judge") && help.contains("--jobs"),
            "{help}"
        );
    }

    #[test]
    fn the_command_line_is_well_formed() {
        numbers::reading_negative_numbers(Cli::command()).debug_assert();
    }
}
