//! The one system call the sandbox needs that no safe crate wraps yet:
//! `mount_setattr(2)` with `MOUNT_ATTR_IDMAP`, which gives a bind mount an
//! id mapping (rustix lists it as not yet implemented, nix lacks it).
//! This module is the workspace's only `unsafe` code; keep it this small.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsFd, AsRawFd};

/// Maps the ids of the detached mount `mount` (from `open_tree` with
/// `OPEN_TREE_CLONE`) through the user namespace `userns`: a file owned by
/// id N on disk appears owned by whatever N maps to in that namespace.
pub fn idmap_mount(mount: impl AsFd, userns: impl AsFd) -> io::Result<()> {
    let attr = libc::mount_attr {
        attr_set: libc::MOUNT_ATTR_IDMAP,
        attr_clr: 0,
        propagation: 0,
        userns_fd: userns.as_fd().as_raw_fd() as u64,
    };
    // SAFETY: the call reads `attr` (a live, properly sized `mount_attr`) and
    // the empty C string, and writes no memory of ours; both fds are borrowed
    // for the duration of the call.
    let done = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            mount.as_fd().as_raw_fd(),
            c"".as_ptr(),
            libc::AT_EMPTY_PATH,
            &attr as *const libc::mount_attr,
            std::mem::size_of::<libc::mount_attr>(),
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
