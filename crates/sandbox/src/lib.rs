//! # inarow-sandbox
//!
//! One way to start a contestant: every program the project did not write
//! (a judge's bot, a Gomocup brain) runs through [`Sandbox::start`], and
//! runs on as a [`process::Running`]: lines within deadlines, frozen
//! between its answers, its end, and everything it started killed with it.
//!
//! Contained (the default), a contestant runs through the [`launcher`]:
//! its own PID, network, mount, IPC, UTS and control-group namespaces (so
//! every process it starts dies with its game, and it has no network), its
//! own view of the file system and its own uid, Landlock, a seccomp filter
//! ([`seccomp`]), a new keyring, control groups that bound its memory
//! (everything it holds), processes and processors and freeze it while its
//! opponent thinks ([`cgroup`]), a folder bounded by the kernel
//! ([`folder`]), and CPU-time and file-size limits. Without containment
//! (`--no-sandbox`) it runs as a plain child in a process group of its own,
//! as the judge always did.
//!
//! Either way the contestant's standard error arrives in bounded lines, its
//! end (exit code, signal, or why it never started) is known, and killing
//! it kills every process it started.
//!
//! Nothing here knows of games: the judge (`inarow-judge`) and the match
//! runner (`inarow-match`) build on it, and on `inarow-contest` for what
//! both say to a contestant. Linux only: namespaces, Landlock,
//! cgroups, process groups and `poll`.
#![deny(missing_docs)]

pub mod cgroup;
mod contestant;
pub mod contract;
pub mod folder;
pub mod frame;
mod identity;
mod init;
pub mod launcher;
pub mod limits;
pub mod lines;
pub mod paths;
pub mod probe;
pub mod process;
pub mod seccomp;
pub mod shown;
mod stage;
mod sys;
pub mod view;

use std::collections::BTreeMap;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::unistd::{geteuid, pipe2};

pub use cgroup::{Cgroups, Controller};
pub use contestant::{Contestant, FreezeError, shut_down};
use frame::Frame;
use identity::Identities;
pub use identity::{
    FIRST_UID, MAX_CONTESTANTS, OWNER_IN_VIEW, Subordinate, judge_is_root, judge_uid,
    subordinate_ids,
};
pub use limits::{Cores, Limit, Limits};
use paths::{Closed, Paths};
pub use probe::{Findings, ProbeError, verdict};
use stage::{Freeze, Spec};

/// How long a probe may take: a margin for a busy machine, not a measure.
const PROBE_WITHIN: Duration = Duration::from_secs(60);

/// Why a contestant was not started: its program missing is told apart
/// by kind, never by the system's words, since a missing program costs a
/// bot its games while the rest is the machine's trouble.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Its program is not where its command says: no such file in its
    /// folder, or no such program on `PATH` (the message names it).
    #[error(transparent)]
    NoProgram(#[from] paths::PathError),
    /// The system refused what the start needs (its folder, a control
    /// group, a pipe, the process itself).
    #[error(transparent)]
    System(#[from] io::Error),
}

/// Why contestants cannot be contained within the limits asked for on
/// this machine: a limit no control group here can hold over all of a
/// contestant's processes, and what would let it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot contain bots here: {0}")]
pub struct CannotContain(pub String);

/// The judge's own program, started in place of each contestant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launcher {
    /// The program (`inarow`).
    pub program: PathBuf,
    /// Arguments before the launcher's own (`["__contain"]`).
    pub prefix: Vec<String>,
    /// As an ordinary user: whether bots share the judge's user to the
    /// kernel rather than each being a subordinate uid of it
    /// (`--bots-share-my-user`, where it has none).
    pub share_user: bool,
}

impl Launcher {
    /// This very program, started with the hidden `prefix` argument.
    /// Started as `/proc/self/exe`, so it runs wherever this program
    /// lies, in folders its user may not search included.
    pub fn this_program(prefix: &str) -> io::Result<Launcher> {
        // Whether it exists at all is checked here, once.
        std::env::current_exe()?;
        Ok(Launcher {
            program: PathBuf::from("/proc/self/exe"),
            prefix: vec![prefix.to_string()],
            share_user: false,
        })
    }
}

