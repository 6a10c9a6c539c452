//! What the launcher's two stages share: the settings the judge hands the
//! first ([`Spec`]), what the first hands the second ([`Handoff`]), and the
//! few steps both take (reporting, closing what they inherited).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::folder::Usage;
use crate::frame::Frame;
use crate::limits::Limits;
use crate::paths::Paths;

/// Everything the launcher needs, handed over as JSON on its command line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Spec {
    /// The program to run, as found by the judge.
    pub program: PathBuf,
    /// The program's name as the meta file gives it (its `argv[0]`).
    pub arg0: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// What it may touch, where it runs.
    pub paths: Paths,
    /// Its whole environment.
    pub env: BTreeMap<String, String>,
    /// Its limits.
    pub limits: Limits,
    /// The data-segment limit of each process (`RLIMIT_DATA`), in bytes;
    /// `None` for none.
    pub data_limit: Option<u64>,
    /// Whether to cap processes with `RLIMIT_NPROC` (where no pids group counts them).
    pub nproc: bool,
    /// The `cgroup.procs` files stage 1 joins before anything else.
    pub cgroups: Vec<PathBuf>,
    /// How the contestant is frozen between its answers.
    pub freeze: Freeze,
    /// Who the contestant is.
    pub identity: Identity,
    /// Whether the judge is an ordinary user (the contestant's uid is then
    /// one of a user namespace nested in the launcher's own).
    pub rootless: bool,
    /// As root: the judge's file descriptor of the user namespace mapping
    /// the folder's owner to the contestant (made by a `hold` launcher).
    pub idmap: Option<i32>,
    /// As an ordinary user with subordinate ids: the judge's file
    /// descriptors of the user namespace stage 1 enters and of the
    /// contestant's own nested in it, where it is a subordinate uid of the
    /// judge's user (see `Identities::own_user`).
    pub users: Option<(i32, i32)>,
    /// Paths that must not exist in the contestant's view (the other
    /// contestants' folders): what the probe checks.
    pub hidden: Vec<PathBuf>,
    /// The judge's process id: the launcher ends itself if the judge is gone.
    pub judge: u32,
    /// Check the sandbox and report instead of running the program.
    pub probe: bool,
}

/// How a contestant's processes are frozen while its opponent thinks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Freeze {
    /// Not at all (a probe).
    Never,
    /// By a control group: stage 2 joins it through `procs` (its
    /// `cgroup.procs`) before starting the program, and stage 1 writes
    /// `thawed` to `file` when the judge is gone (a frozen process of
    /// cgroup v1 cannot even die).
    Group {
        /// The group's `cgroup.procs`.
        procs: PathBuf,
        /// The file that thaws it (`freezer.state`, `cgroup.freeze`).
        file: PathBuf,
        /// What to write there to thaw it.
        thawed: String,
    },
    /// By stopping every process of its PID namespace: stage 2 does it
    /// when the judge asks on the control pipe.
    Stop,
}

/// The contestant's uid and gid (its own, no other contestant's and not the
/// judge's), and the owner of its folder on disk, whose files it sees as its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The contestant's uid.
    pub uid: u32,
    /// The contestant's gid.
    pub gid: u32,
    /// The uid owning its folder on disk.
    pub owner_uid: u32,
    /// The gid owning its folder on disk.
    pub owner_gid: u32,
}

/// What stage 1 hands stage 2, through a pipe rather than the command line
/// (which every process of the namespace could read in `/proc/1/cmdline`).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Handoff {
    pub spec: Spec,
    /// The write end of the report pipe to stage 1.
    pub status: i32,
    /// The read end of the judge's control pipe.
    pub control: i32,
    /// The user namespace of the id mapping (-1: none).
    pub idmap: i32,
    /// The `tmpfs` the contestant's writes go to (a detached mount).
    pub upper: i32,
    /// The contestant's own user namespace, made by the judge (-1: none).
    pub nested: i32,
    /// The `cgroup.procs` of the group that freezes it (-1: none).
    pub join: i32,
    /// Stage 1's pid, as the judge's namespace sees it.
    pub outer: i32,
    /// What the folder held before the game.
    pub usage: Usage,
}

/// Writes one frame to this process's standard error.
pub(crate) fn report(frame: &Frame) {
    frame.send(&mut std::io::stderr().lock());
}

/// Closes every file descriptor above 2 but `keep`: nothing the judge
/// inherited reaches a contestant.
pub(crate) fn close_inherited(keep: &[i32]) {
    let open: Vec<i32> = match fs::read_dir("/proc/self/fd") {
        Ok(entries) => entries
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .collect(),
        Err(_) => (3..1024).collect(),
    };
    for fd in open {
        if fd > 2 && !keep.contains(&fd) {
            let _ = nix::unistd::close(fd);
        }
    }
}

/// Reports that the sandbox could not be set up; the exit code to return.
pub(crate) fn fail(why: &str) -> i32 {
    report(&Frame::Sandbox(why.to_string()));
    1
}

/// Closes this process's standard input and output once the next stage
/// holds them: the judge must see the program's output close when the
/// program closes it, not when the launcher ends.
pub(crate) fn let_go_of_the_pipes() {
    let _ = nix::unistd::close(0);
    let _ = nix::unistd::close(1);
}

/// How the name of the file the probe writes (and at once removes) in a
/// bot's folder begins. A folder's digest leaves such files out: another
/// share's probe may come and go while it is read.
pub const PROBE_FILE_PREFIX: &str = ".inarow-probe-";
