//! # inarow-files
//!
//! Files saved whole. MENACE's state, the judge's results and SGF records,
//! training curves and charts are each written to a temporary file in the
//! folder they belong in, synced to disk and renamed over the old file: a
//! reader, or a crash half-way, sees the old file or the new one, never half
//! of one. The new file keeps the old one's mode; a read-only file, a FIFO
//! or a folder in the file's place is refused, not replaced.
//!
//! Nothing is written through a link an attacker could have placed. The
//! temporary file, `.NAME.tmp-PID-N`, is created exclusively and without
//! following links, readable by its owner only until it is whole; one
//! that a killed writer left behind is removed by the next writer in that
//! folder. A symbolic link in the file's place is followed, so its target
//! is replaced and the link stays, but only a link of the user running
//! inarow or of root: another user's link is refused.
//!
//! A file that a process loads and saves back for a long time (MENACE's
//! state) is guarded by a [`Lock`], so that a second writer is refused
//! instead of silently overwriting the first one's work.
//!
//! # Examples
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("state.json");
//! inarow_files::write_atomic(&path, b"{}").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"{}");
//! ```
#![deny(missing_docs)]

use std::fs::{self, File, Metadata, OpenOptions, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use nix::fcntl::OFlag;

mod links;
mod lock;
mod temp;

pub use lock::{Lock, LockError, sidecar_of};
use temp::Temporary;

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// synced to disk and then renamed over `path`.
///
/// On failure `path` keeps its old contents (or stays missing) and no
/// temporary file is left behind; one left by a writer that was killed
/// (`.NAME.tmp-PID-N`, PID gone) is removed, once per folder and process.
/// The new file keeps the old one's permissions; a file that did not exist
/// gets the usual mode (0666 less the umask). Until it is whole, the
/// temporary file is its owner's alone (0600). A read-only file, or
/// anything but a regular file (a folder, a FIFO, a device), is refused
/// and left as it is: renaming over it would replace what its owner
/// protected or meant as a pipe.
///
/// A symbolic link at `path` is followed (a chain of them to its end):
/// the temporary file is made in the target's folder and renamed over the
/// target, so the link stays and goes on naming the new file. A link that
/// belongs neither to the user running this nor to root is refused. The
/// error does not name `path`: callers say which file it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = links::target_of(path)?;
    let dir = folder_of(&target);
    let mode = match fs::symlink_metadata(&target) {
        Ok(meta) => {
            replaceable(&meta)?;
            meta.permissions().mode() & 0o7777
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => 0o666 & !umask(),
        Err(e) => return Err(e),
    };
    temp::remove_leftovers(dir);
    let temporary = Temporary::beside(&target)?;
    let mut file = temporary.file();
    file.write_all(bytes)?;
    // Set on the open file, so the umask does not narrow it.
    file.set_permissions(Permissions::from_mode(mode))?;
    file.sync_all()?;
    temporary.rename_over(&target)?;
    // Make the rename itself durable where folders can be synced.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Fails unless [`write_atomic`] can save to `path`: checked before a long
/// run, so it does not end unable to save. An existing `path` (or the
/// target of a link there, which must be one that is followed) must be a
/// regular file that is not read-only, and a file must be creatable in its
/// folder.
pub fn check_writable(path: &Path) -> io::Result<()> {
    let target = links::target_of(path)?;
    match fs::symlink_metadata(&target) {
        Ok(meta) => replaceable(&meta)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    Temporary::beside(&target).map(drop)
}

/// Reads the whole of `path`, which must be a regular file (or a link that
/// [`write_atomic`] follows, to one). A FIFO is refused, never waited on:
/// the file type is checked first, and the file is opened without
/// blocking and checked again (it may have been swapped).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let target = links::target_of(path)?;
    regular(&fs::symlink_metadata(&target)?)?;
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags((OFlag::O_NONBLOCK | OFlag::O_NOFOLLOW | OFlag::O_NOCTTY).bits())
        .open(&target)?;
    let meta = file.metadata()?;
    regular(&meta)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// This process's umask, from `/proc/self/status` (setting it to read it
/// would race with other threads); 022 where that is not to be had.
fn umask() -> u32 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Umask:"))
                .and_then(|mask| u32::from_str_radix(mask.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// What kind of file `meta` describes, in words: "a folder", "a FIFO
/// (named pipe)", ...; "a regular file" for one.
fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_file() {
        "a regular file"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "something else"
    }
}

/// Fails unless `meta` is a regular file's.
fn regular(meta: &Metadata) -> io::Result<()> {
    if meta.file_type().is_file() {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {}, not a regular file", kind_of(meta)),
    ))
}

/// Fails unless `meta` is a regular file's that may be replaced.
fn replaceable(meta: &Metadata) -> io::Result<()> {
    regular(meta)?;
    if meta.permissions().readonly() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "it is read-only, so it is not replaced (make it writable to save to it)",
        ));
    }
    Ok(())
}

