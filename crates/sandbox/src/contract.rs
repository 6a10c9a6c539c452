//! The judge's contract with the organiser, clause by clause: what a
//! contestant can never do, and what enforces it on this machine. The
//! judge's `--check-sandbox` prints it, the way isolate's environment check
//! does; docs/judge.md holds the same list with the tests that prove each
//! clause.

use crate::Sandbox;
use crate::cgroup::Controller;
use crate::limits::format_size;
use crate::probe::Findings;

/// Whether a clause holds here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Enforced by the mechanism named.
    InForce,
    /// Turned off by the organiser (`--memory unbounded`, ...).
    Off(String),
    /// Not enforceable here: why.
    Missing(String),
    /// Left open by the contract itself: what still gets through.
    Open(String),
}

/// One clause of the contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Its short name (`memory`, `keys`, ...).
    pub name: &'static str,
    /// What the organiser can count on.
    pub promise: String,
    /// What enforces it on this machine.
    pub by: String,
    /// Whether it holds.
    pub status: Status,
}

impl std::fmt::Display for Clause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let status = match &self.status {
            Status::InForce => "in force".to_string(),
            Status::Off(why) => format!("off ({why})"),
            Status::Missing(why) => format!("MISSING: {why}"),
            Status::Open(what) => format!("open: {what}"),
        };
        write!(
            f,
            "{}: {}; by {}: {status}",
            self.name, self.promise, self.by
        )
    }
}

/// A clause `name` promising `promise`, enforced `by` when `holds` (else
/// missing for `why`).
fn clause(name: &'static str, promise: &str, by: &str, holds: Result<(), String>) -> Clause {
    Clause {
        name,
        promise: promise.into(),
        by: by.into(),
        status: match holds {
            Ok(()) => Status::InForce,
            Err(why) => Status::Missing(why),
        },
    }
}

/// What a probe shows of one thing: in force when `ok`, else what it saw.
fn seen(
    found: Option<&Findings>,
    ok: impl Fn(&Findings) -> bool,
    said: impl Fn(&Findings) -> String,
) -> Result<(), String> {
    match found {
        None => Err("no probe ran".into()),
        Some(f) if ok(f) => Ok(()),
        Some(f) => Err(said(f)),
    }
}