/// How contestants are started: contained or not, and their limits.
#[derive(Clone, Debug)]
pub struct Sandbox {
    containment: Option<Containment>,
    limits: Limits,
    /// How many contestants may be alive at once (two a game), for their
    /// share of the host's file table.
    live: u64,
    /// The host's file table, read once (`/proc/sys/fs/file-max`).
    host_files: Option<u64>,
}

/// What contestants may take of the host's file table (`fs.file-max`
/// entries: every open file of every process, the host's whole).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileTable {
    /// The files each process may hold open, as the organiser asked
    /// (`--open-files`).
    pub asked: u64,
    /// The files each process may hold open: what was asked, lowered where
    /// needed so that every contestant alive at once, each with all its
    /// processes, holds at most half the host's table.
    pub per_process: u64,
    /// The processes (and threads) of one contestant.
    pub processes: u64,
    /// The contestants alive at once.
    pub live: u64,
    /// The host's table (`/proc/sys/fs/file-max`), if it can be read.
    pub host: Option<u64>,
}

/// The fewest files a process is ever held to: a language runtime needs a
/// few dozen to start.
pub const MIN_OPEN_FILES: u64 = 64;

impl FileTable {
    /// The table's figures for `asked` files a process, `processes` a
    /// contestant, `live` contestants at once, on a host of `host` entries.
    pub fn fit(asked: u64, processes: u64, live: u64, host: Option<u64>) -> FileTable {
        let per_process = match host {
            Some(host) => {
                let share = host / 2 / (live.max(1) * processes.max(1));
                asked.min(share.max(MIN_OPEN_FILES))
            }
            None => asked,
        };
        FileTable {
            asked,
            per_process,
            processes,
            live,
            host,
        }
    }

    /// The most entries one contestant can hold.
    pub fn per_contestant(&self) -> u64 {
        self.per_process.saturating_mul(self.processes)
    }

    /// The most entries all the contestants alive at once can hold.
    pub fn all(&self) -> u64 {
        self.per_contestant().saturating_mul(self.live)
    }
}

/// The host's file table, `/proc/sys/fs/file-max`.
fn host_file_table() -> Option<u64> {
    std::fs::read_to_string("/proc/sys/fs/file-max")
        .ok()?
        .trim()
        .parse()
        .ok()
}

#[derive(Clone, Debug)]
struct Containment {
    launcher: Launcher,
    cgroups: Arc<Cgroups>,
    /// What every contestant may read: the system's paths and the grants.
    read: Vec<PathBuf>,
    /// The device files every contestant may use.
    devices: Vec<PathBuf>,
    /// The judge's environment a contestant keeps.
    env: BTreeMap<String, String>,
    /// Where commands are looked up: the judge's own folder (so `inarow`
    /// names the judge's own program, whatever else `PATH` holds), then the
    /// judge's `PATH`.
    path_var: Option<std::ffi::OsString>,
    /// Who each contestant is.
    identities: Arc<Identities>,
    /// As an ordinary user whose bots do not share its user: its
    /// subordinate ids, or why it has none.
    subordinate: Option<Result<Subordinate, String>>,
}

/// One program to start.
#[derive(Clone, Debug)]
pub struct Program<'a> {
    /// The contestant's name, for messages.
    pub name: &'a str,
    /// The command as written: a path with a `/` (from `workdir`, or else
    /// `folder`, when relative) or a name looked up in `PATH`.
    pub command: &'a str,
    /// Its arguments.
    pub args: &'a [String],
    /// Its folder: it may write only there (and it runs there unless
    /// `workdir` says otherwise).
    pub folder: &'a Path,
    /// Where it runs instead, read-only: a Gomocup brain's installation
    /// (it writes to a folder of its own, never to its build folder).
    pub workdir: Option<&'a Path>,
    /// More paths it may read, checked by the caller.
    pub grants: &'a [PathBuf],
    /// Every contestant's folder: it must never see the others' (its own
    /// may be among them).
    pub closed: &'a [PathBuf],
}

/// Where a contestant's standard error lines go; `None` drops them.
pub type StderrSink = Option<Box<dyn FnMut(&str) + Send>>;

