//! Control groups: the memory and the processes of a contestant counted over
//! all its processes, and whether it went over them. Version 1 (one
//! hierarchy per controller) and version 2 (one unified hierarchy) are both
//! read from `/proc/self/cgroup` and `/proc/self/mountinfo`; the judge makes
//! one group per contestant below its own.

use std::fs;
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use crate::limits::{Limit, Limits};

/// Where the judge can make groups on this machine.
#[derive(Clone, Debug)]
pub struct Cgroups {
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// No usable hierarchy; the reason, for `--check-sandbox`.
    Unavailable(String),
    /// Version 1: the folders (the judge's own group) groups are made in.
    V1 {
        memory: Option<PathBuf>,
        pids: Option<PathBuf>,
    },
    /// Version 2: the folder groups are made in, and which controllers it gives.
    V2 {
        parent: PathBuf,
        memory: bool,
        pids: bool,
    },
}

/// Groups made by this process get a number from here.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// Prefix of every group the judge makes; the judge's pid follows, so a
/// later judge can tell leftovers of a dead one.
const PREFIX: &str = "inarow-";

impl Cgroups {
    /// Finds where this process may make groups, removing empty groups
    /// left by judges that no longer run.
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
            return Cgroups {
                kind: Kind::V1 { memory, pids },
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
                Ok((parent, memory, pids)) => Cgroups {
                    kind: Kind::V2 {
                        parent,
                        memory,
                        pids,
                    },
                },
                Err(why) => Cgroups::unavailable(&why),
            },
            None => Cgroups::unavailable("no memory or pids cgroup controller is mounted"),
        }
    }

    fn unavailable(why: &str) -> Cgroups {
        Cgroups {
            kind: Kind::Unavailable(why.to_string()),
        }
    }

    /// Whether memory is counted over all of a contestant's processes.
    pub fn memory(&self) -> bool {
        match &self.kind {
            Kind::V1 { memory, .. } => memory.is_some(),
            Kind::V2 { memory, .. } => *memory,
            Kind::Unavailable(_) => false,
        }
    }

    /// Whether processes are counted over all of a contestant's processes.
    pub fn pids(&self) -> bool {
        match &self.kind {
            Kind::V1 { pids, .. } => pids.is_some(),
            Kind::V2 { pids, .. } => *pids,
            Kind::Unavailable(_) => false,
        }
    }

    /// What is in force, in words.
    pub fn describe(&self) -> String {
        match &self.kind {
            Kind::Unavailable(why) => format!("none ({why})"),
            Kind::V1 { memory, pids } => {
                let mut parts = Vec::new();
                if let Some(m) = memory {
                    parts.push(format!("memory under {}", m.display()));
                }
                if let Some(p) = pids {
                    parts.push(format!("pids under {}", p.display()));
                }
                format!("version 1: {}", parts.join(", "))
            }
            Kind::V2 {
                parent,
                memory,
                pids,
            } => {
                let controllers: Vec<&str> = [(*memory, "memory"), (*pids, "pids")]
                    .iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, name)| *name)
                    .collect();
                format!(
                    "version 2: {} under {}",
                    controllers.join(" and "),
                    parent.display()
                )
            }
        }
    }

    /// Makes a group for one contestant with `limits`; `None` when this
    /// machine has no usable hierarchy.
    pub fn create(&self, limits: &Limits) -> io::Result<Option<Group>> {
        let name = format!(
            "{PREFIX}{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut group = Group {
            memory: None,
            pids: None,
            dirs: Vec::new(),
            v2: false,
        };
        match &self.kind {
            Kind::Unavailable(_) => return Ok(None),
            Kind::V1 { memory, pids } => {
                if let Some(parent) = memory {
                    let dir = group.make(parent.join(&name))?;
                    write(&dir.join("memory.limit_in_bytes"), limits.memory)?;
                    // Without this, swap would let the bot go past the limit.
                    let _ = write(&dir.join("memory.memsw.limit_in_bytes"), limits.memory);
                    group.memory = Some(dir);
                }
                if let Some(parent) = pids {
                    let dir = group.make(parent.join(&name))?;
                    write(&dir.join("pids.max"), limits.processes)?;
                    group.pids = Some(dir);
                }
            }
            Kind::V2 {
                parent,
                memory,
                pids,
            } => {
                group.v2 = true;
                let dir = group.make(parent.join(&name))?;
                if *memory {
                    write(&dir.join("memory.max"), limits.memory)?;
                    let _ = write(&dir.join("memory.swap.max"), 0);
                    group.memory = Some(dir.clone());
                }
                if *pids {
                    write(&dir.join("pids.max"), limits.processes)?;
                    group.pids = Some(dir);
                }
            }
        }
        Ok(Some(group))
    }
}

