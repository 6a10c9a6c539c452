//! A contestant's folder, bounded by the kernel. The contestant sees its
//! folder as an overlay: what the folder held before the game below, read
//! only, and above it a `tmpfs` of its own where everything it writes
//! lands. The `tmpfs` is sized to what the folder may still take
//! (`--disk` less what it holds) plus a margin, so a write far past the
//! bound fails at once with `ENOSPC`, whatever the write (deep paths,
//! `fallocate`, sparse files, hard links, inodes); the launcher's first
//! stage checks the `tmpfs` every few milliseconds, and a contestant that
//! went past the bound into the margin loses its game for `disk`. After
//! the game the first stage commits what was written to the real folder
//! (new and changed files, removals), only when the bound held, so the
//! folder never holds more than the bound, and a contestant that went
//! over keeps its folder as it was before that game.
//!
//! Everything here works on open folders (`openat` and its kin, never
//! following a link), so neither a path longer than the kernel reads in
//! one go nor a link planted by the contestant leads anywhere else.

use std::collections::{HashMap, HashSet};
use std::ffi::{CStr, CString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::FileExt;
use std::rc::Rc;

use rustix::fs::{
    AtFlags, Dir, FileType, Mode, OFlags, Timespec, Timestamps, fchmod, fchown, fgetxattr,
    fstatvfs, ftruncate, futimens, linkat, mkdirat, openat, readlinkat, renameat, statat,
    symlinkat, unlinkat,
};
use rustix::mount::{
    FsMountFlags, FsOpenFlags, MountAttrFlags, fsconfig_create, fsconfig_set_string, fsmount,
    fsopen,
};
use serde::{Deserialize, Serialize};

use crate::limits::MAX_ENTRIES;

/// How far past its bound a contestant may write before the kernel says
/// `ENOSPC`: what it writes there is held in memory (and counted in its
/// memory) until the first stage sees it and ends the game, and never
/// reaches the folder.
pub const MARGIN_BYTES: u64 = 64 << 20;

/// Entries past the bound the `tmpfs` takes before it refuses, for the
/// same reason.
const MARGIN_ENTRIES: u64 = 1024;

/// Entries a game may add beyond the bound for the removals it makes (a
/// removal of a file the folder held is an entry, a "whiteout", while the
/// game runs).
const REMOVALS: u64 = 1000;

/// The deepest a folder is walked, and committed: a folder nested deeper
/// than this is over its bound.
pub const MAX_DEPTH: usize = 256;

/// The name of the folder, in the `tmpfs`, holding what the game wrote.
const UPPER: &str = "upper";
/// The overlay's own working folder in the `tmpfs`.
const WORK: &str = "work";

/// What a folder holds, as the file system it lies on will count it:
/// bytes (each entry's allocation rounded up to whole blocks of that file
/// system, and at least one block: see [`cost`]; a sparse file costs what
/// it holds, not its length; a file with several names counts its data
/// once and a block for each further name, which the folder's entries
/// hold) and entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Bytes of disk its files, folders and links take.
    pub bytes: u64,
    /// Files, folders and links in it.
    pub entries: u64,
}

impl Usage {
    /// What may still be written to a folder holding `self` under a bound
    /// of `disk` bytes, on a file system of `block`-byte blocks: every entry
    /// costs at least a block, so the entries are bounded by the bytes too
    /// (and by [`MAX_ENTRIES`] whatever the bound).
    pub fn room(&self, disk: u64, block: u64) -> Usage {
        let bytes = disk.saturating_sub(self.bytes);
        Usage {
            bytes,
            entries: MAX_ENTRIES
                .saturating_sub(self.entries)
                .min(bytes / block.max(1)),
        }
    }
}

/// The block size of the file system `dir` lies on: the unit it allocates.
pub fn block_size(dir: BorrowedFd<'_>) -> io::Result<u64> {
    let stat = fstatvfs(dir)?;
    Ok(match stat.f_frsize {
        0 => stat.f_bsize.max(512),
        size => size.max(512),
    })
}

/// What an entry costs on a file system of `block`-byte blocks: what it
/// allocates there, rounded up to whole blocks, and at least one block.
/// A folder is costed by the larger of its allocation and its size (a
/// `tmpfs` allocates its folders nothing, while ext4 gives each at least
/// a block and more as it grows), and so is every link and empty file:
/// ext4 gives a folder a block, XFS and btrfs inodes of their own; one
/// block each is the bound that holds on all of them.
pub fn cost(stat: &rustix::fs::Stat, block: u64) -> u64 {
    let allocated = (stat.st_blocks as u64).saturating_mul(512);
    let size = match FileType::from_raw_mode(stat.st_mode) {
        FileType::Directory => allocated.max(stat.st_size as u64),
        _ => allocated,
    };
    size.max(1).div_ceil(block).saturating_mul(block)
}

/// Why a folder could not be measured: it could be, on its own file
/// system, more than it seems.
#[derive(Debug, thiserror::Error)]
pub enum Unmeasured {
    /// A folder in it could not be opened or read.
    #[error("cannot read {path}: {reason}")]
    Unread {
        /// Its path inside the folder, escaped for a line.
        path: String,
        /// The system's reason.
        reason: io::Error,
    },
    /// Folders nest deeper than [`MAX_DEPTH`].
    #[error("its folders nest more than {MAX_DEPTH} deep")]
    TooDeep,
}

