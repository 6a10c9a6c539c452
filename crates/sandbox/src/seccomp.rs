//! The system calls a contestant may not make, refused by a seccomp filter
//! the launcher's second stage applies to itself and so to everything the
//! contestant starts. Each refusal closes a channel that no namespace or
//! mount puts behind a wall (the list of isolate and nsjail):
//!
//! - **setuid and setgid files.** What a contestant writes in its folder
//!   is kept on disk as the folder's owner's, so a setuid bit it set would
//!   give anyone who can reach the folder a program running as that owner
//!   outside the sandbox: `chmod` and its kin, and creating a file with such
//!   a mode, answer `EPERM`, as systemd's `RestrictSUIDSGID=` does.
//! - **The kernel's key store.** A contestant inherits the organiser's
//!   session keyring; the launcher gives it a new, empty one, and
//!   `keyctl`, `add_key` and `request_key` answer `EPERM`, so it can
//!   neither read nor change anyone's keys nor pass messages through them.
//! - **Interfaces a contestant has no use for and the kernel's history of
//!   holes**: `userfaultfd`, `perf_event_open`, `bpf` and `ptrace` answer
//!   `EPERM` (no `ptrace` also means no process can hold another back
//!   from being stopped), `socket(AF_VSOCK)` answers `EAFNOSUPPORT`, and
//!   `io_uring` and `openat2`, whose arguments a filter cannot read, answer
//!   `ENOSYS`, as on older kernels, so programs fall back to calls the
//!   filter does read.
//! - **Other system call tables.** Every filter checks the architecture
//!   first: a call through the 32-bit entry points (`int 0x80`) kills the
//!   process (a filter that read only x86-64 numbers would be bypassed
//!   there), and x86-64's x32 numbers answer `ENOSYS`.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch, sock_filter,
};

const SET_UID: u64 = 0o4000;
const SET_GID: u64 = 0o2000;

/// `AF_VSOCK`: sockets to the hypervisor and other virtual machines.
const AF_VSOCK: u64 = 40;

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

/// Every call of `calls`, whatever its arguments.
fn always(calls: &[i64]) -> impl Iterator<Item = (i64, Vec<SeccompRule>)> + '_ {
    calls.iter().map(|&call| (call, Vec::new()))
}

fn arch() -> Result<TargetArch, String> {
    std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("seccomp: {e:?}"))
}

/// The setuid and setgid refusals.
fn setuid_rules() -> BTreeMap<i64, Vec<SeccompRule>> {
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
    refused
}

/// The calls refused outright with `EPERM`.
const REFUSED: &[i64] = &[
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_userfaultfd,
    libc::SYS_perf_event_open,
    libc::SYS_bpf,
    libc::SYS_ptrace,
];

/// The calls that answer "not implemented".
const ABSENT: &[i64] = &[
    libc::SYS_openat2,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
];

fn filters() -> Result<Vec<BpfProgram>, String> {
    let arch = arch()?;
    let mut eperm = setuid_rules();
    eperm.extend(always(REFUSED));
    let absent: BTreeMap<i64, Vec<SeccompRule>> = always(ABSENT).collect();
    let mut vsock = BTreeMap::new();
    vsock.insert(
        libc::SYS_socket,
        vec![
            SeccompRule::new(vec![
                SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, AF_VSOCK)
                    .expect("a valid condition"),
            ])
            .expect("a valid rule"),
        ],
    );
    let compile = |rules, action| {
        SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
            .and_then(BpfProgram::try_from)
            .map_err(|e| format!("seccomp: {e}"))
    };
    let mut all = vec![
        compile(eperm, SeccompAction::Errno(libc::EPERM as u32))?,
        compile(absent, SeccompAction::Errno(libc::ENOSYS as u32))?,
        compile(vsock, SeccompAction::Errno(libc::EAFNOSUPPORT as u32))?,
    ];
    all.extend(other_tables());
    Ok(all)
}

/// The filter for x86-64's second table: the x32 numbers (the x32 bit set
/// on a native call) answer `ENOSYS`; a call of another architecture kills
/// the process, as the filters above do. Written by hand: seccompiler
/// matches calls by number, not by a range of numbers.
#[cfg(target_arch = "x86_64")]
fn other_tables() -> Option<BpfProgram> {
    const LD_W_ABS: u16 = 0x20;
    const JEQ_K: u16 = 0x15;
    const JGE_K: u16 = 0x35;
    const RET_K: u16 = 0x06;
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let op = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    Some(vec![
        op(LD_W_ABS, 0, 0, ARCH),
        op(JEQ_K, 1, 0, AUDIT_ARCH_X86_64),
        op(RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS),
        op(LD_W_ABS, 0, 0, NR),
        op(JGE_K, 0, 1, X32_SYSCALL_BIT),
        op(RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        op(RET_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ])
}

#[cfg(not(target_arch = "x86_64"))]
fn other_tables() -> Option<BpfProgram> {
    None
}

/// Restricts this process and every process it starts as the module says.
/// Needs `no_new_privs` (Landlock has set it).
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
        assert!(filters.len() >= 3);
        assert!(filters.iter().all(|f| !f.is_empty()));
    }

    #[test]
    fn every_filter_checks_the_architecture_first() {
        // Load the architecture (offset 4), compare, kill on a mismatch.
        for filter in filters().unwrap() {
            assert_eq!((filter[0].code, filter[0].k), (0x20, 4), "{filter:?}");
            assert_eq!(filter[2].k, libc::SECCOMP_RET_KILL_PROCESS, "{filter:?}");
        }
    }
}