impl Sandbox {
    /// The contract's clauses as they stand on this machine, read from the
    /// sandbox's settings and control groups and from what a probe found
    /// inside one contestant's sandbox (`found`).
    pub fn contract(&self, found: Option<&Findings>) -> Vec<Clause> {
        let Some(cgroups) = self.cgroups() else {
            return vec![Clause {
                name: "sandbox",
                promise: "bots are contained".into(),
                by: "the judge's launcher".into(),
                status: Status::Off("--no-sandbox: bots run as plain child processes".into()),
            }];
        };
        let limits = self.limits();
        let root = crate::judge_is_root();
        let own_user = root || matches!(self.subordinate(), Some(Ok(_)));
        let group = |c: Controller| cgroups.where_is(c);
        let mut all = vec![
            clause(
                "files",
                "a view of its own: its folder, the system's programs and what is granted, nothing else",
                "a mount namespace and pivot_root, with Landlock as a second wall",
                seen(
                    found,
                    |f| f.list_root.refused() && f.visible.is_empty() && f.landlock.is_some(),
                    |f| format!("listing / was {}; visible: {:?}", f.list_root, f.visible),
                ),
            ),
            clause(
                "user",
                "a uid of its own, no other bot's and not the judge's",
                if root {
                    "an id-mapped mount of its folder"
                } else {
                    "a user namespace nested in the launcher's"
                },
                seen(
                    found,
                    |f| matches!(f.user, Some(Ok(_))),
                    |f| format!("{:?}", f.user),
                ),
            ),
            clause(
                "processes",
                "every process it starts dies with its game; it sees no other",
                "a PID namespace of its own",
                seen(found, |f| f.pid_one, |_| "a shared PID namespace".into()),
            ),
            clause(
                "network",
                "none",
                "a network namespace of its own, Landlock",
                seen(
                    found,
                    |f| f.interfaces.iter().all(|i| i == "lo"),
                    |f| format!("interfaces {:?}", f.interfaces),
                ),
            ),
            clause(
                "ipc",
                "no message queue, semaphore or shared memory of anyone else",
                "an IPC namespace of its own, a private /tmp and /dev/shm",
                seen(found, |f| f.pid_one, |_| "no namespaces".into()),
            ),
            clause(
                "keys",
                "none of the organiser's keys: a new, empty session keyring; keyctl, add_key and request_key refused",
                "keyctl(JOIN_SESSION_KEYRING) and seccomp",
                seen(
                    found,
                    |f| f.keyring.refused(),
                    |f| format!("keyring {}", f.keyring),
                ),
            ),
            clause(
                "system calls",
                &format!(
                    "only the {} calls of an allow list (container runtimes' default, less every call that reaches a counter of the whole host or of the judge's user: AIO, io_uring, inotify, fanotify, message queues, keys, namespaces, mounts, ptrace, bpf, perf, userfaultfd); any other answers ENOSYS; sockets of Unix, IPv4, IPv6 and netlink only; no 32-bit or x32 call",
                    crate::seccomp::allowed_calls()
                ),
                "seccomp, each filter checking the architecture first",
                seen(
                    found,
                    |f| f.io_uring.refused() && f.aio.refused(),
                    |f| format!("io_uring {}, aio {}", f.io_uring, f.aio),
                ),
            ),
            clause(
                "setuid",
                "no setuid or setgid file, in its folder or anywhere",
                "seccomp",
                seen(
                    found,
                    |f| f.setuid.as_ref().is_none_or(|s| s.refused()),
                    |_| "a setuid bit could be set".into(),
                ),
            ),
            clause(
                "host",
                "nothing of the host in /proc/1/cmdline, /proc/self/cgroup or the host name",
                "settings handed through a pipe, a launcher that is not dumpable, cgroup and UTS namespaces",
                seen(
                    found,
                    |f| !f.cmdline.contains('{') && f.cgroup.lines().all(|l| l.ends_with(":/")),
                    |f| format!("cgroup {:?}", f.cgroup),
                ),
            ),
            clause(
                "descriptors",
                "only its standard streams, and no terminal",
                "every other descriptor closed at start, a session of its own",
                Ok(()),
            ),
        ];
        all.push(clause(
            "time",
            "frozen while its opponent thinks: it thinks only on its own time",
            &group(Controller::Freezer).map_or_else(
                || "stopping every process of its PID namespace (no freezer cgroup here)".into(),
                |place| format!("the freezer of {place}"),
            ),
            Ok(()),
        ));
        all.push(bounded(
            "cpus",
            limits
                .cpus
                .map(|c| format!("at most {c} core(s), over all its processes")),
            group(Controller::Cpu).map(|p| format!("the cpu quota of {p}")),
            "--cpus unbounded",
        ));
        all.push(bounded(
            "memory",
            limits.memory.map(|m| {
                format!(
                    "at most {}, counting everything it holds (memfd, /tmp, what it writes to its folder, shared memory, page tables)",
                    format_size(m)
                )
            }),
            group(Controller::Memory).map(|p| format!("the memory controller of {p}")),
            "--memory unbounded",
        ));
        all.push(clause(
            "tasks",
            &format!("at most {} processes and threads at once", limits.processes),
            &group(Controller::Pids).map_or_else(
                || "RLIMIT_NPROC (per user, not per bot: no pids cgroup here)".into(),
                |place| format!("the pids controller of {place}"),
            ),
            Ok(()),
        ));
        let table = self.file_table();
        let share = table.host.map_or_else(
            || "this host's file table could not be read".to_string(),
            |host| {
                format!(
                    "{} of this host's file table of {host} entries",
                    percent(table.all(), host)
                )
            },
        );
        let lowered = if table.per_process < table.asked {
            format!(
                " (--open-files {} lowered to fit half the host's table)",
                table.asked
            )
        } else {
            String::new()
        };
        let per_process = table.per_process;
        all.push(clause(
            "open files",
            &format!(
                "at most {per_process} files open in a process{lowered}, {} in a bot with all its processes; the {} bots alive at once hold at most {}, {share}",
                table.per_contestant(),
                table.live,
                table.all()
            ),
            "a hard RLIMIT_NOFILE and the bound on its processes",
            seen(
                found,
                |f| f.open_files <= per_process,
                |f| format!("a process may open {} files", f.open_files),
            ),
        ));
        all.push(Clause {
            name: "user tables",
            promise: "a user of its own to the kernel: the tables it keeps per user (pipe pages, descriptors in flight, epoll watches, processes) are the bot's, not the judge's user's nor another bot's".into(),
            by: match self.subordinate() {
                None if root => "a uid of its own".into(),
                None => "nothing: the judge's user".into(),
                Some(Ok(sub)) => format!(
                    "a subordinate uid of the judge's user ({} from {}, /etc/subuid), mapped by newuidmap",
                    sub.uids, sub.uid
                ),
                Some(Err(_)) => "a subordinate uid of the judge's user (/etc/subuid)".into(),
            },
            status: match self.subordinate() {
                None if !root && self.shares_user() => Status::Open(
                    "--bots-share-my-user: every bot is the judge's user to the kernel; one that fills its pipe pages or descriptors in flight slows and refuses the judge's user's own for its game".into(),
                ),
                Some(Err(why)) => Status::Missing(format!(
                    "{why}; or pass --bots-share-my-user to let bots share the judge's user"
                )),
                _ => Status::InForce,
            },
        });
        all.push(clause(
            "kernel tables",
            &format!(
                "each table the kernel keeps for the whole host, or for the judge's user, is bounded: open files (above); processes and threads (tasks); pipe buffers, sockets and epoll watches, kernel memory counted in its memory{}; queued signals and POSIX timers, {} (its own uid's count{}); AIO contexts, io_uring, inotify, fanotify, POSIX message queues, keys and user namespaces, none (system calls)",
                if own_user {
                    ""
                } else {
                    " (the judge's user's own tables: past its pipe quota, fs.pipe-user-pages-soft, its new pipes get one page, and its descriptors in flight are shared with every bot; see user tables)"
                },
                crate::init::SIGNALS_QUEUED,
                if root { "" } else { ", in its own user namespace" }
            ),
            "RLIMIT_SIGPENDING, the memory and pids controllers, the allow list of system calls",
            Ok(()),
        ));
        all.push(Clause {
            name: "host counts",
            promise: format!(
                "/proc/{} show fixed contents (one idle task, zero times and counts, all memory free, the real totals and processors)",
                crate::view::NEUTRAL_PROC.join(", /proc/")
            ),
            by: "files of fixed contents mounted over them in its own /proc".into(),
            status: Status::Open(
                "sysinfo() (the host's processes, free memory and load; runtimes size heaps by its totals), other host-wide counts of /proc (vmstat, pressure, interrupts, uptime's idle time) and timing through shared processors and caches still pass between bots of games played at once; -j 1 plays no two games at once".into(),
            ),
        });
        all.push(clause(
            "disk",
            &format!(
                "its folder holds at most {} after any game; a bot that goes over loses and keeps its folder as it was",
                format_size(limits.disk)
            ),
            "an overlay whose writes go to a tmpfs of the bound's size, committed after the game",
            Ok(()),
        ));
        all.push(clause(
            "file size",
            &format!("no file over {}", format_size(limits.file_size)),
            "RLIMIT_FSIZE",
            Ok(()),
        ));
        if let Some(seconds) = limits.cpu_seconds {
            all.push(clause(
                "cpu time",
                &format!("at most {seconds} s of CPU in any one process and game"),
                "RLIMIT_CPU",
                Ok(()),
            ));
        }
        all.push(clause(
            "terminal",
            &format!(
                "at most {} of its standard error shown a game, every control character escaped",
                format_size(limits.stderr)
            ),
            "the launcher's relay and the judge's output",
            Ok(()),
        ));
        all
    }

