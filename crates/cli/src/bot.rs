//! The `bot` subcommand: the project's gomoku engine as a king-of-the-hill
//! bot, speaking the judge's protocol on stdin and stdout.

use std::convert::Infallible;
use std::ffi::OsString;

use clap::CommandFactory;
use inarow_agents::house::HouseBot;
use inarow_core::swap2::{Strategy, Swap};
use inarow_core::{Mnk, Player, Point};
use inarow_engine::player::{Engine, PositionError};
use inarow_engine::search::{MAX_THREADS, Options};
use inarow_protocol::koth;

use crate::numbers;

/// The arguments of `inarow bot`, exactly as given: the judge appends the
/// opponent's name and the seed, and a name such as `--help` or `--house`
/// must not become an option. Clap alone cannot tell (it reads a known
/// option wherever it stands), so clap only collects the arguments here and
/// [`Settings::parse`] splits them.
#[derive(Debug)]
pub struct Args {
    given: Vec<OsString>,
}

/// The id of the one argument that collects everything.
const GIVEN: &str = "given";

impl clap::FromArgMatches for Args {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let given = matches
            .get_many::<OsString>(GIVEN)
            .map(|values| values.cloned().collect())
            .unwrap_or_default();
        Ok(Args { given })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for Args {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        // No option of its own, not even --help, so that clap hands over
        // every argument; `inarow help bot` still shows the real options.
        cmd.disable_help_flag(true)
            .override_help(Settings::command().render_long_help())
            .arg(
                clap::Arg::new(GIVEN)
                    .num_args(0..)
                    .allow_hyphen_values(true)
                    .trailing_var_arg(true)
                    .value_parser(clap::value_parser!(OsString)),
            )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl Args {
    /// The arguments after `bot` as the program received them (`argv`).
    /// Clap drops a `--` standing first as its end-of-options marker, but
    /// the judge may pass `--` as an opponent's name.
    fn given(self, argv: &[OsString]) -> Vec<OsString> {
        let dropped = argv.ends_with(&self.given)
            && argv.len() > self.given.len() + 2
            && argv[argv.len() - self.given.len() - 1] == "--";
        if dropped {
            std::iter::once("--".into()).chain(self.given).collect()
        } else {
            self.given
        }
    }
}

/// Play gomoku as a king-of-the-hill bot over stdin/stdout.
#[derive(clap::Parser, Debug)]
#[command(
    name = "bot",
    bin_name = "inarow bot",
    after_help = "When the last argument is a whole number and the one before it does not \
                  start with '-', the last two are the opponent's name and the seed (the judge \
                  appends them): options and their values go before them."
)]
struct Settings {
    /// The opponent's name (the engine plays everyone the same way).
    opponent: Option<String>,
    /// Seed for every random choice.
    #[arg(default_value_t = 0, value_parser = crate::numbers::seed)]
    seed: u64,
    /// Seconds the engine thinks per answer; keep it under the judge's limit.
    #[arg(long, default_value_t = 1.0, value_parser = crate::args::parse_move_time)]
    move_time: f64,
    /// Search this many positions per answer instead of thinking on the
    /// clock: the same seed then gives the same game on any machine.
    #[arg(long, conflicts_with = "move_time", value_parser = crate::numbers::whole::<u64>(1))]
    move_nodes: Option<u64>,
    /// Search threads (lazy SMP, sharing one table): faster on the clock
    /// on a machine with cores to spare; with --move-nodes keep 1, the
    /// one search that repeats exactly.
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::whole_in::<usize>(1, MAX_THREADS as u64))]
    threads: usize,
    /// Play the simple house bot instead of the engine.
    #[arg(long)]
    house: bool,
    /// The rule of the tournament: freestyle, exact (exactly five wins,
    /// six or more does not) or renju: the judge's `--rule`, which its
    /// prompts do not carry, so put it in the bot's meta line; `--exact` is
    /// `--rule exact`.
    #[command(flatten)]
    rule: crate::args::RuleArgs,
}

