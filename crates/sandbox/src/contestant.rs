//! A contestant while it runs: its pipes, what its launcher reports, its
//! freezing and thawing, and its end (every process it started killed, its
//! control groups removed, what it wrote kept or not).

use std::collections::BTreeMap;
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use crate::cgroup::Group;
use crate::frame::Frame;
use crate::limits::Limit;
use crate::probe::Findings;
use crate::{End, nap_until};

/// How long freezing a contestant may take before it counts as resisting:
/// the kernel takes microseconds; this is a margin, not a measure.
const FREEZE_WITHIN: Duration = Duration::from_secs(5);

/// How long the launcher may take, once told the game is over, to end the
/// contestant's processes and keep what it wrote in its folder (up to its
/// disk bound, on a busy disk).
const END_WITHIN: Duration = Duration::from_secs(60);

/// Process groups of every contestant now running (each with the file
/// that thaws its freezer group, if it has one), and whether new ones may
/// still start.
struct Registry {
    closed: bool,
    groups: BTreeMap<i32, Option<(PathBuf, &'static str)>>,
}

static LIVE: Mutex<Registry> = Mutex::new(Registry {
    closed: false,
    groups: BTreeMap::new(),
});

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every contestant now running and lets no new one start, for the
/// rest of this process's life: for Ctrl-C and for a server that stops.
/// Returns how many were killed.
pub fn shut_down() -> usize {
    let mut live = lock(&LIVE);
    live.closed = true;
    for (&group, thaw) in &live.groups {
        // A frozen process of cgroup v1 cannot even die: its launcher,
        // killed here, could not thaw it.
        if let Some((file, thawed)) = thaw {
            let _ = std::fs::write(file, thawed);
        }
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
    live.groups.len()
}

/// What the launcher has reported of a contestant so far.
#[derive(Debug, Default)]
pub(crate) struct Heard {
    /// How the program ended.
    pub end: Option<End>,
    /// Whether the launcher's reports have ended.
    pub closed: bool,
    /// A limit the launcher watched and saw passed (the disk).
    pub over: Option<Limit>,
    /// What a probe found.
    pub probe: Option<Findings>,
    /// Answers to the judge's orders to stop or continue (no freezer group):
    /// how many, and whether the last stop held.
    pub answers: u64,
    pub unfrozen: bool,
    /// Why what it wrote could not be kept, if it could not.
    pub unkept: Option<String>,
}

/// The reports of a contestant's launcher, as its reader thread hears them.
#[derive(Debug, Default)]
pub(crate) struct Reports {
    state: Mutex<Heard>,
    changed: Condvar,
}

impl Reports {
    /// Takes one frame of the launcher (but a standard error line).
    pub fn hear(&self, frame: Frame) {
        let mut heard = lock(&self.state);
        match frame {
            Frame::Exit(code) => {
                heard.end.get_or_insert(End::Exit(code));
            }
            Frame::Signal(signal) => {
                heard.end.get_or_insert(End::Signal(signal));
            }
            Frame::NoStart(why) => {
                heard.end.get_or_insert(End::NoStart(why));
            }
            Frame::Sandbox(why) => {
                heard.end.get_or_insert(End::Sandbox(why));
            }
            Frame::Probe(findings) => heard.probe = Some(*findings),
            Frame::Over(limit) => {
                heard.over.get_or_insert(limit);
            }
            Frame::Frozen(_) => {
                heard.answers += 1;
                heard.unfrozen = false;
            }
            Frame::Unfrozen => {
                heard.answers += 1;
                heard.unfrozen = true;
            }
            Frame::Unkept(why) => heard.unkept = Some(why),
            Frame::Stderr(..) => {}
        }
        self.changed.notify_all();
    }

    /// No more reports will come.
    pub fn close(&self) {
        lock(&self.state).closed = true;
        self.changed.notify_all();
    }

    /// Waits until `done` holds of what was heard or the deadline passes;
    /// then `take` reads it.
    pub fn wait<T>(
        &self,
        deadline: Instant,
        done: impl Fn(&Heard) -> bool,
        take: impl FnOnce(&Heard) -> T,
    ) -> T {
        let mut heard = lock(&self.state);
        while !done(&heard) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            heard = self
                .changed
                .wait_timeout(heard, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        take(&heard)
    }

    /// What was heard, now.
    pub fn now<T>(&self, take: impl FnOnce(&Heard) -> T) -> T {
        take(&lock(&self.state))
    }
}

/// How a running contestant is frozen between its answers.
#[derive(Debug)]
enum Freezing {
    /// It is not (uncontained).
    Never,
    /// Through its control group.
    Group,
    /// By its launcher, which stops every process of its namespace when
    /// told on the control pipe; `asked` orders were sent so far.
    Stop { asked: u64 },
}

/// How the judge holds a contestant it started.
#[derive(Debug)]
enum Hold {
    /// Contained, through the launcher: the judge's end of the control
    /// pipe (closing it ends the game) and the other end, which the
    /// launcher opens as the judge's (`/proc/JUDGE/fd/N`), kept open until
    /// the game ends.
    Launcher {
        control: Option<std::fs::File>,
        _other_end: OwnedFd,
    },
    /// Uncontained (`--no-sandbox`): a plain child in a process group of
    /// its own.
    Plain,
}

/// A running contestant: its pipes, its end, its limits; killed with
/// everything it started when dropped.
#[derive(Debug)]
pub struct Contestant {
    /// Its standard input (take it to write).
    pub stdin: Option<ChildStdin>,
    /// Its standard output (take it to read).
    pub stdout: Option<ChildStdout>,
    pub(crate) child: Child,
    group: i32,
    cgroup: Option<Group>,
    hold: Hold,
    freezing: Freezing,
    frozen: bool,
    pub(crate) reports: Arc<Reports>,
    went_over: Option<Limit>,
    /// Its folder and file-size limit, until looked through once.
    pub(crate) files: Option<(PathBuf, u64)>,
    finished: bool,
}

impl Contestant {
    /// Starts `command` (the launcher, or an uncontained program) and
    /// registers it for [`shut_down`]. Contained, `control` is its control
    /// pipe (the judge's end, then the launcher's) and `cgroup` its groups;
    /// a contestant that `freezes` starts frozen.
    pub(crate) fn spawn(
        mut command: Command,
        cgroup: Option<Group>,
        control: Option<(OwnedFd, OwnedFd)>,
        freezes: bool,
    ) -> std::io::Result<Contestant> {
        let mut live = lock(&LIVE);
        if live.closed {
            return Err(std::io::Error::other(
                "shutting down: no new contestant starts",
            ));
        }
        let mut child = command.spawn()?;
        let group = child.id() as i32;
        live.groups
            .insert(group, cgroup.as_ref().and_then(Group::thaw_file));
        drop(live);
        let hold = match control {
            Some((judge_end, other_end)) => Hold::Launcher {
                control: judge_end.try_clone().ok().map(std::fs::File::from),
                _other_end: other_end,
            },
            None => Hold::Plain,
        };
        let launched = matches!(hold, Hold::Launcher { .. });
        let freezing = match (&cgroup, launched && freezes) {
            (_, false) => Freezing::Never,
            (Some(g), true) if g.freezes() => Freezing::Group,
            _ => Freezing::Stop { asked: 0 },
        };
        Ok(Contestant {
            stdin: child.stdin.take(),
            stdout: child.stdout.take(),
            child,
            group,
            cgroup,
            hold,
            frozen: !matches!(freezing, Freezing::Never),
            freezing,
            reports: Arc::new(Reports::default()),
            went_over: None,
            files: None,
            finished: false,
        })
    }

    /// Whether it runs through the launcher (contained) rather than as a
    /// plain child.
    fn launched(&self) -> bool {
        matches!(self.hold, Hold::Launcher { .. })
    }

    /// The process id of what was started (the launcher, when contained),
    /// which is also its process group.
    pub fn id(&self) -> u32 {
        self.group as u32
    }

    /// Lets the contestant run (it starts frozen, and is frozen again after
    /// each answer). Nothing to do if it runs, or is never frozen.
    pub fn thaw(&mut self) -> Result<(), FreezeError> {
        if !self.frozen {
            return Ok(());
        }
        match &mut self.freezing {
            Freezing::Never => {}
            Freezing::Group => {
                let group = self.cgroup.as_ref().expect("a freezing group");
                group
                    .set_frozen(false)
                    .map_err(|e| FreezeError::Thaw(Arc::new(e)))?;
            }
            Freezing::Stop { asked } => {
                if ask(&mut self.hold, asked, &self.reports, b't')?.is_none() {
                    return Err(FreezeError::NotLetRun);
                }
            }
        }
        self.frozen = false;
        Ok(())
    }

    /// Freezes every process of the contestant and waits until they all
    /// are, so that nothing of it runs on its opponent's time. `Err` when
    /// one kept running.
    pub fn freeze(&mut self) -> Result<(), FreezeError> {
        if self.frozen || matches!(self.freezing, Freezing::Never) {
            return Ok(());
        }
        self.frozen = true;
        match &mut self.freezing {
            Freezing::Never => Ok(()),
            Freezing::Group => {
                let group = self.cgroup.as_ref().expect("a freezing group");
                {
                    // Never after `shut_down` has thawed it to let it die: a
                    // frozen process of cgroup v1 would outlive its launcher.
                    let live = lock(&LIVE);
                    if live.closed {
                        return Ok(());
                    }
                    group
                        .set_frozen(true)
                        .map_err(|e| FreezeError::Freeze(Arc::new(e)))?;
                }
                let ended = || self.reports.now(|h| h.over.is_some() || h.closed);
                if group.frozen_unless(Instant::now() + FREEZE_WITHIN, ended) || ended() {
                    // A contestant its launcher ended for a limit loses for
                    // that limit, read after its answer, not for the freeze.
                    Ok(())
                } else {
                    Err(FreezeError::NotFrozen {
                        seconds: FREEZE_WITHIN.as_secs(),
                    })
                }
            }
            Freezing::Stop { asked } => {
                match ask(&mut self.hold, asked, &self.reports, b'f')? {
                    Some(false) => Ok(()),
                    // Its launcher is gone: so is everything it ran.
                    None if self.reports.now(|h| h.closed) => Ok(()),
                    _ => Err(FreezeError::KeptRunning),
                }
            }
        }
    }

    /// How the program ended, waiting until `deadline` to hear it; `None`
    /// if it still runs (or its end cannot be known).
    pub fn end(&mut self, deadline: Instant) -> Option<End> {
        if self.launched() {
            return self
                .reports
                .wait(deadline, |h| h.end.is_some() || h.closed, |h| h.end.clone());
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
            let end = self.end_now();
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
                let folder = std::fs::File::open(folder).ok()?;
                crate::folder::holds_file_of(folder.as_fd(), limit).then_some(Limit::FileSize)
            };
            let watched = self.reports.now(|h| h.over);
            self.went_over = watched
                .or_else(|| self.cgroup.as_ref().and_then(Group::went_over))
                .or(by_signal)
                .or_else(by_file);
        }
        self.went_over
    }

    /// Why what it wrote in this game could not be kept in its folder, if so.
    pub fn unkept(&self) -> Option<String> {
        self.reports.now(|h| h.unkept.clone())
    }

    fn end_now(&mut self) -> Option<End> {
        if self.launched() {
            self.reports.now(|h| h.end.clone())
        } else {
            self.end(Instant::now())
        }
    }

    /// Waits until every process it started has ended, or the deadline;
    /// true if they all did.
    pub fn wait_gone(&mut self, deadline: Instant) -> bool {
        let group = Pid::from_raw(self.group);
        let launched = self.launched();
        nap_until(deadline, Duration::from_millis(2), || {
            // Contained, the launcher ends only when its namespace is empty.
            matches!(self.child.try_wait(), Ok(Some(_)))
                && (launched || killpg(group, None).is_err())
        })
    }

    /// Ends it: every process it started is killed; contained, its
    /// launcher then keeps what it wrote (within its bound) and says all it
    /// has to say before this returns; its control groups are removed.
    pub fn kill(&mut self) {
        if self.finished {
            return;
        }
        let group = Pid::from_raw(self.group);
        if self.launched() {
            // A frozen process of cgroup v1 cannot even die.
            if let (Freezing::Group, Some(g)) = (&self.freezing, &self.cgroup) {
                let _ = g.set_frozen(false);
            }
            // The closed pipe tells the launcher the game is over.
            if let Hold::Launcher { control, .. } = &mut self.hold {
                *control = None;
            }
            let deadline = Instant::now() + END_WITHIN;
            if !self.wait_gone(deadline) {
                let _ = killpg(group, Signal::SIGKILL);
            }
            let _ = self.child.wait();
            // Everything it reported is heard before its end is read.
            self.reports.wait(
                Instant::now() + Duration::from_secs(5),
                |h| h.closed,
                |_| (),
            );
        } else {
            let members_left = killpg(group, Signal::SIGKILL).is_ok();
            let _ = self.child.wait();
            if members_left {
                // SIGKILL lands asynchronously; wait (briefly: unreaped zombies also
                // answer) until the leftovers are really gone.
                let deadline = Instant::now() + Duration::from_millis(200);
                nap_until(deadline, Duration::from_millis(1), || {
                    killpg(group, None).is_err()
                });
            }
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

/// Why a contestant could not be thawed for its turn, or frozen after it:
/// it cannot be held to its own time.
#[derive(Clone, Debug, thiserror::Error)]
pub enum FreezeError {
    /// Its freezing group refused to thaw.
    #[error("cannot thaw it: {0}")]
    Thaw(Arc<std::io::Error>),
    /// Its freezing group refused to freeze.
    #[error("cannot freeze it: {0}")]
    Freeze(Arc<std::io::Error>),
    /// Its launcher did not answer the order to let it run.
    #[error("its launcher did not let it run")]
    NotLetRun,
    /// Its group did not freeze in time.
    #[error("its processes were not all frozen within {seconds} s of its answer")]
    NotFrozen {
        /// How long it was given, in seconds.
        seconds: u64,
    },
    /// Its launcher stopped every process but one kept running.
    #[error("one of its processes kept running though all were told to stop")]
    KeptRunning,
    /// The order could not be written to its launcher.
    #[error("cannot reach its launcher: {0}")]
    Unreachable(Arc<std::io::Error>),
    /// Its launcher has ended.
    #[error("its launcher is gone")]
    LauncherGone,
}

/// Writes one order (`f` freeze, `t` thaw) on the control pipe and waits
/// for the launcher's answer: `None` when none came in time, else whether a
/// process was left running.
fn ask(
    hold: &mut Hold,
    asked: &mut u64,
    reports: &Reports,
    order: u8,
) -> Result<Option<bool>, FreezeError> {
    match hold {
        Hold::Launcher {
            control: Some(pipe),
            ..
        } => pipe
            .write_all(&[order])
            .map_err(|e| FreezeError::Unreachable(Arc::new(e)))?,
        _ => return Err(FreezeError::LauncherGone),
    }
    *asked += 1;
    let asked = *asked;
    Ok(reports.wait(
        Instant::now() + FREEZE_WITHIN,
        |h| h.answers >= asked || h.closed,
        |h| (h.answers >= asked).then_some(h.unfrozen),
    ))
}

impl Drop for Contestant {
    fn drop(&mut self) {
        self.kill();
    }
}
