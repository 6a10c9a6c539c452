//! The system calls a contestant may make: an allow list, applied by the
//! launcher's second stage to itself and so to everything the contestant
//! starts. A call the list does not name answers `ENOSYS`, as on a kernel
//! that lacks it, so programs fall back to what the list allows, and a
//! call nobody thought of (a new one in next year's kernel included) is
//! refused too.
//!
//! **Where the list comes from.** It starts from the calls container
//! runtimes allow by default (Docker's and Podman's default seccomp
//! profile) and leaves out every call that reaches something shared beyond
//! the contestant's own namespaces, or that only a program with privileges
//! needs:
//!
//! - **Counters of the whole host or of the judge's user.** AIO contexts
//!   (`io_setup` and its family: `/proc/sys/fs/aio-nr` is one number for
//!   the host, and a contestant that takes it all makes every other
//!   program's `io_setup` fail, or tells another contestant a number
//!   through it); `io_uring` (its own AIO and the kernel's history of
//!   holes); inotify and fanotify (instances and watches count per user,
//!   and an ordinary user's judge runs every contestant as its own user
//!   outside); POSIX message queues (bytes count per user); `sync` and
//!   `syncfs` (they flush the host's disks); `memfd_secret` (secret memory
//!   stops the host from hibernating).
//! - **The kernel's key store**: `keyctl`, `add_key`, `request_key`. A
//!   contestant gets a new, empty session keyring and no call to reach it.
//! - **Other processes**: `ptrace`, `process_vm_readv`/`writev`, `kcmp`,
//!   `pidfd_getfd`, `process_madvise` (no `ptrace` also means no process
//!   can hold another back from being stopped).
//! - **Namespaces, mounts and the system**: `unshare`, `setns`, `clone`
//!   with a namespace flag, `clone3` (whose flags a filter cannot read;
//!   C libraries fall back to `clone`), `mount` and the new mount API,
//!   `pivot_root`, `chroot`, `quotactl`, `swapon`, `reboot`, modules,
//!   `kexec`, the clock's setters, `sethostname`, `syslog`, `acct`,
//!   `iopl`/`ioperm`, `modify_ldt`, NUMA memory policies, `statmount`,
//!   `listmount` and the LSM calls.
//! - **Interfaces a contestant has no use for and the kernel's history of
//!   holes**: `userfaultfd`, `perf_event_open`, `bpf`, `open_by_handle_at`,
//!   `lookup_dcookie`; `openat2`, whose arguments a filter cannot read
//!   (C libraries fall back to `openat`, which the filter reads).
//!
//! Three more filters refine what the list allows:
//!
//! - **setuid and setgid files.** What a contestant writes in its folder
//!   is kept on disk as the folder's owner's, so a setuid bit it set would
//!   give anyone who can reach the folder a program running as that owner
//!   outside the sandbox: `chmod` and its kin, and creating a file with such
//!   a mode, answer `EPERM`, as systemd's `RestrictSUIDSGID=` does.
//! - **Socket families**: Unix, IPv4, IPv6 and netlink sockets (in a
//!   network namespace with only a loopback that is down); any other family
//!   (`AF_VSOCK` to the hypervisor, `AF_ALG` into the kernel's crypto, ...)
//!   answers `EAFNOSUPPORT`.
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