/// One contestant's group (a folder per hierarchy in version 1).
#[derive(Debug)]
pub struct Group {
    memory: Option<PathBuf>,
    pids: Option<PathBuf>,
    dirs: Vec<PathBuf>,
    v2: bool,
}

impl Group {
    fn make(&mut self, dir: PathBuf) -> io::Result<PathBuf> {
        fs::create_dir(&dir)?;
        self.dirs.push(dir.clone());
        Ok(dir)
    }

    /// The `cgroup.procs` files a process writes its pid to, to join the group.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
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

    /// Kills whatever is still in the group and removes it.
    pub fn remove(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(5);
        for dir in self.dirs.drain(..) {
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
            while let Err(e) = fs::remove_dir(&dir) {
                if e.kind() != ErrorKind::ResourceBusy || Instant::now() >= deadline {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.remove();
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

/// Whether groups can be made in `dir`; removes the empty leftovers of dead judges.
fn usable(dir: &Path) -> bool {
    remove_leftovers(dir);
    let probe = dir.join(format!("{PREFIX}{}-probe", std::process::id()));
    let made = fs::create_dir(&probe).is_ok();
    if made {
        let _ = fs::remove_dir(&probe);
    }
    made
}

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
        if dead {
            // Only an empty group can be removed; a busy one is left alone.
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// Version 2 gives controllers to a group's children only when the group
/// holds no process itself. The judge's own group usually holds the judge,
/// so the judge moves into a leaf of its own first.
fn delegate_v2(own: &Path) -> Result<(PathBuf, bool, bool), String> {
    let controllers = fs::read_to_string(own.join("cgroup.controllers")).unwrap_or_default();
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    let (memory, pids) = (has("memory"), has("pids"));
    if !memory && !pids {
        return Err(format!(
            "the judge's cgroup {} is given neither the memory nor the pids controller",
            own.display()
        ));
    }
    if !usable(own) {
        return Err(format!("cannot make cgroups under {}", own.display()));
    }
    let wanted: Vec<String> = [(memory, "+memory"), (pids, "+pids")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| c.to_string())
        .collect();
    let enable = || fs::write(own.join("cgroup.subtree_control"), wanted.join(" "));
    if enable().is_ok() {
        return Ok((own.to_path_buf(), memory, pids));
    }
    let leaf = own.join(format!("{PREFIX}{}-judge", std::process::id()));
    let pid = std::process::id().to_string();
    let moved = fs::create_dir(&leaf)
        .and_then(|()| fs::write(leaf.join("cgroup.procs"), &pid))
        .and_then(|()| enable());
    match moved {
        Ok(()) => Ok((own.to_path_buf(), memory, pids)),
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

    #[test]
    fn a_group_reports_the_limit_it_went_over() {
        // A stand-in hierarchy: plain folders with the files the kernel keeps.
        let dir = tempfile::tempdir().unwrap();
        let memory = dir.path().join("memory");
        let pids = dir.path().join("pids");
        fs::create_dir_all(&memory).unwrap();
        fs::create_dir_all(&pids).unwrap();
        fs::write(memory.join("memory.oom_control"), "oom_kill 0\n").unwrap();
        fs::write(pids.join("pids.events"), "max 0\n").unwrap();
        let group = Group {
            memory: Some(memory.clone()),
            pids: Some(pids.clone()),
            dirs: Vec::new(),
            v2: false,
        };
        assert_eq!(group.went_over(), None);
        fs::write(pids.join("pids.events"), "max 3\n").unwrap();
        assert_eq!(group.went_over(), Some(Limit::Processes));
        fs::write(memory.join("memory.oom_control"), "oom_kill 1\n").unwrap();
        assert_eq!(group.went_over(), Some(Limit::Memory));
    }
}
