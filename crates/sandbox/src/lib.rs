//! # inarow-sandbox
//!
//! One way to start a contestant: every program the project did not write
//! (a judge's bot, a Gomocup brain) runs through [`Sandbox::start`], and
//! runs on as a [`process::Running`]: lines within deadlines, its end, and
//! everything it started killed with it.
//!
//! Contained (the default), a contestant runs through the [`launcher`]:
//! its own PID, network, mount, IPC and UTS namespaces (so every process it
//! starts dies with its game, and it has no network), Landlock (its folder to
//! read and write, the system's programs and libraries to read, nothing
//! else), a memory and a process cap over all its processes (cgroups where
//! the machine allows, resource limits as the floor), CPU-time and file-size
//! limits, and, when the judge runs as root, an unprivileged user. Without
//! containment (`--no-sandbox`) it runs as a plain child in a process group
//! of its own, as the judge always did.
//!
//! Either way the contestant's standard error arrives in bounded lines, its
//! end (exit code, signal, or why it never started) is known, and killing
//! it kills every process it started.
//!
//! Nothing here knows of games: the judge (`inarow-judge`) and the match
//! runner (`inarow-match`) build on it. Linux only: namespaces, Landlock,
//! cgroups, process groups and `poll`.
#![deny(missing_docs)]

pub mod cgroup;
pub mod disk;
pub mod launcher;
pub mod limits;
pub mod lines;
pub mod paths;
pub mod process;
pub mod suid;
mod sys;
pub mod view;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::{Pid, geteuid};

pub use cgroup::Cgroups;
use launcher::{Frame, Identity, Spec};
pub use limits::{Limit, Limits};
use paths::Paths;

/// The first uid given to contestants: far above the uids of people and
/// system services, below 2^31 (which some programs read as negative).
pub const FIRST_UID: u32 = 0x7000_0000;
/// Contestants one judge can tell apart by uid.
pub const MAX_CONTESTANTS: u32 = 1 << 12;

/// The judge's own program, started in place of each contestant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launcher {
    /// The program (`inarow`).
    pub program: PathBuf,
    /// Arguments before the launcher's own (`["__contain"]`).
    pub prefix: Vec<String>,
}

impl Launcher {
    /// This very program, started with the hidden `prefix` argument.
    pub fn this_program(prefix: &str) -> io::Result<Launcher> {
        Ok(Launcher {
            program: std::env::current_exe()?,
            prefix: vec![prefix.to_string()],
        })
    }
}

/// How contestants are started: contained or not, and their limits.
#[derive(Clone, Debug)]
pub struct Sandbox {
    containment: Option<Containment>,
    limits: Limits,
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
    /// The uid of each contestant folder met so far, by its place in this list.
    uids: Arc<Mutex<Vec<PathBuf>>>,
    /// As root: for each contestant folder, the user namespace that maps its
    /// owner to the contestant (made once, held open for the launchers).
    idmaps: Arc<Mutex<BTreeMap<PathBuf, OwnedFd>>>,
}

/// One program to start.
#[derive(Clone, Debug)]
pub struct Program<'a> {
    /// The contestant's name, for messages.
    pub name: &'a str,
    /// The command as written: a path with a `/` (from `folder` when
    /// relative) or a name looked up in `PATH`.
    pub command: &'a str,
    /// Its arguments.
    pub args: &'a [String],
    /// Its folder: it runs there, and may write only there.
    pub folder: &'a Path,
    /// More paths it may read (from its meta file), checked by the caller.
    pub grants: &'a [PathBuf],
    /// Every contestant's folder: it must never see the others' (its own
    /// may be among them).
    pub closed: &'a [PathBuf],
}

/// Where a contestant's standard error lines go; `None` drops them.
pub type StderrSink = Option<Box<dyn FnMut(&str) + Send>>;

