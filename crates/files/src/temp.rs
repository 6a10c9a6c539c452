//! Temporary files beside the file they will replace, named after it and
//! their writer (`.NAME.tmp-PID-N`), so that those a killed writer left
//! behind can be recognised and removed by the next one.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use nix::errno::Errno;
use nix::fcntl::OFlag;

use crate::folder_of;

/// The longest file name most file systems take.
const NAME_MAX: usize = 255;

/// Numbers this process's temporary files, so threads never pick one name.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A new, empty file beside a target, made by this process alone: created
/// exclusively (never an existing file, never through a link), readable
/// and writable by its owner only. Removed on drop unless renamed.
#[derive(Debug)]
pub(crate) struct Temporary {
    path: PathBuf,
    file: File,
    renamed: bool,
}

impl Temporary {
    /// Creates `.NAME.tmp-PID-N` in the folder of `target` (NAME is the
    /// target's file name, shortened if the whole would be too long).
    pub(crate) fn beside(target: &Path) -> io::Result<Temporary> {
        let dir = folder_of(target);
        let name = target.file_name().unwrap_or(OsStr::new("file"));
        let pid = std::process::id();
        let mut last = None;
        for _ in 0..100 {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(temporary_name(name, pid, n));
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NOCTTY).bits())
                .open(&path)
            {
                Ok(file) => {
                    return Ok(Temporary {
                        path,
                        file,
                        renamed: false,
                    });
                }
                // Someone put a file (or a link) by that name: try the next.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
    }

    /// The open file.
    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Renames the file over `target` (a link there is replaced, not
    /// followed: callers pass the link's target).
    pub(crate) fn rename_over(mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// `.NAME.tmp-PID-N`, with NAME cut short if the whole would pass
/// [`NAME_MAX`] bytes.
fn temporary_name(name: &OsStr, pid: u32, n: u64) -> OsString {
    let tail = format!(".tmp-{pid}-{n}");
    let room = NAME_MAX - 1 - tail.len();
    let name = name.as_bytes();
    let mut bytes = Vec::with_capacity(NAME_MAX);
    bytes.push(b'.');
    bytes.extend_from_slice(&name[..name.len().min(room)]);
    bytes.extend_from_slice(tail.as_bytes());
    OsString::from_vec(bytes)
}

/// The writer's process id in a temporary file's name `.NAME.tmp-PID-N`;
/// `None` for any other name.
fn writer_of(name: &[u8]) -> Option<u32> {
    let rest = name.strip_prefix(b".")?;
    let (rest, n) = split_last(rest, b'-')?;
    let (rest, pid) = split_last(rest, b'-')?;
    let stem = rest.strip_suffix(b".tmp")?;
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    if stem.is_empty() || !digits(n) || !digits(pid) {
        return None;
    }
    std::str::from_utf8(pid).ok()?.parse().ok()
}

/// `s` split around its last `sep`.
fn split_last(s: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let at = s.iter().rposition(|&b| b == sep)?;
    Some((&s[..at], &s[at + 1..]))
}

/// Whether no process `pid` exists (a zombie still counts as one).
fn is_gone(pid: u32) -> bool {
    let Ok(raw) = i32::try_from(pid) else {
        return false;
    };
    raw > 0 && nix::sys::signal::kill(nix::unistd::Pid::from_raw(raw), None) == Err(Errno::ESRCH)
}

/// Removes the temporary files in `dir` whose writer is gone: a writer
/// killed between creating one and renaming it leaves it behind. Only
/// regular files named `.NAME.tmp-PID-N` whose process `PID` no longer
/// exists are removed; a live writer's file is left alone, whoever it is.
/// Each folder is swept once per process: writers that die later leave
/// theirs to the next process, and a folder of many files written one by
/// one (a judge's records) is not read again for each.
pub(crate) fn remove_leftovers(dir: &Path) {
    static SWEPT: OnceLock<Mutex<HashSet<PathBuf>>> = OnceLock::new();
    let first = SWEPT
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(dir.to_path_buf());
    if !first {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.flatten() {
        let Some(pid) = writer_of(entry.file_name().as_bytes()) else {
            continue;
        };
        // The entry's own type: a link by that name is not followed.
        if pid != me && is_gone(pid) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The id of a process that has ended and been waited for.
    fn gone_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn names_say_whose_they_are() {
        let name = temporary_name(OsStr::new("x.json"), 123, 4);
        assert_eq!(name, ".x.json.tmp-123-4");
        assert_eq!(writer_of(name.as_bytes()), Some(123));
        let long = "a".repeat(300);
        let name = temporary_name(OsStr::new(&long), 4_000_000, u64::MAX);
        assert_eq!(name.len(), NAME_MAX);
        assert_eq!(writer_of(name.as_bytes()), Some(4_000_000));
        for other in [
            "x.json",
            ".tmpAbC123",
            ".x.json.tmp-12",
            ".x.json.tmp--3",
            ".x.json.tmp-1a-3",
            ".tmp-12-3",
            "x.json.tmp-12-3",
            ".x.json.tmp-12-",
        ] {
            assert_eq!(writer_of(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn leftovers_of_gone_writers_are_removed_and_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        let gone = gone_pid();
        let left = [
            format!(".x.json.tmp-{gone}-0"),
            format!(".x.json.tmp-{gone}-7"),
            format!(".chart.svg.tmp-{gone}-1"),
        ];
        for name in &left {
            fs::write(dir.path().join(name), "half").unwrap();
        }
        // Live writers' files (this process, pid 1), other names, and a
        // folder or a link by a leftover's name are kept.
        let kept = [
            format!(".x.json.tmp-{}-0", std::process::id()),
            ".x.json.tmp-1-0".to_string(),
            ".tmpAbC123".to_string(),
            "x.json".to_string(),
        ];
        for name in &kept {
            fs::write(dir.path().join(name), "kept").unwrap();
        }
        fs::create_dir(dir.path().join(format!(".d.tmp-{gone}-0"))).unwrap();
        std::os::unix::fs::symlink("x.json", dir.path().join(format!(".l.tmp-{gone}-0"))).unwrap();
        remove_leftovers(dir.path());
        let mut names: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let mut expected: Vec<String> = kept.to_vec();
        expected.push(format!(".d.tmp-{gone}-0"));
        expected.push(format!(".l.tmp-{gone}-0"));
        expected.sort();
        assert_eq!(names, expected);
    }

    #[test]
    fn a_temporary_is_private_and_never_an_existing_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("x.json");
        let first = Temporary::beside(&target).unwrap();
        let mode = first.file().metadata().unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let second = Temporary::beside(&target).unwrap();
        assert_ne!(first.path, second.path);
        assert!(
            first
                .path
                .file_name()
                .unwrap()
                .as_bytes()
                .starts_with(b".x.json.tmp-")
        );
        drop(first);
        second.rename_over(&target).unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.json"]);
    }
}
