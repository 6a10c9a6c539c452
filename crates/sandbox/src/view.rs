//! A contestant's own view of the file system, made by the launcher's
//! second stage inside the contestant's mount namespace: a new root (an
//! empty file system, read-only once built) holding only the system's
//! program and library folders and the command's installation (read-only,
//! at their own paths), the contestant's folder (read-write, at its own
//! path, its `meta` read-only; an overlay whose writes go to a `tmpfs` of
//! its bound's size, see [`crate::folder`]), a private `/tmp`, `/proc` of
//! its own PID namespace and a minimal `/dev`. Nothing else exists inside:
//! no other contestant's folder, no judge tree, no home folder.
//!
//! Built as contest sandboxes build theirs: a scratch file system becomes the
//! root with the old root below it (`/old`), the view is assembled in
//! `/new` from paths under `/old`, then `/new` becomes the root and the old
//! one is detached.

use std::fs;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sys::statvfs::{FsFlags, statvfs};
use rustix::mount::{MoveMountFlags, OpenTreeFlags, move_mount, open_tree};

use crate::paths::Paths;

/// Where the scratch root is mounted before it becomes the root: a folder
/// every Linux system has, and (in the contestant's mount namespace) no one
/// else's business.
const SCRATCH: &str = "/tmp";
/// The old root, below the scratch root.
const OLD: &str = "/old";
/// The view being built, below the scratch root.
const NEW: &str = "/new";

/// Device files linked to their `/proc` equivalents.
const DEV_LINKS: &[(&str, &str)] = &[
    ("fd", "/proc/self/fd"),
    ("stdin", "/proc/self/fd/0"),
    ("stdout", "/proc/self/fd/1"),
    ("stderr", "/proc/self/fd/2"),
    // POSIX shared memory (Python's multiprocessing) lives in /dev/shm.
    ("shm", "/tmp"),
];

/// What building the view noticed but did not fail on.
#[derive(Debug, Default)]
pub struct Notes {
    /// Why the folder could not be given the contestant's uid, if it could not.
    pub idmap: Option<String>,
}

/// Why the contestant's view could not be built, in one line.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// A step on `what` (a path, a mount) failed, as the system says.
    #[error("cannot build the bot's view: {what}: {why}")]
    At {
        /// What was being made or mounted.
        what: String,
        /// The system's reason.
        why: String,
    },
    /// Moving into the view failed.
    #[error("cannot build the bot's view: {0}")]
    Enter(std::io::Error),
}

impl ViewError {
    fn at(what: impl std::fmt::Display, why: impl std::fmt::Display) -> ViewError {
        ViewError::At {
            what: what.to_string(),
            why: why.to_string(),
        }
    }
}

/// Builds the view of `paths` and enters it: afterwards `/` is the new
/// root. `idmap`, a user namespace, maps the folder's owner to the
/// contestant's uid (the judge runs as root); `upper`, a detached `tmpfs`
/// holding the folders `upper` and `work`, takes what the contestant
/// writes to its folder.
pub fn enter(paths: &Paths, idmap: Option<OwnedFd>, upper: OwnedFd) -> Result<Notes, ViewError> {
    let mut notes = Notes::default();
    let scratch = |what: &str, e: nix::Error| ViewError::at(what, e);
    mount(
        Some("tmpfs"),
        SCRATCH,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some("size=64k,mode=700"),
    )
    .map_err(|e| scratch("a scratch file system on /tmp", e))?;
    for dir in [OLD, NEW] {
        fs::create_dir(Path::new(SCRATCH).join(&dir[1..])).map_err(|e| ViewError::at(dir, e))?;
    }
    mount(
        Some("tmpfs"),
        &Path::new(SCRATCH).join(&NEW[1..]),
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some("size=1m,mode=755"),
    )
    .map_err(|e| scratch("the new root", e))?;
    nix::unistd::pivot_root(SCRATCH, &Path::new(SCRATCH).join(&OLD[1..]))
        .map_err(|e| scratch("pivot_root", e))?;
    std::env::set_current_dir("/").map_err(|e| ViewError::at("/", e))?;

    // Read-only paths, parents first; a path inside one already placed is
    // visible already.
    let mut read: Vec<&PathBuf> = paths.read.iter().collect();
    read.sort_by_key(|p| p.components().count());
    let mut placed: Vec<&Path> = Vec::new();
    let tmp = Path::new("/tmp");
    // System paths first, then the private /tmp, /proc and /dev, then what
    // may lie below /tmp (grants, installations): a path under /tmp is
    // placed on the private /tmp, never hidden by it.
    let (under_tmp, elsewhere): (Vec<&PathBuf>, Vec<&PathBuf>) =
        read.into_iter().partition(|p| p.starts_with(tmp));
    for path in elsewhere {
        if !placed.iter().any(|done| path.starts_with(done)) && place(path, true)? {
            placed.push(path);
        }
    }
    special(paths)?;
    for path in under_tmp {
        if !placed.iter().any(|done| path.starts_with(done)) && place(path, true)? {
            placed.push(path);
        }
    }
    // The folder, read-write, as the contestant's own.
    folder(&paths.folder, idmap, upper, &mut notes)?;
    for file in &paths.fixed {
        if fs::symlink_metadata(under(OLD, file)).is_ok_and(|m| m.is_file()) {
            bind(file, true)?;
        }
    }

    // The new root becomes read-only and the root; the old one goes.
    mount(
        None::<&str>,
        NEW,
        None::<&str>,
        MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        None::<&str>,
    )
    .map_err(|e| scratch("the new root read-only", e))?;
    std::env::set_current_dir(NEW).map_err(ViewError::Enter)?;
    nix::unistd::pivot_root(".", ".").map_err(|e| scratch("pivot_root into the view", e))?;
    umount2(".", MntFlags::MNT_DETACH).map_err(|e| scratch("letting go of the old root", e))?;
    std::env::set_current_dir("/").map_err(ViewError::Enter)?;
    Ok(notes)
}

