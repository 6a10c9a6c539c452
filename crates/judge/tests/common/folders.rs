//! Bot folders in tests: a place the bots' user can reach, folders it owns,
//! and the processes still running in a folder. Shared with the `inarow`
//! tests, which include this file.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use inarow_sandbox::judge_is_root;

/// The kernel's overflow user.
const NOBODY: (u32, u32) = (65534, 65534);

/// A fresh folder for bot folders that the bots' user can reach.
pub fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Makes `folder` (and what is in it) `nobody`'s, when the tests run as
/// root: the folders of a judge the tests run as an ordinary user
/// (`nobody`), whose bots are that user outside their namespaces. A root
/// judge needs nothing of the kind: each bot's folder is mapped to its uid.
pub fn give_to_nobody(folder: &Path) {
    if !judge_is_root() {
        return;
    }
    let (uid, gid) = NOBODY;
    let mut stack = vec![folder.to_path_buf()];
    while let Some(path) = stack.pop() {
        std::os::unix::fs::lchown(&path, Some(uid), Some(gid)).unwrap();
        if path.is_dir() {
            stack.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        }
    }
}

/// Processes (not zombies) whose working folder is `dir` or inside it: a
/// bot and everything it started run in its folder.
pub fn processes_in(dir: &Path) -> Vec<i32> {
    let dir = dir.canonicalize().unwrap();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().filter_map(|e| e.ok()) {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(cwd) = fs::read_link(entry.path().join("cwd")) else {
            continue;
        };
        let zombie = fs::read_to_string(entry.path().join("stat"))
            .map(|s| {
                let state = s.rsplit(')').next().unwrap_or("").trim_start();
                state.starts_with('Z') || state.starts_with('X')
            })
            .unwrap_or(true);
        if cwd.starts_with(&dir) && !zombie {
            found.push(pid);
        }
    }
    found
}

/// Control groups given to `nobody`, as systemd's `Delegate=yes` gives a
/// user's own services theirs: an ordinary user's judge started through
/// [`Delegated::command`] runs inside them and may make its bots' groups
/// there. One group per hierarchy (cgroup v1: memory, pids, cpu, freezer)
/// or one in the unified hierarchy (v2), removed when dropped.
pub struct Delegated {
    /// Each group's folder, and its `cgroup.procs`.
    groups: Vec<std::path::PathBuf>,
}

/// How many [`Delegated`] of this process are alive: the first grants
/// `nobody` its subordinate ids, the last takes them back.
static GRANTS: std::sync::Mutex<usize> = std::sync::Mutex::new(0);

/// This process's line of `/etc/subuid` and `/etc/subgid` for `nobody`:
/// a range of its own, so that test processes at once never take back
/// another's.
fn subordinate_line() -> String {
    let start = 200_000_000 + (std::process::id() % 10_000) * 65_536;
    format!("nobody:{start}:65536\n")
}

/// Adds (`grant`) or removes this process's line for `nobody` in
/// `/etc/subuid` and `/etc/subgid`.
fn grant_subordinate_ids(grant: bool) {
    let line = subordinate_line();
    for file in ["/etc/subuid", "/etc/subgid"] {
        let text = fs::read_to_string(file).unwrap_or_default();
        let without: String = text
            .lines()
            .filter(|l| format!("{l}\n") != line)
            .map(|l| format!("{l}\n"))
            .collect();
        let _ = fs::write(file, if grant { without + &line } else { without });
    }
}

