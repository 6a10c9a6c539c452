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
    /// As an ordinary user with subordinate ids: for each folder, the
    /// launcher's user namespace and the contestant's nested in it.
    users: Mutex<BTreeMap<PathBuf, (OwnedFd, OwnedFd)>>,
}

/// The uid, inside a contestant's own user namespace, of its folder's
/// owner (the ordinary user judging), when the contestant is a subordinate
/// uid of that user: not root, not the contestant.
pub const OWNER_IN_VIEW: u32 = FIRST_UID - 1;

/// The subordinate ids of the judge's user (`/etc/subuid`,
/// `/etc/subgid`): the first of each range and how many, as rootless
/// container runtimes read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subordinate {
    /// The first subordinate uid.
    pub uid: u32,
    /// How many uids from it.
    pub uids: u32,
    /// The first subordinate gid.
    pub gid: u32,
    /// How many gids from it.
    pub gids: u32,
}

/// The judge's user's name, from `/etc/passwd` (`None` for a uid without one).
fn user_name(uid: u32) -> Option<String> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        (fields.nth(1)?.parse::<u32>().ok()? == uid).then(|| name.to_string())
    })
}

/// The first range of `file` (`/etc/subuid`) for the user `name` or `uid`.
fn range_in(text: &str, name: Option<&str>, uid: u32) -> Option<(u32, u32)> {
    text.lines().find_map(|line| {
        let mut fields = line.trim().split(':');
        let who = fields.next()?;
        let (start, count) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
        ((Some(who) == name || who == uid.to_string()) && count > 0).then_some((start, count))
    })
}

/// The subordinate ids of the user running the judge, or why there are
/// none, in words naming the fix.
pub fn subordinate_ids() -> Result<Subordinate, String> {
    let uid = geteuid().as_raw();
    let name = user_name(uid);
    let who = name.clone().unwrap_or_else(|| uid.to_string());
    let read = |file: &str| std::fs::read_to_string(file).unwrap_or_default();
    let (uids, gids) = (
        range_in(&read("/etc/subuid"), name.as_deref(), uid),
        range_in(&read("/etc/subgid"), name.as_deref(), uid),
    );
    let helpers = ["newuidmap", "newgidmap"]
        .iter()
        .all(|h| helper(h).is_some());
    match (uids, gids) {
        (Some(u), Some(g)) if helpers => Ok(Subordinate {
            uid: u.0,
            uids: u.1,
            gid: g.0,
            gids: g.1,
        }),
        (Some(_), Some(_)) => {
            Err("newuidmap and newgidmap are missing (Debian's and Ubuntu's package uidmap)".into())
        }
        _ => Err(format!(
            "user {who} has no subordinate uids and gids in /etc/subuid and /etc/subgid (as root: usermod --add-subuids 100000-165535 --add-subgids 100000-165535 {who})"
        )),
    }
}

/// Where the set-uid helper `name` (`newuidmap`) lies.
fn helper(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        .iter()
        .map(|dir| Path::new(dir).join(name))
        .find(|p| p.is_file())
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
        let mut holder = crate::launcher::quiet(&launcher.program, &launcher.prefix, &["hold"])
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

impl Identities {
    /// As an ordinary user's judge with the subordinate ids `sub`: the
    /// judge's file descriptors of the user namespace the launcher of
    /// `folder`'s contestant enters (the judge's user is root there, and
    /// one subordinate uid and gid, the contestant's own outside, are 1)
    /// and of the contestant's own nested in it (the judge's user is
    /// [`OWNER_IN_VIEW`] there, the subordinate ids the contestant's
    /// `uid`). Made once per folder: a `hold` launcher mapped by
    /// `newuidmap` and `newgidmap`, then a `nest` launcher inside it.
    pub(crate) fn own_user(
        &self,
        launcher: &Launcher,
        folder: &Path,
        identity: &Identity,
        sub: &Subordinate,
    ) -> io::Result<(i32, i32)> {
        let mut known = lock(&self.users);
        if let Some((outer, nested)) = known.get(folder) {
            return Ok((outer.as_raw_fd(), nested.as_raw_fd()));
        }
        let err = |e: &dyn std::fmt::Display| {
            io::Error::other(format!("cannot give the bot a user of its own: {e}"))
        };
        let slot = identity.uid - FIRST_UID;
        let (sub_uid, sub_gid) = (sub.uid + slot % sub.uids, sub.gid + slot % sub.gids);
        let (uid, gid) = (geteuid().as_raw(), nix::unistd::getegid().as_raw());
        let start = |args: &[String]| {
            crate::launcher::quiet(&launcher.program, &launcher.prefix, args)
                .spawn()
                .map_err(|e| err(&e))
        };
        let mut holder = start(&["hold".into()])?;
        let made = (|| {
            let mut line = String::new();
            read_line(holder.stdout.as_mut().expect("piped"), &mut line).map_err(|_| {
                err(&"cannot make a user namespace (unprivileged user namespaces are disabled here; run the judge as root)")
            })?;
            let pid = holder.id().to_string();
            for (tool, own, first) in [("newuidmap", uid, sub_uid), ("newgidmap", gid, sub_gid)] {
                let program = helper(tool).ok_or_else(|| err(&format!("{tool} is missing")))?;
                let done = Command::new(program)
                    .args([
                        &pid,
                        "0",
                        &own.to_string(),
                        "1",
                        "1",
                        &first.to_string(),
                        "1",
                    ])
                    .stdin(Stdio::null())
                    .output()
                    .map_err(|e| err(&e))?;
                if !done.status.success() {
                    let said = String::from_utf8_lossy(&done.stderr);
                    return Err(err(&format!("{tool}: {}", said.trim())));
                }
            }
            let outer = std::fs::File::open(format!("/proc/{pid}/ns/user")).map_err(|e| err(&e))?;
            let mut nest = start(&[
                "nest".into(),
                format!("/proc/{pid}/ns/user"),
                format!("{OWNER_IN_VIEW} 0 1\n{} 1 1\n", identity.uid),
                format!("{OWNER_IN_VIEW} 0 1\n{} 1 1\n", identity.gid),
            ])?;
            let mut said = String::new();
            let inner = read_line(nest.stdout.as_mut().expect("piped"), &mut said)
                .map_err(|e| err(&e))
                .and_then(|()| {
                    let pid: u32 = said
                        .trim()
                        .parse()
                        .map_err(|_| err(&format!("the nested namespace: {}", said.trim())))?;
                    std::fs::File::open(format!("/proc/{pid}/ns/user")).map_err(|e| err(&e))
                });
            drop(nest.stdin.take());
            let _ = nest.wait();
            Ok((OwnedFd::from(outer), OwnedFd::from(inner?)))
        })();
        drop(holder.stdin.take());
        let _ = holder.kill();
        let _ = holder.wait();
        let (outer, nested) = made?;
        let raw = (outer.as_raw_fd(), nested.as_raw_fd());
        known.insert(folder.to_path_buf(), (outer, nested));
        Ok(raw)
    }
}

/// Reads one line (at most 64 bytes) from a helper's output.
fn read_line(from: &mut impl Read, line: &mut String) -> io::Result<()> {
    let mut byte = [0u8; 1];
    while line.len() < 64 {
        if from.read(&mut byte)? == 0 {
            return Err(io::Error::other("the helper ended"));
        }
        if byte[0] == b'\n' {
            return Ok(());
        }
        line.push(byte[0] as char);
    }
    Ok(())
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
