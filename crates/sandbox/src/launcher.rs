//! The launcher: the judge's own program, started in place of a contestant,
//! contains itself with the kernel's mechanisms and only then starts the
//! contestant's program. Doing it in a fresh process keeps the judge free of
//! `unsafe` (no code runs between `fork` and `exec`).
//!
//! Two stages, because a new PID namespace applies to the children of the
//! process that makes it:
//!
//! 1. **outer** (a child of the judge, this module): closes every file
//!    descriptor but 0, 1 and 2, opens the judge's control pipe, joins the control
//!    groups that bound the contestant, measures its folder, makes new user
//!    (when not root), PID, network, mount, IPC and UTS namespaces and the
//!    `tmpfs` its writes go to ([`crate::folder`]), and starts stage 2.
//!    It then relays, as [frames](crate::frame) on its standard error, the
//!    contestant's standard error (cut into bounded lines, bounded in total)
//!    and what stage 2 reports, watches the folder's bound, and when the
//!    judge closes the control pipe (the game is over, or the judge is
//!    gone) ends stage 2 and with it the whole namespace. Last, it commits
//!    what the contestant wrote to its folder, if the bound held. (After
//!    `unshare(CLONE_NEWPID)` a process may start no thread, so stage 1
//!    relays with `poll`.)
//! 2. **init** (PID 1 of the new namespace, [`crate::init`]): contains
//!    itself the rest of the way, waits to be thawed, starts the program,
//!    and reaps every process of the namespace.
//!
//! Stage 2 reports to stage 1 through a pipe the program never holds, so a
//! contestant cannot forge what the judge hears about it.

use std::fs;
use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, FdFlag, OFlag, fcntl};
use nix::mount::{MsFlags, mount};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, getegid, geteuid, getppid, pipe2};

use crate::folder::{Unkept, Upper};
use crate::frame::Frame;
use crate::limits::Limit;
use crate::lines::{Budget, Cutter, MAX_STDERR_LINE};
pub use crate::stage::{Freeze, Identity, PROBE_FILE_PREFIX, Spec};
use crate::stage::{Handoff, close_inherited, fail, let_go_of_the_pipes, report};

/// The launcher's entry point. `prefix` is what its own program needs
/// before the stage (`["__contain"]` for `inarow __contain`), `args` what
/// follows: `outer CONTROL-FD JSON`, `init FD` or `hold`. Returns the exit
/// code.
pub fn main(prefix: &[&str], args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["outer", control, json] => {
            let Ok(control) = control.parse::<i32>() else {
                return fail("the launcher was started wrongly");
            };
            // Whatever the judge was started with (`exec 8<secret`) stays out.
            close_inherited(&[]);
            match serde_json::from_str::<Spec>(json) {
                Ok(spec) => outer(prefix, &spec, control),
                Err(e) => fail(&format!("the launcher's settings do not read: {e}")),
            }
        }
        ["init", fd] => match fd.parse::<i32>() {
            Ok(fd) => crate::init::main(fd),
            Err(_) => fail("the launcher's second stage was started wrongly"),
        },
        ["hold"] => hold(),
        ["nest", outer, uid_map, gid_map] => nest(prefix, outer, uid_map, gid_map),
        _ => {
            eprintln!(
                "inarow: the launcher is started by the judge only (outer FD JSON | init FD | hold)"
            );
            2
        }
    }
}

/// A process that only holds a new user namespace for the judge to map and
/// open (a process cannot make one for others, and the judge runs threads,
/// which may not): says `ready`, then waits for its standard input to close.
fn hold() -> i32 {
    use std::io::Read;
    if unshare(CloneFlags::CLONE_NEWUSER).is_err() {
        return 1;
    }
    println!("ready");
    let _ = std::io::stdout().flush();
    let mut rest = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut rest);
    0
}