/// How a contestant's program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited with this code.
    Exit(i32),
    /// A signal killed it.
    Signal(i32),
    /// It could not be started.
    NoStart(String),
    /// Its sandbox could not be set up; it never ran.
    Sandbox(String),
}

impl Sandbox {
    /// Contestants contained by `launcher` within `limits`, each also allowed
    /// to read `grants`. Finds the machine's control groups and the
    /// system's paths once. Refuses (in one line) where a limit asked for
    /// cannot be held over all of a contestant's processes: memory without
    /// a memory control group, processors without a cpu one.
    pub fn contained(
        launcher: Launcher,
        limits: Limits,
        grants: Vec<PathBuf>,
    ) -> Result<Sandbox, CannotContain> {
        let sandbox = Sandbox::inspected(launcher, limits, grants);
        match sandbox.refusal() {
            Some(why) => Err(CannotContain(why)),
            None => Ok(sandbox),
        }
    }

    /// [`Sandbox::contained`] without its refusal, to look at what would be
    /// in force (`--check-sandbox`).
    pub fn inspected(launcher: Launcher, limits: Limits, grants: Vec<PathBuf>) -> Sandbox {
        let cgroups = Cgroups::discover();
        let subordinate = (!geteuid().is_root() && !launcher.share_user).then(subordinate_ids);
        let mut read = paths::system();
        read.extend(grants);
        let path_var = lookup_path();
        let mut env: BTreeMap<String, String> = std::env::vars()
            .filter(|(key, _)| {
                ["LANG", "LANGUAGE", "TZ", "TERM"].contains(&key.as_str()) || key.starts_with("LC_")
            })
            .collect();
        if let Some(path) = path_var.as_ref().and_then(|p| p.to_str()) {
            env.insert("PATH".into(), path.to_string());
        }
        Sandbox {
            containment: Some(Containment {
                launcher,
                cgroups: Arc::new(cgroups),
                read,
                devices: paths::devices(),
                env,
                path_var,
                identities: Arc::default(),
                subordinate,
            }),
            limits,
            live: 2,
            host_files: host_file_table(),
        }
    }

    /// Contestants run as plain children, uncontained (`--no-sandbox`).
    pub fn off() -> Sandbox {
        Sandbox::off_with(Limits::default())
    }

    /// Contestants run uncontained, with `limits` where they still hold
    /// (the standard error shown).
    pub fn off_with(limits: Limits) -> Sandbox {
        Sandbox {
            containment: None,
            limits,
            live: 2,
            host_files: host_file_table(),
        }
    }

    /// Whether contestants are contained.
    pub fn is_on(&self) -> bool {
        self.containment.is_some()
    }

    /// The limits every contestant gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Says how many contestants may be alive at once (two a game: a
    /// tournament of `-j N` has `2N`), so that their open files together
    /// stay within half the host's file table (see [`FileTable`]).
    pub fn set_live(&mut self, contestants: usize) {
        self.live = (contestants as u64).max(1);
    }

    /// What the contestants may take of the host's file table.
    pub fn file_table(&self) -> FileTable {
        FileTable::fit(
            self.limits.open_files,
            self.limits.processes,
            self.live,
            self.host_files,
        )
    }

    /// As an ordinary user's judge whose bots do not share its user: its
    /// subordinate ids, or why it has none (`None` as root, uncontained,
    /// or with `--bots-share-my-user`).
    pub fn subordinate(&self) -> Option<&Result<Subordinate, String>> {
        self.containment.as_ref()?.subordinate.as_ref()
    }

    /// Whether bots may share the judge's user (`--bots-share-my-user`).
    pub fn shares_user(&self) -> bool {
        self.containment
            .as_ref()
            .is_some_and(|c| c.launcher.share_user)
    }

    /// The control groups in use, if contained.
    pub fn cgroups(&self) -> Option<&Cgroups> {
        self.containment.as_ref().map(|c| &*c.cgroups)
    }

    /// Starts `program` with piped standard input and output; its standard
    /// error goes to `stderr` a bounded line at a time. Fails once
    /// [`shut_down`] has been called. Contained, the program starts frozen:
    /// it runs once [`Contestant::thaw`] lets it.
    pub fn start(&self, program: &Program, stderr: StderrSink) -> Result<Contestant, StartError> {
        match &self.containment {
            None => start_plain(program, stderr, &self.limits),
            Some(containment) => self.start_contained(containment, program, stderr, false),
        }
    }

