//! The launcher: the judge's own program, started in place of a contestant,
//! contains itself with the kernel's mechanisms and only then starts the
//! contestant's program. Doing it in a fresh process keeps the judge free of
//! `unsafe` (no code runs between `fork` and `exec`).
//!
//! Two stages, because a new PID namespace applies to the children of the
//! process that makes it:
//!
//! 1. **outer** (a child of the judge): closes every file descriptor but
//!    0, 1 and 2, dies with the judge, joins the contestant's control groups,
//!    (as root) makes the user namespace that maps the contestant's folder to
//!    its own uid, makes new user (when not root), PID, network, mount, IPC
//!    and UTS namespaces, and starts stage 2. It then relays, as frames on
//!    its standard error, the contestant's standard error (cut into bounded
//!    lines, bounded in total) and what stage 2 reports, and measures the
//!    contestant's folder against its disk limit. (After
//!    `unshare(CLONE_NEWPID)` a process may start no thread, so stage 1
//!    relays with `poll`.)
//! 2. **init** (PID 1 of the new namespace): leaves the judge's session,
//!    dies with stage 1, builds and enters the contestant's own view of the
//!    file system ([`crate::view`]), sets the resource limits, becomes the
//!    contestant's uid (as an ordinary user, in a user namespace nested in
//!    its own), restricts itself with Landlock and a seccomp filter that
//!    refuses setuid and setgid files ([`crate::suid`]), starts the program, and reaps
//!    every process of the namespace. When it ends, the kernel kills
//!    everything left in the namespace.
//!
//! Stage 2 reports to stage 1 through a pipe the program never holds, so a
//! contestant cannot forge what the judge hears about it.

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, LandlockStatus, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};
use nix::fcntl::{FcntlArg, FdFlag, OFlag, fcntl};
use nix::mount::{MsFlags, mount};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::Signal;
use nix::sys::wait::{WaitStatus, waitpid};
use nix::unistd::{Gid, Uid, getegid, geteuid, getppid, pipe2};
use serde::{Deserialize, Serialize};

use crate::limits::{Limit, Limits};
use crate::lines::{Budget, Cutter, MAX_STDERR_LINE};
use crate::paths::Paths;

/// The landlock ABI whose rights are asked for; older kernels enforce what
/// they know (best effort), and the probe reports what was enforced.
const LANDLOCK_ABI: ABI = ABI::V10;

/// Everything the launcher needs, handed over as JSON on its command line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Spec {
    /// The program to run, as found by the judge.
    pub program: PathBuf,
    /// The program's name as the meta file gives it (its `argv[0]`).
    pub arg0: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// What it may touch; it runs in `paths.folder`.
    pub paths: Paths,
    /// Its whole environment.
    pub env: BTreeMap<String, String>,
    /// Its limits.
    pub limits: Limits,
    /// The data-segment limit of each process (`RLIMIT_DATA`), in bytes.
    pub data_limit: u64,
    /// Whether to cap processes with `RLIMIT_NPROC` (where no pids group counts them).
    pub nproc: bool,
    /// The `cgroup.procs` files to join before anything else.
    pub cgroups: Vec<PathBuf>,
    /// Who the contestant is.
    pub identity: Identity,
    /// Whether the judge is an ordinary user (the contestant's uid is then
    /// one of a user namespace nested in the launcher's own).
    pub rootless: bool,
    /// As root: the judge's file descriptor of the user namespace mapping
    /// the folder's owner to the contestant (made by a `hold` launcher).
    pub idmap: Option<i32>,
    /// Paths that must not exist in the contestant's view (the other
    /// contestants' folders): what the probe checks.
    pub hidden: Vec<PathBuf>,
    /// The judge's process id: the launcher ends itself if the judge is gone.
    pub judge: u32,
    /// Check the sandbox and report instead of running the program.
    pub probe: bool,
}

/// The contestant's uid and gid (its own, no other contestant's and not the
/// judge's), and the owner of its folder on disk, whose files it sees as its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The contestant's uid.
    pub uid: u32,
    /// The contestant's gid.
    pub gid: u32,
    /// The uid owning its folder on disk.
    pub owner_uid: u32,
    /// The gid owning its folder on disk.
    pub owner_gid: u32,
}