/// The launcher `program` (with its `prefix`) told `args`, as the judge and
/// the launcher start a helper: no environment, standard input and output
/// piped to the starter, standard error dropped.
pub(crate) fn quiet(
    program: impl AsRef<std::ffi::OsStr>,
    prefix: &[impl AsRef<std::ffi::OsStr>],
    args: &[impl AsRef<std::ffi::OsStr>],
) -> Command {
    let mut command = Command::new(program);
    command
        .args(prefix)
        .args(args)
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    command
}

/// Makes a contestant's own user namespace inside the launcher's `outer`
/// (a path to it), mapped as `uid_map` and `gid_map` say: only a process
/// of `outer` with its rights may write a map of more than its own uid.
/// Enters `outer`, starts a `hold` launcher there, maps it, says its pid,
/// and waits for its standard input to close.
fn nest(prefix: &[&str], outer: &str, uid_map: &str, gid_map: &str) -> i32 {
    use std::io::Read;
    let entered = fs::File::open(outer)
        .map_err(|e| e.to_string())
        .and_then(|ns| nix::sched::setns(ns, CloneFlags::CLONE_NEWUSER).map_err(|e| e.to_string()));
    if let Err(why) = entered {
        println!("cannot enter the launcher's user namespace: {why}");
        return 1;
    }
    let mut holder = match quiet("/proc/self/exe", prefix, &["hold"]).spawn() {
        Ok(child) => child,
        Err(e) => {
            println!("cannot start the holder: {e}");
            return 1;
        }
    };
    let mut ready = [0u8; 6];
    let mapped = holder
        .stdout
        .as_mut()
        .expect("piped stdout")
        .read_exact(&mut ready)
        .and_then(|()| {
            let pid = holder.id();
            fs::write(format!("/proc/{pid}/uid_map"), uid_map)?;
            fs::write(format!("/proc/{pid}/gid_map"), gid_map)
        });
    match mapped {
        Ok(()) => println!("{}", holder.id()),
        Err(e) => println!("cannot map the bot's user namespace: {e}"),
    }
    let _ = std::io::stdout().flush();
    let mut rest = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut rest);
    drop(holder.stdin.take());
    let _ = holder.wait();
    0
}

/// Opens `path` for writing, close-on-exec.
fn open_write(path: &std::path::Path) -> std::io::Result<OwnedFd> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map(OwnedFd::from)
}

/// Lets the next program started inherit `fd`.
fn inheritable(fd: BorrowedFd<'_>) -> Result<(), String> {
    fcntl(fd, FcntlArg::F_SETFD(FdFlag::empty()))
        .map(|_| ())
        .map_err(|e| format!("cannot pass a file descriptor on: {e}"))
}