impl Settings {
    /// Reads the arguments after `bot`. In the judge's form, the last a
    /// whole number and the one before it not starting with `-` (the
    /// judge's names never do: docs/judge.md), the last two are the
    /// opponent and the seed whatever else they look like, and clap sees
    /// only the options before them; otherwise (a person trying the bot,
    /// `inarow bot --move-nodes 500`) clap reads everything, so that an
    /// option's number is never taken for a seed.
    fn parse(given: Vec<OsString>) -> Result<Settings, clap::Error> {
        let program = OsString::from("inarow bot");
        let judged = match given.as_slice() {
            [options @ .., opponent, seed] if !opponent.to_string_lossy().starts_with('-') => seed
                .to_str()
                .and_then(|s| s.parse::<u64>().ok())
                .map(|seed| (options, opponent, seed)),
            _ => None,
        };
        let Some((options, opponent, seed)) = judged else {
            return numbers::parse_from(std::iter::once(&program).chain(&given));
        };
        let opponent = opponent.to_string_lossy().into_owned();
        let mut settings: Settings = numbers::parse_from(std::iter::once(&program).chain(options))
            .map_err(|e| read_as_judged(e, &opponent, seed))?;
        if let Some(extra) = settings.opponent.take() {
            let problem = clap::Error::raw(
                clap::error::ErrorKind::UnknownArgument,
                format!("unexpected argument '{extra}'"),
            );
            return Err(read_as_judged(problem, &opponent, seed));
        }
        settings.opponent = Some(opponent);
        settings.seed = seed;
        Ok(settings)
    }
}

/// A mistake in the options of the judge's form (`... OPPONENT SEED`), in
/// one line that says how the last two arguments were read: a meta line
/// `bot --move-nodes` with its number missing, or a person's `inarow bot
/// --move-nodes 500 7`, would otherwise leave `--move-nodes` without a
/// value for no reason the person can see.
fn read_as_judged(err: clap::Error, opponent: &str, seed: u64) -> clap::Error {
    if numbers::is_display(&err) {
        return err;
    }
    let said = format!(
        "{} (the last two arguments, {opponent:?} and {seed}, are read as the opponent's name and the seed, as the judge appends them: options and their values go before them)",
        numbers::one_line(&err)
    );
    Settings::command().error(err.kind(), said)
}

/// The engine, with the house bot's answer for a position the engine refuses.
struct EngineBot {
    engine: Engine,
    fallback: HouseBot,
}

impl EngineBot {
    fn or_fallback<T>(
        &mut self,
        found: Result<T, PositionError>,
        fallback: impl FnOnce(&mut HouseBot) -> Result<T, Infallible>,
    ) -> Result<T, Infallible> {
        found.or_else(|e| {
            // Answering beats forfeiting: say why on stderr, play the simple move.
            eprintln!("inarow bot: the engine cannot answer ({e}); playing the house bot's move");
            fallback(&mut self.fallback)
        })
    }
}

impl Strategy for EngineBot {
    type Error = Infallible;

    fn open(&mut self, game: &Mnk) -> Result<[Point; 3], Infallible> {
        let found = self.engine.open(game);
        self.or_fallback(found, |h| h.open(game))
    }

    fn swap(&mut self, game: &Mnk) -> Result<Swap, Infallible> {
        let found = self.engine.swap(game);
        self.or_fallback(found, |h| h.swap(game))
    }

    fn colour(&mut self, game: &Mnk) -> Result<Player, Infallible> {
        let found = self.engine.colour(game);
        self.or_fallback(found, |h| h.colour(game))
    }

    fn play(&mut self, game: &Mnk) -> Result<Point, Infallible> {
        let found = self.engine.play(game);
        self.or_fallback(found, |h| h.play(game))
    }
}