    /// Why the judge must refuse to start with these limits here, if it must.
    pub fn refusal(&self) -> Option<String> {
        let clauses = self.contract(None);
        ["memory", "cpus", "user tables"]
            .into_iter()
            .find_map(|name| {
                clauses.iter().find_map(|c| match &c.status {
                    Status::Missing(why) if c.name == name => Some(why.clone()),
                    _ => None,
                })
            })
    }
}

/// `part` of `whole` in percent, to one decimal.
fn percent(part: u64, whole: u64) -> String {
    format!("{:.1}%", part as f64 * 100.0 / whole.max(1) as f64)
}

/// A bound the organiser sets (`promise`, `None` when turned off with
/// `off`), enforced by `by` where this machine has it.
fn bounded(name: &'static str, promise: Option<String>, by: Option<String>, off: &str) -> Clause {
    match (promise, by) {
        (None, by) => Clause {
            name,
            promise: "no bound".into(),
            by: by.unwrap_or_else(|| "nothing".into()),
            status: Status::Off(off.into()),
        },
        (Some(promise), Some(by)) => clause(name, &promise, &by, Ok(())),
        (Some(promise), None) => clause(
            name,
            &promise,
            "a cgroup",
            Err(format!(
                "no cgroup with the {name} controller for this judge (as an ordinary user, run it under `systemd-run --user --scope -p Delegate=yes`; or pass {off})",
                name = if name == "cpus" { "cpu" } else { name }
            )),
        ),
    }
}
