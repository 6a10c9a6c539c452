//! The `judge` subcommand: a thin front on the `inarow-judge` crate.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use inarow_agents::house::HouseBot;
use inarow_core::Rule;
use inarow_judge::local::Local;
use inarow_judge::merge::{self, Part, Tournament};
use inarow_judge::process::{BotProcess, Listener, Start};
use inarow_judge::sandbox::{self, Launcher, Limits, Program, Sandbox, limits};
use inarow_judge::shard::{self, Shard};
use inarow_judge::{
    BotMeta, Config, GameRecord, Results, discover, output, play_game, process, tournament,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Options of `inarow judge`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<JudgeCommand>,
    /// Folder holding one subfolder per bot, each with a `meta` file.
    #[arg(long, default_value = "bots")]
    bots: PathBuf,
    /// Tournament seed (printed by every run; give it back to replay a tournament).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (default: the number of cores).
    #[arg(short = 'j', long = "jobs")]
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
    /// Exactly five wins (an overline does not); the default is five or more.
    #[arg(long)]
    exact: bool,
    /// Debug one bot (a folder in the bots folder, or a path) against the
    /// built-in bot, showing every line exchanged and the bot's stderr.
    #[arg(short = 'd', long = "debug", value_name = "BOT")]
    debug: Option<PathBuf>,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// Print what the sandbox enforces on this machine (and for each bot
    /// of the bots folder), then exit.
    #[arg(long)]
    check_sandbox: bool,
    /// Play only share I of N (from 0) of the schedule and write a part
    /// file for `inarow judge merge`; needs --seed. Without it, a Slurm
    /// job array or a Kubernetes Indexed Job gives the share.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// The number of shares of a Kubernetes Indexed Job (its completions),
    /// whose JOB_COMPLETION_INDEX gives this share (or INAROW_SHARDS).
    #[arg(long, value_name = "N")]
    shards: Option<usize>,
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

/// How contestants (bots, brains: programs the project did not write) are
/// contained: shared by every command that runs them.
#[derive(clap::Args, Debug, Clone)]
pub struct SandboxArgs {
    /// Memory for each contestant with all its processes (e.g. 512M, 2G).
    #[arg(long, default_value = "1G", value_parser = limits::parse_size)]
    memory: u64,
    /// Processes and threads each contestant may run at once.
    #[arg(long, default_value_t = Limits::default().processes, value_parser = clap::value_parser!(u64).range(1..))]
    processes: u64,
    /// CPU seconds each process of a contestant may use (default: for a
    /// judge's bot, 250 times the time per answer, 3600 without one; for a
    /// brain, what its whole match can take).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    cpu: Option<u64>,
    /// The largest file a contestant may write (e.g. 64M).
    #[arg(long, default_value = "64M", value_parser = limits::parse_size)]
    file_size: u64,
    /// A file or folder every contestant may also read (repeatable); a
    /// bot's meta file can grant more with a fifth line `read: PATH ...`.
    #[arg(long, value_name = "PATH")]
    allow_read: Vec<PathBuf>,
    /// Run contestants uncontained, as plain child processes (they can then
    /// read and write anything this user can).
    #[arg(long)]
    no_sandbox: bool,
}

/// The default CPU seconds of a judge's bot in one game: 250 answers' worth
/// of the time per answer (a game has at most 115 answers per bot, and a bot
/// may think on its opponent's time), an hour with no time limit.
pub fn cpu_for_timeout(timeout: Option<Duration>) -> u64 {
    match timeout {
        Some(t) => (t.as_secs_f64() * 250.0).ceil().max(1.0) as u64,
        None => 3600,
    }
}

impl SandboxArgs {
    /// The sandbox these options ask for; `default_cpu` seconds unless `--cpu` is given.
    pub fn sandbox(&self, default_cpu: u64) -> anyhow::Result<Sandbox> {
        if self.no_sandbox {
            eprintln!(
                "inarow: warning: --no-sandbox: contestants run uncontained and can read and write anything this user can"
            );
            return Ok(Sandbox::off());
        }
        let cpu = self.cpu.unwrap_or(default_cpu);
        let limits = Limits {
            memory: self.memory,
            processes: self.processes,
            cpu_seconds: Some(cpu),
            file_size: self.file_size,
        };
        let grants = self
            .allow_read
            .iter()
            .map(|p| {
                p.canonicalize()
                    .with_context(|| format!("--allow-read {}", p.display()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let launcher = Launcher::this_program(crate::LAUNCHER)
            .context("cannot find this program to launch bots with")?;
        Ok(Sandbox::contained(launcher, limits, grants))
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(s),
        _ => Err(format!(
            "{text:?} is not a number of seconds (0 or more, 0 for no limit)"
        )),
    }
}

/// Prints a line on standard output; a closed output (`inarow judge | head
/// -1`) is not an error: the games go on and the results are still written.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, $($arg)*);
    }};
}

/// Runs `inarow judge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(JudgeCommand::Merge(merge)) = args.command {
        return run_merge(merge);
    }
    let timeout = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    let sandbox = args.sandbox.sandbox(cpu_for_timeout(timeout))?;
    if args.check_sandbox {
        return check_sandbox(&sandbox, &args.bots);
    }
    process::install_interrupt_handler(|killed| {
        eprintln!("inarow judge: interrupted; killed {killed} bot(s)");
        std::process::exit(130);
    })
    .context("cannot install the Ctrl-C handler")?;
    let rule = if args.exact {
        Rule::Exact
    } else {
        Rule::Freestyle
    };
    if let Some(bot) = &args.debug {
        let seed = args.seed.unwrap_or_else(rand::random);
        return debug(&args.bots, bot, seed, timeout, rule, &sandbox);
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
    let bots = discover(&args.bots)?;
    if bots.len() < 2 {
        bail!(
            "{} holds {} bot(s); a tournament needs at least 2 folders with a meta file",
            args.bots.display(),
            bots.len()
        );
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        bail!("-j must be at least 1");
    }
    output::check_writable(&results_path, &args.sgf).map_err(anyhow::Error::msg)?;
    verify(&sandbox, &bots)?;
    let config = Config {
        seed,
        jobs,
        timeout,
        rule,
        sandbox,
        // Bots whose meta file asks for it show their standard error on ours.
        stderr: Some(Listener::new(|bot, said| {
            let _ = writeln!(std::io::stderr().lock(), "{}", said.shown(bot));
        })),
    };
    // A share names its tournament as it stands before its first game.
    let part_of = match shard {
        Some(_) => Some(Tournament::new(&bots, &config).map_err(anyhow::Error::msg)?),
        None => None,
    };
    let shard = shard.unwrap_or(Shard::WHOLE);
    let games = tournament::share(bots.len(), seed, shard).len();
    let share = if shard.is_whole() {
        String::new()
    } else {
        format!(", share {shard}")
    };
    say!(
        "tournament seed {seed} (replay with --seed {seed}){share}: {} bots, {games} games, {jobs} at once",
        bots.len()
    );
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
    let records = tournament::play_share(&bots, &config, shard, &|record| {
        bar.set_message(format!("{} vs {}", record.a, record.b));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let Some(part_of) = part_of else {
        return keep(
            &Results::new(&bots, &config, records),
            &results_path,
            &args.sgf,
        );
    };
    let part = Part::new(shard, part_of, records);
    output::write_atomic(&results_path, part.to_json().as_bytes())
        .with_context(|| format!("cannot write {}", results_path.display()))?;
    output::write_sgf_dir(&args.sgf, &part.games)
        .with_context(|| format!("cannot write SGF records into {}", args.sgf.display()))?;
    say!(
        "share {shard}: {} games played; part in {}, their SGF records in {}",
        part.games.len(),
        results_path.display(),
        args.sgf.display()
    );
    say_forfeits(&part.games);
    say!("when every share is played: inarow judge merge PARTS... --results FILE");
    Ok(())
}

/// The share this process plays: `--shard`, or the one a scheduler gave
/// it (said on standard error); `None` for the whole tournament.
pub fn which_shard(given: Option<Shard>, shards: Option<usize>) -> anyhow::Result<Option<Shard>> {
    if given.is_some() {
        return Ok(given);
    }
    match shard::from_scheduler(|name| std::env::var(name).ok(), shards)
        .map_err(anyhow::Error::msg)?
    {
        Some((found, source)) => {
            eprintln!("inarow: playing shard {found}, from the {source}");
            Ok(Some(found))
        }
        None if shards.is_some() => bail!(
            "--shards needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) to say which share to play; or give --shard I/N"
        ),
        None => Ok(None),
    }
}

/// `inarow judge merge`: the parts' results, written and shown as a
/// one-machine run writes and shows them.
fn run_merge(args: MergeArgs) -> anyhow::Result<()> {
    let texts = shard::read_parts(&args.parts).map_err(anyhow::Error::msg)?;
    let parts: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    let results = merge::merge(&parts).map_err(anyhow::Error::msg)?;
    output::check_writable(&args.results, &args.sgf).map_err(anyhow::Error::msg)?;
    say!(
        "tournament seed {}: {} parts, {} bots, {} games",
        results.seed,
        parts.len(),
        results.bots.len(),
        results.games.len()
    );
    keep(&results, &args.results, &args.sgf)
}

/// Writes the results file and the SGF records, then shows the standings.
fn keep(results: &Results, path: &Path, sgf: &Path) -> anyhow::Result<()> {
    // The files first: whatever happens to standard output, they are kept.
    output::write_atomic(path, output::results_json(results).as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    output::write_sgf_dir(sgf, &results.games)
        .with_context(|| format!("cannot write SGF records into {}", sgf.display()))?;
    say!(
        "{}",
        tournament::format_standings(&results.standings).trim_end()
    );
    say_forfeits(&results.games);
    say!(
        "results in {}, SGF records in {}",
        path.display(),
        sgf.display()
    );
    Ok(())
}

/// One line per forfeit, in schedule order.
fn say_forfeits(games: &[GameRecord]) {
    for game in games {
        if let Some(forfeit) = &game.forfeit {
            say!(
                "game {}: {} forfeits: {}",
                game.index,
                forfeit.by,
                forfeit.reason
            );
        }
    }
}

/// Before the first game: each bot's sandbox works, or the judge refuses
/// to start (one line); what only hurts a bot itself is a warning.
fn verify(sandbox: &Sandbox, bots: &[BotMeta]) -> anyhow::Result<()> {
    for warning in tournament::check_bots(sandbox, bots).map_err(anyhow::Error::msg)? {
        eprintln!("inarow: warning: {warning}");
    }
    Ok(())
}

/// `--check-sandbox`: what is in force here, and inside each bot's sandbox.
fn check_sandbox(sandbox: &Sandbox, bots_dir: &Path) -> anyhow::Result<()> {
    if !sandbox.is_on() {
        say!("sandbox: off (--no-sandbox): bots run as plain child processes");
        return Ok(());
    }
    let limits = sandbox.limits();
    let cgroups = sandbox.cgroups().expect("contained");
    say!("sandbox on this machine:");
    say!("  cgroups: {}", cgroups.describe());
    say!(
        "  memory: {} per bot, {}",
        limits::format_size(limits.memory),
        if cgroups.memory() {
            "over all its processes (cgroup)"
        } else {
            "per process only (RLIMIT_DATA; no memory cgroup here)"
        }
    );
    say!(
        "  processes: {} per bot, {}",
        limits.processes,
        if cgroups.pids() {
            "over all its processes (cgroup)"
        } else {
            "counted per user (RLIMIT_NPROC; no pids cgroup here)"
        }
    );
    say!(
        "  cpu: {} s per process and game; files: {} at most",
        limits.cpu_seconds.unwrap_or(0),
        limits::format_size(limits.file_size)
    );
    say!(
        "  user: {}",
        if sandbox::judge_is_root() {
            "the judge runs as root: each bot runs as its folder's owner, or nobody (65534) for root's folders"
        } else {
            "each bot runs as this user, in a user namespace of its own"
        }
    );
    let bots = discover(bots_dir).unwrap_or_default();
    let scratch = tempfile::tempdir().context("cannot make a folder to probe in")?;
    let mut all_ok = true;
    let mut report = |name: &str, program: &Program| match sandbox.probe(program) {
        Ok(findings) => {
            say!("{name}:");
            for (what, found) in &findings {
                say!("  {what}: {found}");
            }
            if let Err(e) = sandbox::verdict(&findings) {
                all_ok = false;
                say!("  NOT CONTAINED: {e}");
            }
        }
        Err(sandbox::ProbeError::NoProgram(e)) => say!("{name}: {e} (it would forfeit its games)"),
        Err(sandbox::ProbeError::Uncontained(e)) => {
            all_ok = false;
            say!("{name}: NOT CONTAINED: {e}");
        }
    };
    if bots.is_empty() {
        let args = Vec::new();
        report(
            "a bot in an empty folder",
            &Program {
                name: "probe",
                command: "sh",
                args: &args,
                folder: scratch.path(),
                grants: &[],
                closed: &[],
            },
        );
    }
    let folders = tournament::folders(&bots);
    for bot in &bots {
        report(
            &format!("bot {} ({})", bot.name, bot.folder.display()),
            &bot.contestant(&bot.args, &folders),
        );
    }
    if !all_ok {
        bail!("the sandbox does not work on this machine: see above, or run with --no-sandbox");
    }
    Ok(())
}

/// Plays the bot twice against the house bot, once opening and once
/// answering, echoing every line.
fn debug(
    bots: &Path,
    bot: &Path,
    seed: u64,
    timeout: Option<Duration>,
    rule: Rule,
    sandbox: &Sandbox,
) -> anyhow::Result<()> {
    let folder = if bot.join("meta").is_file() {
        bot.to_path_buf()
    } else {
        bots.join(bot)
    };
    let mut meta = BotMeta::load(&folder)?;
    // Other bots beside it stay closed to it, as in a tournament.
    let mut all = discover(bots)
        .map(|b| tournament::folders(&b))
        .unwrap_or_default();
    all.push(meta.folder.clone());
    inarow_judge::meta::check_grants(&mut meta, &all)?;
    verify(sandbox, std::slice::from_ref(&meta))?;
    let house_name = if meta.name == "house" {
        "house-judge"
    } else {
        "house"
    };
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
        let outcome = match (&record.winner, &record.forfeit) {
            (_, Some(f)) => format!("{} forfeits: {}", f.by, f.reason),
            (Some(w), None) => format!("{w} wins with five"),
            (None, None) => "tie: the board is full".into(),
        };
        say!("game {}: {} opens; {outcome}", game + 1, record.a);
    }
    Ok(())
}
