//! The argument groups several commands share: how contestants are
//! contained (`--memory`, `--no-sandbox`, ...), which share of the work
//! this machine plays, and the rule and board a gomoku command plays on.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use inarow_contest::shard::{self, Shard};
use inarow_core::Rule;
use inarow_sandbox::{Cores, Launcher, Limits, Sandbox, limits};

use crate::numbers::Allowed;

/// The rule a gomoku command plays: `--rule freestyle|exact|renju`, with
/// the older `--exact` kept as another way to say `--rule exact`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct RuleArgs {
    /// Freestyle (five or more in a row wins), exact (exactly five wins, an
    /// overline does not) or renju (black wins by exactly five and loses by
    /// playing a double three, a double four or an overline; white wins by
    /// five or more).
    #[arg(long, value_name = "RULE", default_value_t = Rule::Freestyle, value_parser = parse_rule)]
    rule: Rule,
    /// The same as `--rule exact`.
    #[arg(long, conflicts_with = "rule")]
    exact: bool,
}

impl RuleArgs {
    /// The rule asked for.
    pub fn rule(&self) -> Rule {
        if self.exact { Rule::Exact } else { self.rule }
    }
}

/// Reads a rule's name (`freestyle`, `exact` or `renju`), as `Rule` writes
/// it; anything else is refused in one line naming the three.
pub fn parse_rule(text: &str) -> Result<Rule, inarow_core::UnknownRule> {
    text.parse()
}

/// How contestants (bots, brains: programs the project did not write) are
/// contained: shared by every command that runs them.
#[derive(clap::Args, Debug, Clone)]
pub struct SandboxArgs {
    /// Memory for each contestant with all its processes, everything it
    /// holds counted (e.g. 512M, 2G), or `unbounded` where no cgroup with
    /// the memory controller can count it.
    #[arg(long, default_value = "1G", value_parser = parse_bound_size)]
    memory: Bound<u64>,
    /// The processors each contestant with all its processes may keep busy
    /// (e.g. 1, 2, 0.5), or `unbounded` where no cgroup with the cpu
    /// controller can bound it.
    #[arg(long, default_value = "1", value_parser = parse_bound_cores)]
    cpus: Bound<Cores>,
    /// Processes and threads each contestant may run at once.
    #[arg(long, default_value_t = Limits::default().processes, value_parser = crate::numbers::whole::<u64>(1))]
    processes: u64,
    /// CPU seconds each process of a contestant may use (default: for a
    /// judge's bot, 250 times the time per answer, 3600 without one; for a
    /// brain, what its whole match can take).
    #[arg(long, value_parser = crate::numbers::whole::<u64>(1))]
    cpu: Option<u64>,
    /// The most files each process of a contestant may hold open (its
    /// hard limit): with --processes, its share of the host's file table.
    #[arg(long, default_value_t = Limits::default().open_files, value_parser = crate::numbers::whole_in::<u64>(16, 1 << 20))]
    open_files: u64,
    /// The largest file a contestant may write (e.g. 64M).
    #[arg(long, default_value = "64M", value_parser = parse_size)]
    file_size: u64,
    /// The most each contestant's folder may hold (e.g. 256M): a write far
    /// past it fails, and a contestant that goes past it loses its game
    /// and keeps its folder as it was.
    #[arg(long, default_value = "256M", value_parser = parse_size)]
    disk: u64,
    /// The most standard error a contestant may print in one game (e.g.
    /// 1M); the rest is dropped and counted.
    #[arg(long, default_value = "1M", value_parser = parse_size)]
    stderr_limit: u64,
    /// A file or folder every contestant may also read, or, as FOLDER=PATH
    /// (`inarow judge` only), that only the bot in folder FOLDER of the bots
    /// folder may read (repeatable).
    #[arg(long, value_name = "[FOLDER=]PATH", value_parser = parse_read_grant)]
    allow_read: Vec<ReadGrant>,
    /// Run contestants uncontained, as plain child processes (they can then
    /// read and write anything this user can).
    #[arg(long)]
    no_sandbox: bool,
    /// As an ordinary user: let contestants share this user to the kernel,
    /// its per-user tables (pipe pages, descriptors in flight) included,
    /// rather than each being a subordinate uid of it (/etc/subuid), which
    /// it may not have.
    #[arg(long)]
    bots_share_my_user: bool,
}