/// Measures the folder `dir` without following links, by open folders
/// (no path is too long for it), as the file system of `block`-byte
/// blocks counts it. Every folder in it must be read: one that cannot be
/// (as its owner, with no right to it) or that nests deeper than
/// [`MAX_DEPTH`] makes the measure fail, never look smaller.
pub fn measure(dir: BorrowedFd<'_>, block: u64) -> Result<Usage, Unmeasured> {
    measure_marked(dir, block, false)
}

/// [`measure`], passing over the overlay's marks of removals when
/// `marks_free` (they take nothing where the game's writes land).
fn measure_marked(dir: BorrowedFd<'_>, block: u64, marks_free: bool) -> Result<Usage, Unmeasured> {
    let mut walk = Walk {
        block,
        marks_free,
        path: Vec::new(),
        usage: Usage::default(),
        seen: HashSet::new(),
    };
    walk.folder(dir)?;
    Ok(walk.usage)
}

/// A measure under way.
struct Walk {
    block: u64,
    marks_free: bool,
    /// The folders from the top to the one being read.
    path: Vec<CString>,
    usage: Usage,
    /// Files with several names already counted.
    seen: HashSet<(u64, u64)>,
}

impl Walk {
    fn folder(&mut self, dir: BorrowedFd<'_>) -> Result<(), Unmeasured> {
        let unread = |path: &[CString], reason: io::Error| Unmeasured::Unread {
            path: shown_path(path),
            reason,
        };
        let entries = Dir::read_from(dir).map_err(|e| unread(&self.path, e.into()))?;
        for entry in entries {
            let entry = entry.map_err(|e| unread(&self.path, e.into()))?;
            let name = entry.file_name();
            if is_dot(name) {
                continue;
            }
            let stat = statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).map_err(|e| {
                self.path.push(name.to_owned());
                unread(&self.path, e.into())
            })?;
            if self.marks_free && is_whiteout(&stat) {
                continue;
            }
            self.usage.entries += 1;
            // A further name of a file costs what any entry costs: what
            // the commit keeps of it is a name, never its data again.
            let cost = if stat.st_nlink <= 1 || self.seen.insert((stat.st_dev, stat.st_ino)) {
                cost(&stat, self.block)
            } else {
                self.block
            };
            self.usage.bytes = self.usage.bytes.saturating_add(cost);
            if FileType::from_raw_mode(stat.st_mode) == FileType::Directory {
                if self.path.len() >= MAX_DEPTH {
                    return Err(Unmeasured::TooDeep);
                }
                self.path.push(name.to_owned());
                let sub = open_dir(dir, name).map_err(|e| unread(&self.path, e))?;
                self.folder(sub.as_fd())?;
                self.path.pop();
            }
        }
        Ok(())
    }
}

/// A path inside a folder, for a one-line message: its first and last
/// names when it is long.
fn shown_path(path: &[CString]) -> String {
    let names: Vec<String> = path
        .iter()
        .map(|n| {
            let text = n.to_string_lossy();
            let mut short: String = text.chars().take(40).collect();
            if short.len() < text.len() {
                short.push_str("...");
            }
            crate::shown::escape(&short).into_owned()
        })
        .collect();
    match names.len() {
        0 => ".".into(),
        n if n > 6 => format!("{}/.../{} ({n} folders deep)", names[0], names[n - 1]),
        _ => names.join("/"),
    }
}

fn is_dot(name: &CStr) -> bool {
    matches!(name.to_bytes(), b"." | b"..")
}

