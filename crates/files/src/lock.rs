//! One writer per file: an advisory lock that inarow processes take before
//! they load a file they will save back.

use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};

/// An exclusive advisory lock on a file (`flock(2)`), held until dropped.
///
/// The lock is taken on a sidecar `FILE.lock` beside the file, never on the
/// file itself: [`write_atomic`](crate::write_atomic) renames a new file
/// over the old one, and a lock belongs to the old file's inode, so after
/// the first save a second process opening `FILE` would find the new inode
/// unlocked. The sidecar is never renamed over; it may also exist before
/// the file does. A folder-wide lock would instead keep two state files in
/// one folder from being used at once.
///
/// The sidecar holds the holder's process id, so a second process can say
/// who has the file. It is removed on drop (a killed process leaves it
/// behind, unlocked, and the next one reuses it). The lock is advisory:
/// it keeps inarow processes apart, not other programs.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    // Dropped after `Drop::drop` has removed the sidecar: unlocking last
    // means no one can lock a sidecar that is about to go.
    _file: Flock<File>,
}

/// Why [`Lock::exclusive`] failed.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds the lock; its id, if the sidecar names one.
    InUse {
        /// The holder's process id.
        pid: Option<u32>,
    },
    /// The sidecar could not be opened or locked.
    Io(io::Error),
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::InUse { pid: Some(pid) } => {
                write!(f, "in use by another inarow (pid {pid})")
            }
            LockError::InUse { pid: None } => write!(f, "in use by another inarow"),
            LockError::Io(e) => write!(f, "cannot lock: {e}"),
        }
    }
}

impl std::error::Error for LockError {}

impl From<io::Error> for LockError {
    fn from(e: io::Error) -> Self {
        LockError::Io(e)
    }
}

impl Lock {
    /// Takes the exclusive lock for `path` without waiting: fails with
    /// [`LockError::InUse`] if another process (or another `Lock` in this
    /// one) holds it.
    pub fn exclusive(path: &Path) -> Result<Lock, LockError> {
        let sidecar = sidecar_of(path);
        loop {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&sidecar)?;
            let mut file = match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
                Ok(locked) => locked,
                Err((mut file, Errno::EWOULDBLOCK)) => {
                    return Err(LockError::InUse {
                        pid: holder_of(&mut file),
                    });
                }
                Err((_, errno)) => return Err(LockError::Io(errno.into())),
            };
            // A holder that was leaving may have removed the sidecar between
            // our open and our lock: then we locked a file no one else will
            // find, and must start again on the one at the path now.
            let ours = file.metadata()?;
            match fs::metadata(&sidecar) {
                Ok(now) if now.dev() == ours.dev() && now.ino() == ours.ino() => {}
                Ok(_) => continue,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e.into()),
            }
            file.set_len(0)?;
            file.rewind()?;
            writeln!(file, "{}", std::process::id())?;
            return Ok(Lock {
                path: sidecar,
                _file: file,
            });
        }
    }

    /// The sidecar file the lock is held on.
    pub fn sidecar(&self) -> &Path {
        &self.path
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Still locked here: see the field order.
        let _ = fs::remove_file(&self.path);
    }
}

/// The sidecar `FILE.lock` beside `path`.
pub fn sidecar_of(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".lock");
    PathBuf::from(name)
}

/// The process id written in a locked sidecar; `None` if the holder has
/// not written it yet.
fn holder_of(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_and_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("menace.json");
        let lock = Lock::exclusive(&path).unwrap();
        assert_eq!(lock.sidecar(), dir.path().join("menace.json.lock"));
        match Lock::exclusive(&path) {
            Err(LockError::InUse { pid }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("expected in use, got {other:?}"),
        }
        let err = Lock::exclusive(&path).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("in use by another inarow (pid {})", std::process::id())
        );
        // Another file in the same folder is free.
        drop(Lock::exclusive(&dir.path().join("other.json")).unwrap());
        drop(lock);
        assert!(!dir.path().join("menace.json.lock").exists());
        let again = Lock::exclusive(&path).unwrap();
        drop(again);
    }

    #[test]
    fn the_lock_outlives_saves_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        let _lock = Lock::exclusive(&path).unwrap();
        crate::write_atomic(&path, b"one").unwrap();
        crate::write_atomic(&path, b"two").unwrap();
        assert!(matches!(
            Lock::exclusive(&path),
            Err(LockError::InUse { .. })
        ));
    }

    #[test]
    fn a_sidecar_left_by_a_killed_holder_is_reused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        fs::write(sidecar_of(&path), "999999999\n").unwrap();
        let lock = Lock::exclusive(&path).unwrap();
        assert_eq!(
            fs::read_to_string(lock.sidecar()).unwrap(),
            format!("{}\n", std::process::id())
        );
    }

    #[test]
    fn a_folder_that_does_not_exist_is_an_io_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = Lock::exclusive(&dir.path().join("missing/state.json")).unwrap_err();
        assert!(matches!(err, LockError::Io(_)), "{err:?}");
        assert!(err.to_string().starts_with("cannot lock: "), "{err}");
    }
}
