//! The launcher's second stage: PID 1 of the contestant's own PID
//! namespace. It reads its settings from stage 1 through a pipe (so that
//! `/proc/1/cmdline`, which every process of the namespace can read,
//! shows nothing of the host), makes itself unreadable to the contestant
//! (not dumpable: no `/proc/1/environ`, `exe`, `fd` or `maps`), leaves
//! the judge's session and keyring, builds and enters the contestant's own
//! view of the file system ([`crate::view`]), sets the resource limits,
//! becomes the contestant's uid (as an ordinary user, in a user namespace
//! nested in its own), restricts itself with Landlock and a seccomp filter
//! ([`crate::seccomp`]), waits to be thawed, starts the program in a
//! control-group namespace of its own, and reaps every process of the
//! namespace. When it ends, the kernel kills everything left in the
//! namespace.
//!
//! Where no control group freezes the contestant, it stops and continues
//! every process of its namespace itself when the judge asks on the
//! control pipe.

use std::fs;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, LandlockStatus, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{SigSet, SigmaskHow, Signal, kill, sigprocmask};
use nix::sys::signalfd::{SfdFlags, SignalFd};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Gid, Pid, Uid, geteuid};

use crate::frame::Frame;
use crate::paths::Paths;
use crate::probe::{Findings, Seen};
use crate::stage::{Freeze, Handoff, Identity, Spec, close_inherited, fail, let_go_of_the_pipes};

/// The landlock ABI whose rights are asked for; older kernels enforce what
/// they know (best effort), and the probe reports what was enforced.
const LANDLOCK_ABI: ABI = ABI::V10;

/// How long stopping every process of the namespace may take before one
/// that keeps running is reported.
const STOP_WITHIN: Duration = Duration::from_secs(1);

/// Reopens the file descriptor `fd` (close-on-exec, as std opens) and
/// closes the inherited one, so the program never holds it.
fn reopen(fd: i32, write: bool) -> Option<fs::File> {
    if fd < 0 {
        return None;
    }
    let file = fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .open(format!("/proc/self/fd/{fd}"))
        .ok();
    let _ = nix::unistd::close(fd);
    file
}

/// Stage 2's entry point: `fd` holds its settings.
pub fn main(fd: i32) -> i32 {
    let mut text = String::new();
    let handoff = match reopen(fd, false).map(|mut f| f.read_to_string(&mut text)) {
        Some(Ok(_)) => serde_json::from_str::<Handoff>(&text),
        _ => return fail("the launcher's second stage got no settings"),
    };
    let handoff = match handoff {
        Ok(handoff) => handoff,
        Err(e) => {
            return fail(&format!("the launcher's settings do not read: {e}"));
        }
    };
    close_inherited(&[
        handoff.status,
        handoff.control,
        handoff.idmap,
        handoff.upper,
        handoff.join,
        handoff.nested,
    ]);
    let Some(mut status) = reopen(handoff.status, true) else {
        return 1;
    };
    let mut say = |frame: Frame| frame.send(&mut status);
    if prctl::set_pdeathsig(Signal::SIGKILL).is_err() || parent_pid() != Some(handoff.outer) {
        return 1;
    }
    match stage2(&handoff, &mut say) {
        Ok(code) => code,
        Err(why) => {
            say(Frame::Sandbox(why));
            1
        }
    }
}