/// The calls a contestant may make whatever their arguments, by the names
/// every architecture's C library knows.
const ALLOWED: &[i64] = &[
    // Files and folders.
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_readv,
    libc::SYS_writev,
    libc::SYS_pread64,
    libc::SYS_pwrite64,
    libc::SYS_preadv,
    libc::SYS_pwritev,
    libc::SYS_preadv2,
    libc::SYS_pwritev2,
    libc::SYS_openat,
    libc::SYS_close,
    libc::SYS_close_range,
    libc::SYS_lseek,
    libc::SYS_fstat,
    libc::SYS_newfstatat,
    libc::SYS_statx,
    libc::SYS_statfs,
    libc::SYS_fstatfs,
    libc::SYS_faccessat,
    libc::SYS_faccessat2,
    libc::SYS_getdents64,
    libc::SYS_getcwd,
    libc::SYS_chdir,
    libc::SYS_fchdir,
    libc::SYS_mkdirat,
    libc::SYS_mknodat,
    libc::SYS_unlinkat,
    libc::SYS_renameat,
    libc::SYS_renameat2,
    libc::SYS_linkat,
    libc::SYS_symlinkat,
    libc::SYS_readlinkat,
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_fchown,
    libc::SYS_fchownat,
    libc::SYS_truncate,
    libc::SYS_ftruncate,
    libc::SYS_fallocate,
    libc::SYS_fadvise64,
    libc::SYS_readahead,
    libc::SYS_fsync,
    libc::SYS_fdatasync,
    libc::SYS_sync_file_range,
    libc::SYS_flock,
    libc::SYS_fcntl,
    libc::SYS_ioctl,
    libc::SYS_dup,
    libc::SYS_dup3,
    libc::SYS_pipe2,
    libc::SYS_splice,
    libc::SYS_tee,
    libc::SYS_vmsplice,
    libc::SYS_sendfile,
    libc::SYS_copy_file_range,
    libc::SYS_utimensat,
    libc::SYS_umask,
    libc::SYS_name_to_handle_at,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    libc::SYS_getxattr,
    libc::SYS_lgetxattr,
    libc::SYS_fgetxattr,
    libc::SYS_listxattr,
    libc::SYS_llistxattr,
    libc::SYS_flistxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    libc::SYS_memfd_create,
    // Waiting on descriptors.
    libc::SYS_ppoll,
    libc::SYS_pselect6,
    libc::SYS_epoll_create1,
    libc::SYS_epoll_ctl,
    libc::SYS_epoll_pwait,
    libc::SYS_epoll_pwait2,
    libc::SYS_eventfd2,
    libc::SYS_signalfd4,
    libc::SYS_timerfd_create,
    libc::SYS_timerfd_settime,
    libc::SYS_timerfd_gettime,
    // Memory.
    libc::SYS_brk,
    libc::SYS_mmap,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_mprotect,
    libc::SYS_madvise,
    libc::SYS_mincore,
    libc::SYS_msync,
    libc::SYS_mlock,
    libc::SYS_mlock2,
    libc::SYS_munlock,
    libc::SYS_mlockall,
    libc::SYS_munlockall,
    libc::SYS_remap_file_pages,
    libc::SYS_pkey_alloc,
    libc::SYS_pkey_free,
    libc::SYS_pkey_mprotect,
    libc::SYS_membarrier,
    // Processes, threads and signals (in its own PID namespace).
    libc::SYS_execve,
    libc::SYS_execveat,
    libc::SYS_exit,
    libc::SYS_exit_group,
    libc::SYS_wait4,
    libc::SYS_waitid,
    libc::SYS_kill,
    libc::SYS_tkill,
    libc::SYS_tgkill,
    libc::SYS_pidfd_open,
    libc::SYS_pidfd_send_signal,
    libc::SYS_process_mrelease,
    libc::SYS_rt_sigaction,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    libc::SYS_rt_sigpending,
    libc::SYS_rt_sigsuspend,
    libc::SYS_rt_sigtimedwait,
    libc::SYS_rt_sigqueueinfo,
    libc::SYS_rt_tgsigqueueinfo,
    libc::SYS_sigaltstack,
    libc::SYS_restart_syscall,
    libc::SYS_futex,
    libc::SYS_futex_waitv,
    libc::SYS_set_robust_list,
    libc::SYS_get_robust_list,
    libc::SYS_set_tid_address,
    libc::SYS_rseq,
    libc::SYS_gettid,
    libc::SYS_getpid,
    libc::SYS_getppid,
    libc::SYS_getpgid,
    libc::SYS_setpgid,
    libc::SYS_getsid,
    libc::SYS_setsid,
    libc::SYS_prctl,
    libc::SYS_prlimit64,
    libc::SYS_getrlimit,
    libc::SYS_setrlimit,
    libc::SYS_getrusage,
    libc::SYS_getpriority,
    libc::SYS_setpriority,
    libc::SYS_ioprio_get,
    libc::SYS_ioprio_set,
    libc::SYS_sched_yield,
    libc::SYS_sched_getaffinity,
    libc::SYS_sched_setaffinity,
    libc::SYS_sched_getattr,
    libc::SYS_sched_setattr,
    libc::SYS_sched_getparam,
    libc::SYS_sched_setparam,
    libc::SYS_sched_getscheduler,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_get_priority_max,
    libc::SYS_sched_get_priority_min,
    libc::SYS_sched_rr_get_interval,
    libc::SYS_getcpu,
    libc::SYS_capget,
    libc::SYS_capset,
    libc::SYS_seccomp,
    libc::SYS_landlock_create_ruleset,
    libc::SYS_landlock_add_rule,
    libc::SYS_landlock_restrict_self,
    // Its own identity (it holds no capability: it can only keep its own).
    libc::SYS_getuid,
    libc::SYS_geteuid,
    libc::SYS_getgid,
    libc::SYS_getegid,
    libc::SYS_getresuid,
    libc::SYS_getresgid,
    libc::SYS_getgroups,
    libc::SYS_setuid,
    libc::SYS_setgid,
    libc::SYS_setreuid,
    libc::SYS_setregid,
    libc::SYS_setresuid,
    libc::SYS_setresgid,
    libc::SYS_setfsuid,
    libc::SYS_setfsgid,
    libc::SYS_setgroups,
    // Time.
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_clock_nanosleep,
    libc::SYS_clock_adjtime,
    libc::SYS_gettimeofday,
    libc::SYS_nanosleep,
    libc::SYS_getitimer,
    libc::SYS_setitimer,
    libc::SYS_timer_create,
    libc::SYS_timer_settime,
    libc::SYS_timer_gettime,
    libc::SYS_timer_getoverrun,
    libc::SYS_timer_delete,
    libc::SYS_times,
    // The system, read only.
    libc::SYS_uname,
    libc::SYS_sysinfo,
    libc::SYS_getrandom,
    // Sockets (their families are checked by another filter) in a network
    // namespace of its own.
    libc::SYS_socket,
    libc::SYS_socketpair,
    libc::SYS_bind,
    libc::SYS_listen,
    libc::SYS_accept,
    libc::SYS_accept4,
    libc::SYS_connect,
    libc::SYS_getsockname,
    libc::SYS_getpeername,
    libc::SYS_getsockopt,
    libc::SYS_setsockopt,
    libc::SYS_sendto,
    libc::SYS_recvfrom,
    libc::SYS_sendmsg,
    libc::SYS_recvmsg,
    libc::SYS_sendmmsg,
    libc::SYS_recvmmsg,
    libc::SYS_shutdown,
    // System V IPC, in an IPC namespace of its own, its memory counted.
    libc::SYS_semget,
    libc::SYS_semop,
    libc::SYS_semtimedop,
    libc::SYS_semctl,
    libc::SYS_msgget,
    libc::SYS_msgsnd,
    libc::SYS_msgrcv,
    libc::SYS_msgctl,
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmdt,
    libc::SYS_shmctl,
];