/// One message of the launcher to the judge, a line on the launcher's stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A line of the contestant's standard error, and how many bytes of it were cut.
    Stderr(String, u64),
    /// The program ended with this exit code.
    Exit(i32),
    /// The program was killed by this signal.
    Signal(i32),
    /// The program could not be started.
    NoStart(String),
    /// The sandbox could not be set up; the program never ran.
    Sandbox(String),
    /// One finding of a probe: what, and what was found.
    Probe(String, String),
    /// The contestant went over a limit the launcher watches (its disk), and
    /// was killed.
    Over(Limit),
}

impl Frame {
    /// The frame as one line (without the newline).
    pub fn encode(&self) -> String {
        let flat = |s: &str| s.replace(['\n', '\r'], " ");
        match self {
            Frame::Stderr(text, cut) => format!("E {cut} {}", flat(text)),
            Frame::Exit(code) => format!("X {code}"),
            Frame::Signal(signal) => format!("S {signal}"),
            Frame::NoStart(why) => format!("N {}", flat(why)),
            Frame::Sandbox(why) => format!("F {}", flat(why)),
            Frame::Probe(what, found) => {
                format!("P {} {}", flat(what).replace(' ', "-"), flat(found))
            }
            Frame::Over(limit) => format!("O {}", limit.name()),
        }
    }

    /// Reads a frame; `None` for a line that is not one.
    pub fn decode(line: &str) -> Option<Frame> {
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        Some(match tag {
            "E" => {
                let (cut, text) = rest.split_once(' ').unwrap_or((rest, ""));
                Frame::Stderr(text.to_string(), cut.parse().ok()?)
            }
            "X" => Frame::Exit(rest.parse().ok()?),
            "S" => Frame::Signal(rest.parse().ok()?),
            "N" => Frame::NoStart(rest.to_string()),
            "F" => Frame::Sandbox(rest.to_string()),
            "P" => {
                let (what, found) = rest.split_once(' ').unwrap_or((rest, ""));
                Frame::Probe(what.to_string(), found.to_string())
            }
            "O" => Frame::Over(match rest {
                "disk" => Limit::Disk,
                _ => return None,
            }),
            _ => return None,
        })
    }
}

/// Writes one frame to this process's standard error; frames from several
/// threads never interleave within a line.
fn report(frame: &Frame) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", frame.encode());
    let _ = err.flush();
}

/// The launcher's entry point. `prefix` is what its own program needs
/// before the stage (`["__contain"]` for `inarow __contain`), `args` what
/// follows: `outer JSON`, `init FD IDMAP-FD OUTER-PID JSON` or `hold`.
/// Returns the exit code.
pub fn main(prefix: &[&str], args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let parsed = |json: &str| serde_json::from_str::<Spec>(json).map_err(|e| e.to_string());
    match words.as_slice() {
        ["outer", json] => {
            // Whatever the judge was started with (`exec 8<secret`) stays out.
            close_inherited(&[]);
            match parsed(json) {
                Ok(spec) => outer(prefix, &spec, json),
                Err(e) => fail(&format!("the launcher's settings do not read: {e}")),
            }
        }
        ["init", fd, idmap, outer_pid, json] => {
            match (
                parsed(json),
                fd.parse::<i32>(),
                idmap.parse::<i32>(),
                outer_pid.parse::<i32>(),
            ) {
                (Ok(spec), Ok(fd), Ok(idmap), Ok(outer_pid)) => {
                    close_inherited(&[fd, idmap]);
                    init(&spec, fd, idmap, outer_pid)
                }
                _ => fail("the launcher's second stage was started wrongly"),
            }
        }
        ["hold"] => hold(),
        _ => {
            eprintln!(
                "inarow: the launcher is started by the judge only (outer JSON | init FD FD PID JSON | hold)"
            );
            2
        }
    }
}

/// Closes every file descriptor above 2 but `keep`: nothing the judge
/// inherited reaches a contestant.
fn close_inherited(keep: &[i32]) {
    let open: Vec<i32> = match fs::read_dir("/proc/self/fd") {
        Ok(entries) => entries
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .collect(),
        Err(_) => (3..1024).collect(),
    };
    for fd in open {
        if fd > 2 && !keep.contains(&fd) {
            let _ = nix::unistd::close(fd);
        }
    }
}