    fn spec(
        &self,
        containment: &Containment,
        program: &Program,
        probe: bool,
    ) -> Result<Spec, StartError> {
        let path_var = containment.path_var.as_deref();
        let folder = program.folder.canonicalize()?;
        let workdir = program.workdir.map(Path::canonicalize).transpose()?;
        let rootless = !geteuid().is_root();
        let identity = containment.identities.of(&folder, rootless)?;
        let idmap = if rootless {
            None
        } else {
            Some(
                containment
                    .identities
                    .idmap(&containment.launcher, &folder, &identity)?,
            )
        };
        let users = match &containment.subordinate {
            Some(Ok(sub)) => Some(containment.identities.own_user(
                &containment.launcher,
                &folder,
                &identity,
                sub,
            )?),
            _ => None,
        };
        let hidden = others(program.closed, &[program.folder, &folder]);
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let closed = Closed {
            folders: &hidden,
            home: home.as_deref(),
        };
        let base = workdir.as_deref().unwrap_or(&folder);
        let resolved = paths::resolve_in_view(program.command, base, path_var, rootless, closed)?;
        let mut read = containment.read.clone();
        read.extend(workdir.iter().cloned());
        if !resolved.starts_with(&folder) {
            read.extend(paths::installation(&resolved, &folder, path_var, closed));
        }
        read.extend(program.grants.iter().cloned());
        let cgroups = &containment.cgroups;
        let mut env = containment.env.clone();
        env.insert("HOME".into(), folder.display().to_string());
        env.insert("TMPDIR".into(), "/tmp".into());
        Ok(Spec {
            program: resolved,
            arg0: program.command.to_string(),
            args: program.args.to_vec(),
            paths: Paths {
                folder: folder.clone(),
                read,
                devices: containment.devices.clone(),
                fixed: vec![folder.join("meta")],
                tmp_size: paths::TMP_SIZE,
                workdir,
            },
            env,
            limits: Limits {
                open_files: self.file_table().per_process,
                ..self.limits
            },
            // With a memory group counting every process, this only stops one
            // process from reserving absurd amounts.
            data_limit: self.limits.memory.map(|m| m.saturating_mul(2)),
            nproc: !cgroups.pids(),
            cgroups: Vec::new(),
            freeze: Freeze::Never,
            identity,
            rootless,
            idmap,
            users,
            hidden,
            judge: std::process::id(),
            probe,
        })
    }

    fn start_contained(
        &self,
        containment: &Containment,
        program: &Program,
        stderr: StderrSink,
        probe: bool,
    ) -> Result<Contestant, StartError> {
        let mut spec = self.spec(containment, program, probe)?;
        let group = containment.cgroups.create(&self.limits, !probe)?;
        if let Some(group) = &group {
            spec.cgroups = group.procs_files();
        }
        if !probe {
            spec.freeze = match (&group, group.as_ref().and_then(|g| g.thaw_file())) {
                (Some(g), Some((file, thawed))) => Freeze::Group {
                    procs: g
                        .frozen_procs_file()
                        .expect("a freezing group has its procs"),
                    file,
                    thawed: thawed.to_string(),
                },
                _ => Freeze::Stop,
            };
        }
        let (control_read, control_write) = pipe2(OFlag::O_CLOEXEC).map_err(io::Error::from)?;
        let json = serde_json::to_string(&spec).map_err(io::Error::other)?;
        let mut command = Command::new(&containment.launcher.program);
        command
            .args(&containment.launcher.prefix)
            .arg("outer")
            .arg(control_read.as_raw_fd().to_string())
            .arg(json)
            .env_clear()
            .process_group(0)
            .stdin(if probe { Stdio::null() } else { Stdio::piped() })
            .stdout(if probe { Stdio::null() } else { Stdio::piped() })
            .stderr(Stdio::piped());
        let mut contained =
            Contestant::spawn(command, group, Some((control_write, control_read)), !probe)?;
        let frames = contained.child.stderr.take().expect("piped stderr");
        let reports = contained.reports.clone();
        let mut stderr = stderr;
        std::thread::spawn(move || {
            lines::each_line(
                frames,
                lines::MAX_STDERR_LINE * 16,
                |line, _| match Frame::decode(line) {
                    Some(Frame::Stderr(text, cut)) => {
                        if let Some(sink) = stderr.as_mut() {
                            sink(&lines::shown(&text, cut));
                        }
                    }
                    Some(frame) => reports.hear(frame),
                    None => {}
                },
            );
            reports.close();
        });
        Ok(contained)
    }