/// `path` below `base` (`/old` or `/new`).
fn under(base: &str, path: &Path) -> PathBuf {
    Path::new(base).join(path.strip_prefix("/").unwrap_or(path))
}

/// Puts `path` of the old root into the view at the same place: a link as
/// a link (`/bin -> usr/bin`), a folder or file bound. False if it is not
/// there.
fn place(path: &Path, read_only: bool) -> Result<bool, ViewError> {
    let source = under(OLD, path);
    let Ok(meta) = fs::symlink_metadata(&source) else {
        return Ok(false);
    };
    if meta.file_type().is_symlink() {
        let target = fs::read_link(&source).map_err(|e| view_error(path, e))?;
        let link = under(NEW, path);
        make_parent(&link)?;
        std::os::unix::fs::symlink(target, &link).map_err(|e| view_error(path, e))?;
        return Ok(true);
    }
    bind(path, read_only)?;
    Ok(true)
}

fn view_error(path: &Path, e: impl std::fmt::Display) -> ViewError {
    ViewError::at(path.display(), e)
}

fn make_parent(path: &Path) -> Result<(), ViewError> {
    match path.parent() {
        Some(parent) => fs::create_dir_all(parent).map_err(|e| view_error(path, e)),
        None => Ok(()),
    }
}

/// Makes the mount point for `path` in the view (a folder, or an empty
/// file for a file), unless something is there already.
fn mount_point(path: &Path, is_dir: bool) -> Result<PathBuf, ViewError> {
    let target = under(NEW, path);
    if fs::symlink_metadata(&target).is_err() {
        make_parent(&target)?;
        if is_dir {
            fs::create_dir(&target).map_err(|e| view_error(path, e))?;
        } else {
            fs::write(&target, b"").map_err(|e| view_error(path, e))?;
        }
    }
    Ok(target)
}

/// Binds `path` of the old root at the same place in the view.
fn bind(path: &Path, read_only: bool) -> Result<(), ViewError> {
    let source = under(OLD, path);
    let is_dir = fs::metadata(&source)
        .map_err(|e| view_error(path, e))?
        .is_dir();
    let target = mount_point(path, is_dir)?;
    mount(
        Some(&source),
        &target,
        None::<&str>,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        None::<&str>,
    )
    .map_err(|e| view_error(path, e))?;
    restrict_mount(&source, &target, read_only).map_err(|e| view_error(path, e))
}