/// Stage 1: see the module documentation.
fn outer(prefix: &[&str], spec: &Spec, control: i32) -> i32 {
    // Dies with the judge until the control pipe can say so; if the judge
    // is already gone, nobody would end us.
    if prctl::set_pdeathsig(Signal::SIGKILL).is_err() || getppid().as_raw() as u32 != spec.judge {
        return 1;
    }
    let control = match control_pipe(spec.judge, control) {
        Ok(fd) => fd,
        Err(why) => return fail(&why),
    };
    let pid = std::process::id().to_string();
    for procs in &spec.cgroups {
        if let Err(e) = fs::write(procs, &pid) {
            return fail(&format!("cannot join the cgroup {}: {e}", procs.display()));
        }
    }
    let (join, thaw) = match &spec.freeze {
        Freeze::Group {
            procs,
            file,
            thawed,
        } => match (open_write(procs), open_write(file)) {
            (Ok(join), Ok(thaw)) => (Some(join), Some((thaw, thawed.clone()))),
            (Err(e), _) | (_, Err(e)) => {
                return fail(&format!("cannot reach the bot's freezer group: {e}"));
            }
        },
        _ => (None, None),
    };
    let folder = match fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY)
        .open(&spec.paths.folder)
    {
        Ok(dir) => OwnedFd::from(dir),
        Err(e) => return fail(&format!("cannot open the bot's folder: {e}")),
    };
    let Ok(stat) = rustix::fs::fstat(&folder) else {
        return fail("cannot look at the bot's folder");
    };
    // The judge made (once per contestant) the user namespace that maps the
    // folder's owner to the contestant, and holds it open.
    let idmap = match spec.idmap {
        Some(fd) => match fs::File::open(format!("/proc/{}/fd/{fd}", spec.judge)) {
            Ok(file) => Some(OwnedFd::from(file)),
            Err(e) => return fail(&format!("cannot map the bot's folder to its uid: {e}")),
        },
        None => None,
    };
    // An ordinary user's judge with subordinate ids made (once per
    // contestant) the user namespace this stage enters and the
    // contestant's own nested in it.
    let users = match spec.users {
        Some((outer, nested)) => {
            let open = |fd: i32| {
                fs::File::open(format!("/proc/{}/fd/{fd}", spec.judge)).map(OwnedFd::from)
            };
            match (open(outer), open(nested)) {
                (Ok(outer), Ok(nested)) => Some((outer, nested)),
                (Err(e), _) | (_, Err(e)) => {
                    return fail(&format!("cannot give the bot a user of its own: {e}"));
                }
            }
        }
        None => None,
    };
    if let Err(why) = namespaces(users.as_ref().map(|(outer, _)| outer)) {
        return fail(&why);
    }
    let nested = users.map(|(_, nested)| nested);
    // Measured only now: an ordinary user's launcher is root of its own
    // user namespace here, with the right to read every folder of the
    // judge's user, those the bot made unreadable included (root had it
    // all along).
    let block = match crate::folder::block_size(folder.as_fd()) {
        Ok(block) => block,
        Err(e) => return fail(&format!("cannot look at the bot's folder: {e}")),
    };
    let usage = match crate::folder::measure(folder.as_fd(), block) {
        Ok(usage) => usage,
        Err(e) => return fail(&format!("cannot measure the bot's folder: {e}")),
    };
    // As root the contestant is a uid of its own, which the folder's owner
    // appears as; as an ordinary user the launcher's own root is the owner.
    let owner = (!spec.rootless).then_some((spec.identity.uid, spec.identity.gid));
    let upper = match Upper::new(
        usage.room(spec.limits.disk, block),
        block,
        owner,
        stat.st_mode,
    ) {
        Ok(upper) => upper,
        Err(e) => {
            return fail(&format!(
                "cannot make the bot's folder a file system of its own: {e}"
            ));
        }
    };
    let pipes = pipe2(OFlag::O_CLOEXEC).and_then(|s| Ok((s, pipe2(OFlag::O_CLOEXEC)?)));
    let ((status_read, status_write), (handoff_read, handoff_write)) = match pipes {
        Ok(pipes) => pipes,
        Err(e) => return fail(&format!("cannot make a pipe: {e}")),
    };
    let watch_control = match control.try_clone() {
        Ok(fd) => fd,
        Err(e) => return fail(&format!("cannot watch the judge: {e}")),
    };
    // Stage 2 inherits these. This process runs no other thread, so no
    // other child can inherit them.
    let passed: Vec<BorrowedFd<'_>> = [
        Some(status_write.as_fd()),
        Some(control.as_fd()),
        Some(handoff_read.as_fd()),
        Some(upper.mount()),
        idmap.as_ref().map(|f| f.as_fd()),
        join.as_ref().map(|f| f.as_fd()),
        nested.as_ref().map(|f| f.as_fd()),
    ]
    .into_iter()
    .flatten()
    .collect();
    for fd in &passed {
        if let Err(why) = inheritable(*fd) {
            return fail(&why);
        }
    }
    let raw = |fd: Option<&OwnedFd>| fd.map_or(-1, |f| f.as_raw_fd());
    let handoff = Handoff {
        spec: spec.clone(),
        status: status_write.as_raw_fd(),
        control: control.as_raw_fd(),
        idmap: raw(idmap.as_ref()),
        nested: raw(nested.as_ref()),
        upper: upper.mount().as_raw_fd(),
        join: raw(join.as_ref()),
        outer: std::process::id() as i32,
        usage,
    };
    let child = Command::new("/proc/self/exe")
        .args(prefix)
        .arg("init")
        .arg(handoff_read.as_raw_fd().to_string())
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .spawn();
    drop((status_write, control, handoff_read, idmap, join, nested));
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return fail(&format!("cannot start the launcher's second stage: {e}")),
    };
    let handed = serde_json::to_vec(&handoff).map_err(std::io::Error::other);
    if let Err(e) = handed.and_then(|json| fs::File::from(handoff_write).write_all(&json)) {
        let _ = child.kill();
        return fail(&format!("cannot hand the settings on: {e}"));
    }
    let_go_of_the_pipes();
    // From here on the control pipe says when the judge is gone; dying at
    // once would leave a frozen contestant frozen.
    let _ = prctl::set_pdeathsig(None);
    let stderr = OwnedFd::from(child.stderr.take().expect("piped stderr"));
    let stage2 = Pid::from_raw(child.id() as i32);
    let mut watch = Watch {
        upper: (!spec.probe).then_some(&upper),
        file_size: spec.limits.file_size,
        over: false,
        stderr: Budget::new(spec.limits.stderr),
        control: Some(watch_control),
        thaw,
        stage2,
    };
    relay(
        fs::File::from(stderr),
        fs::File::from(status_read),
        &mut watch,
    );
    let _ = child.wait();
    if spec.probe {
        return 0;
    }
    if !watch.over && upper.over() {
        report(&Frame::Over(Limit::Disk));
        watch.over = true;
    }
    if !watch.over {
        // What the folder's owner would write: root's folders stay root's.
        let owner = (!spec.rootless).then_some((stat.st_uid, stat.st_gid));
        match upper.commit(folder.as_fd(), owner) {
            Ok(()) => {}
            Err(Unkept::TooDeep | Unkept::Links(_)) => report(&Frame::Over(Limit::Disk)),
            Err(e) => report(&Frame::Unkept(e.to_string())),
        }
    }
    0
}