/// A process that only holds a new user namespace for the judge to map and
/// open (a process cannot make one for others, and the judge runs threads,
/// which may not): says `ready`, then waits for its standard input to close.
fn hold() -> i32 {
    if unshare(CloneFlags::CLONE_NEWUSER).is_err() {
        return 1;
    }
    println!("ready");
    let _ = std::io::stdout().flush();
    let mut rest = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut rest);
    0
}

fn fail(why: &str) -> i32 {
    report(&Frame::Sandbox(why.to_string()));
    1
}

/// Stage 1: see the module documentation.
fn outer(prefix: &[&str], spec: &Spec, json: &str) -> i32 {
    // Dies with the judge; if the judge is already gone, nobody would kill us.
    if prctl::set_pdeathsig(Signal::SIGKILL).is_err() || getppid().as_raw() as u32 != spec.judge {
        return 1;
    }
    let pid = std::process::id().to_string();
    for procs in &spec.cgroups {
        if let Err(e) = fs::write(procs, &pid) {
            return fail(&format!("cannot join the cgroup {}: {e}", procs.display()));
        }
    }
    // The judge made (once per contestant) the user namespace that maps the
    // folder's owner to the contestant, and holds it open.
    let idmap = match spec.idmap {
        Some(fd) => match fs::File::open(format!("/proc/{}/fd/{fd}", spec.judge)) {
            Ok(file) => Some(OwnedFd::from(file)),
            Err(e) => return fail(&format!("cannot map the bot's folder to its uid: {e}")),
        },
        None => None,
    };
    if let Err(why) = namespaces() {
        return fail(&why);
    }
    let (status_read, status_write) = match pipe2(OFlag::O_CLOEXEC) {
        Ok(fds) => fds,
        Err(e) => return fail(&format!("cannot make a pipe: {e}")),
    };
    // Stage 2 inherits the write end (and reopens it close-on-exec) and the
    // namespace of the id mapping. This process runs no other thread, so no
    // other child can inherit them.
    for fd in std::iter::once(&status_write).chain(idmap.as_ref()) {
        if let Err(e) = fcntl(fd, FcntlArg::F_SETFD(FdFlag::empty())) {
            return fail(&format!("cannot pass a file descriptor on: {e}"));
        }
    }
    let idmap_fd = idmap.as_ref().map_or(-1, |fd| fd.as_raw_fd());
    let child = Command::new("/proc/self/exe")
        .args(prefix)
        .arg("init")
        .arg(status_write.as_raw_fd().to_string())
        .arg(idmap_fd.to_string())
        .arg(&pid)
        .arg(json)
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .spawn();
    drop(status_write);
    drop(idmap);
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return fail(&format!("cannot start the launcher's second stage: {e}")),
    };
    let_go_of_the_pipes();
    let stderr = OwnedFd::from(child.stderr.take().expect("piped stderr"));
    let watch = Watch {
        folder: (!spec.probe).then(|| spec.paths.folder.clone()),
        disk: spec.limits.disk,
        growth: spec.limits.disk_growth,
        stderr: Budget::new(spec.limits.stderr),
    };
    relay(
        fs::File::from(stderr),
        fs::File::from(status_read),
        watch,
        &mut child,
    );
    let _ = child.wait();
    0
}

/// What stage 1 watches while it relays: the folder's size against the disk
/// limit, and the standard error shown against its budget.
struct Watch {
    folder: Option<PathBuf>,
    disk: u64,
    /// Whether `disk` bounds the growth over the first measure.
    growth: bool,
    stderr: Budget,
}

