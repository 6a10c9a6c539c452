//! No setuid or setgid file from a contestant. What a contestant writes in
//! its folder is kept on disk as the folder's owner's (root's, for a root
//! judge's id-mapped folder; the judge's user's, for an ordinary judge), so
//! a setuid bit it set would give anyone who can reach the folder a program
//! running as that owner outside the sandbox. A seccomp filter refuses, with
//! `EPERM`, every system call that would set the setuid or setgid bit on a
//! file (`chmod` and its kin, and creating a file with such a mode), as
//! systemd's `RestrictSUIDSGID=` does; `openat2` and `io_uring`, whose
//! arguments a filter cannot read, answer `ENOSYS`, as on older kernels, so
//! programs fall back to the calls the filter does read.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

const SET_UID: u64 = 0o4000;
const SET_GID: u64 = 0o2000;

/// A condition: bits `bits` of argument `arg` are all set.
fn has(arg: u8, bits: u64) -> SeccompCondition {
    SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::MaskedEq(bits),
        bits,
    )
    .expect("a valid condition")
}

/// The rules matching a mode argument `mode` with the setuid or the setgid
/// bit, each also requiring `also` (the flags that make an `open` create).
fn suid_mode(mode: u8, also: &[SeccompCondition]) -> Vec<SeccompRule> {
    [SET_UID, SET_GID]
        .into_iter()
        .map(|bit| {
            let mut conditions = also.to_vec();
            conditions.push(has(mode, bit));
            SeccompRule::new(conditions).expect("a valid rule")
        })
        .collect()
}

/// Creating a file with a mode: the flags that make `open` create one.
fn creating(flags: u8) -> Vec<Vec<SeccompCondition>> {
    let tmpfile = libc::O_TMPFILE as u64;
    vec![
        vec![has(flags, libc::O_CREAT as u64)],
        vec![has(flags, tmpfile)],
    ]
}

fn filters() -> Result<Vec<BpfProgram>, String> {
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("seccomp: {e:?}"))?;
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    refused.insert(libc::SYS_fchmod, suid_mode(1, &[]));
    refused.insert(libc::SYS_fchmodat, suid_mode(2, &[]));
    // fchmodat2 (Linux 6.6), by number: not every libc names it yet.
    refused.insert(452, suid_mode(2, &[]));
    refused.insert(libc::SYS_mknodat, suid_mode(2, &[]));
    refused.insert(
        libc::SYS_openat,
        creating(2)
            .iter()
            .flat_map(|also| suid_mode(3, also))
            .collect(),
    );
    #[cfg(target_arch = "x86_64")]
    {
        refused.insert(libc::SYS_chmod, suid_mode(1, &[]));
        refused.insert(libc::SYS_creat, suid_mode(1, &[]));
        refused.insert(libc::SYS_mknod, suid_mode(1, &[]));
        refused.insert(
            libc::SYS_open,
            creating(1)
                .iter()
                .flat_map(|also| suid_mode(2, also))
                .collect(),
        );
    }
    let unreadable: BTreeMap<i64, Vec<SeccompRule>> = [
        libc::SYS_openat2,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
    ]
    .into_iter()
    .map(|call| (call, Vec::new()))
    .collect();
    let compile = |rules, action| {
        SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
            .and_then(BpfProgram::try_from)
            .map_err(|e| format!("seccomp: {e}"))
    };
    Ok(vec![
        compile(refused, SeccompAction::Errno(libc::EPERM as u32))?,
        compile(unreadable, SeccompAction::Errno(libc::ENOSYS as u32))?,
    ])
}

/// Restricts this process and every process it starts: no setuid or setgid
/// file can be made. Needs `no_new_privs` (Landlock has set it).
pub fn restrict() -> Result<(), String> {
    for filter in filters()? {
        seccompiler::apply_filter(&filter).map_err(|e| format!("seccomp: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_for_this_machine() {
        let filters = filters().unwrap();
        assert_eq!(filters.len(), 2);
        assert!(filters.iter().all(|f| !f.is_empty()));
    }
}