/// Remounts the bind at `target` nosuid and nodev (and read-only if asked),
/// keeping the flags the source's mount already has: inside a user
/// namespace those are locked, and a remount that drops one is refused.
fn restrict_mount(source: &Path, target: &Path, read_only: bool) -> nix::Result<()> {
    let mut flags = MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_NOSUID;
    if let Ok(fs) = statvfs(source) {
        let kept = fs.flags();
        for (has, flag) in [
            (FsFlags::ST_RDONLY, MsFlags::MS_RDONLY),
            (FsFlags::ST_NODEV, MsFlags::MS_NODEV),
            (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
            (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
            (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
            (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
        ] {
            if kept.contains(has) {
                flags |= flag;
            }
        }
    }
    if read_only {
        flags |= MsFlags::MS_RDONLY;
    }
    mount(None::<&str>, target, None::<&str>, flags, None::<&str>)
}

/// The private `/tmp`, `/proc` and `/dev`.
fn special(paths: &Paths) -> Result<(), ViewError> {
    let tmp = mount_point(Path::new("/tmp"), true)?;
    mount(
        Some("tmpfs"),
        &tmp,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(format!("size={},mode=1777", paths.tmp_size.max(4096)).as_str()),
    )
    .map_err(|e| view_error(&tmp, e))?;
    let proc = mount_point(Path::new("/proc"), true)?;
    mount(
        Some("proc"),
        &proc,
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        None::<&str>,
    )
    .map_err(|e| view_error(Path::new("/proc (of the bot's own PID namespace)"), e))?;
    neutral_counts(&proc, &tmp)?;
    let dev = mount_point(Path::new("/dev"), true)?;
    mount(
        Some("tmpfs"),
        &dev,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
        Some("size=64k,mode=755"),
    )
    .map_err(|e| view_error(&dev, e))?;
    for device in &paths.devices {
        let source = under(OLD, device);
        let target = mount_point(device, false)?;
        mount(
            Some(&source),
            &target,
            None::<&str>,
            MsFlags::MS_BIND,
            None::<&str>,
        )
        .map_err(|e| view_error(device, e))?;
    }
    for (name, target) in DEV_LINKS {
        std::os::unix::fs::symlink(target, dev.join(name))
            .map_err(|e| view_error(&dev.join(name), e))?;
    }
    Ok(())
}

/// The files of `/proc` that show counts of the whole host, changing as
/// other games run: each is covered by a file of fixed contents (see
/// [`neutral`]), so that a bot of one game cannot hear through them what a
/// bot of another game played at the same time does.
pub const NEUTRAL_PROC: [&str; 3] = ["loadavg", "stat", "meminfo"];

/// Covers each of [`NEUTRAL_PROC`] in `proc` (the view's `/proc`) with a
/// read-only file of fixed contents, written first in `tmp` (the view's
/// private `/tmp`) and removed from there once bound.
fn neutral_counts(proc: &Path, tmp: &Path) -> Result<(), ViewError> {
    for name in NEUTRAL_PROC {
        let real = proc.join(name);
        let Ok(text) = fs::read_to_string(&real) else {
            // A kernel without it shows nothing to cover.
            continue;
        };
        let made = tmp.join(format!(".fixed-{name}"));
        let shown = Path::new("/proc").join(name);
        fs::write(&made, neutral(name, &text)).map_err(|e| view_error(&shown, e))?;
        let bound = mount(
            Some(&made),
            &real,
            None::<&str>,
            MsFlags::MS_BIND,
            None::<&str>,
        )
        .and_then(|()| {
            mount(
                None::<&str>,
                &real,
                None::<&str>,
                MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY,
                None::<&str>,
            )
        });
        let _ = fs::remove_file(&made);
        bound.map_err(|e| view_error(&shown, e))?;
    }
    Ok(())
}

/// What the file `name` of [`NEUTRAL_PROC`] shows a bot, made from what it
/// shows now (`real`): what does not change while the host runs (the
/// number of processors, the time of boot, the memory's and swap's
/// totals: runtimes size their threads and heaps by them) is kept; every
/// count that moves with other programs is zero, or the memory all free.
pub fn neutral(name: &str, real: &str) -> String {
    match name {
        // Load, runnable and all tasks, the last pid: one task, idle.
        "loadavg" => "0.00 0.00 0.00 1/1 1\n".into(),
        "stat" => real
            .lines()
            .filter_map(|line| {
                let key = line.split_whitespace().next()?;
                let zeros = |n: usize| format!("{key}{}", " 0".repeat(n));
                Some(match key {
                    // Each processor's times, in ten columns.
                    _ if key.starts_with("cpu") => {
                        let spaced = if key == "cpu" { "cpu " } else { key };
                        format!("{spaced}{}", " 0".repeat(10))
                    }
                    "btime" => line.to_string(),
                    "procs_running" => "procs_running 1".into(),
                    _ => zeros(1),
                })
            })
            .map(|line| line + "\n")
            .collect(),
        "meminfo" => {
            let value = |key: &str| {
                real.lines()
                    .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
                    .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
                    .unwrap_or(0)
            };
            let (total, swap) = (value("MemTotal"), value("SwapTotal"));
            real.lines()
                .filter_map(|line| {
                    let (key, rest) = line.split_once(':')?;
                    let kept = [
                        "MemTotal",
                        "SwapTotal",
                        "CommitLimit",
                        "VmallocTotal",
                        "HugePages_Total",
                        "Hugepagesize",
                    ];
                    let number = match key {
                        "MemFree" | "MemAvailable" => total,
                        "SwapFree" => swap,
                        _ if kept.contains(&key) => {
                            return Some(format!("{line}\n"));
                        }
                        _ => 0,
                    };
                    let unit = if rest.trim_end().ends_with("kB") {
                        " kB"
                    } else {
                        ""
                    };
                    Some(format!("{:<16}{number:>8}{unit}\n", format!("{key}:")))
                })
                .collect()
        }
        _ => String::new(),
    }
}

/// Where, in the scratch root, the folder as it is on disk is attached
/// for the overlay.
const LOWER: &str = "/lower";
/// Where, in the scratch root, the `tmpfs` taking the writes is attached.
const UPPER_FS: &str = "/upperfs";

/// The contestant's folder, read-write at its own path: an overlay of the
/// folder as it is on disk (below, never written) and the `tmpfs`
/// `upper` (above, where every write lands). With `idmap`, the folder's
/// owner appears as the contestant.
fn folder(
    path: &Path,
    idmap: Option<OwnedFd>,
    upper: OwnedFd,
    notes: &mut Notes,
) -> Result<(), ViewError> {
    let attach = |tree: &OwnedFd, at: &str| -> std::io::Result<()> {
        fs::create_dir(at)?;
        move_mount(
            tree,
            "",
            rustix::fs::CWD,
            at,
            MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
        )?;
        Ok(())
    };
    let tree = open_tree(
        rustix::fs::CWD,
        under(OLD, path),
        OpenTreeFlags::OPEN_TREE_CLONE | OpenTreeFlags::OPEN_TREE_CLOEXEC,
    )
    .map_err(|e| view_error(path, e))?;
    if let Some(userns) = idmap
        && let Err(e) = crate::sys::idmap_mount(&tree, &userns)
    {
        // Some file systems cannot map ids: the folder is seen as it is, and
        // the contestant cannot change what it holds (the probe warns).
        notes.idmap = Some(format!("its file system cannot map ids: {e}"));
    }
    attach(&tree, LOWER).map_err(|e| view_error(path, e))?;
    attach(&upper, UPPER_FS).map_err(|e| view_error(path, e))?;
    let (up, work) = crate::folder::Upper::dirs();
    let target = mount_point(path, true)?;
    mount(
        Some("overlay"),
        &target,
        Some("overlay"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(
            format!(
                "lowerdir={LOWER},upperdir={UPPER_FS}/{up},workdir={UPPER_FS}/{work},userxattr"
            )
            .as_str(),
        ),
    )
    .map_err(|e| view_error(path, format!("an overlay with a bounded tmpfs: {e}")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn neutral_counts_keep_the_totals_and_zero_what_moves() {
        let stat = "cpu  10 2 3 400 5 0 6 0 0 0\ncpu0 5 1 1 200 2 0 3 0 0 0\ncpu1 5 1 2 200 3 0 3 0 0 0\nintr 999 1 2\nctxt 12345\nbtime 1700000000\nprocesses 4567\nprocs_running 7\nprocs_blocked 1\nsoftirq 88 1 2\n";
        let shown = super::neutral("stat", stat);
        assert_eq!(shown.lines().filter(|l| l.starts_with("cpu")).count(), 3);
        assert!(
            shown.starts_with("cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 0 "),
            "{shown}"
        );
        assert!(shown.contains("btime 1700000000\n"));
        assert!(shown.contains("processes 0\nprocs_running 1\nprocs_blocked 0\n"));
        assert!(!shown.contains("12345") && !shown.contains("999"));
        let meminfo = "MemTotal:       16000000 kB\nMemFree:         1234567 kB\nMemAvailable:    2345678 kB\nCached:           345678 kB\nSwapTotal:       1000 kB\nSwapFree:        10 kB\nHugePages_Total:       0\n";
        let shown = super::neutral("meminfo", meminfo);
        assert!(shown.contains("MemTotal:       16000000 kB"));
        assert!(shown.contains("MemFree:        16000000 kB"), "{shown}");
        assert!(shown.contains("MemAvailable:   16000000 kB"));
        assert!(shown.contains("Cached:                0 kB"));
        assert!(shown.contains("SwapFree:           1000 kB"));
        assert!(shown.contains("HugePages_Total:       0"));
        assert_eq!(
            super::neutral("loadavg", "3.1 2.0 1.0 5/900 4242\n"),
            "0.00 0.00 0.00 1/1 1\n"
        );
    }
}