/// Opens the read end of the judge's control pipe, which the judge holds
/// as its file descriptor `fd` (the judge runs threads: a descriptor it
/// let a child inherit could reach another child).
fn control_pipe(judge: u32, fd: i32) -> Result<OwnedFd, String> {
    fs::OpenOptions::new()
        .read(true)
        .open(format!("/proc/{judge}/fd/{fd}"))
        .map(OwnedFd::from)
        .map_err(|e| format!("cannot reach the judge's control pipe: {e}"))
}

/// What stage 1 watches while it relays.
struct Watch<'a> {
    /// The file system the contestant writes to, against its bound.
    upper: Option<&'a Upper>,
    /// The file-size limit, looked for when the program fails.
    file_size: u64,
    /// Whether the contestant went over its bound (and was killed).
    over: bool,
    /// The standard error shown, against its budget.
    stderr: Budget,
    /// The judge's control pipe: it closes when the game is over or the
    /// judge is gone.
    control: Option<OwnedFd>,
    /// What thaws a frozen contestant, so that it can die.
    thaw: Option<(OwnedFd, String)>,
    /// Stage 2.
    stage2: Pid,
}

impl Watch<'_> {
    /// Ends stage 2, and so the whole namespace, thawing it first.
    fn end(&mut self) {
        if let Some((file, thawed)) = &self.thaw {
            let _ = fs::File::from(file.try_clone().expect("a file to thaw"))
                .write_all(thawed.as_bytes());
        }
        let _ = kill(self.stage2, Signal::SIGKILL);
    }
}

/// How often the folder's file system is looked at.
const DISK_EVERY: Duration = Duration::from_millis(20);

