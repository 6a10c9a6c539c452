//! Control groups: a contestant's memory, processes and processors counted
//! over all its processes, whether it went over them, and its processes
//! frozen between its answers. Version 1 (one hierarchy per controller)
//! and version 2 (one unified hierarchy) are both read from
//! `/proc/self/cgroup` and `/proc/self/mountinfo`; the judge makes one group
//! per contestant and game below its own.
//!
//! The launcher's first stage joins the groups that bound the contestant
//! (memory, pids, cpu); its second stage, and so everything the contestant
//! starts, joins the group that is frozen between answers (v1's freezer
//! hierarchy, or a child `bot` of the group in v2), so that the launcher
//! itself stays awake to relay, to watch the disk and to end the game.

use std::fs;
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use crate::limits::{Limit, Limits};

/// The scheduler period the CPU bound is expressed in, in microseconds.
const CPU_PERIOD_US: u64 = 100_000;

/// Where the judge can make groups on this machine.
#[derive(Clone, Debug)]
pub struct Cgroups {
    kind: Kind,
    /// Version 1: an empty group kept frozen while the judge runs (see
    /// [`Keeper`]).
    _keeper: Option<Arc<Keeper>>,
}

/// An empty freezer group of version 1, frozen for as long as the judge
/// runs. The kernel turns its freezer on (patching its own code) when the
/// first group starts freezing and off when the last one thaws: ~90 µs each
/// way. With this group frozen throughout, freezing and thawing a bot costs
/// a few microseconds, as in a game, where the opponent is always frozen.
#[derive(Debug)]
struct Keeper(PathBuf);

