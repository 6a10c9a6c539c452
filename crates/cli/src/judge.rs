//! The `judge` subcommand: a thin front on the `inarow-judge` crate.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use inarow_agents::house::HouseBot;
use inarow_core::Rule;

use crate::args::{RuleArgs, SandboxArgs, cpu_for_timeout, which_shard};
use inarow_contest::shard::{self, Shard};
use inarow_judge::field::{self, Field, Orders};
use inarow_judge::local::Local;
use inarow_judge::output::{Claim, Records};
use inarow_judge::part::{self, Part, Tournament};
use inarow_judge::process::{BotProcess, Listener, Start};
use inarow_judge::rename::Rename;
use inarow_judge::shown::escape;
use inarow_judge::{Config, GameRecord, Results, output, play_game, process, tournament};
use inarow_sandbox::{self as sandbox, Program, Sandbox};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How the organiser names one bot among the bots folder's: by its
/// folder, which the organiser made, never by the name its meta file
/// gives, which the bot's author wrote.
const NAMING: &str = "Bots are named by their folder inside the bots folder: --allow-read FOLDER=PATH grants PATH to the bot in folder FOLDER only (never to a bot whose meta gives that name), and --rename FOLDER=NAME plays the bot in folder FOLDER under NAME. A name is at most 32 ASCII letters, digits, '-', '_' and '.' (not first '-' or '.'), never TIE; two folders whose meta files give the same name, or names that look alike (honest, HONEST, h0nest), are both left out until --rename decides. What a bot writes (its standard error, its answers, the faults that quote them) is shown with control characters escaped (\\x1b).";

/// Options of `inarow judge`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, after_help = NAMING)]
pub struct Args {
    #[command(subcommand)]
    command: Option<JudgeCommand>,
    /// Folder holding one subfolder per bot, each with a `meta` file.
    #[arg(long, default_value = "bots")]
    bots: PathBuf,
    /// Tournament seed (printed by every run; give it back to replay a tournament).
    #[arg(long, value_parser = crate::numbers::seed)]
    seed: Option<u64>,
    /// Games played at once (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_parser = crate::numbers::whole::<usize>(1))]
    jobs: Option<usize>,
    /// Time limit per answer in seconds; 0 for none.
    #[arg(long, default_value = "10", value_parser = parse_seconds)]
    timeout: f64,
    /// Where to write the results (JSON); with a shard, its part file
    /// (default `part-I-of-N.json`).
    #[arg(long)]
    results: Option<PathBuf>,
    /// Folder for one SGF record per game.
    #[arg(long, default_value = "sgf")]
    sgf: PathBuf,
    /// The rule: freestyle (five or more wins), exact (exactly five) or
    /// renju (black loses on a forbidden point); `--exact` is `--rule exact`.
    #[command(flatten)]
    rule: RuleArgs,
    /// Debug one bot (a folder in the bots folder, or a path) against the
    /// built-in bot, showing every line exchanged and the bot's stderr
    /// (control characters escaped); its grants are the
    /// `--allow-read FOLDER=PATH` naming its folder.
    #[arg(short = 'd', long = "debug", value_name = "BOT")]
    debug: Option<PathBuf>,
    /// The bot in folder FOLDER (of the bots folder) plays under NAME,
    /// whatever its meta file says: how the organiser decides between two
    /// folders that give the same name, which are otherwise both left out
    /// (repeatable; NAME as a meta name: at most 32 ASCII letters, digits,
    /// '-', '_', '.', looking like no other bot's name). A bot whose own
    /// name is refused plays under NAME.
    #[arg(long, value_name = "FOLDER=NAME")]
    rename: Vec<String>,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// Print what the sandbox enforces on this machine (and for each bot
    /// of the bots folder), then exit.
    #[arg(long)]
    check_sandbox: bool,
    /// Play only share I of N (from 0) of the schedule and write a part
    /// file for `inarow judge merge`; needs --seed. Without it, a Slurm
    /// job array or a Kubernetes Indexed Job gives the share.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    shard: Option<Shard>,
    /// The number of shares of a Kubernetes Indexed Job (its completions),
    /// whose JOB_COMPLETION_INDEX gives this share (or INAROW_SHARDS).
    #[arg(long, value_name = "N", value_parser = crate::numbers::whole::<usize>(1))]
    shards: Option<usize>,
    /// Refuse to play, before any game, when any bot is bad (a meta file
    /// refused, a name two folders give, a bot the sandbox cannot contain);
    /// without it such a bot is left out and the others play.
    #[arg(long)]
    strict: bool,
}