fn stage2(handoff: &Handoff, say: &mut impl FnMut(Frame)) -> Result<i32, String> {
    let spec = &handoff.spec;
    // Its own session: no controlling terminal to inject keystrokes into.
    let _ = nix::unistd::setsid();
    // Its own, empty keyring; a kernel without keys has none to reach.
    if let Err(e) = crate::sys::new_session_keyring()
        && e.raw_os_error() != Some(libc::ENOSYS)
    {
        return Err(format!("cannot give the bot a keyring of its own: {e}"));
    }
    let control = reopen(handoff.control, false);
    let join = reopen(handoff.join, true);
    let idmap = reopen(handoff.idmap, false).map(OwnedFd::from);
    let nested = reopen(handoff.nested, false).map(OwnedFd::from);
    let upper = reopen(handoff.upper, false)
        .map(OwnedFd::from)
        .ok_or("the bot's folder has no file system to write to")?;
    let notes = crate::view::enter(&spec.paths, idmap, upper).map_err(|e| e.to_string())?;
    set_limits(spec)?;
    if spec.rootless && nested.is_none() {
        nested_user(&spec.identity)?;
    }
    let landlock = restrict(&spec.paths)?;
    // Compiled now, applied once nothing is left of the set-up: the list
    // names no call that only a launcher makes (unshare).
    let filters = crate::seccomp::prepare().map_err(|e| e.to_string())?;
    let mut control = control;
    // The freeze point: a frozen contestant's program starts once thawed.
    match (&spec.freeze, join) {
        (Freeze::Group { .. }, Some(mut join)) => {
            join.write_all(b"0")
                .map_err(|e| format!("cannot join the bot's freezer group: {e}"))?;
        }
        (Freeze::Stop, _) => {
            if !wait_for_thaw(control.as_mut()) {
                return Ok(0);
            }
            say(Frame::Frozen(false));
        }
        _ => {}
    }
    // Only now: the freezer group's `cgroup.procs`, opened by stage 1,
    // takes only a process of the user that opened it.
    if let Some(nested) = nested {
        own_user(&spec.identity, nested)?;
    }
    // Its own view of the control groups: they are the root of it.
    unshare(CloneFlags::CLONE_NEWCGROUP)
        .map_err(|e| format!("cannot give the bot a view of its own control groups: {e}"))?;
    // Its settings and files are no business of the contestant's, though
    // it may run as the same uid outside (an ordinary user's judge). (Not
    // earlier: a process that is not dumpable cannot map its own user
    // namespace.)
    prctl::set_dumpable(false).map_err(|e| format!("cannot hide the launcher: {e}"))?;
    filters.apply().map_err(|e| e.to_string())?;
    if spec.probe {
        let findings = probe(spec, &landlock, &notes, handoff);
        say(Frame::Probe(Box::new(findings)));
        return Ok(0);
    }
    // Reaped through a signalfd, with the control pipe in one poll.
    let mut chld = SigSet::empty();
    chld.add(Signal::SIGCHLD);
    sigprocmask(SigmaskHow::SIG_BLOCK, Some(&chld), None)
        .map_err(|e| format!("cannot watch the bot: {e}"))?;
    let reaped = SignalFd::with_flags(&chld, SfdFlags::SFD_CLOEXEC | SfdFlags::SFD_NONBLOCK)
        .map_err(|e| format!("cannot watch the bot: {e}"))?;
    let mut command = Command::new(&spec.program);
    command
        .arg0(&spec.arg0)
        .args(&spec.args)
        .current_dir(spec.paths.workdir())
        .env_clear()
        .envs(&spec.env);
    if !spec.rootless {
        command.uid(spec.identity.uid).gid(spec.identity.gid);
    }
    let bot = match command.spawn() {
        Ok(child) => child.id() as i32,
        Err(e) => {
            say(Frame::NoStart(format!("{}: {e}", spec.program.display())));
            return Ok(1);
        }
    };
    let_go_of_the_pipes();
    supervise(bot, &reaped, control, say);
    Ok(0)
}

/// Waits for the first "thaw" of the judge; false if the judge closed the
/// control pipe first.
fn wait_for_thaw(control: Option<&mut fs::File>) -> bool {
    let Some(control) = control else {
        return true;
    };
    let mut byte = [0u8; 1];
    loop {
        match control.read(&mut byte) {
            Ok(1) if byte[0] == b't' => return true,
            Ok(1) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            _ => return false,
        }
    }
}

/// PID 1's life: reaps every process of the namespace and reports the
/// program's end; stops and continues them all as the judge asks; ends
/// them all when the judge closes the control pipe. Returns when none is
/// left.
fn supervise(
    bot: i32,
    reaped: &SignalFd,
    mut control: Option<fs::File>,
    say: &mut impl FnMut(Frame),
) {
    loop {
        loop {
            match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::Exited(pid, code)) if pid.as_raw() == bot => say(Frame::Exit(code)),
                Ok(WaitStatus::Signaled(pid, signal, _)) if pid.as_raw() == bot => {
                    say(Frame::Signal(signal as i32))
                }
                Ok(WaitStatus::StillAlive) => break,
                Ok(_) | Err(nix::errno::Errno::EINTR) => {}
                // No child left: the namespace is empty.
                Err(_) => return,
            }
        }
        let mut fds = vec![PollFd::new(reaped.as_fd(), PollFlags::POLLIN)];
        if let Some(control) = &control {
            fds.push(PollFd::new(control.as_fd(), PollFlags::POLLIN));
        }
        match poll(&mut fds, PollTimeout::NONE) {
            Ok(_) | Err(nix::errno::Errno::EINTR) => {}
            Err(_) => return,
        }
        let asked = fds
            .get(1)
            .and_then(|f| f.revents())
            .is_some_and(|r| !r.is_empty());
        while let Ok(Some(_)) = reaped.read_signal() {}
        if !asked {
            continue;
        }
        let mut orders = [0u8; 64];
        match control.as_mut().map(|c| c.read(&mut orders)) {
            Some(Ok(0)) | Some(Err(_)) => {
                // The game is over: nothing of the contestant outlives it.
                let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
                control = None;
            }
            Some(Ok(n)) => {
                for &order in &orders[..n] {
                    match order {
                        b'f' => say(if stop_all() {
                            Frame::Frozen(true)
                        } else {
                            Frame::Unfrozen
                        }),
                        b't' => {
                            let _ = kill(Pid::from_raw(-1), Signal::SIGCONT);
                            say(Frame::Frozen(false));
                        }
                        _ => {}
                    }
                }
            }
            None => {}
        }
    }
}