/// A limit, or `unbounded`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound<T> {
    /// At most this much.
    At(T),
    /// No bound at all (`unbounded`).
    Unbounded,
}

impl<T> Bound<T> {
    /// The bound, if there is one.
    pub fn value(self) -> Option<T> {
        match self {
            Bound::At(value) => Some(value),
            Bound::Unbounded => None,
        }
    }
}

/// `unbounded`, or what `parse` reads.
fn parse_bound<T>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, Allowed>,
) -> Result<Bound<T>, Allowed> {
    match text {
        "unbounded" => Ok(Bound::Unbounded),
        _ => parse(text)
            .map(Bound::At)
            .map_err(|e| Allowed(format!("{e}, or unbounded"))),
    }
}

/// Reads a size in bytes (`--file-size`, `--disk`, ...): `512M`, `2G`, `64k`.
fn parse_size(text: &str) -> Result<u64, Allowed> {
    limits::parse_size(text)
        .map_err(|_| Allowed("a size of at least 1 byte such as 64k, 512M or 2G".into()))
}

fn parse_bound_size(text: &str) -> Result<Bound<u64>, Allowed> {
    parse_bound(text, parse_size)
}

fn parse_bound_cores(text: &str) -> Result<Bound<Cores>, Allowed> {
    parse_bound(text, |t| {
        Cores::parse(t).map_err(|_| {
            Allowed("a number of processors from 0.01 to 4096 such as 1, 2 or 0.5".into())
        })
    })
}

/// One `--allow-read`: a path every contestant may read, or one that only
/// the bot in folder `folder` may read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGrant {
    /// The bot's folder, by its name in the bots folder (never a meta
    /// name); `None` for every contestant.
    pub folder: Option<String>,
    /// The file or folder, as given.
    pub path: PathBuf,
}

impl fmt::Display for ReadGrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.folder {
            Some(folder) => write!(f, "{folder}={}", self.path.display()),
            None => write!(f, "{}", self.path.display()),
        }
    }
}

/// Why an `--allow-read` is no grant: one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GrantTextError {
    /// `FOLDER=` without its path.
    #[error("{0:?} names no path: write FOLDER=PATH")]
    NoPath(String),
    /// Nothing given.
    #[error("an empty path: write PATH or FOLDER=PATH")]
    Empty,
}