impl Keeper {
    fn new(parent: &Path) -> Option<Keeper> {
        let dir = parent.join(format!(
            "{PREFIX}{}-keeper-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir(&dir).ok()?;
        let keeper = Keeper(dir);
        fs::write(keeper.0.join("freezer.state"), "FROZEN").ok()?;
        Some(keeper)
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        let _ = fs::write(self.0.join("freezer.state"), "THAWED");
        let _ = fs::remove_dir(&self.0);
    }
}

#[derive(Clone, Debug)]
enum Kind {
    /// No usable hierarchy; the reason, for `--check-sandbox`.
    Unavailable(String),
    /// Version 1: the folders (the judge's own group in each hierarchy)
    /// groups are made in.
    V1 {
        memory: Option<PathBuf>,
        pids: Option<PathBuf>,
        cpu: Option<PathBuf>,
        freezer: Option<PathBuf>,
    },
    /// Version 2: the folder groups are made in, and which controllers it
    /// gives (freezing needs none).
    V2 {
        parent: PathBuf,
        memory: bool,
        pids: bool,
        cpu: bool,
    },
}

/// Groups made by this process get a number from here.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// Prefix of every group the judge makes; the judge's pid follows, so a
/// later judge can tell leftovers of a dead one.
const PREFIX: &str = "inarow-";

/// The child group, in version 2, that holds the contestant's own
/// processes (the launcher's first stage stays in its parent, awake).
const BOT_LEAF: &str = "bot";

/// A mechanism of the kernel that bounds or freezes a contestant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    /// Memory over all its processes.
    Memory,
    /// Processes and threads over all its processes.
    Pids,
    /// Processor time over all its processes.
    Cpu,
    /// Freezing all its processes between answers.
    Freezer,
}

impl Cgroups {
    /// Finds where this process may make groups, removing the groups left
    /// by judges that no longer run.
    pub fn discover() -> Cgroups {
        let (own, mounts) = match (
            fs::read_to_string("/proc/self/cgroup"),
            fs::read_to_string("/proc/self/mountinfo"),
        ) {
            (Ok(own), Ok(mounts)) => (own, mounts),
            _ => return Cgroups::unavailable("/proc/self/cgroup cannot be read"),
        };
        let mounts = parse_mountinfo(&mounts);
        let v1 = |controller: &str| -> Option<PathBuf> {
            let path = own.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
                list.split(',').any(|c| c == controller).then_some(path)
            })?;
            let mount = mounts
                .iter()
                .find(|m| m.fstype == "cgroup" && m.options.split(',').any(|o| o == controller))?;
            let dir = mount.join(path)?;
            usable(&dir).then_some(dir)
        };
        let (memory, pids) = (v1("memory"), v1("pids"));
        if memory.is_some() || pids.is_some() {
            let freezer = v1("freezer");
            let keeper = freezer.as_deref().and_then(Keeper::new).map(Arc::new);
            return Cgroups {
                kind: Kind::V1 {
                    memory,
                    pids,
                    cpu: v1("cpu"),
                    freezer,
                },
                _keeper: keeper,
            };
        }
        let unified = own
            .lines()
            .find_map(|line| line.strip_prefix("0::"))
            .and_then(|path| {
                let mount = mounts.iter().find(|m| m.fstype == "cgroup2")?;
                mount.join(path)
            });
        match unified {
            Some(dir) => match delegate_v2(&dir) {
                Ok((parent, [memory, pids, cpu])) => Cgroups {
                    kind: Kind::V2 {
                        parent,
                        memory,
                        pids,
                        cpu,
                    },
                    _keeper: None,
                },
                Err(why) => Cgroups::unavailable(&why),
            },
            None => Cgroups::unavailable("no memory or pids cgroup controller is mounted"),
        }
    }

    fn unavailable(why: &str) -> Cgroups {
        Cgroups {
            kind: Kind::Unavailable(why.to_string()),
            _keeper: None,
        }
    }

    /// Whether `controller` works over all of a contestant's processes here.
    pub fn has(&self, controller: Controller) -> bool {
        match (&self.kind, controller) {
            (Kind::Unavailable(_), _) => false,
            (Kind::V1 { memory, .. }, Controller::Memory) => memory.is_some(),
            (Kind::V1 { pids, .. }, Controller::Pids) => pids.is_some(),
            (Kind::V1 { cpu, .. }, Controller::Cpu) => cpu.is_some(),
            (Kind::V1 { freezer, .. }, Controller::Freezer) => freezer.is_some(),
            (Kind::V2 { memory, .. }, Controller::Memory) => *memory,
            (Kind::V2 { pids, .. }, Controller::Pids) => *pids,
            (Kind::V2 { cpu, .. }, Controller::Cpu) => *cpu,
            // `cgroup.freeze` is part of every version 2 group.
            (Kind::V2 { .. }, Controller::Freezer) => true,
        }
    }

    /// Whether memory is counted over all of a contestant's processes.
    pub fn memory(&self) -> bool {
        self.has(Controller::Memory)
    }

    /// Whether processes are counted over all of a contestant's processes.
    pub fn pids(&self) -> bool {
        self.has(Controller::Pids)
    }

    /// Where `controller`'s groups are made, in words (`--check-sandbox`);
    /// `None` when it is missing here.
    pub fn where_is(&self, controller: Controller) -> Option<String> {
        if !self.has(controller) {
            return None;
        }
        Some(match &self.kind {
            Kind::V1 {
                memory,
                pids,
                cpu,
                freezer,
            } => {
                let dir = match controller {
                    Controller::Memory => memory,
                    Controller::Pids => pids,
                    Controller::Cpu => cpu,
                    Controller::Freezer => freezer,
                };
                format!("cgroup v1 under {}", dir.as_ref()?.display())
            }
            Kind::V2 { parent, .. } => format!("cgroup v2 under {}", parent.display()),
            Kind::Unavailable(_) => return None,
        })
    }

    /// What is in force, in words.
    pub fn describe(&self) -> String {
        match &self.kind {
            Kind::Unavailable(why) => format!("none ({why})"),
            _ => {
                let all = [
                    (Controller::Memory, "memory"),
                    (Controller::Pids, "pids"),
                    (Controller::Cpu, "cpu"),
                    (Controller::Freezer, "freezer"),
                ];
                let parts: Vec<String> = all
                    .iter()
                    .map(|(c, name)| match self.where_is(*c) {
                        Some(place) => format!("{name}: {place}"),
                        None => format!("{name}: missing"),
                    })
                    .collect();
                parts.join("; ")
            }
        }
    }

    /// Why there is no usable hierarchy here, if there is none.
    pub fn missing(&self) -> Option<&str> {
        match &self.kind {
            Kind::Unavailable(why) => Some(why),
            _ => None,
        }
    }

    /// Makes the groups of one contestant with `limits`, its processes
    /// frozen from the start when `frozen` (they run only once thawed);
    /// `None` when this machine has no usable hierarchy.
    pub fn create(&self, limits: &Limits, frozen: bool) -> io::Result<Option<Group>> {
        let name = format!(
            "{PREFIX}{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut group = Group {
            memory: None,
            pids: None,
            freezer: None,
            outer: Vec::new(),
            inner: None,
            dirs: Vec::new(),
            v2: false,
        };
        match &self.kind {
            Kind::Unavailable(_) => return Ok(None),
            Kind::V1 {
                memory,
                pids,
                cpu,
                freezer,
            } => {
                if let Some(parent) = memory {
                    let dir = group.make(parent.join(&name))?;
                    if let Some(bytes) = limits.memory {
                        write(&dir.join("memory.limit_in_bytes"), bytes)?;
                        // Without this, swap would let the bot go past the limit.
                        let _ = write(&dir.join("memory.memsw.limit_in_bytes"), bytes);
                    }
                    group.outer.push(dir.join("cgroup.procs"));
                    group.memory = Some(dir);
                }
                if let Some(parent) = pids {
                    let dir = group.make(parent.join(&name))?;
                    write(&dir.join("pids.max"), limits.processes)?;
                    group.outer.push(dir.join("cgroup.procs"));
                    group.pids = Some(dir);
                }
                if let Some(parent) = cpu {
                    let dir = group.make(parent.join(&name))?;
                    if let Some(cores) = limits.cpus {
                        write(&dir.join("cpu.cfs_period_us"), CPU_PERIOD_US)?;
                        write(&dir.join("cpu.cfs_quota_us"), cores.quota_us(CPU_PERIOD_US))?;
                    }
                    group.outer.push(dir.join("cgroup.procs"));
                }
                if let Some(parent) = freezer {
                    let dir = group.make(parent.join(&name))?;
                    let freezer = Freezer::v1(dir.join("freezer.state"))?;
                    if frozen {
                        freezer.set(true)?;
                    }
                    group.inner = Some(dir.join("cgroup.procs"));
                    group.freezer = Some(freezer);
                }
            }
            Kind::V2 {
                parent,
                memory,
                pids,
                cpu,
            } => {
                group.v2 = true;
                let dir = group.make(parent.join(&name))?;
                if let (true, Some(bytes)) = (*memory, limits.memory) {
                    write(&dir.join("memory.max"), bytes)?;
                    let _ = write(&dir.join("memory.swap.max"), 0);
                }
                if *memory {
                    group.memory = Some(dir.clone());
                }
                if *pids {
                    write(&dir.join("pids.max"), limits.processes)?;
                    group.pids = Some(dir.clone());
                }
                if let (true, Some(cores)) = (*cpu, limits.cpus) {
                    let max = format!("{} {CPU_PERIOD_US}", cores.quota_us(CPU_PERIOD_US));
                    fs::write(dir.join("cpu.max"), max).map_err(|e| {
                        io::Error::new(
                            e.kind(),
                            format!("cannot write {}/cpu.max: {e}", dir.display()),
                        )
                    })?;
                }
                group.outer.push(dir.join("cgroup.procs"));
                let leaf = group.make(dir.join(BOT_LEAF))?;
                let freezer = Freezer::v2(leaf.clone())?;
                if frozen {
                    freezer.set(true)?;
                }
                group.inner = Some(leaf.join("cgroup.procs"));
                group.freezer = Some(freezer);
            }
        }
        Ok(Some(group))
    }
}