/// Why a probe found no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The contestant's program is not there (it would forfeit its games).
    #[error("{0}")]
    NoProgram(String),
    /// The sandbox does not work.
    #[error("{0}")]
    Uncontained(String),
}

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
    /// system's paths once.
    pub fn contained(launcher: Launcher, limits: Limits, grants: Vec<PathBuf>) -> Sandbox {
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
                cgroups: Arc::new(Cgroups::discover()),
                read,
                devices: paths::devices(),
                env,
                path_var,
                uids: Arc::new(Mutex::new(Vec::new())),
                idmaps: Arc::new(Mutex::new(BTreeMap::new())),
            }),
            limits,
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
        }
    }

    /// The same sandbox, with each contestant's disk limit bounding what its
    /// folder gains while it runs rather than all it holds (for brains,
    /// which live in installations).
    pub fn disk_counts_growth(mut self) -> Sandbox {
        self.limits.disk_growth = true;
        self
    }

    /// Whether contestants are contained.
    pub fn is_on(&self) -> bool {
        self.containment.is_some()
    }

    /// The limits every contestant gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The control groups in use, if contained.
    pub fn cgroups(&self) -> Option<&Cgroups> {
        self.containment.as_ref().map(|c| &*c.cgroups)
    }

    /// Starts `program` with piped standard input and output; its standard
    /// error goes to `stderr` a bounded line at a time. Fails once
    /// [`shut_down`] has been called. Contained, the program dies with the
    /// thread that starts it (the kernel's parent-death signal follows the
    /// thread), so start it from the thread that plays its games.
    pub fn start(&self, program: &Program, stderr: StderrSink) -> io::Result<Contained> {
        match &self.containment {
            None => start_plain(program, stderr, &self.limits),
            Some(containment) => self.start_contained(containment, program, stderr, false),
        }
    }

    fn spec(&self, containment: &Containment, program: &Program, probe: bool) -> io::Result<Spec> {
        let path_var = containment.path_var.as_deref();
        let folder = program.folder.canonicalize()?;
        let rootless = !geteuid().is_root();
        let identity = identity(&containment.uids, &folder, rootless)?;
        let idmap = if rootless {
            None
        } else {
            Some(containment.idmap(&folder, &identity)?)
        };
        let resolved = paths::resolve_in_view(program.command, &folder, path_var, rootless)
            .map_err(|e| io::Error::new(io::ErrorKind::NotFound, e.0))?;
        let hidden = others(program.closed, &[program.folder, &folder]);
        let mut closed = hidden.clone();
        closed.extend(std::env::var_os("HOME").map(PathBuf::from));
        let mut read = containment.read.clone();
        if !resolved.starts_with(&folder) {
            read.extend(paths::installation(&resolved, &folder, path_var, &closed));
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
            },
            env,
            limits: self.limits,
            // With a memory group counting every process, this only stops one
            // process from reserving absurd amounts.
            data_limit: if cgroups.memory() {
                self.limits.memory.saturating_mul(2)
            } else {
                self.limits.memory
            },
            nproc: rootless || !cgroups.pids(),
            cgroups: Vec::new(),
            identity,
            rootless,
            idmap,
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
    ) -> io::Result<Contained> {
        let mut spec = self.spec(containment, program, probe)?;
        let group = containment.cgroups.create(&self.limits)?;
        if let Some(group) = &group {
            spec.cgroups = group.procs_files();
        }
        let json = serde_json::to_string(&spec).map_err(io::Error::other)?;
        let mut command = Command::new(&containment.launcher.program);
        command
            .args(&containment.launcher.prefix)
            .arg("outer")
            .arg(json)
            .env_clear()
            .process_group(0)
            .stdin(if probe { Stdio::null() } else { Stdio::piped() })
            .stdout(if probe { Stdio::null() } else { Stdio::piped() })
            .stderr(Stdio::piped());
        let mut contained = register(command, group, true)?;
        contained.files = Some((spec.paths.folder.clone(), self.limits.file_size));
        let frames = contained.child.stderr.take().expect("piped stderr");
        let end = contained.end_slot.clone();
        let mut stderr = stderr;
        let probes = contained.probes.clone();
        let over = contained.watched.clone();
        std::thread::spawn(move || {
            lines::each_line(
                frames,
                lines::MAX_STDERR_LINE + 64,
                |line, _| match Frame::decode(line) {
                    Some(Frame::Stderr(text, cut)) => {
                        if let Some(sink) = stderr.as_mut() {
                            sink(&lines::shown(&text, cut));
                        }
                    }
                    Some(Frame::Exit(code)) => end.set(End::Exit(code)),
                    Some(Frame::Signal(signal)) => end.set(End::Signal(signal)),
                    Some(Frame::NoStart(why)) => end.set(End::NoStart(why)),
                    Some(Frame::Sandbox(why)) => end.set(End::Sandbox(why)),
                    Some(Frame::Probe(what, found)) => {
                        lock(&probes).push((what, found));
                    }
                    Some(Frame::Over(limit)) => {
                        lock(&over).get_or_insert(limit);
                    }
                    None => {}
                },
            );
            end.close();
        });
        Ok(contained)
    }

    /// Checks, before `program` first plays, that its sandbox works: the
    /// warnings say what only hurts the contestant itself (a folder it
    /// cannot write); `Err` says it would not be contained, or that its
    /// program is not there.
    pub fn check(&self, program: &Program) -> Result<Vec<String>, ProbeError> {
        if !self.is_on() {
            return Ok(Vec::new());
        }
        let found = self.probe(program)?;
        let warnings = verdict(&found).map_err(ProbeError::Uncontained)?;
        // A program missing from its view would forfeit every game.
        match found.iter().find(|(what, _)| what == "program") {
            Some((_, finding)) if finding.contains("No such file") => Err(ProbeError::NoProgram(
                format!("its program {} is not there ({finding})", program.command),
            )),
            _ => Ok(warnings),
        }
    }

    /// Starts `program`'s sandbox with a probe in place of the program and
    /// returns what the probe found inside, as (what, finding) pairs.
    pub fn probe(&self, program: &Program) -> Result<Vec<(String, String)>, ProbeError> {
        let Some(containment) = &self.containment else {
            return Err(ProbeError::Uncontained("the sandbox is off".into()));
        };
        let mut contained = match self.start_contained(containment, program, None, true) {
            Ok(contained) => contained,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(ProbeError::NoProgram(e.to_string()));
            }
            Err(e) => {
                return Err(ProbeError::Uncontained(format!(
                    "cannot start the launcher: {e}"
                )));
            }
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        let end = contained.end_slot.wait_closed(deadline);
        contained.kill();
        match end {
            Some(End::Sandbox(why)) => Err(ProbeError::Uncontained(why)),
            _ => {
                let found = lock(&contained.probes).clone();
                if found.is_empty() {
                    Err(ProbeError::Uncontained(
                        "the launcher reported nothing".into(),
                    ))
                } else {
                    Ok(found)
                }
            }
        }
    }
}

