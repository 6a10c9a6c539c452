//! What a probe finds inside a contestant's sandbox, before the
//! contestant first plays: the launcher's second stage builds the whole
//! sandbox, then looks around in place of the program and reports
//! [`Findings`]; [`verdict`] reads them.

use serde::{Deserialize, Serialize};

use crate::folder::Usage;

/// What an attempt inside the sandbox came to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seen {
    /// It was refused, with the system's reason.
    Refused(String),
    /// It was done; what came of it.
    Done(String),
}

impl Default for Seen {
    fn default() -> Seen {
        Seen::Refused("not tried".into())
    }
}

impl Seen {
    /// Whether it was refused.
    pub fn refused(&self) -> bool {
        matches!(self, Seen::Refused(_))
    }

    /// From a result: an error is a refusal.
    pub fn of<T, E: std::fmt::Display>(
        result: Result<T, E>,
        done: impl FnOnce(T) -> String,
    ) -> Seen {
        match result {
            Ok(value) => Seen::Done(done(value)),
            Err(e) => Seen::Refused(e.to_string()),
        }
    }
}

impl std::fmt::Display for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seen::Refused(why) => write!(f, "refused ({why})"),
            Seen::Done(what) => write!(f, "done ({what})"),
        }
    }
}

/// What a probe found inside a contestant's sandbox.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    /// The Landlock ABI in force (`None`: unknown), and whether every right
    /// asked for is enforced.
    pub landlock: Option<(Option<i32>, bool)>,
    /// Listing `/`.
    pub list_root: Seen,
    /// Paths that must not exist in the view (other contestants' folders)
    /// and are there.
    pub visible: Vec<String>,
    /// How many such paths were looked for.
    pub hidden: usize,
    /// Whether the probe is process 1 of its own PID namespace.
    pub pid_one: bool,
    /// The network interfaces it sees.
    pub interfaces: Vec<String>,
    /// Becoming the contestant's user: its uid, or why not; `None` if it
    /// stayed root.
    pub user: Option<Result<u32, String>>,
    /// Writing a file in its folder.
    pub folder: Seen,
    /// Why its folder cannot be given the contestant's uid, if it cannot.
    pub folder_note: Option<String>,
    /// Setting the setuid bit on that file (not tried if it could not write).
    pub setuid: Option<Seen>,
    /// Opening its program for reading, and whether it is missing.
    pub program: Seen,
    /// Whether the program is missing from the view (rather than unreadable).
    pub program_missing: bool,
    /// Asking for its session keyring.
    pub keyring: Seen,
    /// Asking for an `io_uring`.
    pub io_uring: Seen,
    /// Asking for an AIO context (a counter of the whole host).
    pub aio: Seen,
    /// The most files a process of it may hold open (its hard limit).
    pub open_files: u64,
    /// `/proc/1/cmdline` as it sees it.
    pub cmdline: String,
    /// `/proc/self/cgroup` as it sees it.
    pub cgroup: String,
    /// What its folder held before the game, and the bound it must stay within.
    pub usage: Usage,
    /// The bound on its folder, in bytes.
    pub disk: u64,
}

/// Why a probe found no answer, or what it found wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The contestant's program is not there (it would forfeit its games).
    #[error("{0}")]
    NoProgram(String),
    /// The contestant's folder already holds more than its bound.
    #[error("{0}")]
    Full(String),
    /// The sandbox does not work.
    #[error("{0}")]
    Uncontained(String),
}

/// What leaves a contestant uncontained: each problem in a few words,
/// said together on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uncontained(pub Vec<String>);

impl std::fmt::Display for Uncontained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("; "))
    }
}

impl std::error::Error for Uncontained {}

