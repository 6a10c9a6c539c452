//! Symbolic links in a file's place: followed to the file they name, but
//! only links that the user running inarow (or root) made.

use std::fs::{self, Metadata};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::folder_of;

/// Links followed in a row before giving up, as the kernel does.
const MAX_LINKS: usize = 40;

/// The file that `path` stands for: `path` itself unless it is a symbolic
/// link, else the file at the end of its chain of links (which need not
/// exist yet). The folders on the way are left to the kernel; only the
/// last part of each path is read as a link here.
///
/// A link is followed only if it belongs to the user running this process
/// or to root. Another user's link in a shared folder could otherwise make
/// this user, root above all, read or replace a file of its choosing, and
/// such a link is refused, never removed.
pub(crate) fn target_of(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            // Missing, or a folder on the way is: the caller's open or
            // create says which.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
        };
        if !meta.file_type().is_symlink() {
            return Ok(at);
        }
        trusted(&at, &meta)?;
        let to = fs::read_link(&at)?;
        at = if to.is_absolute() {
            to
        } else {
            folder_of(&at).join(to)
        };
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "more than {MAX_LINKS} symbolic links in a row from {}",
            path.display()
        ),
    ))
}

/// Fails unless the link at `at` (whose own metadata is `meta`) belongs to
/// this process's effective user or to root.
fn trusted(at: &Path, meta: &Metadata) -> io::Result<()> {
    let owner = meta.uid();
    if owner == 0 || owner == nix::unistd::geteuid().as_raw() {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "the symbolic link {} belongs to another user (uid {owner}), so it is not followed",
            at.display()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn a_chain_of_links_is_followed_to_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        fs::write(real.join("s.json"), "{}").unwrap();
        symlink("real/s.json", dir.path().join("one")).unwrap();
        symlink(dir.path().join("one"), dir.path().join("two")).unwrap();
        let end = target_of(&dir.path().join("two")).unwrap();
        assert_eq!(end, dir.path().join("real/s.json"));
        // A plain file and a missing one are themselves.
        let plain = real.join("s.json");
        assert_eq!(target_of(&plain).unwrap(), plain);
        let missing = dir.path().join("missing.json");
        assert_eq!(target_of(&missing).unwrap(), missing);
        // A dangling link names the file it would make.
        symlink("real/new.json", dir.path().join("dangling")).unwrap();
        assert_eq!(
            target_of(&dir.path().join("dangling")).unwrap(),
            dir.path().join("real/new.json")
        );
    }

    #[test]
    fn a_loop_of_links_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        symlink("b", dir.path().join("a")).unwrap();
        symlink("a", dir.path().join("b")).unwrap();
        let err = target_of(&dir.path().join("a")).unwrap_err();
        assert!(err.to_string().contains("symbolic links in a row"), "{err}");
    }

    #[test]
    fn another_users_link_is_not_followed() {
        if !nix::unistd::geteuid().is_root() {
            return; // Only root can give a link away.
        }
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("s.json");
        symlink("/etc/passwd", &link).unwrap();
        std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).unwrap();
        let err = target_of(&link).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(
            err.to_string(),
            format!(
                "the symbolic link {} belongs to another user (uid 65534), so it is not followed",
                link.display()
            )
        );
    }
}
