//! One writer per file: an advisory lock that inarow processes take before
//! they load a file they will save back.

use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg, OFlag};

/// Tries at a sidecar that keeps changing under us before giving up.
const TRIES: usize = 100;

/// An exclusive advisory lock on a file (`flock(2)`), held until dropped.
///
/// The lock is taken on a sidecar `FILE.lock` beside the file, never on the
/// file itself: [`write_atomic`](crate::write_atomic) renames a new file
/// over the old one, and a lock belongs to the old file's inode, so after
/// the first save a second process opening `FILE` would find the new inode
/// unlocked. The sidecar is never renamed over; it may also exist before
/// the file does. A folder-wide lock would instead keep two state files in
/// one folder from being used at once. When `FILE` is a symbolic link that
/// [`write_atomic`](crate::write_atomic) follows, the sidecar is the
/// target's, so every name of one file shares one lock.
///
/// The sidecar holds the holder's process id, so a second process can say
/// who has the file. It is removed on drop (a killed process leaves it
/// behind, unlocked, and the next one reuses it). It is never opened
/// through a link: a new one is created exclusively (mode 0644, less the
/// umask), and an existing one must be a regular file with no other name
/// (hard link); anything else in its place (a symbolic link, a folder, a
/// FIFO, a file with another name) is refused and left untouched, so a
/// link planted there by another user cannot make this process write into
/// the file it names. The lock is advisory: it keeps inarow processes
/// apart, not other programs.
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
    /// The sidecar could not be opened or locked, or is not a lock file
    /// (the message says what it is).
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
        let sidecar = sidecar_of(&crate::links::target_of(path)?);
        for _ in 0..TRIES {
            let Some(file) = open_sidecar(&sidecar)? else {
                continue;
            };
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
            match fs::symlink_metadata(&sidecar) {
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
        Err(LockError::Io(io::Error::other(format!(
            "{} kept changing while it was being locked",
            sidecar.display()
        ))))
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

/// Opens the sidecar for reading and writing, never through a link: a new
/// one is created exclusively, an existing one must be a regular file with
/// one name. Nothing is written here. `None` if an existing one went away
/// in the meantime (try again).
fn open_sidecar(sidecar: &Path) -> io::Result<Option<File>> {
    // O_NONBLOCK: a FIFO in its place is not waited on (and is refused).
    let flags = (OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_NOCTTY).bits();
    match OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(flags)
        .open(sidecar)
    {
        Ok(file) => return Ok(Some(file)),
        // O_EXCL: anything by that name, a dangling link too.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    match OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(flags)
        .open(sidecar)
    {
        Ok(file) => {
            lock_file(sidecar, &file.metadata()?)?;
            Ok(Some(file))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        // A link (ELOOP), a folder (EISDIR), a socket (ENXIO), ...: say
        // what it is rather than what opening it did.
        Err(e) => match fs::symlink_metadata(sidecar) {
            Ok(meta) => lock_file(sidecar, &meta).and(Err(e)),
            Err(_) => Err(e),
        },
    }
}

/// Fails, saying what is there instead, unless `meta` is that of a regular
/// file with no other hard link.
fn lock_file(sidecar: &Path, meta: &Metadata) -> io::Result<()> {
    let what = if !meta.file_type().is_file() {
        crate::kind_of(meta)
    } else if meta.nlink() != 1 {
        "a file with other hard links"
    } else {
        return Ok(());
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is {what}, not a lock file; it is left as it is \
             (remove it if no inarow is using the file)",
            sidecar.display()
        ),
    ))
}

/// The process id written in a locked sidecar; `None` if the holder has
/// not written it yet.
fn holder_of(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.take(64).read_to_string(&mut text).ok()?;
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

    /// The one-line refusal of `what` in the sidecar's place.
    fn refused(path: &Path, what: &str) -> String {
        format!(
            "cannot lock: {}.lock is {what}, not a lock file; it is left as it is \
             (remove it if no inarow is using the file)",
            path.display()
        )
    }

    #[test]
    fn a_link_in_the_sidecars_place_is_refused_and_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious\n").unwrap();
        std::os::unix::fs::symlink(&victim, sidecar_of(&path)).unwrap();
        let err = Lock::exclusive(&path).unwrap_err();
        assert_eq!(err.to_string(), refused(&path, "a symbolic link"));
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(
            fs::symlink_metadata(sidecar_of(&path))
                .unwrap()
                .is_symlink()
        );
        // Dangling, it would have been created through: refused as well.
        fs::remove_file(&victim).unwrap();
        let err = Lock::exclusive(&path).unwrap_err();
        assert_eq!(err.to_string(), refused(&path, "a symbolic link"));
        assert!(!victim.exists());
    }

    #[test]
    fn a_hard_link_folder_or_fifo_in_the_sidecars_place_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious\n").unwrap();
        fs::hard_link(&victim, sidecar_of(&path)).unwrap();
        let err = Lock::exclusive(&path).unwrap_err();
        assert_eq!(
            err.to_string(),
            refused(&path, "a file with other hard links")
        );
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        fs::remove_file(sidecar_of(&path)).unwrap();
        fs::create_dir(sidecar_of(&path)).unwrap();
        let err = Lock::exclusive(&path).unwrap_err();
        assert_eq!(err.to_string(), refused(&path, "a folder"));
        fs::remove_dir(sidecar_of(&path)).unwrap();
        nix::unistd::mkfifo(
            &sidecar_of(&path),
            nix::sys::stat::Mode::from_bits_truncate(0o600),
        )
        .unwrap();
        let err = Lock::exclusive(&path).unwrap_err();
        assert_eq!(err.to_string(), refused(&path, "a FIFO (named pipe)"));
    }

    #[test]
    fn a_new_sidecar_is_not_writable_by_others() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let lock = Lock::exclusive(&dir.path().join("x.json")).unwrap();
        let mode = fs::symlink_metadata(lock.sidecar())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o022, 0, "{mode:o}");
    }

    #[test]
    fn a_linked_file_shares_its_targets_lock() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        let lock = Lock::exclusive(&link).unwrap();
        assert_eq!(lock.sidecar(), sidecar_of(&real));
        assert!(matches!(
            Lock::exclusive(&real),
            Err(LockError::InUse { .. })
        ));
    }

    #[test]
    fn a_folder_that_does_not_exist_is_an_io_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = Lock::exclusive(&dir.path().join("missing/state.json")).unwrap_err();
        assert!(matches!(err, LockError::Io(_)), "{err:?}");
        assert!(err.to_string().starts_with("cannot lock: "), "{err}");
    }
}
