//! Who each contestant is: a uid and gid of its own, the same in every
//! game of one judge and no other contestant's, and the owner of its folder,
//! whose files it sees as its own (through a user namespace that maps that
//! owner to it); and who the judge itself is.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use nix::unistd::geteuid;

use crate::Launcher;
use crate::contestant::lock;
use crate::stage::Identity;

/// The first uid given to contestants: far above the uids of people and
/// system services, below 2^31 (which some programs read as negative).
pub const FIRST_UID: u32 = 0x7000_0000;
/// Contestants one judge can tell apart by uid.
pub const MAX_CONTESTANTS: u32 = 1 << 12;

/// The identities one judge gives: the uid of each contestant folder met
/// so far (by its place in the list), and as root, for each folder, the
/// user namespace that maps its owner to the contestant (made once, held
/// open for the launchers).
#[derive(Debug, Default)]
pub(crate) struct Identities {
    uids: Mutex<Vec<PathBuf>>,
    idmaps: Mutex<BTreeMap<PathBuf, OwnedFd>>,
}

impl Identities {
    /// Who the contestant of `folder` is: its own uid and gid, the same in
    /// every game of this judge and no other contestant's (the first folder met
    /// gets [`FIRST_UID`] plus a number of this judge's, the next one more), and
    /// the owner of its folder, whose files it sees as its own.
    pub(crate) fn of(&self, folder: &Path, rootless: bool) -> io::Result<Identity> {
        let mut known = lock(&self.uids);
        let index = match known.iter().position(|f| f == folder) {
            Some(index) => index,
            None => {
                known.push(folder.to_path_buf());
                known.len() - 1
            }
        } as u32;
        if index >= MAX_CONTESTANTS {
            return Err(io::Error::other(format!(
                "more than {MAX_CONTESTANTS} contestants: no uid left for {}",
                folder.display()
            )));
        }
        // Judges running at once (shares, a server) most likely differ here.
        let judge = std::process::id() % (1 << 16);
        let uid = FIRST_UID + judge * MAX_CONTESTANTS + index;
        let (owner_uid, owner_gid) = if rootless {
            // Inside the launcher's user namespace the judge's own ids are root.
            (0, 0)
        } else {
            let meta = folder.metadata()?;
            (meta.uid(), meta.gid())
        };
        Ok(Identity {
            uid,
            gid: uid,
            owner_uid,
            owner_gid,
        })
    }

    /// The file descriptor of the user namespace that maps `folder`'s owner
    /// to its contestant, made on first use by a `hold` launcher (this
    /// process runs threads, so it cannot make one itself).
    pub(crate) fn idmap(
        &self,
        launcher: &Launcher,
        folder: &Path,
        identity: &Identity,
    ) -> io::Result<i32> {
        let mut known = lock(&self.idmaps);
        if let Some(fd) = known.get(folder) {
            return Ok(fd.as_raw_fd());
        }
        let err = |e: &dyn std::fmt::Display| {
            io::Error::other(format!("cannot map the bot's folder to its uid: {e}"))
        };
        let mut holder = Command::new(&launcher.program)
            .args(&launcher.prefix)
            .arg("hold")
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| err(&e))?;
        let made = (|| {
            let mut ready = [0u8; 6];
            holder
                .stdout
                .as_mut()
                .expect("piped stdout")
                .read_exact(&mut ready)
                .map_err(|e| err(&e))?;
            let pid = holder.id();
            let map = |file: &str, text: String| {
                std::fs::write(format!("/proc/{pid}/{file}"), text).map_err(|e| err(&e))
            };
            map(
                "uid_map",
                format!("{} {} 1", identity.owner_uid, identity.uid),
            )?;
            map(
                "gid_map",
                format!("{} {} 1", identity.owner_gid, identity.gid),
            )?;
            std::fs::File::open(format!("/proc/{pid}/ns/user"))
                .map(OwnedFd::from)
                .map_err(|e| err(&e))
        })();
        drop(holder.stdin.take());
        let _ = holder.kill();
        let _ = holder.wait();
        let fd = made?;
        let raw = fd.as_raw_fd();
        known.insert(folder.to_path_buf(), fd);
        Ok(raw)
    }
}

/// Whether the judge runs as root, so that bots run as other users.
pub fn judge_is_root() -> bool {
    geteuid().is_root()
}

/// The uid the judge runs as.
pub fn judge_uid() -> u32 {
    geteuid().as_raw()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_keeps_its_uid_and_no_two_folders_share_one() {
        let ids = Identities::default();
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let first = ids.of(a.path(), true).unwrap();
        let second = ids.of(b.path(), true).unwrap();
        assert_eq!(ids.of(a.path(), true).unwrap().uid, first.uid);
        assert_eq!(second.uid, first.uid + 1);
        assert!(first.uid >= FIRST_UID && first.gid == first.uid);
        // Rootless, the folder's owner is the judge: root in its namespace.
        assert_eq!((first.owner_uid, first.owner_gid), (0, 0));
        let owned = ids.of(a.path(), false).unwrap();
        let meta = a.path().metadata().unwrap();
        assert_eq!((owned.owner_uid, owned.owner_gid), (meta.uid(), meta.gid()));
    }
}