/// The shortest time between two measures of a folder; a folder that takes
/// long to walk is measured less often (at most a tenth of the time goes
/// to measuring).
const DISK_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// Relays, until both close, the program's standard error (cut into
/// bounded lines, bounded in total) and stage 2's reports, and kills stage
/// 2 (so the whole namespace) when the folder grows past its disk limit.
/// One thread: after a new PID namespace, this process can start no thread.
fn relay(stderr: fs::File, status: fs::File, mut watch: Watch, stage2: &mut std::process::Child) {
    let mut sources = [
        (Some(stderr), Cutter::new(MAX_STDERR_LINE)),
        (Some(status), Cutter::new(MAX_STDERR_LINE + 64)),
    ];
    let mut chunk = [0u8; 8192];
    let mut next_measure = std::time::Instant::now();
    let mut over = false;
    let mut limit = None;
    while sources.iter().any(|(s, _)| s.is_some()) {
        if let Some(folder) = watch.folder.as_ref().filter(|_| !over) {
            let now = std::time::Instant::now();
            if now >= next_measure {
                use crate::disk::{MAX_ENTRIES, Usage, usage};
                if limit.is_none() && watch.growth {
                    // Counting growth, the first measure is the base: nothing
                    // is gained yet.
                    let base = usage(folder, usize::MAX);
                    limit = Some(Usage::limit(watch.disk, Some(&base)));
                } else {
                    let limit = limit.get_or_insert_with(|| Usage::limit(watch.disk, None));
                    let found = usage(folder, limit.entries.max(MAX_ENTRIES));
                    if found.over(limit) {
                        over = true;
                        report(&Frame::Over(Limit::Disk));
                        let _ = stage2.kill();
                    }
                }
                next_measure = now + DISK_EVERY.max(now.elapsed() * 10);
            }
        }
        let timeout = match watch.folder.as_ref().filter(|_| !over) {
            Some(_) => {
                let left = next_measure.saturating_duration_since(std::time::Instant::now());
                PollTimeout::try_from(left).unwrap_or(PollTimeout::ZERO)
            }
            None => PollTimeout::NONE,
        };
        let ready: Vec<bool> = {
            let mut fds: Vec<PollFd> = sources
                .iter()
                .filter_map(|(s, _)| {
                    s.as_ref()
                        .map(|s| PollFd::new(s.as_fd(), PollFlags::POLLIN))
                })
                .collect();
            match poll(&mut fds, timeout) {
                Ok(_) => fds
                    .iter()
                    .map(|f| f.revents().is_some_and(|r| !r.is_empty()))
                    .collect(),
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return,
            }
        };
        let mut ready = ready.into_iter();
        for (i, (source, cutter)) in sources.iter_mut().enumerate() {
            let Some(reader) = source.as_mut() else {
                continue;
            };
            if ready.next() != Some(true) {
                continue;
            }
            let budget = &mut watch.stderr;
            let mut emit = |text: &str, cut: u64| {
                if i == 0 {
                    if budget.allows(text.len(), cut) {
                        report(&Frame::Stderr(text.to_string(), cut));
                    }
                } else {
                    match Frame::decode(text) {
                        Some(Frame::Stderr(..)) | None => {}
                        Some(frame) => report(&frame),
                    }
                }
            };
            match reader.read(&mut chunk) {
                Ok(0) | Err(_) => {
                    cutter.finish(&mut emit);
                    *source = None;
                }
                Ok(n) => cutter.feed(&chunk[..n], &mut emit),
            }
        }
    }
    if let Some(note) = watch.stderr.dropped_note() {
        report(&Frame::Stderr(note, 0));
    }
}

/// Makes the namespaces of stage 1. Without root, its own user namespace
/// (where it is root, so stage 2 can build the view) is what allows the others.
fn namespaces() -> Result<(), String> {
    let root = geteuid().is_root();
    let mut flags = CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNET
        | CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS;
    // Without root, a user namespace of our own is what allows the others.
    let (uid, gid) = (geteuid(), getegid());
    if !root {
        flags |= CloneFlags::CLONE_NEWUSER;
    }
    unshare(flags).map_err(|e| {
        if root {
            format!("cannot make namespaces: {e}")
        } else {
            format!(
                "cannot make namespaces: {e} (unprivileged user namespaces are disabled here; run the judge as root)"
            )
        }
    })?;
    if !root {
        let map = |file: &str, text: String| {
            fs::write(format!("/proc/self/{file}"), text)
                .map_err(|e| format!("cannot write /proc/self/{file}: {e}"))
        };
        map("setgroups", "deny".into())?;
        map("uid_map", format!("0 {uid} 1"))?;
        map("gid_map", format!("0 {gid} 1"))?;
    }
    // Mounts made here must not reach the judge's namespace.
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .map_err(|e| format!("cannot make the mounts private: {e}"))?;
    Ok(())
}