/// Stops every process of the namespace but this one, and waits until
/// each is stopped (or dead); false if one kept running.
fn stop_all() -> bool {
    let deadline = Instant::now() + STOP_WITHIN;
    loop {
        let _ = kill(Pid::from_raw(-1), Signal::SIGSTOP);
        if all_stopped() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Whether every process of the namespace but this one is stopped, dead,
/// or asleep in the kernel (it stops before it next runs).
fn all_stopped() -> bool {
    let Ok(entries) = fs::read_dir("/proc") else {
        return false;
    };
    entries.filter_map(|e| e.ok()).all(|entry| {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<i32>().ok()) else {
            return true;
        };
        if pid == 1 {
            return true;
        }
        let stat = fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        // Gone since the listing, stopped, traced, dead, or in the kernel.
        state.is_empty() || state.starts_with(['T', 't', 'Z', 'X', 'D'])
    })
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

/// As an ordinary user's launcher with a subordinate uid for the
/// contestant: enters the contestant's own user namespace `nested` (made
/// by the judge: the contestant's uid there is a subordinate uid of the
/// judge's user outside, so the kernel's tables per user, pipe pages and
/// descriptors in flight among them, are its own), becomes its uid and
/// gid, and keeps for it, across `exec`, the two rights that let it use
/// its folder as its own, whose files are the judge's user's
/// ([`crate::identity::OWNER_IN_VIEW`] there): overriding file modes and
/// ownership, for files of the two ids its namespace maps and no other.
fn own_user(identity: &Identity, nested: OwnedFd) -> Result<(), String> {
    use rustix::thread::CapabilitySet;
    let err = |e: &dyn std::fmt::Display| format!("cannot give the bot a user of its own: {e}");
    nix::sched::setns(&nested, CloneFlags::CLONE_NEWUSER).map_err(|e| err(&e))?;
    nix::unistd::setgroups(&[]).map_err(|e| err(&e))?;
    let (uid, gid) = (Uid::from_raw(identity.uid), Gid::from_raw(identity.gid));
    nix::unistd::setresgid(gid, gid, gid).map_err(|e| err(&e))?;
    nix::unistd::setresuid(uid, uid, uid).map_err(|e| err(&e))?;
    let kept = CapabilitySet::DAC_OVERRIDE | CapabilitySet::FOWNER;
    let mut sets = rustix::thread::capabilities(None).map_err(|e| err(&e))?;
    sets.inheritable = kept;
    rustix::thread::set_capabilities(None, sets).map_err(|e| err(&e))?;
    for capability in [CapabilitySet::DAC_OVERRIDE, CapabilitySet::FOWNER] {
        rustix::thread::configure_capability_in_ambient_set(capability, true)
            .map_err(|e| err(&e))?;
    }
    Ok(())
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

/// The signals (and POSIX timers) a contestant may have queued at once.
pub(crate) const SIGNALS_QUEUED: u64 = 1024;

/// The memory one process of a contestant may lock, at most (the kernel's
/// default, 8 MiB).
pub(crate) const LOCKED_MEMORY: u64 = 8 << 20;

fn set_limits(spec: &Spec) -> Result<(), String> {
    let limits = &spec.limits;
    let set = |resource: Resource, soft: u64, hard: u64, what: &str| {
        setrlimit(resource, soft, hard).map_err(|e| format!("cannot limit {what}: {e}"))
    };
    set(Resource::RLIMIT_CORE, 0, 0, "core dumps")?;
    // Its share of the host's file table, with its processes.
    set(
        Resource::RLIMIT_NOFILE,
        limits.open_files,
        limits.open_files,
        "open files",
    )?;
    // Queued signals and POSIX timers count per user, beyond its namespaces.
    set(
        Resource::RLIMIT_SIGPENDING,
        SIGNALS_QUEUED,
        SIGNALS_QUEUED,
        "queued signals",
    )?;
    // Locked memory is counted in its memory too; this keeps any one
    // process to what a kernel gives by default.
    let (_, memlock) = nix::sys::resource::getrlimit(Resource::RLIMIT_MEMLOCK)
        .map_err(|e| format!("cannot read the locked-memory limit: {e}"))?;
    let memlock = memlock.min(LOCKED_MEMORY);
    set(Resource::RLIMIT_MEMLOCK, memlock, memlock, "locked memory")?;
    set(
        Resource::RLIMIT_FSIZE,
        limits.file_size,
        limits.file_size,
        "file size",
    )?;
    if let Some(data) = spec.data_limit {
        set(Resource::RLIMIT_DATA, data, data, "memory")?;
    }
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

/// What a contained process finds when it looks around: the probe's report.
fn probe(
    spec: &Spec,
    landlock: &(RulesetStatus, LandlockStatus),
    notes: &crate::view::Notes,
    handoff: &Handoff,
) -> Findings {
    let abi = match landlock.1 {
        LandlockStatus::Available { effective_abi, .. } => Some(effective_abi as i32),
        _ => None,
    };
    let mut found = Findings {
        landlock: Some((abi, landlock.0 == RulesetStatus::FullyEnforced)),
        list_root: Seen::of(fs::read_dir("/"), |_| "listed".into()),
        hidden: spec.hidden.len(),
        visible: spec
            .hidden
            .iter()
            .filter(|p| p.symlink_metadata().is_ok())
            .map(|p| p.display().to_string())
            .collect(),
        pid_one: std::process::id() == 1,
        usage: handoff.usage,
        disk: spec.limits.disk,
        folder_note: notes.idmap.clone(),
        keyring: Seen::of(crate::sys::session_keyring_id(), |id| {
            format!("keyring {id}")
        }),
        io_uring: Seen::of(crate::sys::io_uring_setup(), |()| "made".into()),
        aio: Seen::of(crate::sys::aio_setup(), |()| "made".into()),
        open_files: nix::sys::resource::getrlimit(Resource::RLIMIT_NOFILE)
            .map_or(0, |(_, hard)| hard),
        cmdline: fs::read("/proc/1/cmdline")
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default(),
        cgroup: fs::read_to_string("/proc/self/cgroup")
            .unwrap_or_default()
            .trim_end()
            .to_string(),
        ..Findings::default()
    };
    let mut interfaces: Vec<String> = nix::ifaddrs::getifaddrs()
        .map(|list| list.map(|i| i.interface_name).collect())
        .unwrap_or_default();
    interfaces.sort();
    interfaces.dedup();
    found.interfaces = interfaces;
    if !spec.rootless {
        let Identity { uid, gid, .. } = spec.identity;
        let dropped = nix::unistd::setgroups(&[])
            .and_then(|()| nix::unistd::setgid(Gid::from_raw(gid)))
            .and_then(|()| nix::unistd::setuid(Uid::from_raw(uid)));
        if let Err(e) = dropped {
            found.user = Some(Err(format!("cannot become uid {uid}: {e}")));
            return found;
        }
    }
    found.user = (!geteuid().is_root()).then(|| Ok(geteuid().as_raw()));
    // Inside its own PID namespace every probe is process 1, so the name
    // takes the clock too.
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos());
    let test = spec.paths.folder.join(format!(
        "{}{}-{stamp}",
        crate::stage::PROBE_FILE_PREFIX,
        std::process::id()
    ));
    found.folder = Seen::of(fs::write(&test, b"probe"), |()| "writable".into());
    if !found.folder.refused() {
        use std::os::unix::fs::PermissionsExt;
        found.setuid = Some(Seen::of(
            fs::set_permissions(&test, fs::Permissions::from_mode(0o4755)),
            |()| "set".into(),
        ));
        let _ = fs::remove_file(&test);
    }
    let program = fs::File::open(&spec.program);
    found.program_missing = program
        .as_ref()
        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
    found.program = Seen::of(program, |_| "readable".into());
    found
}