/// Opens the folder `name` of `dir`, never through a link.
fn open_dir(dir: BorrowedFd<'_>, name: impl rustix::path::Arg) -> io::Result<OwnedFd> {
    Ok(openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Whether a file of `limit` bytes or more lies in `folder` (three folders
/// down, the first 10,000 entries), never through a link.
pub fn holds_file_of(folder: BorrowedFd<'_>, limit: u64) -> bool {
    fn look(dir: BorrowedFd<'_>, limit: u64, depth: usize, met: &mut usize) -> bool {
        let Ok(entries) = Dir::read_from(dir) else {
            return false;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            *met += 1;
            if is_dot(name) || *met > 10_000 {
                continue;
            }
            let Ok(stat) = statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) else {
                continue;
            };
            match FileType::from_raw_mode(stat.st_mode) {
                FileType::RegularFile if stat.st_size as u64 >= limit => return true,
                FileType::Directory if depth < 3 => {
                    if let Ok(sub) = open_dir(dir, name)
                        && look(sub.as_fd(), limit, depth + 1, met)
                    {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }
    look(folder, limit, 0, &mut 0)
}

/// The file system a game writes to: a detached `tmpfs` (its mount's file
/// descriptor) and the bound it must stay within.
#[derive(Debug)]
pub struct Upper {
    mount: OwnedFd,
    room: Usage,
    /// The block size of the folder's own file system, where the game's
    /// writes will land.
    block: u64,
    /// Entries the file system holds before the game writes any.
    base_entries: u64,
    /// The last reading of the file system's counters that was measured
    /// exactly, and whether that was within the bound.
    checked: std::cell::Cell<Option<(Usage, bool)>>,
}

impl Upper {
    /// Makes the file system for a folder that may still take `room` on a
    /// file system of `block`-byte blocks, owned inside as `owner` with
    /// `mode` (the folder's own, as the contestant sees it). Needs the
    /// right to mount in this mount namespace.
    pub fn new(room: Usage, block: u64, owner: Option<(u32, u32)>, mode: u32) -> io::Result<Upper> {
        let context = fsopen("tmpfs", FsOpenFlags::FSOPEN_CLOEXEC)?;
        let size = room.bytes + MARGIN_BYTES;
        // A size of 0 would mean no bound at all.
        fsconfig_set_string(&context, "size", size.max(4096).to_string())?;
        // Every entry costs at least a block where it lands, so the kernel
        // refuses entries, folders and links included, soon after the
        // bytes they will take run out; removals are entries too while
        // the game runs.
        let inodes = room.entries + REMOVALS + MARGIN_ENTRIES + 8;
        fsconfig_set_string(&context, "nr_inodes", inodes.to_string())?;
        fsconfig_set_string(&context, "mode", "0755")?;
        fsconfig_create(&context)?;
        let mount = fsmount(
            &context,
            FsMountFlags::FSMOUNT_CLOEXEC,
            MountAttrFlags::MOUNT_ATTR_NOSUID | MountAttrFlags::MOUNT_ATTR_NODEV,
        )?;
        mkdirat(&mount, UPPER, Mode::from_raw_mode(mode & 0o7777))?;
        mkdirat(&mount, WORK, Mode::from_raw_mode(0o700))?;
        let upper = open_dir(mount.as_fd(), UPPER)?;
        // mkdir's mode passes through the umask; the folder's is set as it is.
        fchmod(&upper, Mode::from_raw_mode(mode & 0o1777))?;
        if let Some((uid, gid)) = owner {
            fchown(
                &upper,
                Some(rustix::fs::Uid::from_raw(uid)),
                Some(rustix::fs::Gid::from_raw(gid)),
            )?;
        }
        let base_entries = used(&mount)?.entries;
        Ok(Upper {
            mount,
            room,
            block,
            base_entries,
            checked: std::cell::Cell::new(None),
        })
    }

    /// The mount's file descriptor (to attach it where the overlay wants it).
    pub fn mount(&self) -> BorrowedFd<'_> {
        self.mount.as_fd()
    }

    /// The folders the overlay needs, relative to where the mount is attached.
    pub fn dirs() -> (&'static str, &'static str) {
        (UPPER, WORK)
    }

    /// Whether what the game wrote so far is past the bound, as the
    /// folder's own file system will count it. A glance at the `tmpfs`'s
    /// counters settles it while they are well within (every new entry
    /// counted as a block more than it holds); past that, what was written
    /// is measured entry by entry, once for each new reading.
    pub fn over(&self) -> bool {
        let Ok(used) = used(&self.mount) else {
            // A file system that cannot be read cannot be trusted.
            return true;
        };
        // The overlay's own working folder takes a few entries.
        let entries = used.entries.saturating_sub(self.base_entries + 4);
        let at_most = used
            .bytes
            .saturating_add(entries.saturating_mul(self.block));
        if at_most <= self.room.bytes && entries <= self.room.entries {
            return false;
        }
        if let Some((reading, over)) = self.checked.get()
            && reading == used
        {
            return over;
        }
        let over = match self.written() {
            Ok(written) => written.bytes > self.room.bytes || written.entries > self.room.entries,
            Err(_) => true,
        };
        self.checked.set(Some((used, over)));
        over
    }

    /// What the game wrote, as the folder's file system will count it:
    /// the overlay's marks of removals cost nothing there.
    pub fn written(&self) -> Result<Usage, Unmeasured> {
        let upper = open_dir(self.mount.as_fd(), UPPER).map_err(|reason| Unmeasured::Unread {
            path: ".".into(),
            reason,
        })?;
        measure_marked(upper.as_fd(), self.block, true)
    }

    /// Whether the game wrote a file of `limit` bytes or more (see
    /// [`holds_file_of`]): what writing past the file-size limit leaves, when
    /// the runtime (Python) ignores SIGXFSZ and fails with EFBIG instead.
    pub fn holds_file_of(&self, limit: u64) -> bool {
        open_dir(self.mount.as_fd(), UPPER).is_ok_and(|upper| holds_file_of(upper.as_fd(), limit))
    }

    /// Applies what the game wrote to `folder` (see [`commit`]).
    pub fn commit(&self, folder: BorrowedFd<'_>, owner: Option<(u32, u32)>) -> Result<(), Unkept> {
        let upper = open_dir(self.mount.as_fd(), UPPER)?;
        commit(upper.as_fd(), folder, owner)
    }
}

/// What a `tmpfs` holds (its own root folder included).
fn used(mount: &OwnedFd) -> io::Result<Usage> {
    let stat = fstatvfs(mount)?;
    Ok(Usage {
        bytes: (stat.f_blocks - stat.f_bfree) * stat.f_frsize,
        entries: stat.f_files - stat.f_ffree,
    })
}

/// The rights a folder the game made always keeps for its owner on disk:
/// what a bot leaves is its organiser's to read, measure and remove, so a
/// folder it made unreadable (`chmod 0`) can hide nothing from the next
/// measure or from the organiser's own tools.
const KEPT_FOLDER: u32 = 0o700;
/// The same for a file: its owner may read and write it.
const KEPT_FILE: u32 = 0o600;

/// Files already committed that have other names still to come, by the
/// game's (device, inode): the path of the folder of their first name,
/// from the folder committed to, and that name. A path, not an open
/// folder: a game may spread the names of thousands of files over as
/// many folders, and every name is kept as a link whatever their number.
type Linked = HashMap<(u64, u64), (Rc<[CString]>, CString)>;

/// A commit under way: the folder committed to, the files with several
/// names met so far, and the last folder opened again by path to link a
/// name in (names of one file usually lie together).
struct Commit {
    root: Rc<OwnedFd>,
    owner: Option<(u32, u32)>,
    linked: Linked,
    reopened: Option<(Rc<[CString]>, OwnedFd)>,
}

/// Applies an overlay's upper folder `upper` (what a game wrote: new and
/// changed files, removals as "whiteouts", folders that replace what was
/// there as "opaque") to `folder`, without following any link. Each file
/// is written beside its place and renamed over it, so a file is either
/// the old or the new one; with `owner`, everything written is the
/// owner's (a root judge's contestant writes as a uid of its own). Set-uid
/// and set-gid bits are never kept. A file with several names keeps them
/// all as names of one file, whatever their number, so the folder holds
/// what [`measure`] counted. A tree deeper than [`MAX_DEPTH`], or a file
/// with more names than the folder's file system gives one file, is
/// refused before anything is written.
pub fn commit(
    upper: BorrowedFd<'_>,
    folder: BorrowedFd<'_>,
    owner: Option<(u32, u32)>,
) -> Result<(), Unkept> {
    let most_names = survey(upper, 0)?;
    if most_names > link_max(folder) {
        return Err(Unkept::Links(most_names));
    }
    let mut commit = Commit {
        root: Rc::new(rustix::io::dup(folder)?),
        owner,
        linked: Linked::new(),
        reopened: None,
    };
    let root = commit.root.clone();
    let mut path = Vec::new();
    match apply(upper, root.as_fd(), &mut path, &mut commit) {
        Ok(()) => Ok(()),
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::MLINK.raw_os_error()) => {
            Err(Unkept::Links(most_names))
        }
        Err(e) => Err(Unkept::Io(e)),
    }
}

/// The most names one file may have on the file system `folder` lies on,
/// by its kind (as the C library's `pathconf` says, where it knows the
/// kind; POSIX's least, 127 as Linux's own, where it does not).
fn link_max(folder: BorrowedFd<'_>) -> u64 {
    let Ok(stat) = rustix::fs::fstatfs(folder) else {
        return 127;
    };
    // The kernel's magic numbers of the file systems (linux/magic.h).
    match stat.f_type as u64 {
        // ext2, ext3 and ext4 share one; ext3 gives a file 32,000 names.
        0xEF53 => 32_000,
        0x9123_683E => 65_535,          // btrfs
        0x5846_5342 => i32::MAX as u64, // XFS
        0x0102_1994 => u32::MAX as u64, // tmpfs
        0xF2F5_2010 => u32::MAX as u64, // F2FS
        0x2FC1_2FC1 => u64::MAX,        // ZFS
        _ => 127,
    }
}

/// Why what a game wrote was not kept in its folder.
#[derive(Debug, thiserror::Error)]
pub enum Unkept {
    /// The game nested folders past [`MAX_DEPTH`]: past its disk bound.
    #[error("the folder nests more than {MAX_DEPTH} folders deep")]
    TooDeep,
    /// A file has more names than the folder's file system gives one
    /// file: kept as copies, they would take more than was counted.
    #[error("a file has {0} names, more than the folder's file system keeps")]
    Links(u64),
    /// The folder could not be written (its file system full, say).
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl From<rustix::io::Errno> for Unkept {
    fn from(errno: rustix::io::Errno) -> Self {
        Unkept::Io(errno.into())
    }
}

/// Checks that `dir` nests no deeper than [`MAX_DEPTH`]; returns the
/// most names any file in it has.
fn survey(dir: BorrowedFd<'_>, depth: usize) -> Result<u64, Unkept> {
    if depth > MAX_DEPTH {
        return Err(Unkept::TooDeep);
    }
    let mut most = 1;
    for entry in Dir::read_from(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if is_dot(name) {
            continue;
        }
        match entry.file_type() {
            FileType::Directory => {
                let sub = open_dir(dir, name)?;
                most = most.max(survey(sub.as_fd(), depth + 1)?);
            }
            FileType::RegularFile => {
                let stat = statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)?;
                most = most.max(stat.st_nlink as u64);
            }
            _ => {}
        }
    }
    Ok(most)
}

/// An overlay's mark of a removed entry: a character device 0/0.
fn is_whiteout(stat: &rustix::fs::Stat) -> bool {
    FileType::from_raw_mode(stat.st_mode) == FileType::CharacterDevice && stat.st_rdev == 0
}

/// Whether the upper folder `dir` replaces what the folder below held
/// there (the overlay marks it `opaque`).
fn is_opaque(dir: BorrowedFd<'_>) -> bool {
    ["user.overlay.opaque", "trusted.overlay.opaque"]
        .into_iter()
        .any(|name| {
            let mut value = [0u8; 4];
            matches!(fgetxattr(dir, name, &mut value[..]), Ok(n) if value[..n] == *b"y")
        })
}

impl Commit {
    /// The folder at `path` below the folder committed to, opened again
    /// (never through a link: the game is over, and the commit made it).
    fn reopen(&mut self, path: &Rc<[CString]>) -> io::Result<BorrowedFd<'_>> {
        let known = matches!(&self.reopened, Some((there, _)) if there == path);
        if !known {
            let mut here = rustix::io::dup(&*self.root)?;
            for name in path.iter() {
                here = open_dir(here.as_fd(), name.as_c_str())?;
            }
            self.reopened = Some((path.clone(), here));
        }
        Ok(self.reopened.as_ref().expect("just opened").1.as_fd())
    }
}

/// Applies `upper` to `down`, the folder at `path` below the one
/// committed to.
fn apply(
    upper: BorrowedFd<'_>,
    down: BorrowedFd<'_>,
    path: &mut Vec<CString>,
    commit: &mut Commit,
) -> io::Result<()> {
    let owner = commit.owner;
    // This folder's path, made once a file with several names lies here.
    let mut here: Option<Rc<[CString]>> = None;
    for entry in Dir::read_from(upper)? {
        let entry = entry?;
        let name = entry.file_name().to_owned();
        if is_dot(&name) {
            continue;
        }
        let stat = statat(upper, &name, AtFlags::SYMLINK_NOFOLLOW)?;
        let there = statat(down, &name, AtFlags::SYMLINK_NOFOLLOW).ok();
        let there_dir =
            there.is_some_and(|s| FileType::from_raw_mode(s.st_mode) == FileType::Directory);
        let mode = Mode::from_raw_mode(stat.st_mode & 0o1777);
        match FileType::from_raw_mode(stat.st_mode) {
            _ if is_whiteout(&stat) => remove(down, &name)?,
            FileType::Directory => {
                let source = open_dir(upper, &name)?;
                if there.is_some() && (!there_dir || is_opaque(source.as_fd())) {
                    remove(down, &name)?;
                }
                if !there_dir || is_opaque(source.as_fd()) {
                    mkdirat(down, &name, Mode::from_raw_mode(0o700))?;
                }
                let target = open_dir(down, &name)?;
                path.push(name.clone());
                apply(source.as_fd(), target.as_fd(), path, commit)?;
                path.pop();
                fchmod(&target, Mode::from_raw_mode(mode.bits() | KEPT_FOLDER))?;
                set_owner(target.as_fd(), owner)?;
            }
            FileType::RegularFile => {
                let key = (stat.st_dev, stat.st_ino);
                let temp = temporary(down);
                if let Some((dir, first)) = commit.linked.get(&key).cloned() {
                    if here.as_ref() == Some(&dir) {
                        linkat(down, &first, down, &temp, AtFlags::empty())?;
                    } else {
                        let from = commit.reopen(&dir)?;
                        linkat(from, &first, down, &temp, AtFlags::empty())?;
                    }
                } else {
                    let source = File::from(openat(
                        upper,
                        &name,
                        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                        Mode::empty(),
                    )?);
                    let target = File::from(openat(
                        down,
                        &temp,
                        OFlags::WRONLY
                            | OFlags::CREATE
                            | OFlags::EXCL
                            | OFlags::NOFOLLOW
                            | OFlags::CLOEXEC,
                        Mode::from_raw_mode(0o600),
                    )?);
                    copy_sparse(&source, &target, stat.st_size as u64)?;
                    fchmod(&target, Mode::from_raw_mode(mode.bits() | KEPT_FILE))?;
                    set_owner(target.as_fd(), owner)?;
                    let time = |s: i64, ns: u32| Timespec {
                        tv_sec: s,
                        tv_nsec: ns.into(),
                    };
                    futimens(
                        &target,
                        &Timestamps {
                            last_access: time(stat.st_atime, stat.st_atime_nsec as u32),
                            last_modification: time(stat.st_mtime, stat.st_mtime_nsec as u32),
                        },
                    )?;
                    if stat.st_nlink > 1 {
                        let dir = here.get_or_insert_with(|| path.as_slice().into()).clone();
                        commit.linked.insert(key, (dir, name.clone()));
                    }
                }
                replace(down, &temp, &name, there_dir)?;
            }
            FileType::Symlink => {
                let target = readlinkat(upper, &name, Vec::new())?;
                let temp = temporary(down);
                symlinkat(&target, down, &temp)?;
                if let Some((uid, gid)) = owner {
                    rustix::fs::chownat(
                        down,
                        &temp,
                        Some(rustix::fs::Uid::from_raw(uid)),
                        Some(rustix::fs::Gid::from_raw(gid)),
                        AtFlags::SYMLINK_NOFOLLOW,
                    )?;
                }
                replace(down, &temp, &name, there_dir)?;
            }
            // FIFOs, sockets and devices are not kept; what they replaced goes.
            _ => {
                if there.is_some() {
                    remove(down, &name)?;
                }
            }
        }
    }
    Ok(())
}

fn set_owner(fd: BorrowedFd<'_>, owner: Option<(u32, u32)>) -> io::Result<()> {
    if let Some((uid, gid)) = owner {
        fchown(
            fd,
            Some(rustix::fs::Uid::from_raw(uid)),
            Some(rustix::fs::Gid::from_raw(gid)),
        )?;
    }
    Ok(())
}

/// Renames `temp` over `name` in `dir` (a folder there is removed first:
/// a rename cannot replace a folder by a file).
fn replace(dir: BorrowedFd<'_>, temp: &CStr, name: &CStr, folder_there: bool) -> io::Result<()> {
    if folder_there {
        remove(dir, name)?;
    }
    renameat(dir, temp, dir, name)?;
    Ok(())
}

/// A name in `dir` nothing holds yet, for a file being written.
fn temporary(dir: BorrowedFd<'_>) -> CString {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let name = CString::new(format!(
            ".inarow-commit-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ))
        .expect("no NUL in a number");
        if statat(dir, &name, AtFlags::SYMLINK_NOFOLLOW).is_err() {
            return name;
        }
    }
}

/// Copies `length` bytes of `source` to `target`, leaving holes as holes
/// (a sparse file must not grow on disk).
fn copy_sparse(source: &File, target: &File, length: u64) -> io::Result<()> {
    use rustix::fs::{SeekFrom, seek};
    let mut at = 0;
    let mut buffer = vec![0u8; 1 << 16];
    while at < length {
        let data = match seek(source, SeekFrom::Data(at)) {
            Ok(data) => data,
            // No more data: the rest is a hole.
            Err(rustix::io::Errno::NXIO) => break,
            Err(e) => return Err(e.into()),
        };
        let hole = seek(source, SeekFrom::Hole(data))?.min(length);
        let mut offset = data;
        while offset < hole {
            let want = ((hole - offset) as usize).min(buffer.len());
            let got = source.read_at(&mut buffer[..want], offset)?;
            if got == 0 {
                break;
            }
            target.write_all_at(&buffer[..got], offset)?;
            offset += got as u64;
        }
        at = hole.max(data + 1);
    }
    ftruncate(target, length)?;
    Ok(())
}

/// Removes `name` from `dir`, a folder with everything in it, following no link.
fn remove(dir: BorrowedFd<'_>, name: &CStr) -> io::Result<()> {
    remove_at(dir, name, 0)
}

fn remove_at(dir: BorrowedFd<'_>, name: &CStr, depth: usize) -> io::Result<()> {
    let Ok(stat) = statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) else {
        return Ok(());
    };
    if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
        return Ok(unlinkat(dir, name, AtFlags::empty())?);
    }
    if depth > 4 * MAX_DEPTH {
        return Err(io::Error::other("a folder to remove nests too deep"));
    }
    {
        let sub = open_dir(dir, name)?;
        let names: Vec<CString> = Dir::read_from(&sub)?
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_owned())
            .filter(|n| !is_dot(n))
            .collect();
        for child in names {
            remove_at(sub.as_fd(), &child, depth + 1)?;
        }
    }
    Ok(unlinkat(dir, name, AtFlags::REMOVEDIR)?)
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::path::Path;

    use super::*;

    fn dir_fd(path: &Path) -> OwnedFd {
        OwnedFd::from(File::open(path).unwrap())
    }

    #[test]
    fn a_file_at_the_limit_is_found_a_few_levels_down() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b");
        fs::create_dir_all(&deep).unwrap();
        fs::write(dir.path().join("small"), [0u8; 10]).unwrap();
        let holds = |limit| holds_file_of(dir_fd(dir.path()).as_fd(), limit);
        assert!(!holds(100));
        fs::write(deep.join("big"), [0u8; 100]).unwrap();
        assert!(holds(100));
        assert!(!holds(101));
    }

    #[test]
    fn a_folder_counts_every_file_below_it_but_not_what_links_point_to() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        fs::create_dir_all(&deep).unwrap();
        let empty = measure(dir_fd(dir.path()).as_fd(), 4096).unwrap();
        fs::write(deep.join("one"), vec![7u8; 1 << 20]).unwrap();
        fs::write(dir.path().join("two"), vec![7u8; 1 << 20]).unwrap();
        fs::hard_link(dir.path().join("two"), dir.path().join("two-again")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("big"), vec![7u8; 4 << 20]).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let full = measure(dir_fd(dir.path()).as_fd(), 4096).unwrap();
        let added = full.bytes - empty.bytes;
        assert!((2 << 20..3 << 20).contains(&added), "{added}");
        assert_eq!(full.entries, 7, "a, b, c, one, two, two-again, link");
        let room = full.room(3 << 20, 4096);
        assert!(room.bytes < 1 << 20);
        assert_eq!(room.entries, room.bytes / 4096, "each entry costs a block");
        assert_eq!(
            Usage::default().room(1 << 40, 4096).entries,
            MAX_ENTRIES,
            "and there are never more than"
        );
    }

    /// 2,000 empty folders and 2,000 short links: a `tmpfs` gives them no
    /// blocks, ext4 a block each to every folder; the measure counts a
    /// block each, whatever the file system under the test.
    #[test]
    fn folders_links_and_empty_files_cost_a_block_each() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..2000 {
            fs::create_dir(dir.path().join(format!("d{i}"))).unwrap();
            std::os::unix::fs::symlink("x", dir.path().join(format!("l{i}"))).unwrap();
        }
        fs::write(dir.path().join("empty"), b"").unwrap();
        let usage = measure(dir_fd(dir.path()).as_fd(), 4096).unwrap();
        assert_eq!(usage.entries, 4001);
        assert!(usage.bytes >= 4001 * 4096, "{usage:?}");
        // A larger block costs more: the measure counts in the blocks of
        // the file system the folder lies on.
        let big = measure(dir_fd(dir.path()).as_fd(), 65536).unwrap();
        assert!(big.bytes >= 4001 * 65536, "{big:?}");
        assert!(block_size(dir_fd(dir.path()).as_fd()).unwrap() >= 512);
    }

    #[test]
    fn folders_nested_past_the_depth_fail_the_measure() {
        let dir = tempfile::tempdir().unwrap();
        let mut here = dir_fd(dir.path());
        for _ in 0..MAX_DEPTH {
            mkdirat(&here, "d", Mode::from_raw_mode(0o755)).unwrap();
            here = open_dir(here.as_fd(), c"d").unwrap();
        }
        let usage = measure(dir_fd(dir.path()).as_fd(), 4096).unwrap();
        assert_eq!(usage.entries, MAX_DEPTH as u64);
        mkdirat(&here, "d", Mode::from_raw_mode(0o755)).unwrap();
        let refused = measure(dir_fd(dir.path()).as_fd(), 4096).unwrap_err();
        assert!(matches!(refused, Unmeasured::TooDeep), "{refused}");
    }

    #[test]
    fn a_path_deeper_than_the_kernel_reads_at_once_is_measured() {
        // Folders below a path of more than 4,096 bytes: a walk by path
        // stops there; a walk by open folders does not.
        let dir = tempfile::tempdir().unwrap();
        let mut here = dir_fd(dir.path());
        let long = "d".repeat(200);
        for _ in 0..30 {
            mkdirat(&here, long.as_str(), Mode::from_raw_mode(0o755)).unwrap();
            here = open_dir(here.as_fd(), CString::new(long.clone()).unwrap()).unwrap();
        }
        let file = openat(
            &here,
            "deep",
            OFlags::WRONLY | OFlags::CREATE,
            Mode::from_raw_mode(0o644),
        )
        .unwrap();
        File::from(file)
            .write_all_at(&vec![1u8; 1 << 20], 0)
            .unwrap();
        let usage = measure(dir_fd(dir.path()).as_fd(), 4096).unwrap();
        assert_eq!(usage.entries, 31);
        assert!(usage.bytes >= 1 << 20, "{usage:?}");
    }

    /// An upper folder as an overlay leaves it, made by hand: the test
    /// cannot mount one.
    #[test]
    fn a_commit_applies_new_files_changes_and_removals_and_follows_no_link() {
        let dir = tempfile::tempdir().unwrap();
        let (upper, folder, outside) = (
            dir.path().join("upper"),
            dir.path().join("folder"),
            dir.path().join("outside"),
        );
        for d in [&upper, &folder, &outside] {
            fs::create_dir(d).unwrap();
        }
        fs::write(folder.join("kept"), "kept").unwrap();
        fs::write(folder.join("changed"), "old").unwrap();
        fs::write(folder.join("gone"), "gone").unwrap();
        fs::create_dir(folder.join("replaced")).unwrap();
        fs::write(folder.join("replaced/old"), "old").unwrap();
        // The folder holds a link to outside (an earlier game's): a commit
        // writing "through" it must replace the link, not follow it.
        std::os::unix::fs::symlink(&outside, folder.join("through")).unwrap();

        fs::write(upper.join("changed"), "new").unwrap();
        fs::write(upper.join("added"), "added").unwrap();
        fs::set_permissions(upper.join("added"), fs::Permissions::from_mode(0o4755)).unwrap();
        fs::hard_link(upper.join("added"), upper.join("added-again")).unwrap();
        fs::create_dir(upper.join("through")).unwrap();
        fs::write(upper.join("through/planted"), "planted").unwrap();
        fs::create_dir(upper.join("new-dir")).unwrap();
        fs::write(upper.join("new-dir/inside"), "inside").unwrap();
        // Made unreadable by the bot: kept readable by its owner on disk.
        fs::create_dir(upper.join("hidden")).unwrap();
        fs::write(upper.join("hidden/kept"), "kept").unwrap();
        fs::set_permissions(upper.join("hidden/kept"), fs::Permissions::from_mode(0o000)).unwrap();
        fs::set_permissions(upper.join("hidden"), fs::Permissions::from_mode(0o000)).unwrap();
        std::os::unix::fs::symlink("kept", upper.join("a-link")).unwrap();
        let sparse = File::create(upper.join("sparse")).unwrap();
        sparse.set_len(1 << 30).unwrap();
        sparse.write_all_at(b"end", (1 << 30) - 3).unwrap();
        // A whiteout needs mknod (root): stand in for it where the test may.
        let whiteout = rustix::fs::mknodat(
            rustix::fs::CWD,
            upper.join("gone"),
            FileType::CharacterDevice,
            Mode::from_raw_mode(0),
            0,
        )
        .is_ok();

        commit(dir_fd(&upper).as_fd(), dir_fd(&folder).as_fd(), None).unwrap();
        let read = |name: &str| fs::read_to_string(folder.join(name)).unwrap();
        assert_eq!(read("kept"), "kept");
        assert_eq!(read("changed"), "new");
        assert_eq!(read("added"), "added");
        assert_eq!(read("new-dir/inside"), "inside");
        assert_eq!(read("through/planted"), "planted");
        assert!(
            fs::read_dir(&outside).unwrap().next().is_none(),
            "nothing went through the link"
        );
        let mode = |name: &str| fs::metadata(folder.join(name)).unwrap().mode() & 0o7777;
        assert_eq!(mode("hidden"), 0o700, "its owner keeps every right");
        assert_eq!(mode("hidden/kept"), 0o600);
        let added = fs::metadata(folder.join("added")).unwrap();
        assert_eq!(added.mode() & 0o7777, 0o755, "no setuid bit is kept");
        assert_eq!(
            added.ino(),
            fs::metadata(folder.join("added-again")).unwrap().ino()
        );
        assert_eq!(
            fs::read_link(folder.join("a-link")).unwrap(),
            Path::new("kept")
        );
        let sparse = fs::metadata(folder.join("sparse")).unwrap();
        assert_eq!(sparse.len(), 1 << 30);
        assert!(
            sparse.blocks() * 512 < 1 << 20,
            "holes stay holes: {}",
            sparse.blocks()
        );
        if whiteout {
            assert!(fs::symlink_metadata(folder.join("gone")).is_err());
        }
        assert!(folder.join("replaced/old").exists(), "not opaque: merged");
        let leftovers: Vec<_> = fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".inarow-commit"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    /// 4,100 files with two names each in as many folders, then one file
    /// with 600 names: every name is kept as a name of its one file (the
    /// old commit kept track of 4,096 and copied the rest whole), and the
    /// measure counts a block for each further name.
    #[test]
    fn a_commit_keeps_every_name_of_a_linked_file_as_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let (upper, folder) = (dir.path().join("upper"), dir.path().join("folder"));
        fs::create_dir(&folder).unwrap();
        for i in 0..4100 {
            let decoy = upper.join(format!("a/{i}"));
            fs::create_dir_all(&decoy).unwrap();
            fs::write(decoy.join("one"), "x").unwrap();
            fs::hard_link(decoy.join("one"), decoy.join("two")).unwrap();
        }
        fs::create_dir_all(upper.join("b/c")).unwrap();
        fs::write(upper.join("b/big"), vec![7u8; 1 << 20]).unwrap();
        for i in 0..599 {
            let at = if i % 2 == 0 { "b" } else { "b/c" };
            fs::hard_link(upper.join("b/big"), upper.join(format!("{at}/{i}"))).unwrap();
        }
        let counted = measure(dir_fd(&upper).as_fd(), 4096).unwrap();
        assert!(
            counted.bytes >= (1 << 20) + 599 * 4096 + 4100 * 2 * 4096,
            "every name costs a block: {counted:?}"
        );
        commit(dir_fd(&upper).as_fd(), dir_fd(&folder).as_fd(), None).unwrap();
        let big = fs::metadata(folder.join("b/big")).unwrap();
        assert_eq!(big.nlink(), 600);
        assert_eq!(fs::metadata(folder.join("b/c/1")).unwrap().ino(), big.ino());
        assert_eq!(fs::metadata(folder.join("a/4099/two")).unwrap().nlink(), 2);
        let kept = measure(dir_fd(&folder).as_fd(), 4096).unwrap();
        assert!(
            kept.bytes <= counted.bytes + 8 * 4096,
            "{kept:?} {counted:?}"
        );
    }

    /// More names for one file than the folder's file system gives one
    /// (ext4, ext3: 32,000 are kept at most) is refused before anything
    /// is written, as over the bound: never copies.
    #[test]
    fn a_file_with_more_names_than_the_folder_keeps_is_refused_whole() {
        let dir = tempfile::tempdir().unwrap();
        let (upper, folder) = (dir.path().join("upper"), dir.path().join("folder"));
        fs::create_dir(&folder).unwrap();
        fs::create_dir(&upper).unwrap();
        let most = link_max(dir_fd(&folder).as_fd());
        if most > 65_000 {
            // The test's own folder lies where names are not scarce.
            return;
        }
        fs::write(upper.join("first"), "x").unwrap();
        fs::write(upper.join("file"), "x").unwrap();
        let mut made = 1;
        while made <= most {
            if fs::hard_link(upper.join("file"), upper.join(format!("n{made}"))).is_err() {
                // The test's own file system keeps fewer: nothing to show.
                return;
            }
            made += 1;
        }
        let refused = commit(dir_fd(&upper).as_fd(), dir_fd(&folder).as_fd(), None);
        assert!(
            matches!(refused, Err(Unkept::Links(n)) if n == most + 1),
            "{refused:?}"
        );
        assert!(fs::read_dir(&folder).unwrap().next().is_none());
    }

    #[test]
    fn a_commit_refuses_a_tree_too_deep_before_writing_anything() {
        let dir = tempfile::tempdir().unwrap();
        let (upper, folder) = (dir.path().join("upper"), dir.path().join("folder"));
        fs::create_dir(&folder).unwrap();
        fs::create_dir(&upper).unwrap();
        fs::write(upper.join("first"), "x").unwrap();
        let mut here = dir_fd(&upper);
        for _ in 0..=MAX_DEPTH + 1 {
            mkdirat(&here, "d", Mode::from_raw_mode(0o755)).unwrap();
            here = open_dir(here.as_fd(), c"d").unwrap();
        }
        let refused = commit(dir_fd(&upper).as_fd(), dir_fd(&folder).as_fd(), None);
        let refused = refused.unwrap_err();
        assert!(matches!(refused, Unkept::TooDeep));
        assert!(refused.to_string().contains("deep"));
        assert!(fs::read_dir(&folder).unwrap().next().is_none());
    }
}