    /// Checks, before `program` first plays, that its sandbox works: the
    /// warnings say what only hurts the contestant itself (a folder it
    /// cannot write); `Err` says it would not be contained, that its
    /// program is not there, or that its folder already holds more than
    /// its bound.
    pub fn check(&self, program: &Program) -> Result<Vec<String>, ProbeError> {
        if !self.is_on() {
            return Ok(Vec::new());
        }
        let found = self.probe(program)?;
        let warnings = verdict(&found).map_err(|u| ProbeError::Uncontained(u.to_string()))?;
        if found.program_missing {
            // A program missing from its view would forfeit every game.
            return Err(ProbeError::NoProgram(format!(
                "its program {} is not there ({})",
                program.command, found.program
            )));
        }
        if found.usage.bytes > found.disk {
            return Err(ProbeError::Full(format!(
                "its folder already holds {}, more than its {} (--disk)",
                limits::format_size(found.usage.bytes),
                limits::format_size(found.disk)
            )));
        }
        Ok(warnings)
    }

    /// Starts `program`'s sandbox with a probe in place of the program and
    /// returns what the probe found inside.
    pub fn probe(&self, program: &Program) -> Result<Findings, ProbeError> {
        let Some(containment) = &self.containment else {
            return Err(ProbeError::Uncontained("the sandbox is off".into()));
        };
        let mut contained = match self.start_contained(containment, program, None, true) {
            Ok(contained) => contained,
            Err(StartError::NoProgram(e)) => return Err(ProbeError::NoProgram(e.to_string())),
            Err(StartError::System(e)) => {
                return Err(ProbeError::Uncontained(format!(
                    "cannot start the launcher: {e}"
                )));
            }
        };
        let reports = contained.reports.clone();
        let (end, found) = reports.wait(
            Instant::now() + PROBE_WITHIN,
            |h| h.closed,
            |h| (h.end.clone(), h.probe.clone()),
        );
        contained.kill();
        match (end, found) {
            (Some(End::Sandbox(why)), _) => Err(ProbeError::Uncontained(why)),
            (_, Some(found)) => Ok(found),
            (_, None) => Err(ProbeError::Uncontained(
                "the launcher reported nothing".into(),
            )),
        }
    }
}

/// Where a contestant's command is looked up: the judge's own folder (so
/// `inarow` names the judge's own program, whatever else `PATH` holds),
/// then the judge's `PATH`.
fn lookup_path() -> Option<std::ffi::OsString> {
    let own = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(PathBuf::from));
    std::env::join_paths(
        own.into_iter().chain(
            std::env::var_os("PATH")
                .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
                .unwrap_or_default(),
        ),
    )
    .ok()
}

/// The folders of `all` that are not `own` (a folder as given or as found):
/// what a contestant must never see. Two contestants sharing a folder see it.
fn others(all: &[PathBuf], own: &[&Path]) -> Vec<PathBuf> {
    all.iter()
        .filter(|f| !own.contains(&f.as_path()))
        .cloned()
        .collect()
}