/// The older calls of x86-64 that later architectures have only in their
/// `...at` forms, and x86-64's own.
#[cfg(target_arch = "x86_64")]
const ALLOWED_X86_64: &[i64] = &[
    libc::SYS_open,
    libc::SYS_creat,
    libc::SYS_stat,
    libc::SYS_lstat,
    libc::SYS_access,
    libc::SYS_getdents,
    libc::SYS_mkdir,
    libc::SYS_rmdir,
    libc::SYS_mknod,
    libc::SYS_unlink,
    libc::SYS_rename,
    libc::SYS_link,
    libc::SYS_symlink,
    libc::SYS_readlink,
    libc::SYS_chmod,
    libc::SYS_chown,
    libc::SYS_lchown,
    libc::SYS_utime,
    libc::SYS_utimes,
    libc::SYS_futimesat,
    libc::SYS_dup2,
    libc::SYS_pipe,
    libc::SYS_poll,
    libc::SYS_select,
    libc::SYS_epoll_create,
    libc::SYS_epoll_wait,
    libc::SYS_epoll_ctl_old,
    libc::SYS_epoll_wait_old,
    libc::SYS_eventfd,
    libc::SYS_signalfd,
    libc::SYS_fork,
    libc::SYS_vfork,
    libc::SYS_pause,
    libc::SYS_alarm,
    libc::SYS_time,
    libc::SYS_getpgrp,
    libc::SYS_arch_prctl,
    libc::SYS_set_thread_area,
    libc::SYS_get_thread_area,
    // uretprobe and uprobe: only the kernel's own trampoline can make
    // them, when the host traces a program the contestant runs.
    335,
    336,
];

#[cfg(not(target_arch = "x86_64"))]
const ALLOWED_X86_64: &[i64] = &[];