/// Reads a probe's findings: `Err` names what leaves a contestant
/// uncontained; the warnings say what only hurts the contestant itself.
pub fn verdict(found: &Findings) -> Result<Vec<String>, Uncontained> {
    let mut problems = Vec::new();
    if found.landlock.is_none() {
        problems.push("landlock: not reported".to_string());
    }
    if !found.list_root.refused() {
        problems.push(format!("files: listing / was {}", found.list_root));
    }
    if !found.visible.is_empty() {
        problems.push(format!(
            "view: shared ({} visible)",
            found.visible.join(", ")
        ));
    }
    if !found.pid_one {
        problems.push("processes: a PID namespace shared with others".into());
    }
    if found.interfaces.iter().any(|i| i != "lo") {
        problems.push(format!("network: shared ({})", found.interfaces.join(", ")));
    }
    match &found.user {
        None => problems.push("user: root".into()),
        Some(Err(why)) => problems.push(format!("user: {why}")),
        Some(Ok(_)) => {}
    }
    if found.setuid.as_ref().is_some_and(|s| !s.refused()) {
        problems.push("setuid: a setuid file of the folder's owner could be made".into());
    }
    if !found.keyring.refused() {
        problems.push(format!("keyring: {}", found.keyring));
    }
    if !found.aio.refused() {
        problems.push(format!("aio: {}", found.aio));
    }
    if !found.io_uring.refused() {
        problems.push(format!("io_uring: {}", found.io_uring));
    }
    if found.cmdline.contains('{') {
        problems.push("processes: /proc/1/cmdline shows the launcher's settings".into());
    }
    if !found.cgroup.lines().all(|l| l.ends_with(":/")) {
        problems.push(format!(
            "control groups: /proc/self/cgroup shows {}",
            found.cgroup.replace('\n', " ")
        ));
    }
    if !problems.is_empty() {
        return Err(Uncontained(problems));
    }
    let mut warnings = Vec::new();
    if let Seen::Refused(why) = &found.folder {
        let user = match &found.user {
            Some(Ok(uid)) => format!("uid {uid}"),
            _ => "its user".into(),
        };
        let note = found
            .folder_note
            .as_ref()
            .map_or(String::new(), |n| format!("; {n}"));
        warnings.push(format!(
            "its folder is not writable ({why}{note}) for {user}: it cannot keep files"
        ));
    }
    if found.program.refused() && !found.program_missing {
        warnings.push(format!(
            "its program cannot be read inside its view ({}): grant what it needs with --allow-read FOLDER=PATH",
            found.program
        ));
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> Findings {
        Findings {
            landlock: Some((Some(7), false)),
            list_root: Seen::Refused("Permission denied".into()),
            visible: Vec::new(),
            hidden: 2,
            pid_one: true,
            interfaces: vec!["lo".into()],
            user: Some(Ok(0x7000_0001)),
            folder: Seen::Done("writable".into()),
            folder_note: None,
            setuid: Some(Seen::Refused("Operation not permitted".into())),
            program: Seen::Done("readable".into()),
            program_missing: false,
            keyring: Seen::Refused("Operation not permitted".into()),
            io_uring: Seen::Refused("Function not implemented".into()),
            aio: Seen::Refused("Function not implemented".into()),
            open_files: 1024,
            cmdline: "/proc/self/exe\0__contain\0init\x003\0".into(),
            cgroup: "0::/".into(),
            usage: Usage::default(),
            disk: 1 << 20,
        }
    }

    #[test]
    fn a_probe_passes_only_when_everything_is_contained() {
        assert_eq!(verdict(&good()), Ok(Vec::new()));
        let fails = |change: &dyn Fn(&mut Findings), said: &str| {
            let mut found = good();
            change(&mut found);
            let why = verdict(&found).unwrap_err().to_string();
            assert!(why.contains(said), "{why}");
        };
        fails(
            &|f| f.interfaces.push("eth0".into()),
            "network: shared (lo, eth0)",
        );
        fails(&|f| f.user = None, "user: root");
        fails(&|f| f.setuid = Some(Seen::Done("set".into())), "setuid");
        fails(
            &|f| f.visible = vec!["/bots/bob".into()],
            "/bots/bob visible",
        );
        fails(&|f| f.keyring = Seen::Done("id 5".into()), "keyring");
        fails(&|f| f.io_uring = Seen::Done("fd".into()), "io_uring");
        fails(&|f| f.aio = Seen::Done("made".into()), "aio");
        fails(&|f| f.cmdline = "init {\"program\":...}".into(), "cmdline");
        fails(&|f| f.cgroup = "4:memory:/inarow-9-1".into(), "cgroup");
        fails(
            &|f| f.list_root = Seen::Done("5 entries".into()),
            "listing /",
        );
        fails(&|f| f.pid_one = false, "PID namespace");
        assert!(
            verdict(&Findings::default()).is_err(),
            "a silent probe is no proof"
        );
    }

    #[test]
    fn what_only_hurts_the_contestant_is_a_warning() {
        let mut found = good();
        found.folder = Seen::Refused("Permission denied".into());
        let warnings = verdict(&found).unwrap();
        assert!(warnings[0].contains("cannot keep files"), "{warnings:?}");
        let mut found = good();
        found.program = Seen::Refused("Permission denied".into());
        assert!(verdict(&found).unwrap()[0].contains("--allow-read"));
        found.program_missing = true;
        assert!(
            verdict(&found).unwrap().is_empty(),
            "a missing program is no warning: it is left out"
        );
    }
}