/// The folder a file at `path` lives in: `.` for a bare file name.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn names_in(dir: &Path) -> Vec<std::ffi::OsString> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        write_atomic(&path, b"first, longer text").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(names_in(dir.path()), ["r.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        write_atomic(&path, b"old").unwrap();
        // Into a folder that does not exist.
        assert!(write_atomic(&dir.path().join("missing/state.json"), b"new").is_err());
        // Over a folder: the temporary is written, the rename fails.
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("inside"), "kept").unwrap();
        assert!(write_atomic(&folder, b"new").is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(fs::read_to_string(folder.join("inside")).unwrap(), "kept");
        assert_eq!(names_in(dir.path()), ["folder", "state.json"]);
    }

    #[test]
    fn the_mode_of_a_rewritten_file_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        write_atomic(&path, b"old").unwrap();
        for mode in [0o640, 0o604, 0o666] {
            fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
            write_atomic(&path, b"new").unwrap();
            let kept = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
            assert_eq!(kept, mode, "{kept:o}");
        }
    }

    #[test]
    fn a_read_only_file_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        fs::write(&path, "kept").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
        let err = check_writable(&path).unwrap_err();
        assert!(err.to_string().contains("read-only"), "{err}");
        let err = write_atomic(&path, b"new").unwrap_err();
        assert!(err.to_string().contains("read-only"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "kept");
        assert_eq!(names_in(dir.path()), ["state.json"]);
        // It can still be read.
        assert_eq!(read_regular(&path).unwrap(), b"kept");
    }

    #[test]
    fn a_fifo_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        // No writer ever opens it: a blocking open would hang here.
        let err = read_regular(&path).unwrap_err();
        assert_eq!(
            err.to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
        assert!(
            check_writable(&path)
                .unwrap_err()
                .to_string()
                .contains("FIFO")
        );
        assert!(
            write_atomic(&path, b"x")
                .unwrap_err()
                .to_string()
                .contains("FIFO")
        );
        assert!(fs::metadata(&path).unwrap().file_type().is_fifo());
        assert_eq!(names_in(dir.path()), ["fifo"]);
        let err = read_regular(dir.path()).unwrap_err();
        assert!(err.to_string().contains("a folder"), "{err}");
        let err = read_regular(Path::new("/dev/null")).unwrap_err();
        assert!(err.to_string().contains("a device"), "{err}");
    }

    #[test]
    fn a_linked_file_is_replaced_at_its_target_and_the_link_stays() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        let target = real.join("s.json");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("s.json");
        symlink("real/s.json", &link).unwrap();
        check_writable(&link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(read_regular(&link).unwrap(), b"new");
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(names_in(dir.path()), ["real", "s.json"]);
        assert_eq!(names_in(&real), ["s.json"]);
        // A dangling link makes its target.
        let dangling = dir.path().join("d.json");
        symlink("real/d.json", &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert_eq!(fs::read_to_string(real.join("d.json")).unwrap(), "made");
        assert!(fs::symlink_metadata(&dangling).unwrap().is_symlink());
        // A link to a read-only file or a folder is refused like them.
        fs::set_permissions(&target, Permissions::from_mode(0o444)).unwrap();
        let err = write_atomic(&link, b"x").unwrap_err();
        assert!(err.to_string().contains("read-only"), "{err}");
        let to_folder = dir.path().join("f.json");
        symlink("real", &to_folder).unwrap();
        let err = write_atomic(&to_folder, b"x").unwrap_err();
        assert!(err.to_string().contains("a folder"), "{err}");
    }

    #[test]
    fn another_users_link_is_neither_read_nor_written_through() {
        use std::os::unix::fs::{MetadataExt, lchown, symlink};
        if !nix::unistd::geteuid().is_root() {
            return; // Only root can give a link away.
        }
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("root-owned");
        fs::write(&target, "precious").unwrap();
        let link = dir.path().join("s.json");
        symlink(&target, &link).unwrap();
        lchown(&link, Some(65534), Some(65534)).unwrap();
        for err in [
            write_atomic(&link, b"x").unwrap_err(),
            check_writable(&link).unwrap_err(),
            read_regular(&link).unwrap_err(),
        ] {
            assert!(
                err.to_string()
                    .contains("belongs to another user (uid 65534)"),
                "{err}"
            );
        }
        assert_eq!(fs::read_to_string(&target).unwrap(), "precious");
        assert_eq!(fs::symlink_metadata(&link).unwrap().uid(), 65534);
        assert_eq!(names_in(dir.path()), ["root-owned", "s.json"]);
    }

    #[test]
    fn a_new_file_gets_the_usual_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.json");
        write_atomic(&path, b"{}").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask());
        let mask = nix::sys::stat::umask(nix::sys::stat::Mode::empty());
        nix::sys::stat::umask(mask);
        assert_eq!(umask(), mask.bits());
    }

    #[test]
    fn writability_is_checked_in_the_files_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_writable(&dir.path().join("new.json")).is_ok());
        assert!(check_writable(&dir.path().join("missing/new.json")).is_err());
        assert_eq!(names_in(dir.path()), Vec::<std::ffi::OsString>::new());
        assert_eq!(folder_of(Path::new("state.json")), Path::new("."));
        assert_eq!(folder_of(Path::new("a/b.json")), Path::new("a"));
    }
}