/// Calls newer than the C library's names, by number: from 424 on every
/// architecture numbers its calls alike. `cachestat` (451),
/// `map_shadow_stack` (453), `futex_wake`, `futex_wait`, `futex_requeue`
/// (454-456), `mseal` (462), `setxattrat`, `getxattrat`, `listxattrat`,
/// `removexattrat` (463-466), `file_getattr`, `file_setattr` (468, 469).
/// (`fchmodat2`, 452, is the setuid filter's to read; allowed here.)
const ALLOWED_BY_NUMBER: &[i64] = &[
    451, 452, 453, 454, 455, 456, 462, 463, 464, 465, 466, 468, 469,
];

/// `clone`'s namespace flags: a new mount, cgroup, UTS, IPC, user, PID or
/// network namespace. A `clone` with none of them (a thread, a process)
/// is allowed.
const CLONE_NEW_ANY: u64 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET) as u64;

/// `personality` with these personas only: Linux, and Linux reading what a
/// program asks without changing it (`0xffffffff`); the others change how
/// the kernel lays out memory or runs code.
const PERSONAS: [u64; 5] = [0x0, 0x8, 0x2_0000, 0x2_0008, 0xffff_ffff];

/// The socket families a contestant may open: Unix, IPv4, IPv6, netlink.
const FAMILIES: [u64; 4] = [
    libc::AF_UNIX as u64,
    libc::AF_INET as u64,
    libc::AF_INET6 as u64,
    libc::AF_NETLINK as u64,
];

fn condition(arg: u8, op: SeccompCmpOp, value: u64) -> SeccompCondition {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).expect("a valid condition")
}

/// A condition: bits `bits` of argument `arg` are all set.
fn has(arg: u8, bits: u64) -> SeccompCondition {
    condition(arg, SeccompCmpOp::MaskedEq(bits), bits)
}

fn rule(conditions: Vec<SeccompCondition>) -> SeccompRule {
    SeccompRule::new(conditions).expect("a valid rule")
}