/// Relays, until both close, the program's standard error (cut into
/// bounded lines, bounded in total) and stage 2's reports; ends stage 2
/// (so the whole namespace) when the folder goes past its bound or the
/// judge closes the control pipe. One thread: after a new PID namespace,
/// this process can start no thread.
fn relay(stderr: fs::File, status: fs::File, watch: &mut Watch<'_>) {
    use std::io::Read;
    let mut sources = [
        (Some(stderr), Cutter::new(MAX_STDERR_LINE)),
        (Some(status), Cutter::new(MAX_STDERR_LINE * 16)),
    ];
    let mut chunk = [0u8; 8192];
    let mut next_measure = Instant::now();
    while sources.iter().any(|(s, _)| s.is_some()) {
        if let Some(upper) = watch.upper.filter(|_| !watch.over) {
            let now = Instant::now();
            if now >= next_measure {
                if upper.over() {
                    watch.over = true;
                    report(&Frame::Over(Limit::Disk));
                    watch.end();
                }
                next_measure = now + DISK_EVERY;
            }
        }
        let timeout = match watch.upper.filter(|_| !watch.over) {
            Some(_) => {
                let left = next_measure.saturating_duration_since(Instant::now());
                PollTimeout::try_from(left).unwrap_or(PollTimeout::ZERO)
            }
            None => PollTimeout::NONE,
        };
        let (ready, hung_up) = {
            let mut fds: Vec<PollFd> = sources
                .iter()
                .filter_map(|(s, _)| {
                    s.as_ref()
                        .map(|s| PollFd::new(s.as_fd(), PollFlags::POLLIN))
                })
                .collect();
            let pipes = fds.len();
            if let Some(control) = &watch.control {
                // No events asked: only its closing is reported.
                fds.push(PollFd::new(control.as_fd(), PollFlags::empty()));
            }
            match poll(&mut fds, timeout) {
                Ok(_) => {
                    let ready: Vec<bool> = fds[..pipes]
                        .iter()
                        .map(|f| f.revents().is_some_and(|r| !r.is_empty()))
                        .collect();
                    let hung_up = fds[pipes..]
                        .iter()
                        .any(|f| f.revents().is_some_and(|r| !r.is_empty()));
                    (ready, hung_up)
                }
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return,
            }
        };
        if hung_up {
            watch.control = None;
            watch.end();
        }
        let mut ready = ready.into_iter();
        for (i, (source, cutter)) in sources.iter_mut().enumerate() {
            let Some(reader) = source.as_mut() else {
                continue;
            };
            if ready.next() != Some(true) {
                continue;
            }
            let (upper, file_size) = (watch.upper, watch.file_size);
            let budget = &mut watch.stderr;
            let mut emit = |text: &str, cut: u64| {
                if i == 0 {
                    if budget.allows(text.len(), cut) {
                        report(&Frame::Stderr(text.to_string(), cut));
                    }
                } else {
                    match Frame::decode(text) {
                        Some(Frame::Stderr(..)) | None => {}
                        Some(frame) => {
                            // A runtime that ignores SIGXFSZ fails with EFBIG and
                            // usually crashes, leaving the file at the limit: the
                            // limit is named before the end.
                            let failed = matches!(frame, Frame::Exit(1..) | Frame::Signal(_));
                            if failed && upper.is_some_and(|u| u.holds_file_of(file_size)) {
                                report(&Frame::Over(Limit::FileSize));
                            }
                            report(&frame);
                        }
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
/// (where it is root, so stage 2 can build the view) is what allows the
/// others: `outer`, made by the judge, where the judge has subordinate ids.
fn namespaces(outer: Option<&OwnedFd>) -> Result<(), String> {
    let root = geteuid().is_root();
    let mut flags = CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNET
        | CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS;
    // Without root, a user namespace of our own is what allows the others.
    let (uid, gid) = (geteuid(), getegid());
    if let Some(outer) = outer {
        nix::sched::setns(outer, CloneFlags::CLONE_NEWUSER)
            .map_err(|e| format!("cannot enter the bot's user namespace: {e}"))?;
    } else if !root {
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
    if !root && outer.is_none() {
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