/// Stage 2: see the module documentation.
fn init(spec: &Spec, fd: i32, idmap: i32, outer_pid: i32) -> i32 {
    // Reopened (std opens close-on-exec), so the program never holds the report pipe.
    let status = fs::OpenOptions::new()
        .write(true)
        .open(format!("/proc/self/fd/{fd}"));
    let _ = nix::unistd::close(fd);
    let Ok(mut status) = status else { return 1 };
    let mut say = |frame: Frame| {
        let _ = writeln!(status, "{}", frame.encode());
    };
    if prctl::set_pdeathsig(Signal::SIGKILL).is_err() || parent_pid() != Some(outer_pid) {
        return 1;
    }
    // Its own session: no controlling terminal to inject keystrokes into.
    let _ = nix::unistd::setsid();
    // Reopened close-on-exec like the report pipe, so the program never holds it.
    let idmap = (idmap >= 0).then(|| {
        let reopened = fs::File::open(format!("/proc/self/fd/{idmap}")).ok();
        let _ = nix::unistd::close(idmap);
        reopened.map(OwnedFd::from)
    });
    let notes = match crate::view::enter(&spec.paths, idmap.flatten()) {
        Ok(notes) => notes,
        Err(why) => {
            say(Frame::Sandbox(why));
            return 1;
        }
    };
    if let Err(why) = set_limits(spec) {
        say(Frame::Sandbox(why));
        return 1;
    }
    if spec.rootless
        && let Err(why) = nested_user(&spec.identity)
    {
        say(Frame::Sandbox(why));
        return 1;
    }
    let landlock = match restrict(&spec.paths) {
        Ok(status) => status,
        Err(why) => {
            say(Frame::Sandbox(why));
            return 1;
        }
    };
    if let Err(why) = crate::suid::restrict() {
        say(Frame::Sandbox(why));
        return 1;
    }
    if spec.probe {
        for (what, found) in probe(spec, &landlock, &notes) {
            say(Frame::Probe(what, found));
        }
        return 0;
    }
    let mut command = Command::new(&spec.program);
    command
        .arg0(&spec.arg0)
        .args(&spec.args)
        .current_dir(&spec.paths.folder)
        .env_clear()
        .envs(&spec.env);
    if !spec.rootless {
        command.uid(spec.identity.uid).gid(spec.identity.gid);
    }
    let bot = match command.spawn() {
        Ok(child) => child.id() as i32,
        Err(e) => {
            say(Frame::NoStart(format!("{}: {e}", spec.program.display())));
            return 1;
        }
    };
    let_go_of_the_pipes();
    // PID 1 reaps every process of the namespace; ending takes them all down.
    loop {
        match waitpid(None, None) {
            Ok(WaitStatus::Exited(pid, code)) if pid.as_raw() == bot => say(Frame::Exit(code)),
            Ok(WaitStatus::Signaled(pid, signal, _)) if pid.as_raw() == bot => {
                say(Frame::Signal(signal as i32))
            }
            Ok(_) | Err(nix::errno::Errno::EINTR) => {}
            Err(_) => break,
        }
    }
    0
}

/// As an ordinary user's launcher (root only in its own user namespace):
/// becomes the contestant's uid in a user namespace nested in that one,
/// where the folder's owner (root here) is the contestant. An unprivileged
/// process may map only its own id, so this is the one uid the contestant
/// has; it holds no capability anywhere.
fn nested_user(identity: &Identity) -> Result<(), String> {
    unshare(CloneFlags::CLONE_NEWUSER)
        .map_err(|e| format!("cannot give the bot a user of its own: {e}"))?;
    let map = |file: &str, text: String| {
        fs::write(format!("/proc/self/{file}"), text)
            .map_err(|e| format!("cannot give the bot a user of its own: {file}: {e}"))
    };
    map("setgroups", "deny".into())?;
    map("uid_map", format!("{} 0 1", identity.uid))?;
    map("gid_map", format!("{} 0 1", identity.gid))
}