/// Runs `inarow bot` until `EXIT` or the end of input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let argv: Vec<OsString> = std::env::args_os().collect();
    // Help as clap prints it; a mistake in the options in one line.
    let args = Settings::parse(args.given(&argv)).unwrap_or_else(|e| numbers::exit_on(e, "inarow"));
    let limits = crate::args::move_limits(args.move_time, args.move_nodes);
    let mut bot: Box<dyn Strategy<Error = Infallible>> = if args.house {
        Box::new(HouseBot::new(args.seed))
    } else {
        Box::new(EngineBot {
            engine: Engine::with_limits(
                args.seed,
                limits,
                Options {
                    threads: args.threads,
                    ..Options::default()
                },
            ),
            fallback: HouseBot::new(args.seed),
        })
    };
    let rule = args.rule.rule();
    let stdin = std::io::stdin();
    koth::bot::run(bot.as_mut(), rule, stdin.lock(), std::io::stdout().lock())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;
    use clap::{Args as _, FromArgMatches};
    use inarow_core::Rule;

    /// What `inarow bot ARGS` hands [`run`], read as settings.
    fn settings(args: &[&str]) -> Result<Settings, clap::Error> {
        let argv: Vec<OsString> = ["inarow", "bot"]
            .iter()
            .chain(args)
            .map(OsString::from)
            .collect();
        let matches = clap::Command::new("inarow")
            .subcommand(Args::augment_args(clap::Command::new("bot")))
            .try_get_matches_from(&argv)?;
        let given = Args::from_arg_matches(matches.subcommand_matches("bot").unwrap())?;
        Settings::parse(given.given(&argv))
    }

    #[test]
    fn a_name_before_a_seed_is_never_an_option() {
        // Names the judge can append (meta names: letters, digits, '-',
        // '_', '.', never a '-' first), numbers and protocol words included.
        for name in [
            "someone", "500", "12", "a.b-c_d", "EXIT", "house", "x--help",
        ] {
            for options in [&[][..], &["--move-time", "0.05"], &["--house"]] {
                let args: Vec<&str> = options.iter().copied().chain([name, "12"]).collect();
                let s = settings(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
                assert_eq!(s.opponent.as_deref(), Some(name), "{args:?}");
                assert_eq!(s.seed, 12, "{args:?}");
                assert_eq!(s.house, options == ["--house"], "{args:?}");
                assert_eq!(s.rule.rule(), Rule::Freestyle, "{args:?}");
                let time = if options.len() == 2 { 0.05 } else { 1.0 };
                assert_eq!(s.move_time, time, "{args:?}");
                assert_eq!(s.move_nodes, None, "{args:?}");
            }
        }
    }

    #[test]
    fn an_options_number_at_the_end_is_its_value_never_a_seed() {
        // A person's line: no judge appends a name starting with '-'.
        let s = settings(&["--move-nodes", "500"]).unwrap();
        assert_eq!((s.move_nodes, s.opponent, s.seed), (Some(500), None, 0));
        let s = settings(&["--move-time", "2"]).unwrap();
        assert_eq!((s.move_time, s.opponent, s.seed), (2.0, None, 0));
        let s = settings(&["--house", "--move-nodes", "9"]).unwrap();
        assert!(s.house && s.move_nodes == Some(9));
        let s = settings(&["--move-nodes=700"]).unwrap();
        assert_eq!(s.move_nodes, Some(700));
        assert_eq!(s.threads, 1, "one thread unless asked");
        let s = settings(&["--threads", "2", "someone", "7"]).unwrap();
        assert_eq!((s.threads, s.seed), (2, 7));
        for bad in ["0", "65", "two"] {
            let e = settings(&["--threads", bad]).map(|_| ()).unwrap_err();
            let line = numbers::one_line(&e);
            assert!(line.contains("from 1 to 64"), "{line}");
        }
    }

    #[test]
    fn a_missing_value_in_the_judges_form_is_refused_saying_how_it_was_read() {
        // A meta line `bot --move-nodes` (or `--move-time`, `--rule`) the
        // judge appends its two to, and a person's number of nodes with
        // one argument after it: the option has no value, and the one
        // line says why.
        for (args, read) in [
            (&["--move-nodes", "someone", "7"][..], "\"someone\" and 7"),
            (&["--move-time", "someone", "7"], "\"someone\" and 7"),
            (&["--rule", "someone", "7"], "\"someone\" and 7"),
            (&["--move-nodes", "500", "7"], "\"500\" and 7"),
            (&["--house", "--move-time", "x", "3"], "\"x\" and 3"),
        ] {
            let e = settings(args).map(|_| ()).unwrap_err();
            let line = numbers::one_line(&e);
            assert!(
                line.starts_with("a value is required for '--"),
                "{args:?}: {line}"
            );
            let says = format!(
                "(the last two arguments, {read}, are read as the opponent's name and the seed"
            );
            assert!(line.contains(&says), "{args:?}: {line}");
            assert!(!line.contains('\n'), "{line}");
        }
        // A value that is not a number, or out of range, names the option.
        for (args, says) in [
            (
                &["--move-nodes", "many", "x", "1"][..],
                "--move-nodes must be a whole number of at least 1, got many",
            ),
            (
                &["--move-nodes", "-5", "x", "1"],
                "--move-nodes must be a whole number of at least 1, got -5",
            ),
            (
                &["--move-nodes", "0"],
                "--move-nodes must be a whole number of at least 1, got 0",
            ),
            (
                &["--move-time", "-0.5", "x", "1"],
                "--move-time must be a number of seconds above 0 and at most 3600, got -0.5",
            ),
            (
                &["x", "-5"],
                "SEED must be a whole number from 0 to 18446744073709551615, got -5",
            ),
            (&["500", "x", "1"], "unexpected argument '500'"),
        ] {
            let e = settings(args).map(|_| ()).unwrap_err();
            let line = numbers::one_line(&e);
            assert!(line.starts_with(says), "{args:?}: {line}");
        }
    }

    #[test]
    fn options_help_and_defaults_still_work() {
        let s = settings(&[]).unwrap();
        assert_eq!((s.opponent, s.seed, s.move_time), (None, 0, 1.0));
        let s = settings(&["--house"]).unwrap();
        assert!(s.house && s.opponent.is_none() && s.rule.rule() == Rule::Freestyle);
        let s = settings(&["--exact", "--move-nodes=9", "x", "4"]).unwrap();
        assert!(s.rule.rule() == Rule::Exact && !s.house && s.opponent.as_deref() == Some("x"));
        let s = settings(&["--rule", "exact", "x", "4"]).unwrap();
        assert!(s.rule.rule() == Rule::Exact && s.opponent.as_deref() == Some("x"));
        let s = settings(&["--rule", "renju", "x", "4"]).unwrap();
        assert!(s.rule.rule() == Rule::Renju);
        assert!(settings(&["--rule", "caro", "x", "4"]).is_err());
        assert!(settings(&["--rule", "freestyle", "--exact", "x", "4"]).is_err());
        let s = settings(&["--move-time", "0.5"]).unwrap();
        assert_eq!((s.opponent, s.move_time), (None, 0.5));
        let s = settings(&["someone"]).unwrap();
        assert_eq!((s.opponent.as_deref(), s.seed), (Some("someone"), 0));
        let s = settings(&["--move-nodes=300", "--", "x", "7"]).unwrap();
        assert_eq!(
            (s.move_nodes, s.opponent.as_deref()),
            (Some(300), Some("x"))
        );

        for args in [
            &["--help"][..],
            &["-h"],
            &["--move-time", "0.5", "--help", "x", "1"],
        ] {
            let kind = settings(args).map(|_| ()).unwrap_err().kind();
            assert_eq!(kind, ErrorKind::DisplayHelp, "{args:?}");
        }
        for (args, want) in [
            (&["someone", "abc"][..], ErrorKind::ValueValidation),
            (&["x", "y", "12"], ErrorKind::UnknownArgument),
            (&["--bogus", "x", "1"], ErrorKind::UnknownArgument),
            (
                &["--move-time", "1", "--move-nodes", "9", "x", "1"],
                ErrorKind::ArgumentConflict,
            ),
        ] {
            let kind = settings(args).map(|_| ()).unwrap_err().kind();
            assert_eq!(kind, want, "{args:?}");
        }
    }
}