/// What `inarow judge` can do besides playing a tournament.
#[derive(clap::Subcommand, Debug)]
enum JudgeCommand {
    /// Merge the part files of a tournament played in shares into its
    /// results and standings, as one machine would have written them.
    Merge(MergeArgs),
}

/// Options of `inarow judge merge`.
#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// The part files, one per share, in any order.
    #[arg(required = true, value_name = "PARTS")]
    parts: Vec<PathBuf>,
    /// Where to write the results (JSON).
    #[arg(long, default_value = "results.json")]
    results: PathBuf,
    /// Folder for one SGF record per game.
    #[arg(long, default_value = "sgf")]
    sgf: PathBuf,
}

/// Reads `--timeout`: seconds, 0 for no limit.
fn parse_seconds(text: &str) -> Result<f64, crate::numbers::Allowed> {
    crate::numbers::real("a number of seconds from 0 (no limit) to 1000000000", |s| {
        (0.0..=1e9).contains(&s)
    })(text)
}

/// Prints a line on standard output; a closed output (`inarow judge | head
/// -1`) is not an error: the games go on and the results are still written.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, $($arg)*);
    }};
}

/// The bots alive at once: two a game, `-j` games (one bot and the house
/// bot under `-d`).
fn live_bots(args: &Args) -> usize {
    if args.debug.is_some() {
        return 1;
    }
    2 * jobs(args)
}