/// Closes this process's standard input and output once the next stage
/// holds them: the judge must see the program's output close when the
/// program closes it, not when the launcher ends.
fn let_go_of_the_pipes() {
    let _ = nix::unistd::close(0);
    let _ = nix::unistd::close(1);
}

/// The parent's pid as the judge's namespace sees it (`getppid` gives 0
/// across a PID namespace).
fn parent_pid() -> Option<i32> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("PPid:"))?
        .trim()
        .parse()
        .ok()
}

fn set_limits(spec: &Spec) -> Result<(), String> {
    let limits = &spec.limits;
    let set = |resource: Resource, soft: u64, hard: u64, what: &str| {
        setrlimit(resource, soft, hard).map_err(|e| format!("cannot limit {what}: {e}"))
    };
    set(Resource::RLIMIT_CORE, 0, 0, "core dumps")?;
    set(
        Resource::RLIMIT_FSIZE,
        limits.file_size,
        limits.file_size,
        "file size",
    )?;
    set(
        Resource::RLIMIT_DATA,
        spec.data_limit,
        spec.data_limit,
        "memory",
    )?;
    if let Some(cpu) = limits.cpu_seconds {
        // The soft limit sends SIGXCPU, which names the limit; the hard one kills.
        set(Resource::RLIMIT_CPU, cpu, cpu + 1, "CPU time")?;
    }
    if spec.nproc {
        set(
            Resource::RLIMIT_NPROC,
            limits.processes,
            limits.processes,
            "processes",
        )?;
    }
    Ok(())
}

/// Restricts this process (and so every process it starts) to `paths`:
/// all rights in the folder, reading and running in the read-only paths,
/// reading and writing the device files; no TCP or UDP at all; no signals
/// or abstract sockets beyond the sandbox.
fn restrict(paths: &Paths) -> Result<(RulesetStatus, LandlockStatus), String> {
    let abi = LANDLOCK_ABI;
    let all = AccessFs::from_all(abi);
    let read = AccessFs::from_read(abi);
    let file = AccessFs::from_file(abi);
    let err = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)
        .map_err(err)?
        .handle_access(AccessNet::from_all(abi))
        .map_err(err)?
        .scope(Scope::from_all(abi))
        .map_err(err)?
        .create()
        .map_err(err)?;
    let device = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate;
    let (tmp, proc) = (PathBuf::from("/tmp"), PathBuf::from("/proc"));
    let rules = [(&paths.folder, all), (&tmp, all), (&proc, read)]
        .into_iter()
        .chain(paths.read.iter().map(|p| (p, read)))
        .chain(paths.devices.iter().map(|p| (p, device)))
        // A system path this machine lacks is missing from the view too.
        .filter(|(path, _)| path.exists());
    for (path, access) in rules {
        let fd = PathFd::new(path).map_err(|e| format!("Landlock: {}: {e}", path.display()))?;
        // Rights on a file are those a file can have.
        let access = if path.is_dir() { access } else { access & file };
        ruleset = ruleset
            .add_rule(PathBeneath::new(fd, access))
            .map_err(err)?;
    }
    let status = ruleset.restrict_self().map_err(err)?;
    match status.ruleset {
        RulesetStatus::NotEnforced => Err(
            "Landlock is not enforced by this kernel (it needs Linux 5.13 or later with Landlock enabled)"
                .into(),
        ),
        enforced => Ok((enforced, status.landlock)),
    }
}

/// How the name of the file the probe writes (and at once removes) in a
/// bot's folder begins. A folder's digest leaves such files out: another
/// share's probe may come and go while it is read.
pub const PROBE_FILE_PREFIX: &str = ".inarow-probe-";