/// How one contestant's processes are frozen: the files kept open, since
/// a turn of every game opens none (a file opened each time costs more than
/// the write).
#[derive(Debug)]
enum Freezer {
    /// Version 1: the group's `freezer.state`, read and written.
    V1 { path: PathBuf, state: fs::File },
    /// Version 2: the group's folder, its `cgroup.freeze` (written) and
    /// `cgroup.events` (read).
    V2 {
        dir: PathBuf,
        freeze: fs::File,
        events: fs::File,
    },
}

impl Freezer {
    fn v1(state: PathBuf) -> io::Result<Freezer> {
        let file = fs::OpenOptions::new().read(true).write(true).open(&state);
        Ok(Freezer::V1 {
            state: file.map_err(|e| {
                io::Error::new(e.kind(), format!("cannot open {}: {e}", state.display()))
            })?,
            path: state,
        })
    }

    fn v2(dir: PathBuf) -> io::Result<Freezer> {
        let open = |name: &str, write: bool| {
            let path = dir.join(name);
            fs::OpenOptions::new()
                .read(!write)
                .write(write)
                .open(&path)
                .map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display()))
                })
        };
        Ok(Freezer::V2 {
            freeze: open("cgroup.freeze", true)?,
            events: open("cgroup.events", false)?,
            dir,
        })
    }

    /// The file written to freeze or thaw the group.
    fn path(&self) -> PathBuf {
        match self {
            Freezer::V1 { path, .. } => path.clone(),
            Freezer::V2 { dir, .. } => dir.join("cgroup.freeze"),
        }
    }

    /// What is written to that file to freeze (or thaw) the group.
    fn value(&self, frozen: bool) -> &'static str {
        match (self, frozen) {
            (Freezer::V1 { .. }, true) => "FROZEN",
            (Freezer::V1 { .. }, false) => "THAWED",
            (Freezer::V2 { .. }, true) => "1",
            (Freezer::V2 { .. }, false) => "0",
        }
    }

    fn set(&self, frozen: bool) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        let file = match self {
            Freezer::V1 { state, .. } => state,
            Freezer::V2 { freeze, .. } => freeze,
        };
        // Every turn of every game passes here: the path is made only for
        // an error.
        file.write_at(self.value(frozen).as_bytes(), 0)
            .map(|_| ())
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot write {}: {e}", self.path().display()),
                )
            })
    }

    /// Whether every process of the group is frozen now.
    fn is_frozen(&self) -> bool {
        use std::os::unix::fs::FileExt;
        let mut buffer = [0u8; 256];
        match self {
            // Reading the state also moves FREEZING on to FROZEN once done.
            Freezer::V1 { state, .. } => state
                .read_at(&mut buffer, 0)
                .is_ok_and(|n| buffer[..n].trim_ascii() == b"FROZEN"),
            Freezer::V2 { events, .. } => events.read_at(&mut buffer, 0).is_ok_and(|n| {
                String::from_utf8_lossy(&buffer[..n])
                    .lines()
                    .any(|l| l.trim() == "frozen 1")
            }),
        }
    }

    /// The file that thaws the group, and what to write there.
    fn thaw_file(&self) -> (PathBuf, &'static str) {
        (self.path(), self.value(false))
    }
}