/// `-j`, or the number of cores.
fn jobs(args: &Args) -> usize {
    args.jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Runs `inarow judge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(JudgeCommand::Merge(merge)) = args.command {
        return run_merge(merge);
    }
    let timeout = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    if args.check_sandbox {
        let mut sandbox = args.sandbox.for_inspection(cpu_for_timeout(timeout))?;
        sandbox.set_live(live_bots(&args));
        return check_sandbox(&sandbox, &args);
    }
    let mut sandbox = args.sandbox.for_everyone(cpu_for_timeout(timeout))?;
    sandbox.set_live(live_bots(&args));
    process::install_interrupt_handler(|killed| {
        eprintln!("inarow judge: interrupted; killed {killed} bot(s)");
        // No results: the run's claim of its names is given back.
        output::drop_unwritten_claims();
        std::process::exit(130);
    })
    .context("cannot install the Ctrl-C handler")?;
    let rule = args.rule.rule();
    if let Some(bot) = &args.debug {
        let seed = args.seed.unwrap_or_else(rand::random);
        return debug(&args, bot, seed, timeout, rule, &sandbox);
    }
    let shard = which_shard(args.shard, args.shards)?;
    let seed = match (args.seed, shard) {
        (Some(seed), _) => seed,
        (None, None) => rand::random(),
        (None, Some(shard)) => {
            bail!("shard {shard} needs --seed: every share must play the same tournament")
        }
    };
    let results_path = args.results.clone().unwrap_or_else(|| match shard {
        Some(s) => PathBuf::from(format!("part-{}-of-{}.json", s.index, s.count)),
        None => PathBuf::from("results.json"),
    });
    // At least 1 when given (its parser).
    let jobs = jobs(&args);
    let given = Records {
        results: results_path,
        sgf: args.sgf.clone(),
    };
    given.check()?;
    let found = field::field(&orders(&args)?, &sandbox)?;
    for warning in &found.warnings {
        eprintln!("inarow: warning: {}", escape(warning));
    }
    for left in &found.left_out {
        let line = format!(
            "inarow judge: leaving out {}: {}",
            args.bots.join(&left.folder).display(),
            left.reason
        );
        eprintln!("{}", escape(&line));
    }
    let Field { bots, left_out, .. } = found;
    // Given a share (even the whole, `0/1`), the judge writes a part file.
    let sharded = shard.is_some();
    let shard = shard.unwrap_or(Shard::WHOLE);
    let fixtures = tournament::share(bots.len(), seed, shard);
    let games = fixtures.len();
    // A share's SGF records, by name: the shares of one tournament write
    // into one folder, so only these are in its way.
    let share_records: Vec<String> = fixtures
        .iter()
        .filter(|_| sharded)
        .map(|f| {
            let mut game = GameRecord::new(&bots[f.a].name, &bots[f.b].name);
            game.index = f.index;
            inarow_judge::sgf::sgf_name(&game)
        })
        .collect();
    // Never over an earlier run's files, nor another's started at once:
    // the next free names of the series, claimed.
    let claim = if sharded {
        given.claim_by_share(&share_records)?
    } else {
        given.claim()?
    };
    let records = claim.records().clone();
    records.check()?;
    // Made before the bots can speak: their lines are printed above it.
    let bar = progress_bar(games);
    let above = bar.clone();
    let config = Config {
        seed,
        jobs,
        timeout,
        rule,
        sandbox,
        // Bots whose meta file asks for it show their standard error on
        // ours, escaped by `shown`, above the live bar: a plain write would
        // break the bar, and `println` drops the line when the bar is
        // hidden (standard error not a terminal).
        stderr: Some(Listener::new(move |bot, said| {
            let line = said.shown(bot);
            above.suspend(|| {
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            });
        })),
        left_out,
    };
    // A share names its tournament as it stands before its first game.
    let part_of = if sharded {
        Some(Tournament::new(&bots, &config)?)
    } else {
        None
    };
    let share = if shard.is_whole() {
        String::new()
    } else {
        format!(", share {shard}")
    };
    // A bot plays one game at a time: with few bots, fewer than -j.
    let at_once = tournament::at_once(&fixtures, jobs);
    say!(
        "tournament seed {seed} (replay with --seed {seed}){share}: {} bots, {games} games, {at_once} at once",
        bots.len()
    );
    eprintln!("inarow judge: {}", writes_to(&records, &given, sharded));
    let played = tournament::play_share(&bots, &config, shard, &|record| {
        bar.set_message(format!("{} vs {}", record.a, record.b));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let Some(part_of) = part_of else {
        return keep(&Results::new(&bots, &config, played), claim);
    };
    let part = Part::new(shard, part_of, played);
    claim.write(&part.to_json(), &part.games, part.tournament.rule)?;
    say!(
        "share {shard}: {} games played; part in {}, their SGF records in {}",
        part.games.len(),
        records.results.display(),
        records.sgf.display()
    );
    say_endings(&part.games);
    say!("when every share is played: inarow judge merge PARTS... --results FILE");
    Ok(())
}

/// The live bar of `games` games on standard error, hidden when standard
/// error is not a terminal.
fn progress_bar(games: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(games as u64),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} {msg}")
            .expect("valid template"),
    );
    bar
}

/// What the organiser said about the bots folder: its renames, each
/// checked as a meta name is (the first bad one is the error, in one
/// line), its grants and `--strict`.
fn orders(args: &Args) -> anyhow::Result<Orders> {
    let renames = args
        .rename
        .iter()
        .map(|text| Rename::parse(text))
        .collect::<Result<_, _>>()?;
    Ok(Orders {
        bots: args.bots.clone(),
        renames,
        everyone: args.sandbox.everyone().map(Path::to_path_buf).collect(),
        grants: args
            .sandbox
            .per_folder()
            .map(|(folder, path)| (folder.to_string(), path.to_path_buf()))
            .collect(),
        strict: args.strict,
    })
}

/// `inarow judge merge`: the parts' results, written and shown as a
/// one-machine run writes and shows them.
fn run_merge(args: MergeArgs) -> anyhow::Result<()> {
    let texts = shard::read_parts(&args.parts)?;
    let parts: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    let results = part::merge(&parts)?;
    let given = Records {
        results: args.results,
        sgf: args.sgf,
    };
    let claim = given.claim()?;
    claim.records().check()?;
    eprintln!(
        "inarow judge merge: {}",
        writes_to(claim.records(), &given, false)
    );
    say!(
        "tournament seed {}: {} parts, {} bots, {} games",
        results.seed,
        parts.len(),
        results.bots.len(),
        results.games.len()
    );
    for left in &results.left_out {
        let line = format!("left out of every share: {}: {}", left.folder, left.reason);
        say!("{}", escape(&line));
    }
    keep(&results, claim)
}

/// Where a run writes, as it says before its first game and again if that
/// changes: `records`, and the names `given` when they hold another
/// run's files, an earlier run's or one started at the same moment (which
/// are kept: `records` are the next free ones).
fn writes_to(records: &Records, given: &Records, share: bool) -> String {
    let what = if share { "the part" } else { "the results" };
    let mut line = format!(
        "writing {what} to {} and the SGF records into {}",
        records.results.display(),
        records.sgf.display()
    );
    if records != given {
        line.push_str(&format!(
            " ({} or {} holds another run's files, which are kept)",
            given.results.display(),
            given.sgf.display()
        ));
    }
    line
}

/// Writes the results file and the SGF records where this run claimed
/// them, then shows the standings.
fn keep(results: &Results, claim: Claim) -> anyhow::Result<()> {
    // The files first: whatever happens to standard output, they are kept.
    let records = claim.write(&output::results_json(results), &results.games, results.rule)?;
    say!(
        "{}",
        tournament::format_standings(&results.standings).trim_end()
    );
    say_endings(&results.games);
    say!("{}", records.kept());
    Ok(())
}

/// One line per forfeit and per game lost on a forbidden point (renju),
/// in schedule order. A reason quotes the bot, and a part file may come
/// from another judge: it is escaped here too.
fn say_endings(games: &[GameRecord]) {
    for game in games {
        let said = match &game.forfeit {
            Some(forfeit) => format!("{} forfeits: {}", game.name(forfeit.by), forfeit.reason()),
            None => match game.foul_reason() {
                Some(foul) => foul,
                None => continue,
            },
        };
        say!("{}", escape(&format!("game {}: {said}", game.index)));
    }
}

/// `--check-sandbox`: the judge's contract, clause by clause, with what
/// enforces each here (from a probe of the first bot's sandbox, or of an
/// empty folder's), then what a probe finds inside each bot's sandbox.
/// Fails when a clause cannot be held or a bot would not be contained.
fn check_sandbox(sandbox: &Sandbox, args: &Args) -> anyhow::Result<()> {
    if !sandbox.is_on() {
        say!("sandbox: off (--no-sandbox): bots run as plain child processes");
        return Ok(());
    }
    let cgroups = sandbox.cgroups().expect("contained");
    let orders = orders(args)?;
    let mut found = orders.survey().unwrap_or_default();
    let all = found.folders();
    orders.grant(&mut found.bots, &all)?;
    for left in &found.left_out {
        say!(
            "bot folder {}: left out: {}",
            args.bots.join(&left.folder).display(),
            escape(&left.reason)
        );
    }
    let folders = all;
    let bots = found.bots;
    let scratch = tempfile::tempdir().context("cannot make a folder to probe in")?;
    let empty = Program {
        name: "probe",
        command: "sh",
        args: &[],
        folder: scratch.path(),
        workdir: None,
        grants: &[],
        closed: &[],
    };
    let contestants: Vec<(String, Program)> = if bots.is_empty() {
        vec![("a bot in an empty folder".to_string(), empty)]
    } else {
        bots.iter()
            .map(|bot| {
                (
                    format!("bot {} ({})", bot.name, bot.folder.display()),
                    bot.contestant(&bot.args, &folders),
                )
            })
            .collect()
    };
    let probed: Vec<_> = contestants
        .iter()
        .map(|(name, program)| (name, sandbox.probe(program)))
        .collect();
    let first = probed.iter().find_map(|(_, p)| p.as_ref().ok());
    say!(
        "the judge's contract on this machine (the judge runs as {}; control groups: {}):",
        if sandbox::judge_is_root() {
            "root".to_string()
        } else {
            format!("uid {}", sandbox::judge_uid())
        },
        cgroups.describe()
    );
    let mut all_ok = true;
    for clause in sandbox.contract(first) {
        all_ok &= !matches!(clause.status, sandbox::contract::Status::Missing(_));
        say!("  {clause}");
    }
    for (name, probe) in &probed {
        match probe {
            Ok(findings) => match sandbox::verdict(findings) {
                Ok(warnings) => {
                    say!("{name}: contained");
                    for warning in warnings {
                        say!("  warning: {}", escape(&warning));
                    }
                }
                Err(e) => {
                    all_ok = false;
                    say!("{name}: NOT CONTAINED: {}", escape(&e.to_string()));
                }
            },
            Err(sandbox::ProbeError::NoProgram(e)) => {
                say!("{name}: {} (it would forfeit its games)", escape(e))
            }
            Err(sandbox::ProbeError::Full(e)) => {
                say!("{name}: {} (it would be left out)", escape(e))
            }
            Err(sandbox::ProbeError::Uncontained(e)) => {
                all_ok = false;
                say!("{name}: NOT CONTAINED: {}", escape(e));
            }
        }
    }
    if !all_ok {
        bail!(
            "the sandbox cannot hold its contract on this machine: see above (--no-sandbox runs bots uncontained)"
        );
    }
    Ok(())
}

/// Plays the bot twice against the house bot, once opening and once
/// answering, echoing every line.
fn debug(
    args: &Args,
    bot: &Path,
    seed: u64,
    timeout: Option<Duration>,
    rule: Rule,
    sandbox: &Sandbox,
) -> anyhow::Result<()> {
    let (meta, all, warnings) = field::debugged(&orders(args)?, bot, sandbox)?;
    for warning in warnings {
        eprintln!("inarow: warning: {}", escape(&warning));
    }
    let house_name = inarow_judge::name::house_name(&meta.name);
    say!(
        "debugging {} against the built-in bot {house_name}, seed {seed}",
        meta.name
    );
    say!("lines: `NAME < ...` judge to bot, `NAME > ...` bot to judge, `NAME ! ...` bot's stderr");
    // Every line both ways and the bot's standard error, on standard output.
    let echo = Listener::new(|bot, said| say!("{}", said.shown(bot)));
    for (game, bot_opens) in [true, false].into_iter().enumerate() {
        let mut house = Local::new(house_name, HouseBot::new(seed.wrapping_add(game as u64)));
        let start = Start {
            sandbox,
            timeout,
            echo: Some(&echo),
            stderr: None,
            folders: &all,
        };
        let mut process = BotProcess::start(&meta, house_name, seed, start)
            .with_context(|| format!("cannot start {}", meta.program().display()))?;
        let record = if bot_opens {
            play_game(&tournament::board(rule), &mut process, &mut house)
        } else {
            play_game(&tournament::board(rule), &mut house, &mut process)
        };
        drop(process);
        let outcome = match (record.named(record.winner), &record.forfeit) {
            (_, Some(f)) => format!("{} forfeits: {}", record.name(f.by), f.reason()),
            (Some(w), None) => match record.foul_reason() {
                Some(foul) => format!("{w} wins: {foul}"),
                None => format!("{w} wins with five"),
            },
            (None, None) => "tie: the board is full".into(),
        };
        say!(
            "game {}: {} opens; {}",
            game + 1,
            record.a,
            escape(&outcome)
        );
    }
    Ok(())
}