impl Containment {
    /// The file descriptor of the user namespace that maps `folder`'s owner
    /// to its contestant, made on first use by a `hold` launcher (this
    /// process runs threads, so it cannot make one itself).
    fn idmap(&self, folder: &Path, identity: &Identity) -> io::Result<i32> {
        let mut known = lock(&self.idmaps);
        if let Some(fd) = known.get(folder) {
            return Ok(fd.as_raw_fd());
        }
        let err = |e: &dyn std::fmt::Display| {
            io::Error::other(format!("cannot map the bot's folder to its uid: {e}"))
        };
        let mut holder = Command::new(&self.launcher.program)
            .args(&self.launcher.prefix)
            .arg("hold")
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| err(&e))?;
        let made = (|| {
            let mut ready = [0u8; 6];
            holder
                .stdout
                .as_mut()
                .expect("piped stdout")
                .read_exact(&mut ready)
                .map_err(|e| err(&e))?;
            let pid = holder.id();
            let map = |file: &str, text: String| {
                std::fs::write(format!("/proc/{pid}/{file}"), text).map_err(|e| err(&e))
            };
            map(
                "uid_map",
                format!("{} {} 1", identity.owner_uid, identity.uid),
            )?;
            map(
                "gid_map",
                format!("{} {} 1", identity.owner_gid, identity.gid),
            )?;
            std::fs::File::open(format!("/proc/{pid}/ns/user"))
                .map(OwnedFd::from)
                .map_err(|e| err(&e))
        })();
        drop(holder.stdin.take());
        let _ = holder.kill();
        let _ = holder.wait();
        let fd = made?;
        let raw = fd.as_raw_fd();
        known.insert(folder.to_path_buf(), fd);
        Ok(raw)
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

/// Whether the judge runs as root, so that bots run as other users.
pub fn judge_is_root() -> bool {
    geteuid().is_root()
}

/// Reads a probe's findings: `Err` names what leaves a contestant
/// uncontained; the warnings say what only hurts the contestant itself.
pub fn verdict(findings: &[(String, String)]) -> Result<Vec<String>, String> {
    let get = |what: &str| {
        findings
            .iter()
            .find(|(w, _)| w == what)
            .map_or("not reported", |(_, f)| f.as_str())
    };
    let mut problems = Vec::new();
    if !get("files").contains("is closed") {
        problems.push(format!("files: {}", get("files")));
    }
    if !get("view").starts_with("own") {
        problems.push(format!("view: {}", get("view")));
    }
    if !get("pid-namespace").starts_with("own") {
        problems.push(format!("processes: {}", get("pid-namespace")));
    }
    if !get("network").starts_with("none") {
        problems.push(format!("network: {}", get("network")));
    }
    if !get("user").starts_with("uid") {
        problems.push(format!("user: {}", get("user")));
    }
    if get("setuid").starts_with("allowed") {
        problems.push(format!("setuid: {}", get("setuid")));
    }
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    let mut warnings = Vec::new();
    if get("folder") != "writable" {
        warnings.push(format!(
            "its folder is {} for {}: it cannot keep files",
            get("folder"),
            get("user")
        ));
    }
    if get("program") != "readable" {
        warnings.push(format!(
            "its program {} inside its view (grant what it needs with --allow-read BOT=PATH)",
            get("program")
        ));
    }
    Ok(warnings)
}

/// The folders of `all` that are not `own` (a folder as given or as found):
/// what a contestant must never see. Two contestants sharing a folder see it.
fn others(all: &[PathBuf], own: &[&Path]) -> Vec<PathBuf> {
    all.iter()
        .filter(|f| !own.contains(&f.as_path()))
        .cloned()
        .collect()
}

/// Who the contestant of `folder` is: its own uid and gid, the same in
/// every game of this judge and no other contestant's (the first folder met
/// gets [`FIRST_UID`] plus a number of this judge's, the next one more), and
/// the owner of its folder, whose files it sees as its own.
fn identity(uids: &Mutex<Vec<PathBuf>>, folder: &Path, rootless: bool) -> io::Result<Identity> {
    let mut known = lock(uids);
    let index = match known.iter().position(|f| f == folder) {
        Some(index) => index,
        None => {
            known.push(folder.to_path_buf());
            known.len() - 1
        }
    } as u32;
    if index >= MAX_CONTESTANTS {
        return Err(io::Error::other(format!(
            "more than {MAX_CONTESTANTS} contestants: no uid left for {}",
            folder.display()
        )));
    }
    // Judges running at once (shares, a server) most likely differ here.
    let judge = std::process::id() % (1 << 16);
    let uid = FIRST_UID + judge * MAX_CONTESTANTS + index;
    let (owner_uid, owner_gid) = if rootless {
        // Inside the launcher's user namespace the judge's own ids are root.
        (0, 0)
    } else {
        let meta = folder.metadata()?;
        (meta.uid(), meta.gid())
    };
    Ok(Identity {
        uid,
        gid: uid,
        owner_uid,
        owner_gid,
    })
}

fn start_plain(program: &Program, stderr: StderrSink, limits: &Limits) -> io::Result<Contained> {
    // Found as a contained one would be (a file in its folder, or a name
    // in the judge's folder or PATH), so a meta means the same either way.
    let path = paths::resolve_in_view(
        program.command,
        program.folder,
        lookup_path().as_deref(),
        true,
    )
    .map_err(|e| io::Error::new(io::ErrorKind::NotFound, e.0))?;
    let mut command = Command::new(&path);
    command
        .args(program.args)
        .current_dir(program.folder)
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut contained = register(command, None, false)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
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

/// Process groups of every contestant now running, and whether new ones
/// may still start.
struct Registry {
    closed: bool,
    groups: BTreeSet<i32>,
}

static LIVE: Mutex<Registry> = Mutex::new(Registry {
    closed: false,
    groups: BTreeSet::new(),
});

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

fn register(
    mut command: Command,
    cgroup: Option<cgroup::Group>,
    contained: bool,
) -> io::Result<Contained> {
    let mut live = lock(&LIVE);
    if live.closed {
        return Err(io::Error::other("shutting down: no new contestant starts"));
    }
    let mut child = command.spawn()?;
    let group = child.id() as i32;
    live.groups.insert(group);
    drop(live);
    Ok(Contained {
        stdin: child.stdin.take(),
        stdout: child.stdout.take(),
        child,
        group,
        cgroup,
        contained,
        end_slot: Arc::new(EndSlot::default()),
        probes: Arc::new(Mutex::new(Vec::new())),
        watched: Arc::new(Mutex::new(None)),
        went_over: None,
        files: None,
        finished: false,
    })
}

/// Whether a file of `limit` bytes or more lies in `folder` (three levels
/// deep, the first 10,000 entries): what writing past the limit leaves.
fn holds_file_of(folder: &Path, limit: u64) -> bool {
    let (_, found) = disk::walk(folder, 10_000, 3, |meta| {
        if meta.is_file() && meta.len() >= limit {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    found
}

/// Kills every contestant now running and lets no new one start, for the
/// rest of this process's life: for Ctrl-C and for a server that stops.
/// Returns how many were killed.
pub fn shut_down() -> usize {
    let mut live = lock(&LIVE);
    live.closed = true;
    for &group in &live.groups {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
    live.groups.len()
}

/// The end of a contained program, as the launcher reports it.
#[derive(Debug, Default)]
struct EndSlot {
    state: Mutex<(Option<End>, bool)>,
    changed: Condvar,
}

impl EndSlot {
    fn set(&self, end: End) {
        let mut state = lock(&self.state);
        state.0.get_or_insert(end);
        self.changed.notify_all();
    }

    /// No more reports will come.
    fn close(&self) {
        lock(&self.state).1 = true;
        self.changed.notify_all();
    }

    /// The end once known, or `None` at the deadline or when reports stop without one.
    fn wait(&self, deadline: Instant) -> Option<End> {
        self.wait_for(deadline, |(end, closed)| end.is_some() || *closed)
    }

    /// Waits until the reports stop (or the deadline), then gives the end if known.
    fn wait_closed(&self, deadline: Instant) -> Option<End> {
        self.wait_for(deadline, |(_, closed)| *closed)
    }

    /// Waits until `done` holds of the state or the deadline passes; the end if known.
    fn wait_for(
        &self,
        deadline: Instant,
        done: impl Fn(&(Option<End>, bool)) -> bool,
    ) -> Option<End> {
        let mut state = lock(&self.state);
        while !done(&state) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = self
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        state.0.clone()
    }
}

/// A running contestant: its pipes, its end, its limits; killed with
/// everything it started when dropped.
#[derive(Debug)]
pub struct Contained {
    /// Its standard input (take it to write).
    pub stdin: Option<ChildStdin>,
    /// Its standard output (take it to read).
    pub stdout: Option<ChildStdout>,
    child: Child,
    group: i32,
    cgroup: Option<cgroup::Group>,
    contained: bool,
    end_slot: Arc<EndSlot>,
    probes: Arc<Mutex<Vec<(String, String)>>>,
    /// A limit the launcher watched and saw passed (the disk).
    watched: Arc<Mutex<Option<Limit>>>,
    went_over: Option<Limit>,
    /// Its folder and file-size limit, until looked through once.
    files: Option<(PathBuf, u64)>,
    finished: bool,
}

impl Contained {
    /// The process id of what was started (the launcher, when contained),
    /// which is also its process group.
    pub fn id(&self) -> u32 {
        self.group as u32
    }

    /// How the program ended, waiting until `deadline` to hear it; `None`
    /// if it still runs (or its end cannot be known).
    pub fn end(&mut self, deadline: Instant) -> Option<End> {
        if self.contained {
            return self.end_slot.wait(deadline);
        }
        let mut status = None;
        nap_until(deadline, Duration::from_millis(5), || {
            status = self.child.try_wait().ok().flatten();
            status.is_some()
        });
        status.map(|status| match (status.code(), status.signal()) {
            (Some(code), _) => End::Exit(code),
            (None, Some(signal)) => End::Signal(signal),
            _ => End::Exit(-1),
        })
    }

    /// The limit it went over so far, if any.
    pub fn went_over(&mut self) -> Option<Limit> {
        if self.went_over.is_none() {
            let end = self.end_slot_peek();
            let by_signal = match end {
                Some(End::Signal(s)) if s == Signal::SIGXCPU as i32 => Some(Limit::Cpu),
                Some(End::Signal(s)) if s == Signal::SIGXFSZ as i32 => Some(Limit::FileSize),
                _ => None,
            };
            // Runtimes that ignore SIGXFSZ (Python) fail with EFBIG instead and
            // usually crash: the file they were writing is left at the limit.
            let failed = matches!(end, Some(End::Signal(_)) | Some(End::Exit(1..)));
            let by_file = || {
                // Looked through once, when the program has failed.
                let (folder, limit) = self.files.take_if(|_| failed)?;
                holds_file_of(&folder, limit).then_some(Limit::FileSize)
            };
            let watched = *lock(&self.watched);
            self.went_over = watched
                .or_else(|| self.cgroup.as_ref().and_then(cgroup::Group::went_over))
                .or(by_signal)
                .or_else(by_file);
        }
        self.went_over
    }

    fn end_slot_peek(&mut self) -> Option<End> {
        if self.contained {
            lock(&self.end_slot.state).0.clone()
        } else {
            self.end(Instant::now())
        }
    }

    /// Waits until every process it started has ended, or the deadline;
    /// true if they all did.
    pub fn wait_gone(&mut self, deadline: Instant) -> bool {
        let group = Pid::from_raw(self.group);
        let contained = self.contained;
        nap_until(deadline, Duration::from_millis(2), || {
            // Contained, the launcher ends only when its namespace is empty.
            matches!(self.child.try_wait(), Ok(Some(_)))
                && (contained || killpg(group, None).is_err())
        })
    }

    /// Kills it and everything it started, and removes its control groups.
    pub fn kill(&mut self) {
        if self.finished {
            return;
        }
        let group = Pid::from_raw(self.group);
        let members_left = killpg(group, Signal::SIGKILL).is_ok();
        let _ = self.child.wait();
        if members_left && !self.contained {
            // SIGKILL lands asynchronously; wait (briefly: unreaped zombies also
            // answer) until the leftovers are really gone.
            let deadline = Instant::now() + Duration::from_millis(200);
            nap_until(deadline, Duration::from_millis(1), || {
                killpg(group, None).is_err()
            });
        }
        // Read before the groups go: they hold the record.
        self.went_over();
        if let Some(mut cgroup) = self.cgroup.take() {
            cgroup.remove();
        }
        lock(&LIVE).groups.remove(&self.group);
        self.finished = true;
    }
}

impl Drop for Contained {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Polls `done` until it holds (true) or the deadline passes (false),
/// sleeping between polls in naps that grow from 50 µs to `longest`: most
/// programs end within a millisecond.
fn nap_until(deadline: Instant, longest: Duration, mut done: impl FnMut() -> bool) -> bool {
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

    fn findings(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(w, f)| (w.to_string(), f.to_string()))
            .collect()
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
    fn a_file_at_the_limit_is_found_a_few_levels_down() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(dir.path().join("small"), [0u8; 10]).unwrap();
        assert!(!holds_file_of(dir.path(), 100));
        std::fs::write(deep.join("big"), [0u8; 100]).unwrap();
        assert!(holds_file_of(dir.path(), 100));
        assert!(!holds_file_of(dir.path(), 101));
    }

    #[test]
    fn a_probe_passes_only_when_everything_is_contained() {
        let good = [
            ("landlock", "fully enforced"),
            ("files", "/ is closed (Permission denied)"),
            (
                "view",
                "own (its folder, the system's programs; 2 other folders absent)",
            ),
            ("pid-namespace", "own (...)"),
            ("network", "none (own namespace, loopback only)"),
            ("user", "uid 65534"),
            ("folder", "writable"),
            ("setuid", "refused"),
            ("program", "readable"),
        ];
        assert_eq!(verdict(&findings(&good)), Ok(Vec::new()));
        let mut shared = good;
        shared[4] = ("network", "shared (eth0, lo)");
        assert!(
            verdict(&findings(&shared))
                .unwrap_err()
                .contains("network: shared")
        );
        let mut root = good;
        root[5] = ("user", "root");
        assert!(
            verdict(&findings(&root))
                .unwrap_err()
                .contains("user: root")
        );
        let mut suid = good;
        suid[7] = (
            "setuid",
            "allowed (a setuid file of the folder's owner could be made)",
        );
        assert!(verdict(&findings(&suid)).unwrap_err().contains("setuid"));
        let mut seen = good;
        seen[2] = ("view", "shared (/bots/bob visible)");
        assert!(
            verdict(&findings(&seen))
                .unwrap_err()
                .contains("/bots/bob visible")
        );
        let mut read_only = good;
        read_only[6] = ("folder", "not writable (Permission denied)");
        let warnings = verdict(&findings(&read_only)).unwrap();
        assert!(warnings[0].contains("cannot keep files"), "{warnings:?}");
        assert!(
            verdict(&findings(&good[..2])).is_err(),
            "a silent probe is no proof"
        );
    }
}
