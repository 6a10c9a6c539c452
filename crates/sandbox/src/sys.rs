//! The system calls the sandbox needs that no safe crate wraps yet:
//! `mount_setattr(2)` with `MOUNT_ATTR_IDMAP`, which gives a bind mount an
//! id mapping (rustix lists it as not yet implemented, nix lacks it), and
//! `keyctl(2)`, which gives a contestant a keyring of its own (and which
//! the probe tries, with `io_uring_setup(2)`, to see them refused).
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

/// `KEYCTL_JOIN_SESSION_KEYRING`: makes and joins a session keyring.
const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
/// `KEYCTL_GET_KEYRING_ID`: the id of a special keyring.
const KEYCTL_GET_KEYRING_ID: libc::c_long = 0;
/// `KEY_SPEC_SESSION_KEYRING`: the calling process's session keyring.
const KEY_SPEC_SESSION_KEYRING: libc::c_long = -3;

/// Gives this process (and what it starts) a new, empty, anonymous session
/// keyring in place of the one it inherited: the organiser's keys stay
/// out of reach even before the seccomp filter refuses the key calls.
pub fn new_session_keyring() -> io::Result<()> {
    // SAFETY: keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) reads no memory of
    // ours (a null name asks for an anonymous keyring) and writes none.
    let done = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    if done >= 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Asks for the id of this process's session keyring: what a contestant
/// would try first; the probe expects it refused.
pub fn session_keyring_id() -> io::Result<i64> {
    // SAFETY: keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0)
    // takes only numbers and touches no memory of ours.
    let id = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_GET_KEYRING_ID,
            KEY_SPEC_SESSION_KEYRING,
            0 as libc::c_long,
        )
    };
    if id >= 0 {
        Ok(id)
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Asks for an `io_uring` of one entry: the probe expects it refused.
pub fn io_uring_setup() -> io::Result<()> {
    let mut params = [0u8; 120];
    // SAFETY: io_uring_setup(1, params) reads and writes the 120 bytes of
    // `params` (the size of `struct io_uring_params`), which we own.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_io_uring_setup,
            1 as libc::c_long,
            params.as_mut_ptr(),
        )
    };
    if fd >= 0 {
        // SAFETY: the call returned a file descriptor that nothing else owns.
        unsafe { libc::close(fd as libc::c_int) };
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Asks for an AIO context of one event: the probe expects it refused
/// (AIO contexts are one counter for the whole host).
pub fn aio_setup() -> io::Result<()> {
    let mut context: libc::c_ulong = 0;
    // SAFETY: io_setup(1, &context) writes the context's id into
    // `context`, which we own and which starts at 0 as the call requires.
    let done = unsafe { libc::syscall(libc::SYS_io_setup, 1 as libc::c_long, &mut context) };
    if done == 0 {
        // SAFETY: io_destroy of the context just made, which nothing uses.
        unsafe { libc::syscall(libc::SYS_io_destroy, context) };
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