impl Delegated {
    /// Makes the groups (the tests run as root; otherwise there is nothing
    /// to give, and the judge runs as the tests' own user), and grants
    /// `nobody` subordinate ids for as long as a `Delegated` lives, as an
    /// administrator grants a user who runs rootless containers.
    pub fn new() -> Delegated {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        if !judge_is_root() {
            return Delegated { groups: Vec::new() };
        }
        {
            let mut grants = GRANTS.lock().unwrap_or_else(|e| e.into_inner());
            if *grants == 0 {
                grant_subordinate_ids(true);
            }
            *grants += 1;
        }
        let name = format!(
            "inarow-test-delegated-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let own = fs::read_to_string("/proc/self/cgroup").unwrap();
        let mounts = fs::read_to_string("/proc/self/mountinfo").unwrap();
        let mut groups = Vec::new();
        for line in mounts.lines() {
            let Some((head, tail)) = line.split_once(" - ") else {
                continue;
            };
            let head: Vec<&str> = head.split(' ').collect();
            let tail: Vec<&str> = tail.split(' ').collect();
            let (point, fstype, options) = (head[4], tail[0], tail.get(2).unwrap_or(&""));
            let path = match fstype {
                "cgroup" => {
                    let controllers: Vec<&str> = options.split(',').collect();
                    own.lines().find_map(|l| {
                        let mut parts = l.splitn(3, ':');
                        let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
                        let wanted = ["memory", "pids", "cpu", "freezer"];
                        (list
                            .split(',')
                            .any(|c| wanted.contains(&c) && controllers.contains(&c)))
                        .then_some(path)
                    })
                }
                "cgroup2" => own.lines().find_map(|l| l.strip_prefix("0::")),
                _ => None,
            };
            let Some(path) = path else { continue };
            let dir = Path::new(point)
                .join(path.trim_start_matches('/'))
                .join(&name);
            if fs::create_dir(&dir).is_ok() {
                if fstype == "cgroup2" {
                    // Give the group's children what it has.
                    let given =
                        fs::read_to_string(dir.join("cgroup.controllers")).unwrap_or_default();
                    let wanted: Vec<String> =
                        given.split_whitespace().map(|c| format!("+{c}")).collect();
                    let _ = fs::write(dir.join("cgroup.subtree_control"), wanted.join(" "));
                }
                give_to_nobody(&dir);
                groups.push(dir);
            }
        }
        Delegated { groups }
    }

    /// `program` run as `nobody` inside the groups (as the tests' own user
    /// when they do not run as root).
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        let argv = self.argv(program);
        let mut command = std::process::Command::new(&argv[0]);
        command.args(&argv[1..]);
        command
    }

    /// The command line of [`Delegated::command`].
    pub fn argv(&self, program: impl AsRef<std::ffi::OsStr>) -> Vec<std::ffi::OsString> {
        if !judge_is_root() {
            return vec![program.as_ref().to_os_string()];
        }
        let mut argv: Vec<std::ffi::OsString> = [
            "sh",
            "-c",
            r#"while [ "$1" != -- ]; do echo $$ > "$1"; shift; done; shift; exec setpriv --reuid 65534 --regid 65534 --clear-groups "$@""#,
            "sh",
        ]
        .map(Into::into)
        .to_vec();
        for group in &self.groups {
            argv.push(group.join("cgroup.procs").into());
        }
        argv.push("--".into());
        argv.push(for_nobody(Path::new(program.as_ref())).into());
        argv
    }
}

impl Drop for Delegated {
    fn drop(&mut self) {
        if judge_is_root() {
            let mut grants = GRANTS.lock().unwrap_or_else(|e| e.into_inner());
            *grants -= 1;
            if *grants == 0 {
                grant_subordinate_ids(false);
            }
        }
        for group in &self.groups {
            // What a judge left inside (it removes its own groups).
            let mut dirs = vec![group.clone()];
            let mut i = 0;
            while i < dirs.len() {
                if let Ok(list) = fs::read_dir(&dirs[i]) {
                    dirs.extend(
                        list.filter_map(|e| e.ok())
                            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                            .map(|e| e.path()),
                    );
                }
                i += 1;
            }
            for dir in dirs.iter().rev() {
                let _ = fs::write(dir.join("freezer.state"), "THAWED");
                let _ = fs::remove_dir(dir);
            }
        }
    }
}

/// A path to `program` that `nobody` may run: the program itself, or (when
/// a folder above it is closed to others, as `/root` is) a link to it, or
/// a copy, in a folder open to all.
pub fn for_nobody(program: &Path) -> std::path::PathBuf {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static PLACED: Mutex<
        Option<(
            tempfile::TempDir,
            HashMap<std::path::PathBuf, std::path::PathBuf>,
        )>,
    > = Mutex::new(None);
    let Ok(real) = program.canonicalize() else {
        // A name found in PATH (`sh`, `python3`).
        return program.to_path_buf();
    };
    let open = real
        .ancestors()
        .skip(1)
        .all(|p| fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
    if open || !judge_is_root() {
        return real;
    }
    let mut placed = PLACED.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, known) = placed.get_or_insert_with(|| {
        // A test process never drops this folder: the next one removes
        // those of processes that are gone.
        for entry in fs::read_dir("/tmp").into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix("inarow-test-programs-")
                .and_then(|rest| rest.split('-').next())
            else {
                continue;
            };
            if !Path::new("/proc").join(pid).exists() {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
        let dir = tempfile::Builder::new()
            .prefix(&format!("inarow-test-programs-{}-", std::process::id()))
            .tempdir_in("/tmp")
            .unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        (dir, HashMap::new())
    });
    if let Some(path) = known.get(&real) {
        return path.clone();
    }
    let folder = dir.path().join(known.len().to_string());
    fs::create_dir(&folder).unwrap();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).unwrap();
    let copy = folder.join(real.file_name().unwrap());
    if fs::hard_link(&real, &copy).is_err() {
        fs::copy(&real, &copy).unwrap();
    }
    known.insert(real, copy.clone());
    copy
}