/// What a contained process finds when it looks around: the probe's report.
fn probe(
    spec: &Spec,
    landlock: &(RulesetStatus, LandlockStatus),
    notes: &crate::view::Notes,
) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut note = |what: &str, text: String| found.push((what.to_string(), text));
    let abi = match landlock.1 {
        LandlockStatus::Available { effective_abi, .. } => format!("ABI {}", effective_abi as i32),
        _ => "unknown ABI".into(),
    };
    note(
        "landlock",
        match landlock.0 {
            RulesetStatus::FullyEnforced => format!("fully enforced ({abi})"),
            _ => format!(
                "enforced as far as this kernel knows ({abi}; rights of later ABIs are not handled)"
            ),
        },
    );
    let closed = |path: &str| match fs::read_dir(path) {
        Ok(_) => format!("{path} is readable"),
        Err(e) => format!("{path} is closed ({e})"),
    };
    note("files", closed("/"));
    let visible: Vec<String> = spec
        .hidden
        .iter()
        .filter(|p| p.symlink_metadata().is_ok())
        .map(|p| p.display().to_string())
        .collect();
    note(
        "view",
        if visible.is_empty() {
            format!(
                "own (its folder, the system's programs; {} other folders absent)",
                spec.hidden.len()
            )
        } else {
            format!("shared ({} visible)", visible.join(", "))
        },
    );
    note(
        "pid-namespace",
        if std::process::id() == 1 {
            "own (the contestant's processes die with its game)".into()
        } else {
            format!("shared (pid {})", std::process::id())
        },
    );
    let interfaces: Vec<String> = nix::ifaddrs::getifaddrs()
        .map(|list| list.map(|i| i.interface_name).collect())
        .unwrap_or_default();
    let mut interfaces = interfaces;
    interfaces.sort();
    interfaces.dedup();
    note(
        "network",
        if interfaces.iter().all(|i| i == "lo") {
            "none (own namespace, loopback only)".into()
        } else {
            format!("shared ({})", interfaces.join(", "))
        },
    );
    if !spec.rootless {
        let Identity { uid, gid, .. } = spec.identity;
        let dropped = nix::unistd::setgroups(&[])
            .and_then(|()| nix::unistd::setgid(Gid::from_raw(gid)))
            .and_then(|()| nix::unistd::setuid(Uid::from_raw(uid)));
        if let Err(e) = dropped {
            note("user", format!("cannot become uid {uid}: {e}"));
            return found;
        }
    }
    note(
        "user",
        if geteuid().is_root() {
            "root".into()
        } else {
            format!("uid {}", geteuid())
        },
    );
    // Inside its own PID namespace every probe is process 1, so the name
    // takes the clock too: shares of one tournament probe one folder at once.
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos());
    let test = spec
        .paths
        .folder
        .join(format!("{PROBE_FILE_PREFIX}{}-{stamp}", std::process::id()));
    let mut setuid = "not tried (the folder is not writable)".to_string();
    let folder = match fs::write(&test, b"probe") {
        Ok(()) => {
            use std::os::unix::fs::PermissionsExt;
            setuid = match fs::set_permissions(&test, fs::Permissions::from_mode(0o4755)) {
                Err(e) if e.raw_os_error() == Some(libc::EPERM) => "refused".into(),
                Err(e) => format!("refused otherwise ({e})"),
                Ok(()) => "allowed (a setuid file of the folder's owner could be made)".into(),
            };
            let _ = fs::remove_file(&test);
            "writable".to_string()
        }
        Err(e) => match &notes.idmap {
            Some(why) => format!("not writable ({e}; {why})"),
            None => format!("not writable ({e})"),
        },
    };
    note("folder", folder);
    note("setuid", setuid);
    let program = match fs::File::open(&spec.program) {
        Ok(_) => "readable".to_string(),
        Err(e) => format!("cannot be read ({e})"),
    };
    note("program", program);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_and_never_span_lines() {
        for frame in [
            Frame::Stderr("a line\nwith a break".into(), 0),
            Frame::Stderr("cut".into(), 12),
            Frame::Exit(3),
            Frame::Signal(9),
            Frame::NoStart("no such file".into()),
            Frame::Sandbox("Landlock: nope".into()),
            Frame::Probe("user".into(), "uid 65534".into()),
            Frame::Over(Limit::Disk),
        ] {
            let line = frame.encode();
            assert!(!line.contains('\n'));
            let back = Frame::decode(&line).unwrap();
            match (&frame, &back) {
                (Frame::Stderr(text, cut), Frame::Stderr(t, c)) => {
                    assert_eq!((text.replace('\n', " "), cut), (t.clone(), c));
                }
                _ => assert_eq!(frame, back),
            }
        }
        assert_eq!(Frame::decode("hello"), None);
        assert_eq!(Frame::decode("X nine"), None);
    }
}