/// The rules matching a mode argument `mode` with the setuid or the setgid
/// bit, each also requiring `also` (the flags that make an `open` create).
fn suid_mode(mode: u8, also: &[SeccompCondition]) -> Vec<SeccompRule> {
    [SET_UID, SET_GID]
        .into_iter()
        .map(|bit| {
            let mut conditions = also.to_vec();
            conditions.push(has(mode, bit));
            rule(conditions)
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

fn arch() -> Result<TargetArch, SeccompError> {
    std::env::consts::ARCH
        .try_into()
        .map_err(|e| SeccompError::Arch(format!("{e:?}")))
}

/// Why the filters could not be made or applied, in one line.
#[derive(Debug, thiserror::Error)]
pub enum SeccompError {
    /// The library knows no such architecture.
    #[error("seccomp: {0}")]
    Arch(String),
    /// The module has no allow list for this architecture.
    #[error("seccomp: no allow list for {0}")]
    NoList(&'static str),
    /// The library refused to compile a filter.
    #[error("seccomp: {0}")]
    Compile(String),
    /// The kernel refused a filter.
    #[error("seccomp: {0}")]
    Apply(#[from] seccompiler::Error),
}

/// How a call of the allow list is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Allowed {
    /// Whatever its arguments.
    Always,
    /// When its first argument has none of these bits (in its low 32).
    Without(u64),
    /// When its first argument (its low 32 bits) is one of these.
    OneOf(&'static [u64]),
}

/// Every call of the allow list, by number, with how it is allowed.
fn allow_list() -> BTreeMap<i64, Allowed> {
    let mut allowed: BTreeMap<i64, Allowed> = ALLOWED
        .iter()
        .chain(ALLOWED_X86_64)
        .chain(ALLOWED_BY_NUMBER)
        .map(|&call| (call, Allowed::Always))
        .collect();
    allowed.insert(libc::SYS_clone, Allowed::Without(CLONE_NEW_ANY));
    allowed.insert(libc::SYS_personality, Allowed::OneOf(&PERSONAS));
    allowed
}

/// The names of the calls a contestant may make, for `--check-sandbox`
/// and the tests: how many there are.
pub fn allowed_calls() -> usize {
    allow_list().len()
}

/// Whether the allow list names `call` (a system call number).
pub fn allows(call: i64) -> bool {
    allow_list().contains_key(&call)
}

// Classic BPF, as the kernel's seccomp reads it.
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const JGE_K: u16 = 0x35;
const JGT_K: u16 = 0x25;
const JSET_K: u16 = 0x45;
const JA: u16 = 0x05;
const RET_K: u16 = 0x06;
/// Offsets in `struct seccomp_data`: the call's number, the architecture,
/// the first argument's low 32 bits (little-endian).
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0_LOW: u32 = 16;

fn op(code: u16, jt: u8, jf: u8, k: u32) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

/// The allow list as a filter of its own, written out here rather than by
/// seccompiler: its calls are searched as a balanced tree of number
/// ranges, so any call is decided in about ten comparisons. (A chain of
/// 300 comparisons also works, but the kernel runs the filter once for
/// every call number when it is applied, to learn which calls it may
/// allow without running it again: a chain costs each contestant's start
/// over a millisecond.) Every other call answers `ENOSYS`; another
/// architecture kills the process, as in every filter here.
fn allow_filter(audit_arch: u32) -> BpfProgram {
    let allow = libc::SECCOMP_RET_ALLOW;
    let deny = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    // Runs of consecutive numbers allowed whatever their arguments, and
    // single numbers with conditions.
    let mut leaves: Vec<(u32, u32, Allowed)> = Vec::new();
    for (&call, &how) in &allow_list() {
        let call = call as u32;
        match (leaves.last_mut(), how) {
            (Some((_, hi, Allowed::Always)), Allowed::Always) if *hi + 1 == call => *hi = call,
            _ => leaves.push((call, call, how)),
        }
    }
    let mut program = vec![
        op(LD_W_ABS, 0, 0, ARCH),
        op(JEQ_K, 1, 0, audit_arch),
        op(RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS),
        op(LD_W_ABS, 0, 0, NR),
    ];
    program.extend(tree(&leaves, allow, deny));
    program
}

/// The code deciding a number in `A` against `leaves` (sorted, apart).
fn tree(leaves: &[(u32, u32, Allowed)], allow: u32, deny: u32) -> Vec<sock_filter> {
    if let [(lo, hi, how)] = leaves {
        return leaf(*lo, *hi, *how, allow, deny);
    }
    let (left, right) = leaves.split_at(leaves.len() / 2);
    let left = tree(left, allow, deny);
    let right = tree(right, allow, deny);
    // A >= the right half's first number: over the left half, by a jump
    // that may be longer than a conditional jump reaches.
    let mut code = vec![
        op(JGE_K, 0, 1, right_start(leaves)),
        op(JA, 0, 0, left.len() as u32),
    ];
    code.extend(left);
    code.extend(right);
    code
}

fn right_start(leaves: &[(u32, u32, Allowed)]) -> u32 {
    leaves[leaves.len() / 2].0
}

/// One run `lo..=hi` (or one call, with its condition on its first argument).
fn leaf(lo: u32, hi: u32, how: Allowed, allow: u32, deny: u32) -> Vec<sock_filter> {
    match how {
        Allowed::Always => vec![
            op(JGE_K, 0, 2, lo),
            op(JGT_K, 1, 0, hi),
            op(RET_K, 0, 0, allow),
            op(RET_K, 0, 0, deny),
        ],
        Allowed::Without(bits) => vec![
            op(JEQ_K, 0, 3, lo),
            op(LD_W_ABS, 0, 0, ARG0_LOW),
            op(JSET_K, 1, 0, bits as u32),
            op(RET_K, 0, 0, allow),
            op(RET_K, 0, 0, deny),
        ],
        Allowed::OneOf(values) => {
            let n = values.len() as u8;
            let mut code = vec![op(JEQ_K, 0, n + 1, lo), op(LD_W_ABS, 0, 0, ARG0_LOW)];
            for (i, &value) in values.iter().enumerate() {
                // To the allow below all the others.
                code.push(op(JEQ_K, n - i as u8, 0, value as u32));
            }
            code.push(op(RET_K, 0, 0, deny));
            code.push(op(RET_K, 0, 0, allow));
            code
        }
    }
}

/// The architecture's number as `struct seccomp_data` gives it.
fn audit_arch() -> Result<u32, SeccompError> {
    match std::env::consts::ARCH {
        "x86_64" => Ok(0xc000_003e),
        "aarch64" => Ok(0xc000_00b7),
        "riscv64" => Ok(0xc000_00f3),
        other => Err(SeccompError::NoList(other)),
    }
}

/// The setuid and setgid refusals.
fn setuid_rules() -> BTreeMap<i64, Vec<SeccompRule>> {
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    refused.insert(libc::SYS_fchmod, suid_mode(1, &[]));
    refused.insert(libc::SYS_fchmodat, suid_mode(2, &[]));
    refused.insert(libc::SYS_fchmodat2, suid_mode(2, &[]));
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

/// A socket of any family but [`FAMILIES`].
fn other_families() -> BTreeMap<i64, Vec<SeccompRule>> {
    let others = FAMILIES
        .iter()
        .map(|&family| condition(0, SeccompCmpOp::Ne, family))
        .collect();
    BTreeMap::from([(libc::SYS_socket, vec![rule(others)])])
}

/// The filters, compiled: the allow list first.
pub(crate) fn filters() -> Result<Vec<BpfProgram>, SeccompError> {
    let arch = arch()?;
    let compile = |rules, mismatch, matched| {
        SeccompFilter::new(rules, mismatch, matched, arch)
            .and_then(BpfProgram::try_from)
            .map_err(|e| SeccompError::Compile(e.to_string()))
    };
    let mut all = vec![
        allow_filter(audit_arch()?),
        compile(
            setuid_rules(),
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM as u32),
        )?,
        compile(
            other_families(),
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EAFNOSUPPORT as u32),
        )?,
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

/// The filters, compiled and ready to apply.
pub struct Filters(Vec<BpfProgram>);

/// Compiles the filters of the module (before the contestant's clock
/// starts: the list takes a moment to compile).
pub fn prepare() -> Result<Filters, SeccompError> {
    filters().map(Filters)
}

impl Filters {
    /// Restricts this process and every process it starts as the module
    /// says. Needs `no_new_privs` (Landlock has set it). After this, the
    /// process itself may make only the calls of the list.
    pub fn apply(self) -> Result<(), SeccompError> {
        for filter in &self.0 {
            seccompiler::apply_filter(filter)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_for_this_machine() {
        let filters = filters().unwrap();
        assert!(filters.len() >= 4);
        assert!(filters.iter().all(|f| !f.is_empty()));
        // The kernel takes at most 4096 instructions a filter.
        assert!(
            filters.iter().all(|f| f.len() < 4096),
            "{:?}",
            filters.iter().map(Vec::len).collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_filter_checks_the_architecture_first() {
        // Load the architecture (offset 4), compare, kill on a mismatch.
        for filter in filters().unwrap() {
            assert_eq!((filter[0].code, filter[0].k), (0x20, 4), "{filter:?}");
            assert_eq!(filter[2].k, libc::SECCOMP_RET_KILL_PROCESS, "{filter:?}");
        }
    }

    /// Runs a filter of the instructions this module writes on a call.
    fn run(program: &[sock_filter], arch: u32, nr: u32, arg0: u64) -> u32 {
        let (mut a, mut pc, mut steps) = (0u32, 0usize, 0);
        loop {
            steps += 1;
            assert!(steps < 100, "a call takes more than 100 steps");
            let i = &program[pc];
            pc += 1;
            let jump = |taken: bool| if taken { i.jt as usize } else { i.jf as usize };
            match i.code {
                LD_W_ABS => {
                    a = match i.k {
                        ARCH => arch,
                        NR => nr,
                        ARG0_LOW => arg0 as u32,
                        other => panic!("load of {other}"),
                    }
                }
                JEQ_K => pc += jump(a == i.k),
                JGE_K => pc += jump(a >= i.k),
                JGT_K => pc += jump(a > i.k),
                JSET_K => pc += jump(a & i.k != 0),
                JA => pc += i.k as usize,
                RET_K => return i.k,
                other => panic!("instruction {other:#x}"),
            }
        }
    }

    #[test]
    fn the_allow_filter_answers_as_the_list_says_in_a_few_steps() {
        let arch = audit_arch().unwrap();
        let program = allow_filter(arch);
        let enosys = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
        let list = allow_list();
        for nr in (0..1100).chain([0x4000_0000, 0x4000_0001, u32::MAX]) {
            let expected = match list.get(&(nr as i64)) {
                Some(Allowed::Always) => libc::SECCOMP_RET_ALLOW,
                Some(_) => continue,
                None => enosys,
            };
            assert_eq!(run(&program, arch, nr, 0), expected, "call {nr}");
        }
        // clone: a thread or a process, never a namespace.
        let clone = libc::SYS_clone as u32;
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        assert_eq!(run(&program, arch, clone, thread), libc::SECCOMP_RET_ALLOW);
        for flag in [libc::CLONE_NEWUSER, libc::CLONE_NEWNET, libc::CLONE_NEWNS] {
            assert_eq!(run(&program, arch, clone, thread | flag as u64), enosys);
        }
        // personality: only the listed personas.
        let personality = libc::SYS_personality as u32;
        for persona in PERSONAS {
            assert_eq!(
                run(&program, arch, personality, persona),
                libc::SECCOMP_RET_ALLOW
            );
        }
        assert_eq!(run(&program, arch, personality, 0x0040_0000), enosys);
        // Another architecture is killed.
        assert_eq!(
            run(&program, 0x4000_0003, 0, 0),
            libc::SECCOMP_RET_KILL_PROCESS
        );
    }

    #[test]
    fn the_list_leaves_out_every_call_that_reaches_beyond_the_namespaces() {
        let left_out = [
            ("io_setup", libc::SYS_io_setup),
            ("io_submit", libc::SYS_io_submit),
            ("io_getevents", libc::SYS_io_getevents),
            ("io_destroy", libc::SYS_io_destroy),
            ("io_cancel", libc::SYS_io_cancel),
            ("io_uring_setup", libc::SYS_io_uring_setup),
            ("io_uring_enter", libc::SYS_io_uring_enter),
            ("keyctl", libc::SYS_keyctl),
            ("add_key", libc::SYS_add_key),
            ("request_key", libc::SYS_request_key),
            ("inotify_init1", libc::SYS_inotify_init1),
            ("inotify_add_watch", libc::SYS_inotify_add_watch),
            ("fanotify_init", libc::SYS_fanotify_init),
            ("mq_open", libc::SYS_mq_open),
            ("sync", libc::SYS_sync),
            ("syncfs", libc::SYS_syncfs),
            ("memfd_secret", libc::SYS_memfd_secret),
            ("ptrace", libc::SYS_ptrace),
            ("process_vm_readv", libc::SYS_process_vm_readv),
            ("pidfd_getfd", libc::SYS_pidfd_getfd),
            ("kcmp", libc::SYS_kcmp),
            ("unshare", libc::SYS_unshare),
            ("setns", libc::SYS_setns),
            ("clone3", libc::SYS_clone3),
            ("mount", libc::SYS_mount),
            ("fsopen", libc::SYS_fsopen),
            ("open_tree", libc::SYS_open_tree),
            ("pivot_root", libc::SYS_pivot_root),
            ("chroot", libc::SYS_chroot),
            ("userfaultfd", libc::SYS_userfaultfd),
            ("perf_event_open", libc::SYS_perf_event_open),
            ("bpf", libc::SYS_bpf),
            ("open_by_handle_at", libc::SYS_open_by_handle_at),
            ("openat2", libc::SYS_openat2),
            ("reboot", libc::SYS_reboot),
            ("init_module", libc::SYS_init_module),
            ("settimeofday", libc::SYS_settimeofday),
            ("sethostname", libc::SYS_sethostname),
            ("syslog", libc::SYS_syslog),
            ("set_mempolicy", libc::SYS_set_mempolicy),
            ("statmount", 457),
            ("listmount", 458),
            ("open_tree_attr", 467),
            ("listns", 470),
        ];
        let allowed: Vec<&str> = left_out
            .iter()
            .filter(|(_, call)| allows(*call))
            .map(|(name, _)| *name)
            .collect();
        assert!(allowed.is_empty(), "the list names {allowed:?}");
    }

    #[test]
    fn the_list_names_what_programs_run_on() {
        for call in [
            libc::SYS_read,
            libc::SYS_openat,
            libc::SYS_mmap,
            libc::SYS_futex,
            libc::SYS_clone,
            libc::SYS_execve,
            libc::SYS_epoll_pwait,
            libc::SYS_rseq,
            libc::SYS_getrandom,
            libc::SYS_memfd_create,
            libc::SYS_socket,
            libc::SYS_prlimit64,
        ] {
            assert!(allows(call), "call {call} is not on the list");
        }
        // Neither a call nobody has made yet.
        assert!(!allows(1000));
        assert!(allowed_calls() > 250);
    }
}