/// Reads `PATH` or `FOLDER=PATH`: text before the first `=` that holds no
/// `/` names a bot's folder (write `./a=b` for a file named `a=b`).
pub fn parse_read_grant(text: &str) -> Result<ReadGrant, GrantTextError> {
    match text.split_once('=') {
        Some((folder, path)) if !folder.is_empty() && !folder.contains('/') => {
            if path.is_empty() {
                return Err(GrantTextError::NoPath(text.to_string()));
            }
            Ok(ReadGrant {
                folder: Some(folder.to_string()),
                path: PathBuf::from(path),
            })
        }
        _ if text.is_empty() => Err(GrantTextError::Empty),
        _ => Ok(ReadGrant {
            folder: None,
            path: PathBuf::from(text),
        }),
    }
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
    /// The sandbox these options ask for; `default_cpu` seconds unless
    /// `--cpu` is given. A grant to one bot (`--allow-read FOLDER=PATH`) is
    /// refused: only `inarow judge` knows its bots by name.
    pub fn sandbox(&self, default_cpu: u64) -> anyhow::Result<Sandbox> {
        self.no_grant_to_one_bot()?;
        self.for_everyone(default_cpu)
    }

    fn no_grant_to_one_bot(&self) -> anyhow::Result<()> {
        if let Some(grant) = self.allow_read.iter().find(|g| g.folder.is_some()) {
            bail!(
                "--allow-read {grant}: only `inarow judge` grants a path to one bot; give the PATH alone for every contestant"
            );
        }
        Ok(())
    }

    /// [`SandboxArgs::sandbox`] for a front that starts contestants later,
    /// if at all (`inarow serve`): a machine where the limits cannot hold
    /// refuses each tournament (in one line), not the front.
    pub fn sandbox_checked_later(&self, default_cpu: u64) -> anyhow::Result<Sandbox> {
        self.no_grant_to_one_bot()?;
        self.for_inspection(default_cpu)
    }

    /// The paths every contestant may read (`--allow-read PATH`), as given.
    pub(crate) fn everyone(&self) -> impl Iterator<Item = &Path> {
        self.allow_read
            .iter()
            .filter(|g| g.folder.is_none())
            .map(|g| g.path.as_path())
    }

    /// The grants to one bot (`--allow-read FOLDER=PATH`): its folder and the path.
    pub(crate) fn per_folder(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.allow_read
            .iter()
            .filter_map(|g| g.folder.as_deref().map(|folder| (folder, g.path.as_path())))
    }

    /// The sandbox these options ask for, whether or not it can hold here:
    /// to show what would be in force (`--check-sandbox`).
    pub(crate) fn for_inspection(&self, default_cpu: u64) -> anyhow::Result<Sandbox> {
        self.build(default_cpu, false)
    }

    /// [`SandboxArgs::sandbox`] with the grants to every contestant; the
    /// grants to one bot are the caller's.
    pub(crate) fn for_everyone(&self, default_cpu: u64) -> anyhow::Result<Sandbox> {
        self.build(default_cpu, true)
    }

    fn build(&self, default_cpu: u64, refuse: bool) -> anyhow::Result<Sandbox> {
        if self.no_sandbox {
            eprintln!(
                "inarow: warning: --no-sandbox: contestants run uncontained and can read and write anything this user can"
            );
            // Only the standard error bound holds uncontained.
            return Ok(Sandbox::off_with(Limits {
                stderr: self.stderr_limit,
                ..Limits::default()
            }));
        }
        let cpu = self.cpu.unwrap_or(default_cpu);
        let limits = Limits {
            memory: self.memory.value(),
            processes: self.processes,
            cpu_seconds: Some(cpu),
            cpus: self.cpus.value(),
            file_size: self.file_size,
            disk: self.disk,
            stderr: self.stderr_limit,
            open_files: self.open_files,
        };
        let grants = self
            .everyone()
            .map(|p| {
                p.canonicalize()
                    .with_context(|| format!("--allow-read {}", p.display()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let mut launcher = Launcher::this_program(crate::LAUNCHER)
            .context("cannot find this program to launch bots with")?;
        launcher.share_user = self.bots_share_my_user;
        if refuse {
            Sandbox::contained(launcher, limits, grants).map_err(anyhow::Error::msg)
        } else {
            Ok(Sandbox::inspected(launcher, limits, grants))
        }
    }
}

/// The share this process plays: `--shard`, or the one a scheduler gave
/// it (said on standard error); `None` for the whole tournament.
pub fn which_shard(given: Option<Shard>, shards: Option<usize>) -> anyhow::Result<Option<Shard>> {
    if given.is_some() {
        return Ok(given);
    }
    match shard::from_scheduler(|name| std::env::var(name).ok(), shards)? {
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

/// Reads a gomoku board's side (`--size`): the sides the engine plays.
pub fn board_size(text: &str) -> Result<usize, Allowed> {
    use inarow_engine::board::{MAX_SIZE, MIN_SIZE};
    crate::numbers::whole_in(MIN_SIZE as u64, MAX_SIZE as u64)(text)
}

/// The longest an engine may think a move: beyond it a game never ends.
const LONGEST_MOVE_SECS: f64 = 3600.0;

/// Reads `--move-time SECS` (`inarow bot`, `inarow play gomoku`): above 0
/// and at most an hour.
pub fn parse_move_time(text: &str) -> Result<f64, Allowed> {
    crate::numbers::real("a number of seconds above 0 and at most 3600", |s| {
        s > 0.0 && s <= LONGEST_MOVE_SECS
    })(text)
}

/// The engine's budget a move from `--move-time SECS` and `--move-nodes N`
/// (the same for `inarow bot` and `inarow play gomoku`), both read in range
/// by their parsers.
pub fn move_limits(move_time: f64, move_nodes: Option<u64>) -> inarow_engine::search::Limits {
    use inarow_engine::search::Limits;
    match move_nodes {
        Some(nodes) => Limits::nodes(nodes),
        None => Limits::time(Duration::from_secs_f64(move_time)),
    }
}