fn start_plain(
    program: &Program,
    stderr: StderrSink,
    limits: &Limits,
) -> Result<Contestant, StartError> {
    // Found as a contained one would be (a file in its folder, or a name
    // in the judge's folder or PATH), so a meta means the same either way.
    let base = program.workdir.unwrap_or(program.folder);
    let path = paths::resolve_in_view(
        program.command,
        base,
        lookup_path().as_deref(),
        true,
        Closed::default(),
    )?;
    let mut command = Command::new(&path);
    command
        .args(program.args)
        .current_dir(base)
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if program.workdir.is_some() {
        // A brain's own folder, as contained.
        command.env("HOME", program.folder);
    }
    let mut contained = Contestant::spawn(command, None, None, false).map_err(|e| {
        let why = format!("{}: {e}", path.display());
        // Found by name or not, the file itself may be gone by now.
        if std::fs::symlink_metadata(&path).is_err() {
            StartError::NoProgram(paths::PathError(why))
        } else {
            StartError::System(io::Error::new(e.kind(), why))
        }
    })?;
    // Contained, the launcher names the limit; here the folder tells.
    contained.files = Some((program.folder.to_path_buf(), limits.file_size));
    let err = contained.child.stderr.take().expect("piped stderr");
    let mut stderr = stderr;
    let mut budget = lines::Budget::new(limits.stderr);
    std::thread::spawn(move || {
        lines::each_line(err, lines::MAX_STDERR_LINE, |text, cut| {
            if let Some(sink) = stderr.as_mut()
                && budget.allows(text.len(), cut)
            {
                sink(&lines::shown(text, cut));
            }
        });
        if let (Some(sink), Some(note)) = (stderr.as_mut(), budget.dropped_note()) {
            sink(&note);
        }
    });
    Ok(contained)
}

/// Polls `done` until it holds (true) or the deadline passes (false),
/// sleeping between polls in naps that grow from 50 µs to `longest`: most
/// programs end within a millisecond.
pub(crate) fn nap_until(
    deadline: Instant,
    longest: Duration,
    mut done: impl FnMut() -> bool,
) -> bool {
    let mut nap = Duration::from_micros(50);
    loop {
        if done() {
            return true;
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        std::thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(longest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_files_are_lowered_to_fit_half_the_host_table_never_below_a_start() {
        // 24 GiB: 2,466,177 entries; 4 bots of 256 processes fit at 1,024.
        let table = FileTable::fit(1024, 256, 4, Some(2_466_177));
        assert_eq!(table.per_process, 1024);
        assert_eq!(table.all(), 4 * 256 * 1024);
        assert!(table.all() <= 2_466_177 / 2);
        // 8 GiB, 8 bots at once: lowered.
        let table = FileTable::fit(1024, 256, 8, Some(800_000));
        assert_eq!(table.per_process, 800_000 / 2 / (8 * 256));
        assert!(table.all() <= 400_000);
        // Never below what a runtime needs to start.
        let table = FileTable::fit(1024, 256, 64, Some(100_000));
        assert_eq!(table.per_process, MIN_OPEN_FILES);
        // Asked for less: less.
        assert_eq!(
            FileTable::fit(100, 256, 2, Some(2_466_177)).per_process,
            100
        );
        // An unreadable host table leaves what was asked.
        assert_eq!(FileTable::fit(1024, 256, 2, None).per_process, 1024);
    }

    #[test]
    fn each_contestant_is_closed_to_the_others_folder_unless_they_share_it() {
        let (a, b) = (PathBuf::from("/a"), PathBuf::from("/b"));
        let both = [a.clone(), b.clone()];
        assert_eq!(others(&both, &[&a]), [PathBuf::from("/b")]);
        assert_eq!(others(&both, &[&b]), [PathBuf::from("/a")]);
        // Two brains in one folder, that folder given and found.
        assert!(others(&[a.clone(), a.clone()], &[&a, &a]).is_empty());
        assert!(others(std::slice::from_ref(&a), &[&a]).is_empty());
    }

    #[test]
    fn a_missing_program_is_told_apart_from_a_missing_folder_by_kind() {
        let dir = tempfile::tempdir().unwrap();
        let program = |command, folder| Program {
            name: "bot",
            command,
            args: &[],
            folder,
            workdir: None,
            grants: &[],
            closed: &[],
        };
        let sandbox = Sandbox::off();
        for command in ["./nothing", "no-such-program-anywhere"] {
            let err = sandbox
                .start(&program(command, dir.path()), None)
                .unwrap_err();
            assert!(matches!(err, StartError::NoProgram(_)), "{err:?}");
            let line = err.to_string();
            assert!(line.contains(command) && !line.contains('\n'), "{line}");
        }
        // The program is there, its folder is not: the system's trouble.
        let gone = dir.path().join("gone");
        let err = sandbox.start(&program("sh", &gone), None).unwrap_err();
        assert!(matches!(err, StartError::System(_)), "{err:?}");
    }
}