/// One contestant's groups (a folder per hierarchy in version 1).
#[derive(Debug)]
pub struct Group {
    memory: Option<PathBuf>,
    pids: Option<PathBuf>,
    freezer: Option<Freezer>,
    /// The `cgroup.procs` files the launcher's first stage joins.
    outer: Vec<PathBuf>,
    /// The `cgroup.procs` file the contestant's own processes join.
    inner: Option<PathBuf>,
    /// Every folder made, parents before children.
    dirs: Vec<PathBuf>,
    v2: bool,
}

impl Group {
    fn make(&mut self, dir: PathBuf) -> io::Result<PathBuf> {
        fs::create_dir(&dir)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot make {}: {e}", dir.display())))?;
        self.dirs.push(dir.clone());
        Ok(dir)
    }

    /// The `cgroup.procs` files the launcher's first stage writes its pid
    /// to, to join the groups that bound the contestant.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.outer.clone()
    }

    /// The `cgroup.procs` file the contestant's own processes join: the
    /// group that freezes them.
    pub fn frozen_procs_file(&self) -> Option<PathBuf> {
        self.inner.clone()
    }

    /// Whether the contestant's processes can be frozen through this group.
    pub fn freezes(&self) -> bool {
        self.freezer.is_some()
    }

    /// The file that thaws the group, and what to write there.
    pub fn thaw_file(&self) -> Option<(PathBuf, &'static str)> {
        self.freezer.as_ref().map(Freezer::thaw_file)
    }

    /// Freezes (or thaws) every process of the contestant; returns once the
    /// kernel has been asked, not when it is done (see [`Group::frozen`]).
    pub fn set_frozen(&self, frozen: bool) -> io::Result<()> {
        match &self.freezer {
            Some(freezer) => freezer.set(frozen),
            None => Err(io::Error::other("this group cannot freeze")),
        }
    }

    /// Waits until every process of the contestant is frozen, or the
    /// deadline; true if they all are. The kernel takes microseconds to
    /// freeze a program waiting for its next prompt: the first millisecond
    /// is spent asking (yielding the processor between), then naps.
    pub fn frozen(&self, deadline: Instant) -> bool {
        self.frozen_unless(deadline, || false)
    }

    /// [`Group::frozen`], giving up early (false) once `ended` says the
    /// contestant's launcher is ending it anyway (it went over a limit it
    /// watches, and thaws the group to let it die).
    pub fn frozen_unless(&self, deadline: Instant, ended: impl Fn() -> bool) -> bool {
        let Some(freezer) = &self.freezer else {
            return false;
        };
        let busy = Instant::now() + Duration::from_millis(1);
        while Instant::now() < busy.min(deadline) {
            if freezer.is_frozen() {
                return true;
            }
            std::thread::yield_now();
        }
        let mut frozen = false;
        crate::nap_until(deadline, Duration::from_millis(1), || {
            frozen = freezer.is_frozen();
            frozen || ended()
        });
        frozen
    }

    /// The limit the group went over so far, if any: memory first, since
    /// running out of memory also makes forks fail.
    pub fn went_over(&self) -> Option<Limit> {
        if let Some(dir) = &self.memory {
            let (file, key) = if self.v2 {
                ("memory.events", "oom_kill")
            } else {
                ("memory.oom_control", "oom_kill")
            };
            if counter(&dir.join(file), key) > 0 {
                return Some(Limit::Memory);
            }
        }
        let pids = self.pids.as_ref()?;
        (counter(&pids.join("pids.events"), "max") > 0).then_some(Limit::Processes)
    }

    /// Thaws, kills whatever is still in the groups, and removes them.
    pub fn remove(&mut self) {
        if let Some(freezer) = &self.freezer {
            // A frozen process (in version 1) cannot even die.
            let _ = freezer.set(false);
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        for dir in self.dirs.drain(..).rev() {
            empty_and_remove(&dir, deadline);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Kills what is in the group `dir` until it is empty, then removes it.
fn empty_and_remove(dir: &Path, deadline: Instant) {
    loop {
        let procs = fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
        let pids: Vec<i32> = procs
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        if pids.is_empty() || Instant::now() >= deadline {
            break;
        }
        for pid in pids {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // An exiting process leaves the group a moment after it dies.
    while let Err(e) = fs::remove_dir(dir) {
        if e.kind() != ErrorKind::ResourceBusy || Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn write(path: &Path, value: u64) -> io::Result<()> {
    fs::write(path, value.to_string())
        .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
}

/// The number after `key` in a `key value` lines file; 0 when absent.
fn counter(path: &Path, key: &str) -> u64 {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .find_map(|line| {
            let (k, v) = line.split_once(' ')?;
            (k == key).then(|| v.trim().parse().ok())?
        })
        .unwrap_or(0)
}

/// Whether groups can be made in `dir`; removes the leftovers of dead judges.
fn usable(dir: &Path) -> bool {
    remove_leftovers(dir);
    // Threads of one judge may look at once: each probe has its own name.
    let probe = dir.join(format!(
        "{PREFIX}{}-probe-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let made = fs::create_dir(&probe).is_ok();
    if made {
        let _ = fs::remove_dir(&probe);
    }
    made
}

/// Removes the groups of judges that no longer run: a judge killed with
/// SIGKILL leaves them, and in version 1 the processes of a frozen group
/// stay frozen (and alive) until someone thaws them.
fn remove_leftovers(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        let pid = rest.split('-').next().and_then(|p| p.parse::<i32>().ok());
        let dead = pid.is_some_and(|pid| {
            pid != std::process::id() as i32 && kill(Pid::from_raw(pid), None).is_err()
        });
        if !dead {
            continue;
        }
        let group = entry.path();
        let _ = fs::write(group.join("freezer.state"), "THAWED");
        let leaf = group.join(BOT_LEAF);
        let deadline = Instant::now() + Duration::from_secs(1);
        if leaf.is_dir() {
            let _ = fs::write(leaf.join("cgroup.freeze"), "0");
            empty_and_remove(&leaf, deadline);
        }
        empty_and_remove(&group, deadline);
    }
}

/// Version 2 gives controllers to a group's children only when the group
/// holds no process itself. The judge's own group usually holds the judge,
/// so the judge moves into a leaf of its own first. Returns the folder
/// groups are made in and whether it gives memory, pids and cpu.
fn delegate_v2(own: &Path) -> Result<(PathBuf, [bool; 3]), String> {
    let controllers = fs::read_to_string(own.join("cgroup.controllers")).unwrap_or_default();
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    let (memory, pids, cpu) = (has("memory"), has("pids"), has("cpu"));
    if !usable(own) {
        return Err(format!("cannot make cgroups under {}", own.display()));
    }
    if !memory && !pids && !cpu {
        // Freezing still works; there is nothing to give.
        return Ok((own.to_path_buf(), [false; 3]));
    }
    let wanted: Vec<String> = [(memory, "+memory"), (pids, "+pids"), (cpu, "+cpu")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| c.to_string())
        .collect();
    let enable = || fs::write(own.join("cgroup.subtree_control"), wanted.join(" "));
    if enable().is_ok() {
        return Ok((own.to_path_buf(), [memory, pids, cpu]));
    }
    let leaf = own.join(format!("{PREFIX}{}-judge", std::process::id()));
    let pid = std::process::id().to_string();
    let moved = fs::create_dir(&leaf)
        .and_then(|()| fs::write(leaf.join("cgroup.procs"), &pid))
        .and_then(|()| enable());
    match moved {
        Ok(()) => Ok((own.to_path_buf(), [memory, pids, cpu])),
        Err(e) => {
            let _ = fs::write(own.join("cgroup.procs"), &pid);
            let _ = fs::remove_dir(&leaf);
            Err(format!(
                "cannot give controllers to groups under {} ({e}): other processes share it",
                own.display()
            ))
        }
    }
}

/// One line of `/proc/self/mountinfo`, the fields that matter here.
#[derive(Debug, PartialEq, Eq)]
struct Mount {
    root: PathBuf,
    point: PathBuf,
    fstype: String,
    options: String,
}

impl Mount {
    /// The folder of cgroup `path` (as `/proc/self/cgroup` names it) in this mount.
    fn join(&self, path: &str) -> Option<PathBuf> {
        let relative = Path::new(path).strip_prefix(&self.root).ok()?;
        Some(self.point.join(relative))
    }
}

fn parse_mountinfo(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|line| {
            let (head, tail) = line.split_once(" - ")?;
            let head: Vec<&str> = head.split(' ').collect();
            let tail: Vec<&str> = tail.split(' ').collect();
            Some(Mount {
                root: PathBuf::from(unescape(head.get(3)?)),
                point: PathBuf::from(unescape(head.get(4)?)),
                fstype: tail.first()?.to_string(),
                options: tail.get(2).unwrap_or(&"").to_string(),
            })
        })
        .collect()
}

/// Mount paths escape space, tab, newline and backslash as `\ooo`.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|d| {
            let s = std::str::from_utf8(d).ok()?;
            u8::from_str_radix(s, 8).ok()
        });
        match (bytes[i], octal) {
            (b'\\', Some(b)) => {
                out.push(b);
                i += 4;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mountinfo_gives_each_hierarchy_and_its_folder() {
        let text = "\
30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory
31 25 0:27 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
32 25 0:28 /sub /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw
33 25 0:29 / /mnt/with\\040space rw - ext4 /dev/x rw";
        let mounts = parse_mountinfo(text);
        assert_eq!(mounts.len(), 4);
        assert_eq!(mounts[0].fstype, "cgroup");
        assert!(mounts[0].options.contains("memory"));
        assert_eq!(
            mounts[0].join("/job/1"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/job/1"))
        );
        assert_eq!(
            mounts[2].join("/sub/judge"),
            Some(PathBuf::from("/sys/fs/cgroup/unified/judge"))
        );
        assert_eq!(mounts[2].join("/elsewhere"), None);
        assert_eq!(mounts[3].point, PathBuf::from("/mnt/with space"));
    }

    #[test]
    fn counters_are_read_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("memory.oom_control");
        fs::write(&file, "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n").unwrap();
        assert_eq!(counter(&file, "oom_kill"), 2);
        assert_eq!(counter(&file, "missing"), 0);
        assert_eq!(counter(&dir.path().join("none"), "oom_kill"), 0);
    }

    /// A group over stand-in folders holding the files the kernel keeps.
    fn stand_in(dir: &Path, freezer: Freezer) -> Group {
        let memory = dir.join("memory");
        let pids = dir.join("pids");
        fs::create_dir_all(&memory).unwrap();
        fs::create_dir_all(&pids).unwrap();
        fs::write(memory.join("memory.oom_control"), "oom_kill 0\n").unwrap();
        fs::write(pids.join("pids.events"), "max 0\n").unwrap();
        Group {
            memory: Some(memory),
            pids: Some(pids),
            freezer: Some(freezer),
            outer: Vec::new(),
            inner: None,
            dirs: Vec::new(),
            v2: false,
        }
    }

    /// A version 1 stand-in, thawed.
    fn stand_in_v1(dir: &Path) -> Group {
        fs::write(dir.join("freezer.state"), "THAWED").unwrap();
        stand_in(dir, Freezer::v1(dir.join("freezer.state")).unwrap())
    }

    #[test]
    fn a_group_reports_the_limit_it_went_over() {
        let dir = tempfile::tempdir().unwrap();
        let group = stand_in_v1(dir.path());
        assert_eq!(group.went_over(), None);
        fs::write(dir.path().join("pids/pids.events"), "max 3\n").unwrap();
        assert_eq!(group.went_over(), Some(Limit::Processes));
        fs::write(dir.path().join("memory/memory.oom_control"), "oom_kill 1\n").unwrap();
        assert_eq!(group.went_over(), Some(Limit::Memory));
    }

    #[test]
    fn each_version_freezes_through_its_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let v1 = stand_in_v1(dir.path());
        v1.set_frozen(true).unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("freezer.state")).unwrap(),
            "FROZEN"
        );
        assert!(v1.frozen(Instant::now()));
        v1.set_frozen(false).unwrap();
        assert!(!v1.frozen(Instant::now()));

        let leaf = dir.path().join("v2");
        fs::create_dir(&leaf).unwrap();
        fs::write(leaf.join("cgroup.freeze"), "0").unwrap();
        fs::write(leaf.join("cgroup.events"), "populated 0\nfrozen 0\n").unwrap();
        let v2 = stand_in(dir.path(), Freezer::v2(leaf.clone()).unwrap());
        v2.set_frozen(true).unwrap();
        assert_eq!(fs::read_to_string(leaf.join("cgroup.freeze")).unwrap(), "1");
        // The kernel says when it is done, in cgroup.events.
        fs::write(leaf.join("cgroup.events"), "populated 1\nfrozen 0\n").unwrap();
        assert!(!v2.frozen(Instant::now()));
        fs::write(leaf.join("cgroup.events"), "populated 1\nfrozen 1\n").unwrap();
        assert!(v2.frozen(Instant::now()));
    }
}
