//! Hostile bots against the judge's sandbox (docs/judge.md, Containment).
//!
//! Each attack (a mode of `fixtures/hostile_bot.py`, which logs every
//! attempt to `attack.log` and then plays random legal stones) plays a
//! tournament with an honest bot and the engine (the meta command `inarow`:
//! the judge's own program), judged once by root and once by an ordinary
//! user (`setpriv` to 65534 when the tests run as root; the test's folder
//! is then that user's). The judge runs in a folder holding a secret, with
//! a home of its own holding another, and with a third open as its fd 8 and
//! a log open as its fd 9. Afterwards:
//!
//! - nothing outside the hostile bots' own folders was changed (kind,
//!   content, mode, owner, size, mtime and ctime of every path), and no
//!   secret's file was read (its access time, set long ago, did not move);
//! - no secret is in what any bot wrote or in anything the judge printed;
//! - no two bots exchanged a byte (a socket by path and by abstract name,
//!   files left in /tmp and /dev/shm);
//! - no process of the tournament is left;
//! - the judge stayed small, exited 0 and printed no warning; the honest
//!   bot and the engine forfeited nothing; each offender lost for the right
//!   reason (a limit's forfeit, or left out of the tournament in one line);
//! - each bot ran as a uid of its own (from `FIRST_UID`, never the judge's),
//!   and what it wrote is its folder owner's on disk (root's folders stay
//!   root's: nothing is chowned for a bot);
//! - the same seed gave the same standings: the one tournament played
//!   twice, under each judge (`the_same_seed_gives_the_same_standings`);
//!   every other tournament is played once (issue 57).
//!
//! Attacks: `files` (rewrite, read, shebang, chmod, meta-read,
//! relink-meta, climb), `channels` (listen, connect, fds, disk), `escape`,
//! `setuid` (a setuid program of the folder's owner planted on disk), and
//! the limits `hog`, `fork`, `spin`, `bigfile`, `flood`, `flood_lines`
//! (`-d` with a bot flooding its standard error). The checks collect what
//! broke instead of stopping at the first, so that
//! `the_checks_catch_a_judge_without_its_sandbox` can show they fail on a
//! judge run with `--no-sandbox`.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use inarow_sandbox::{FIRST_UID, judge_is_root, judge_uid};
use serde_json::Value;

/// The content of `secret.txt` in the test's folder, the judge's working
/// folder, and of the file the judge holds open as fd 8.
const SECRET: &str = "the secret outside every bot folder";
/// The judge's home folder's `.ssh/id_rsa`.
const SSH_KEY: &str = "the judge's own ssh key, a secret";
/// The first line of `root-only.txt` (mode 600, root's).
const ROOT_ONLY: &str = "root-only: a first line only root may read";
/// The content of the log the judge holds open for appending as fd 9.
const FD_LOG: &str = "the judge's own log, open as its fd 9\n";
/// The payload of the key `inarow-organiser` in the judge's session
/// keyring (made by `fixtures/organiser_keyring.py`).
const KEY_SECRET: &str = "the organiser's key in its session keyring";
/// The user an ordinary judge runs as, when the tests run as root.
const NOBODY: u32 = 65534;
/// The files of the secrets, in the test's folder.
const SECRET_FILES: [&str; 3] = ["secret.txt", "home/.ssh/id_rsa", "root-only.txt"];
/// The last access the secrets' files show until someone reads them: long
/// ago, so that a read moves it even where the file system updates access
/// times lazily (`relatime`).
const LONG_AGO: Duration = Duration::from_secs(1_000_000_000);
/// `open`'s flag that leaves a file's access time alone (Linux).
const O_NOATIME: i32 = 0o1_000_000;

/// Who runs the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum As {
    /// Root (the tests' own user when they do not run as root).
    Root,
    /// An ordinary user: nobody (65534) when the tests run as root.
    User,
}

impl As {
    /// Whether the judge drops to [`NOBODY`] (the tests run as root).
    fn drops(self) -> bool {
        self == As::User && judge_is_root()
    }

    /// The uid the judge runs as.
    fn uid(self) -> u32 {
        if self.drops() { NOBODY } else { judge_uid() }
    }
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile_bot.py")
}

fn keyring_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/organiser_keyring.py")
}

/// The test's world: a folder holding the bots (honest, the engine and the
/// hostile ones named by their modes), secrets beside them, the judge's
/// home, and `runs/` for what the judge writes.
struct World {
    dir: tempfile::TempDir,
    who: As,
    marker: String,
    /// The bots that write their own folders (the hostile ones that run).
    hostile: Vec<String>,
    /// Control groups of the ordinary user's judge (as systemd gives a user's
    /// services theirs).
    delegated: common::Delegated,
}

impl World {
    /// A world with the hostile bots `modes`, each in a folder named as its
    /// mode; `climb` is a bot whose command is `../honest/bot.py`.
    fn new(who: As, modes: &[&str]) -> World {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = common::workspace();
        let marker = format!(
            "inarow-hostile-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let root = dir.path().to_path_buf();
        let root = root.as_path();
        let bots = root.join("bots");
        let mut world = World {
            dir,
            who,
            marker,
            hostile: Vec::new(),
            delegated: common::Delegated::new(),
        };
        world.bot("honest", "honest", "python3\nbot.py", false);
        common::engine_bot(&bots, "engine", 300);
        for &mode in modes {
            world.hostile(mode);
        }
        fs::write(root.join("secret.txt"), SECRET).unwrap();
        fs::write(root.join("root-only.txt"), format!("{ROOT_ONLY}\nmore\n")).unwrap();
        fs::set_permissions(
            root.join("root-only.txt"),
            fs::Permissions::from_mode(0o600),
        )
        .unwrap();
        fs::write(root.join("judge-fd9.log"), FD_LOG).unwrap();
        fs::create_dir_all(root.join("home/.ssh")).unwrap();
        fs::write(root.join("home/.ssh/id_rsa"), SSH_KEY).unwrap();
        fs::set_permissions(
            root.join("home/.ssh/id_rsa"),
            fs::Permissions::from_mode(0o600),
        )
        .unwrap();
        fs::create_dir_all(root.join("outside")).unwrap();
        fs::create_dir_all(root.join("runs")).unwrap();
        for secret in SECRET_FILES {
            let file = fs::File::open(root.join(secret)).unwrap();
            let times = fs::FileTimes::new()
                .set_accessed(std::time::UNIX_EPOCH + LONG_AGO)
                .set_modified(file.metadata().unwrap().modified().unwrap());
            file.set_times(times).unwrap();
        }
        if who.drops() {
            // An ordinary user's judge runs in its user's folders; the
            // root-only file stays root's.
            for path in walk(root) {
                if path != root.join("root-only.txt") {
                    std::os::unix::fs::lchown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
                }
            }
        }
        world
    }

    /// A bot folder `name` running `command` (two lines of meta: the
    /// command and the arguments before the mode).
    fn bot(&self, name: &str, mode: &str, command: &str, show_stderr: bool) -> PathBuf {
        let folder = self.bots().join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::copy(fixture(), folder.join("bot.py")).unwrap();
        // The keyring calls, shared with the organiser's keyring keeper.
        fs::copy(keyring_fixture(), folder.join("keys.py")).unwrap();
        let meta = format!(
            "{name}\n{command} {mode} {}\n{}\n",
            self.marker,
            u8::from(show_stderr)
        );
        fs::write(folder.join("meta"), meta).unwrap();
        folder
    }

    fn hostile(&mut self, mode: &str) {
        // Its logged lines, on its standard error too: a bot over its disk
        // bound keeps its folder as it was, attack.log included.
        let show_stderr = true;
        let link = |folder: &Path, name: &str, target: &str| {
            std::os::unix::fs::symlink(target, folder.join(name)).unwrap();
        };
        match mode {
            "climb" => {
                // Refused: never runs, so its folder is checked as outside.
                let folder = self.bot(mode, "honest", "../honest/bot.py\n", false);
                fs::remove_file(folder.join("bot.py")).unwrap();
                return;
            }
            "shebang" => {
                // `./run` names `secret.txt` as its interpreter: relative,
                // so the kernel finds it in the bot's folder (a link to
                // python3), never the judge's secret.txt.
                let folder = self.bot(mode, mode, "./run\n", false);
                let script = fs::read_to_string(fixture()).unwrap();
                let body = script.split_once('\n').unwrap().1;
                fs::write(folder.join("run"), format!("#!secret.txt\n{body}")).unwrap();
                fs::set_permissions(folder.join("run"), fs::Permissions::from_mode(0o755)).unwrap();
                fs::remove_file(folder.join("bot.py")).unwrap();
                assert!(Path::new("/usr/bin/python3").is_file());
                link(&folder, "secret.txt", "/usr/bin/python3");
                link(&folder, "z", "/");
            }
            "connect" => {
                let folder = self.bot(mode, mode, "python3\nbot.py", false);
                link(&folder, "z", "/");
            }
            _ => {
                self.bot(mode, mode, "python3\nbot.py", show_stderr);
            }
        }
        self.hostile.push(mode.to_string());
    }

    /// The world without the bot in folder `bot` (`honest`, `engine`): for
    /// a control whose claim is about the hostile bots alone, the games
    /// without them only took time (issue 57).
    fn without(self, bot: &str) -> World {
        fs::remove_dir_all(self.bots().join(bot)).unwrap();
        self
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn bots(&self) -> PathBuf {
        self.root().join("bots")
    }

    fn attack_log(&self, bot: &str) -> String {
        fs::read_to_string(self.bots().join(bot).join("attack.log")).unwrap_or_default()
    }

    /// Runs `inarow ARGS` as [`As`] says, in the test's folder with its
    /// `home` as HOME, holding the secret open as fd 8 and the log as fd 9
    /// (nothing else above 2), in a session keyring holding the
    /// organiser's key (what that keyring holds afterwards is the run's
    /// `keyring`).
    fn inarow(&self, args: &[String]) -> Ran {
        let script = r#"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd<&-"; done; exec 8<"$1" 9>>"$2"; shift 2; exec "$@""#;
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let report = self.root().join("runs").join(format!(
            "keyring-{}.txt",
            RUNS.fetch_add(1, Ordering::Relaxed)
        ));
        let mut command = Command::new("bash");
        command
            .args(["-c", script, "bash"])
            .arg(self.root().join("secret.txt"))
            .arg(self.root().join("judge-fd9.log"))
            .arg("python3")
            .arg(keyring_fixture())
            .arg(&report)
            .arg(KEY_SECRET);
        let judge = Path::new(env!("CARGO_BIN_EXE_inarow"));
        if self.who.drops() {
            command.args(self.delegated.argv(judge));
        } else {
            command.arg(judge);
        }
        let child = command
            .args(args)
            .current_dir(self.root())
            .env("HOME", self.root().join("home"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let done = Arc::new(AtomicBool::new(false));
        let watcher = {
            let done = done.clone();
            // What the bots start (a grandchild, children) carries this.
            let offspring = format!("{}-", self.marker);
            std::thread::spawn(move || {
                let (mut peak, mut saw) = (0u64, false);
                while !done.load(Ordering::Relaxed) {
                    // The judge is the keyring keeper's child.
                    let judge = fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
                        .ok()
                        .and_then(|c| c.split_whitespace().next().map(String::from));
                    if let Some(judge) = judge {
                        let status =
                            fs::read_to_string(format!("/proc/{judge}/status")).unwrap_or_default();
                        if let Some(kib) = status
                            .lines()
                            .find_map(|l| l.strip_prefix("VmHWM:"))
                            .and_then(|v| {
                                v.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
                            })
                        {
                            peak = peak.max(kib);
                        }
                    }
                    saw |= !marked(&offspring).is_empty();
                    std::thread::sleep(Duration::from_millis(20));
                }
                (peak, saw)
            })
        };
        let output = child.wait_with_output().unwrap();
        done.store(true, Ordering::Relaxed);
        let (peak_kib, saw_offspring) = watcher.join().unwrap();
        Ran {
            output,
            peak_kib,
            saw_offspring,
            keyring: fs::read_to_string(&report).unwrap_or_default(),
        }
    }

    /// Plays the tournament with small limits (and `extra` options),
    /// writing to `runs/TAG`.
    fn judge(&self, tag: &str, extra: &[&str]) -> Run {
        let out = self.root().join("runs").join(tag);
        fs::create_dir_all(&out).unwrap();
        if self.who.drops() {
            std::os::unix::fs::lchown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
        }
        let mut args: Vec<String> = [
            "judge",
            "--seed",
            "7",
            "-j",
            "1",
            "--memory",
            "256M",
            "--processes",
            "48",
            "--bots",
        ]
        .map(String::from)
        .to_vec();
        args.push(self.bots().display().to_string());
        // 20 s a move unless the caller gives its own.
        if !extra.contains(&"--timeout") {
            args.extend(["--timeout".into(), "20".into()]);
        }
        args.push("--results".into());
        args.push(out.join("results.json").display().to_string());
        args.push("--sgf".into());
        args.push(out.join("sgf").display().to_string());
        args.extend(extra.iter().map(|a| a.to_string()));
        let ran = self.inarow(&args);
        let results_text = fs::read_to_string(out.join("results.json")).unwrap_or_default();
        Run {
            tag: tag.to_string(),
            status: ran.output.status,
            stdout: String::from_utf8_lossy(&ran.output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&ran.output.stderr).into_owned(),
            results: serde_json::from_str(&results_text).unwrap_or(Value::Null),
            results_text,
            peak_kib: ran.peak_kib,
            saw_offspring: ran.saw_offspring,
            keyring: ran.keyring,
        }
    }

    /// Every path of the world outside the hostile bots' folders and
    /// `runs/`, with what it is.
    fn snapshot(&self) -> Snapshot {
        let skip: Vec<PathBuf> = self
            .hostile
            .iter()
            .map(|bot| self.bots().join(bot))
            .chain([self.root().join("runs")])
            .collect();
        let mut found = BTreeMap::new();
        let mut stack = vec![self.root().to_path_buf()];
        while let Some(path) = stack.pop() {
            if skip.iter().any(|s| path.starts_with(s)) {
                continue;
            }
            let mut entry = Entry::of(&path);
            // The judge's probe writes (and removes) a file in each bot's
            // folder: the folder's times are the judge's to change.
            if let Ok(entry) = &mut entry
                && path.parent() == Some(&self.bots())
            {
                (entry.mtime, entry.ctime) = ((0, 0), (0, 0));
            }
            if let Ok(entry) = &entry
                && entry.kind == 'd'
            {
                match fs::read_dir(&path) {
                    Ok(list) => stack.extend(list.map(|e| e.unwrap().path())),
                    Err(e) => {
                        found.insert(path.join("*"), Err(e.to_string()));
                    }
                }
            }
            found.insert(path, entry);
        }
        found
    }

    /// Whether the judge counts `what` (`memory`, `processes`) over all of
    /// a bot's processes with a control group. A root judge must (as the
    /// tests' machines allow); for another, its `--check-sandbox` says.
    fn cgroup_counts(&self, what: &str) -> bool {
        if self.who == As::Root && judge_is_root() {
            return true;
        }
        let bots = self.bots().display().to_string();
        let ran = self.inarow(&["judge", "--check-sandbox", "--bots", &bots].map(String::from));
        let report = String::from_utf8_lossy(&ran.output.stdout).into_owned();
        let clause = if what == "processes" {
            "tasks:"
        } else {
            "memory:"
        };
        report
            .lines()
            .find(|l| l.trim_start().starts_with(clause))
            .unwrap_or_else(|| panic!("--check-sandbox says nothing of {what}: {report}"))
            .contains(" controller of ")
    }

    /// Processes of the tournament still alive (the kernel finishes
    /// killing a namespace a moment after its game ends).
    fn leftovers(&self) -> Vec<i32> {
        let start = Instant::now();
        loop {
            let mut left = common::processes_in(&self.bots());
            left.extend(marked(&self.marker));
            left.sort_unstable();
            left.dedup();
            if left.is_empty() || start.elapsed() > Duration::from_secs(30) {
                return left;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What every tournament of hostile bots must show after `runs` (the
    /// first two of the same bots): one line per thing that broke.
    fn findings(&self, before: &Snapshot, runs: &[&Run]) -> Vec<String> {
        let mut found = self.reads();
        for run in runs {
            if !run.status.success() {
                found.push(format!(
                    "run {}: the judge failed ({}): {}",
                    run.tag,
                    run.status,
                    tail(&run.stderr)
                ));
            }
            if run.results.is_null() {
                found.push(format!("run {}: no results file", run.tag));
            }
            if let Some(line) = run
                .stderr
                .lines()
                .find(|l| l.to_lowercase().contains("warning"))
            {
                found.push(format!("run {}: the judge warned: {line}", run.tag));
            }
            if run.peak_kib >= 200 * 1024 {
                found.push(format!(
                    "run {}: the judge grew to {} KiB",
                    run.tag, run.peak_kib
                ));
            }
            for (by, kind) in forfeits(&run.results) {
                if by == "honest" || by == "engine" {
                    found.push(format!("run {}: {by} forfeited ({kind})", run.tag));
                }
            }
            for (what, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
                found.extend(secrets_in(
                    &format!("run {}: the judge's {what}", run.tag),
                    text,
                ));
            }
            found.extend(secrets_in(
                &format!("run {}: the results", run.tag),
                &run.results_text,
            ));
            let mut keyring = run.keyring.lines();
            if keyring.next() != Some(KEY_SECRET) {
                found.push(format!(
                    "run {}: the organiser's key changed: {:?}",
                    run.tag, run.keyring
                ));
            }
            if let Some(line) = keyring.find(|l| l.starts_with("channel:")) {
                found.push(format!("run {}: a bot left a key: {line}", run.tag));
            }
        }
        if let [first, second, ..] = runs
            && first.results["standings"] != second.results["standings"]
        {
            found.push(format!(
                "the same seed gave other standings: {} then {}",
                first.results["standings"], second.results["standings"]
            ));
        }
        found.extend(changes(before, &self.snapshot()));
        let left = self.leftovers();
        if !left.is_empty() {
            found.push(format!("processes {left:?} outlived the tournament"));
        }
        for bot in &self.hostile {
            for file in ["loot.txt", "attack.log"] {
                let text = fs::read_to_string(self.bots().join(bot).join(file)).unwrap_or_default();
                found.extend(secrets_in(&format!("{bot}'s {file}"), &text));
            }
        }
        found.extend(self.uid_findings(runs));
        found.extend(self.owner_findings());
        found
    }

    /// What the hostile bots wrote in their folders belongs on disk to
    /// their folders' owner (root's folders stay root's: nothing was
    /// chowned to let a bot write).
    fn owner_findings(&self) -> Vec<String> {
        let mut found = Vec::new();
        for bot in &self.hostile {
            let folder = self.bots().join(bot);
            let Ok(owner) = fs::metadata(&folder).map(|m| m.uid()) else {
                found.push(format!("{bot}'s folder cannot be looked at"));
                continue;
            };
            if let Ok(log) = fs::metadata(folder.join("attack.log"))
                && log.uid() != owner
            {
                found.push(format!(
                    "{bot}'s attack.log is uid {}'s on disk, its folder uid {owner}'s",
                    log.uid()
                ));
            }
        }
        found
    }

    /// Whether reading a file of the world moves its access time (not on
    /// a file system mounted `noatime`).
    fn keeps_access_times(&self) -> bool {
        let probe = self.root().join("runs/atime-probe");
        fs::write(&probe, "probe").unwrap();
        let file = fs::File::open(&probe).unwrap();
        file.set_times(fs::FileTimes::new().set_accessed(std::time::UNIX_EPOCH + LONG_AGO))
            .unwrap();
        fs::read(&probe).unwrap();
        let moved =
            file.metadata().unwrap().accessed().unwrap() != std::time::UNIX_EPOCH + LONG_AGO;
        fs::remove_file(&probe).unwrap();
        moved
    }

    /// The secrets whose files were read (their access time moved), where
    /// this file system keeps access times.
    fn reads(&self) -> Vec<String> {
        SECRET_FILES
            .into_iter()
            .filter(|secret| {
                let accessed = fs::metadata(self.root().join(secret)).and_then(|m| m.accessed());
                accessed.ok() != Some(std::time::UNIX_EPOCH + LONG_AGO)
            })
            .map(|secret| format!("{secret} was read (its access time moved)"))
            .collect()
    }

    /// Each hostile bot ran as a uid of its own (from [`FIRST_UID`]), never
    /// the judge's: as its attack log says, or its standard error (a bot
    /// over its disk bound keeps no log).
    fn uid_findings(&self, runs: &[&Run]) -> Vec<String> {
        let mut found = Vec::new();
        let judge = self.who.uid();
        let mut owners: BTreeMap<u32, &str> = BTreeMap::new();
        for bot in &self.hostile {
            let said = format!("{bot} ! LOG uid ");
            let uids: BTreeSet<u32> = self
                .attack_log(bot)
                .lines()
                .filter_map(|l| l.strip_prefix("uid ")?.parse().ok())
                .chain(runs.iter().flat_map(|run| {
                    run.stderr
                        .lines()
                        .filter_map(|l| l.strip_prefix(&said)?.parse().ok())
                        .collect::<Vec<u32>>()
                }))
                .collect();
            if uids.is_empty() {
                found.push(format!("{bot} never said which uid it ran as"));
            }
            for uid in uids {
                if uid < FIRST_UID || uid == judge {
                    found.push(format!(
                        "{bot} ran as uid {uid} (the judge is {judge}; a bot's uid is from {FIRST_UID})"
                    ));
                }
                if let Some(other) = owners.insert(uid, bot)
                    && other != bot
                {
                    found.push(format!("{other} and {bot} both ran as uid {uid}"));
                }
            }
        }
        found
    }

    /// Every attempt of `bot` whose line starts with one of `attempts` was
    /// made and denied.
    fn denied(&self, bot: &str, attempts: &[&str]) -> Vec<String> {
        let log = self.attack_log(bot);
        let mut found = Vec::new();
        for attempt in attempts {
            let lines: Vec<&str> = log.lines().filter(|l| l.starts_with(attempt)).collect();
            if lines.is_empty() {
                found.push(format!("{bot}: {attempt:?} was never tried"));
            }
            for line in lines.into_iter().filter(|l| !l.contains(": denied (")) {
                found.push(format!("{bot}: {line}"));
            }
        }
        found
    }
}

impl World {
    /// Opens every folder of the world to its owner and readers again
    /// (what an uncontained chmod bot closes).
    fn open_folders(&self) {
        let mut stack = vec![self.root().to_path_buf()];
        while let Some(dir) = stack.pop() {
            // Opened before it is read: a closed folder hides what is below.
            // (Only if closed: a chmod, even to the same mode, moves the ctime.)
            let open = dir.metadata().is_ok_and(|m| m.mode() & 0o777 == 0o755);
            if !open {
                let _ = fs::set_permissions(&dir, fs::Permissions::from_mode(0o755));
            }
            if let Ok(list) = fs::read_dir(&dir) {
                stack.extend(
                    list.filter_map(|e| e.ok())
                        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                        .map(|e| e.path()),
                );
            }
        }
    }
}

impl Drop for World {
    /// Whatever the checks found, nothing of the test is left running, and
    /// every folder can be removed.
    fn drop(&mut self) {
        for pid in marked(&self.marker) {
            let _ = Command::new("kill")
                .args(["-9", &pid.to_string()])
                .stderr(Stdio::null())
                .status();
        }
        // Where an uncontained listener left them.
        for folder in ["/tmp", "/dev/shm"] {
            let _ = fs::remove_file(format!("{folder}/inarow-drop-{}", self.marker));
        }
        self.open_folders();
    }
}

/// What one start of `inarow` left.
struct Ran {
    output: Output,
    /// Its peak resident memory in KiB, as last seen.
    peak_kib: u64,
    /// Whether a process a bot started (a grandchild, a child) was seen
    /// while it ran.
    saw_offspring: bool,
    /// What the organiser's keyring held after it: the key's payload, then
    /// a `channel:` line if a bot left a key there.
    keyring: String,
}

/// What one tournament left.
struct Run {
    tag: String,
    status: ExitStatus,
    stdout: String,
    stderr: String,
    /// The results file (null if none was written).
    results: Value,
    results_text: String,
    peak_kib: u64,
    saw_offspring: bool,
    keyring: String,
}

impl Run {
    /// The bots left out, as (folder, reason).
    fn left_out(&self) -> Vec<(String, String)> {
        self.results["left_out"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|l| {
                        (
                            l["folder"].as_str().unwrap_or("").to_string(),
                            l["reason"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The bots that played.
    fn bots(&self) -> Vec<String> {
        self.results["bots"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|b| b.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `folder` was left out (the reason holding `why`) with one line
    /// naming it, and the others played every game.
    fn left_out_findings(&self, folder: &str, why: &str, playing: usize) -> Vec<String> {
        let mut found = Vec::new();
        let tag = &self.tag;
        match self.left_out().iter().find(|(f, _)| f == folder) {
            Some((_, reason)) if reason.contains(why) => {}
            Some((_, reason)) => found.push(format!(
                "run {tag}: {folder} was left out for {reason:?}, not {why:?}"
            )),
            None => found.push(format!("run {tag}: {folder} was not left out")),
        }
        let named: Vec<&str> = self
            .stderr
            .lines()
            .filter(|l| l.contains(&format!("/{folder}")))
            .collect();
        if named.len() != 1 || !named[0].contains("leaving out") {
            found.push(format!(
                "run {tag}: the judge named {folder} in {} lines: {named:?}",
                named.len()
            ));
        }
        if self.bots().iter().any(|b| b == folder) {
            found.push(format!("run {tag}: {folder} played"));
        }
        let games = self.results["games"].as_array().map_or(0, Vec::len);
        if self.bots().len() != playing || games != playing * (playing - 1) {
            found.push(format!(
                "run {tag}: {} bots played {games} games, not {playing} bots all their games",
                self.bots().len()
            ));
        }
        found
    }
}

/// A path's kind, mode, owner, size, times and content (a link's target).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    kind: char,
    mode: u32,
    owner: (u32, u32),
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    content: Vec<u8>,
}

type Snapshot = BTreeMap<PathBuf, Result<Entry, String>>;

impl Entry {
    fn of(path: &Path) -> Result<Entry, String> {
        let meta = path.symlink_metadata().map_err(|e| e.to_string())?;
        let kind = if meta.is_dir() {
            'd'
        } else if meta.is_symlink() {
            'l'
        } else if meta.is_file() {
            'f'
        } else {
            '?'
        };
        let content = match kind {
            'f' => read_quietly(path).map_err(|e| e.to_string())?,
            'l' => fs::read_link(path)
                .map_err(|e| e.to_string())?
                .into_os_string()
                .into_encoded_bytes(),
            _ => Vec::new(),
        };
        Ok(Entry {
            kind,
            mode: meta.mode(),
            owner: (meta.uid(), meta.gid()),
            size: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            content,
        })
    }

    /// The names of what differs from `other`.
    fn differences(&self, other: &Entry) -> Vec<&'static str> {
        [
            ("kind", self.kind != other.kind),
            ("mode", self.mode != other.mode),
            ("owner", self.owner != other.owner),
            ("size", self.size != other.size),
            ("mtime", self.mtime != other.mtime),
            (
                "ctime (mode, owner, times or attributes)",
                self.ctime != other.ctime,
            ),
            ("content", self.content != other.content),
        ]
        .into_iter()
        .filter_map(|(name, differs)| differs.then_some(name))
        .collect()
    }
}

/// The bytes of `path`, read without moving its access time where this
/// process may (its owner, or root).
fn read_quietly(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NOATIME)
        .open(path)
        .or_else(|_| fs::File::open(path))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// What differs between two snapshots, one line per path.
fn changes(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let paths: BTreeSet<&PathBuf> = before.keys().chain(after.keys()).collect();
    paths
        .into_iter()
        .filter_map(|path| {
            let (a, b) = (before.get(path), after.get(path));
            let what = match (a, b) {
                _ if a == b => return None,
                (Some(_), None) => "removed".to_string(),
                (None, Some(_)) => "appeared".to_string(),
                (Some(Ok(a)), Some(Ok(b))) => format!("{} changed", a.differences(b).join(", ")),
                (a, b) => format!("{a:?} became {b:?}"),
            };
            Some(format!(
                "outside the bots' folders: {}: {what}",
                path.display()
            ))
        })
        .collect()
}

/// Every path under `root`, `root` included, links not followed.
fn walk(root: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.symlink_metadata().is_ok_and(|m| m.is_dir())
            && let Ok(list) = fs::read_dir(&path)
        {
            stack.extend(list.filter_map(|e| e.ok()).map(|e| e.path()));
        }
        all.push(path);
    }
    all
}

/// A line per secret that `text` (what `whose`) holds.
fn secrets_in(whose: &str, text: &str) -> Vec<String> {
    [SECRET, SSH_KEY, ROOT_ONLY, FD_LOG.trim_end(), KEY_SECRET]
        .into_iter()
        .filter(|secret| text.contains(secret))
        .map(|secret| format!("{whose} holds the secret {secret:?}"))
        .collect()
}

/// The last lines of a long text.
fn tail(text: &str) -> &str {
    let cut = text.len().saturating_sub(2000);
    let cut = (cut..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    &text[cut..]
}

/// Live processes whose command line holds `marker`.
fn marked(marker: &str) -> Vec<i32> {
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(marker)
                .then_some(pid)
        })
        .filter(|&pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !(state.is_empty() || state.starts_with('Z'))
        })
        .collect()
}

/// The forfeits of a run as (bot, fault kind).
fn forfeits(results: &Value) -> Vec<(String, String)> {
    results["games"]
        .as_array()
        .map(|games| {
            games
                .iter()
                .filter(|g| !g["forfeit"].is_null())
                .map(|g| {
                    (
                        g["forfeit"]["by"].as_str().unwrap_or("").to_string(),
                        g["forfeit"]["fault"]["kind"]
                            .as_str()
                            .unwrap_or("")
                            .to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The fault kinds of `bot`'s forfeits.
fn forfeits_by(results: &Value, bot: &str) -> Vec<String> {
    forfeits(results)
        .into_iter()
        .filter(|(by, _)| by == bot)
        .map(|(_, kind)| kind)
        .collect()
}

/// `bot` forfeited every game of every run for `kind`: `games` each run.
fn lost_every_game(runs: &[&Run], bot: &str, kind: &str, games: usize) -> Vec<String> {
    runs.iter()
        .filter_map(|run| {
            let kinds = forfeits_by(&run.results, bot);
            (kinds != vec![kind; games]).then(|| {
                format!(
                    "run {}: {bot} forfeited {kinds:?}, not {games} times {kind}",
                    run.tag
                )
            })
        })
        .collect()
}

/// Fails with every finding, one a line.
fn assert_held(found: &[String]) {
    assert!(
        found.is_empty(),
        "the sandbox let through:\n  {}",
        found.join("\n  ")
    );
}

/// The bots that attack files: other bots' folders (`rewrite`), secrets
/// outside (`read`; `shebang`: through a `#!` line naming a file of the
/// judge's working folder and a link to `/`), modes and times outside
/// (`chmod`), their own meta files (`meta-read`, `relink-meta`), and a
/// meta whose command climbs into another bot's folder (`climb`, left out).
/// Played once; then, in a world of its own, `relink-meta` whose meta the
/// test itself has made a link to a root-only file (with `climb`: both left
/// out, honest and the engine play).
fn file_attacks(who: As, extra: &[&str]) -> (World, Vec<String>) {
    let world = World::new(
        who,
        &[
            "rewrite",
            "read",
            "shebang",
            "chmod",
            "meta-read",
            "relink-meta",
            "climb",
        ],
    );
    let metas = ["meta-read", "relink-meta"].map(|bot| world.bots().join(bot).join("meta"));
    let metas_before = metas.clone().map(|m| fs::read(m).unwrap());
    let before = world.snapshot();
    let first = world.judge("first", extra);
    let mut found = Vec::new();
    for (meta, content) in metas.iter().zip(&metas_before) {
        let now = meta.symlink_metadata();
        if !now.is_ok_and(|m| m.is_file()) || fs::read(meta).ok().as_ref() != Some(content) {
            found.push(format!("{} changed", meta.display()));
        }
    }
    found.extend(first.left_out_findings("climb", "\"../honest/bot.py\"", 8));
    // Nothing the meta-read bot wrote into its meta was granted, or refused.
    if first.left_out().len() != 1 {
        found.push(format!("run first: left out {:?}", first.left_out()));
    }
    found.extend(world.denied(
        "rewrite",
        &[
            "rewrite ../honest/bot.py",
            "append to ../honest/meta",
            "remove ../honest/bot.py",
        ],
    ));
    found.extend(world.denied(
        "read",
        &[
            "read ../../secret.txt",
            "read /etc/shadow",
            "plant ../../outside/planted.txt",
        ],
    ));
    let shebang = world.attack_log("shebang");
    if !shebang.contains("/shebang/./run by /usr/bin/python3") {
        found.push(format!(
            "the shebang bot did not run through its #! line: {shebang}"
        ));
    }
    found.extend(world.denied("shebang", &["read z/", "read /proc/1/", "read ../"]));
    for line in shebang.lines().filter(|l| l.starts_with("list ")) {
        if line.contains("honest") || line.contains("engine") {
            found.push(format!("shebang saw another bot: {line}"));
        }
    }
    // `..` and `../..` are folders of the bot's own view (its private
    // /tmp): what it does there must only leave the real ones alone.
    found.extend(world.denied(
        "chmod",
        &[
            "chmod 000 ../honest",
            "utime ../honest",
            "setxattr ../honest",
            "chmod 400 ../../secret.txt",
            "utime ../../secret.txt",
            "setxattr ../../secret.txt",
        ],
    ));
    found.extend(world.denied(
        "meta-read",
        &["append read: to meta", "read ../../secret.txt"],
    ));
    found.extend(world.denied(
        "relink-meta",
        &[
            "rename a link over meta",
            "remove meta",
            "rename meta away",
            "link as meta",
            "write meta",
            "chmod meta",
            "read ../../root-only.txt",
        ],
    ));
    found.extend(world.findings(&before, &[&first]));
    // The organiser's own mistake: the meta a link to a root-only file. In
    // a world of its own: what the other attackers did is checked above,
    // and the two left out never run (so never say their uid).
    let mut mistake = World::new(who, &["relink-meta", "climb"]);
    mistake.hostile.clear();
    let meta = mistake.bots().join("relink-meta/meta");
    fs::remove_file(&meta).unwrap();
    std::os::unix::fs::symlink("../../root-only.txt", &meta).unwrap();
    let before = mistake.snapshot();
    let linked = mistake.judge("linked", extra);
    found.extend(linked.left_out_findings("relink-meta", "symbolic link", 2));
    found.extend(linked.left_out_findings("climb", "\"../honest/bot.py\"", 2));
    found.extend(mistake.findings(&before, &[&linked]));
    (world, found)
}

/// The bots that attack through channels: a unix socket served by one
/// (`listen`) that another (`connect`) tries to reach by path, by a link
/// to `/` and by its abstract name; the judge's inherited file descriptors
/// and the terminal (`fds`); and a folder filled past `--disk` (`disk`).
fn channel_attacks(who: As, extra: &[&str]) -> (World, Vec<String>) {
    let world = World::new(who, &["listen", "connect", "fds", "disk"]);
    let before = world.snapshot();
    let mut options = vec!["--disk", "64M", "--file-size", "32M"];
    options.extend(extra);
    let first = world.judge("first", &options);
    let mut found = world.findings(&before, &[&first]);
    let listen = world.attack_log("listen");
    for served in ["listen: serving sock", "listen: serving @abstract"] {
        if !listen.contains(served) {
            found.push(format!(
                "the listener could not serve, so proves nothing: {listen}"
            ));
        }
    }
    for line in listen.lines() {
        let heard = line.starts_with("listen: accepted")
            || (line.starts_with("listen: received") && line != "listen: received 0 bytes in all");
        if heard {
            found.push(format!("the listener heard from another bot: {line}"));
        }
    }
    for folder in ["/tmp", "/dev/shm"] {
        if !listen.contains(&format!("listen: left a file in {folder}\n")) {
            found.push(format!("the listener left nothing in {folder}: {listen}"));
        }
    }
    if !listen.contains("listen: received 0 bytes in all") {
        found.push(format!("the listener never summed up: {listen}"));
    }
    found.extend(world.denied(
        "connect",
        &[
            "connect ../listen/sock (vs listen)",
            &format!(
                "connect z{}/listen/sock (vs listen)",
                world.bots().display()
            ),
            "connect @abstract (vs listen)",
            "read /tmp/inarow-drop (vs listen)",
            "read /dev/shm/inarow-drop (vs listen)",
        ],
    ));
    found.extend(world.denied("connect", &["connect "]));
    let fds = world.attack_log("fds");
    let open: Vec<&str> = fds
        .lines()
        .filter(|l| l.starts_with("fds: open above 2:"))
        .collect();
    if open.is_empty() || open.iter().any(|l| *l != "fds: open above 2: []") {
        found.push(format!("the fds bot held more than 0, 1 and 2: {open:?}"));
    }
    found.extend(world.denied(
        "fds",
        &["read fd 8", "read fd ", "write fd 9", "TIOCSTI fd "],
    ));
    // Five opponents, two games each.
    found.extend(lost_every_game(&[&first], "disk", "disk", 10));
    (world, found)
}

fn files(who: As) {
    assert_held(&file_attacks(who, &[]).1);
}

fn channels(who: As) {
    assert_held(&channel_attacks(who, &[]).1);
}

/// The bots that reach for what outlives a game (`rewrite`: the honest
/// bot's program and meta; `chmod`: its folder and the secret's modes)
/// in a tournament played twice with the same seed: the same standings,
/// besides every check of [`World::findings`]. The one test of each judge
/// that plays a tournament twice (issue 57); its control runs
/// uncontained (`the_checks_catch_a_judge_without_its_sandbox`).
fn same_seed_findings(who: As, extra: &[&str]) -> (World, Vec<String>) {
    let world = World::new(who, &["rewrite", "chmod"]);
    let before = world.snapshot();
    let first = world.judge("first", extra);
    let second = world.judge("second", extra);
    let found = world.findings(&before, &[&first, &second]);
    (world, found)
}

fn the_same_seed_gives_the_same_standings(who: As) {
    assert_held(&same_seed_findings(who, &[]).1);
}

/// A tournament of honest, the engine and the bot `mode`, played once with
/// `extra` options (the same seed's standings are checked by
/// [`the_same_seed_gives_the_same_standings`], not here): the findings,
/// and the run.
fn alone(who: As, mode: &str, extra: &[&str]) -> (World, Vec<String>, Run) {
    alone_in(World::new(who, &[mode]), extra)
}

/// The tournament of `world`'s bots, played once with `extra` options: the
/// findings, and the run.
fn alone_in(world: World, extra: &[&str]) -> (World, Vec<String>, Run) {
    let before = world.snapshot();
    let run = world.judge("first", extra);
    let found = world.findings(&before, &[&run]);
    (world, found, run)
}

/// A grandchild in a session of its own (`escape`) dies with its game. (Each
/// of its games waits out the grace period after EXIT, so it plays alone.)
fn escape(who: As) {
    let (world, mut found, run) = alone(who, "escape", &[]);
    if !world
        .attack_log("escape")
        .contains("escape: started a grandchild")
    {
        found.push("the escape bot started no grandchild".into());
    }
    if !run.saw_offspring {
        found.push("the grandchild was never seen running, so its end proves nothing".into());
    }
    if !forfeits(&run.results).is_empty() {
        found.push(format!("run {}: {:?}", run.tag, forfeits(&run.results)));
    }
    assert_held(&found);
}

fn hog(who: As) {
    let (world, mut found, run) = alone(who, "hog", &[]);
    // The memory group names the limit; without one (an ordinary user's
    // judge, unless its cgroup is delegated) the per-process floor makes
    // Python fail: a crash.
    let cgroup = world.cgroup_counts("memory");
    let kind = if cgroup { "memory" } else { "crash" };
    found.extend(lost_every_game(&[&run], "hog", kind, 4));
    let log = world.attack_log("hog");
    if !log.contains("holding 64 MiB") || log.contains("holding 512 MiB") {
        found.push(format!("the hog held what it should not: {log}"));
    }
    if cgroup {
        let sgf: String = fs::read_dir(world.root().join("runs/first/sgf"))
            .unwrap()
            .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        if !sgf.contains("hog forfeits: memory: over its 256 MiB of memory") {
            found.push(format!("the SGF does not name the limit: {sgf}"));
        }
    }
    assert_held(&found);
}

fn fork(who: As) {
    let (world, mut found, run) = alone(who, "fork", &[]);
    let log = world.attack_log("fork");
    if !log.contains("refused after") {
        found.push(format!("the forker was never refused: {log}"));
    }
    if !run.saw_offspring {
        found.push("the forker's children were never seen".into());
    }
    // Without a pids group (an ordinary user's judge, unless its cgroup
    // is delegated) RLIMIT_NPROC refuses the fork and the bot plays on: no
    // forfeit to name.
    if world.cgroup_counts("processes") {
        found.extend(lost_every_game(&[&run], "fork", "processes", 4));
    }
    assert_held(&found);
}

fn spin(who: As) {
    let (world, mut found, run) = alone(who, "spin", &["--cpu", "1"]);
    found.extend(lost_every_game(&[&run], "spin", "cpu", 4));
    if !world.attack_log("spin").contains("computing") {
        found.push("the spinner never ran".into());
    }
    assert_held(&found);
}

fn bigfile(who: As) {
    let (world, mut found, run) = alone(who, "bigfile", &["--file-size", "1M"]);
    found.extend(lost_every_game(&[&run], "bigfile", "file-size", 4));
    let big = fs::metadata(world.bots().join("bigfile/big.bin")).map(|m| m.len());
    if big.as_ref().ok() != Some(&(1 << 20)) {
        found.push(format!("big.bin is {big:?} bytes, not cut at the limit"));
    }
    if world.attack_log("bigfile").contains("wrote 4 MiB") {
        found.push("the writer wrote past the limit".into());
    }
    assert_held(&found);
}

/// The standard error a bot may show in one game (`--stderr-limit`'s default).
const STDERR_LIMIT: usize = 1 << 20;

fn flood(who: As) {
    let (world, mut found, run) = alone(who, "flood", &[]);
    if !forfeits(&run.results).is_empty() {
        found.push(format!("run {}: {:?}", run.tag, forfeits(&run.results)));
    }
    // 256 MiB without a newline: one line, cut, over the budget.
    if !run.stderr.contains("bytes of standard error dropped") {
        found.push(format!(
            "run {}: no dropped line: {}",
            run.tag,
            tail(&run.stderr)
        ));
    }
    if run.stderr.len() > 64 * 1024 {
        found.push(format!(
            "run {}: {} bytes of stderr",
            run.tag,
            run.stderr.len()
        ));
    }
    let ran = world.inarow(&debug_args(&world, "flood"));
    let stdout = String::from_utf8_lossy(&ran.output.stdout);
    let dropped = stdout.contains("bytes of standard error dropped");
    if !ran.output.status.success() || !dropped || stdout.len() > 256 * 1024 {
        found.push(format!(
            "-d: {} with {} bytes echoed: {}",
            ran.output.status,
            stdout.len(),
            String::from_utf8_lossy(&ran.output.stderr)
        ));
    }
    assert_held(&found);
}

fn debug_args(world: &World, bot: &str) -> Vec<String> {
    let bots = world.bots().display().to_string();
    [
        "judge",
        "--seed",
        "3",
        "--timeout",
        "20",
        "--bots",
        &bots,
        "-d",
        bot,
    ]
    .map(String::from)
    .to_vec()
}

/// `-d` echoes a bot's standard error; a bot writing hundreds of
/// megabytes of lines is shown its budget's worth in each game, and the
/// rest is a line saying how much was dropped.
fn flood_lines(who: As) {
    let world = World::new(who, &["flood-lines"]);
    let ran = world.inarow(&debug_args(&world, "flood-lines"));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&ran.output.stdout),
        String::from_utf8_lossy(&ran.output.stderr),
    );
    assert!(ran.output.status.success(), "{}", tail(&stderr));
    let total = stdout.len() + stderr.len();
    assert!(
        total < 2 * STDERR_LIMIT + 256 * 1024,
        "{total} bytes of output for two games"
    );
    assert!(stdout.contains("flood-lines ! yyyy"), "{}", tail(&stdout));
    assert_eq!(
        stdout
            .matches("bytes of standard error dropped: over the 1 MiB a game]")
            .count(),
        2,
        "one dropped line per game: {}",
        tail(&stdout)
    );
    let log = world.attack_log("flood-lines");
    let written: Vec<u64> = log
        .lines()
        .filter_map(|l| {
            l.strip_prefix("flood-lines: wrote ")?
                .strip_suffix(" bytes to stderr")?
                .parse()
                .ok()
        })
        .collect();
    assert!(
        written.len() == 2 && written.iter().all(|&n| n > 8 * STDERR_LIMIT as u64),
        "the flood was no flood: {log}"
    );
    assert!(world.leftovers().is_empty());
}

macro_rules! under_both_judges {
    ($($attack:ident),* $(,)?) => {
        $(
            mod $attack {
                #[test]
                fn under_a_root_judge() {
                    super::$attack(super::As::Root)
                }

                #[test]
                fn under_an_ordinary_judge() {
                    super::$attack(super::As::User)
                }
            }
        )*
    };
}

under_both_judges!(
    the_same_seed_gives_the_same_standings,
    files,
    channels,
    escape,
    setuid,
    hog,
    fork,
    spin,
    bigfile,
    flood,
    flood_lines,
    keyring,
    time,
    disk_floods,
    memfd,
    terminal,
    launcher_hidden,
    stolen_grant,
    entry_floods,
    hidden_folders,
    hard_links,
    host_counts,
    aio_contexts,
    open_files,
);

/// What `bot` logged, as its standard error showed it in the runs (a bot
/// that went over its disk keeps no attack log of that game).
fn logged(bot: &str, runs: &[&Run]) -> String {
    let said = format!("{bot} ! LOG ");
    let mut text = String::new();
    for run in runs {
        for line in run.stderr.lines() {
            if let Some(rest) = line.strip_prefix(&said) {
                text.push_str(rest);
                text.push('\n');
            }
        }
    }
    text
}

/// The bot reaches for the organiser's keys in the session keyring it
/// inherits: it reads the organiser's key, overwrites it, leaves a message
/// for later games and listens for one, and makes a key call through the
/// 32-bit entry point. Each is refused: its keyring is new and empty, the
/// key calls answer `ENOSYS` (the allow list names none of them), a 32-bit call kills the process that makes it.
fn keyring(who: As) {
    let (_world, mut found, run) = alone(who, "keyring", &[]);
    let log = logged("keyring", &[&run]);
    for attempt in [
        "keyring: read the organiser's key",
        "keyring: overwrite the organiser's key",
        "keyring: leave a message",
        "keyring: hear a message",
    ] {
        let lines: Vec<&str> = log.lines().filter(|l| l.starts_with(attempt)).collect();
        if lines.is_empty()
            || lines
                .iter()
                .any(|l| !l.contains("denied (Function not implemented)"))
        {
            found.push(format!("{attempt}: {lines:?}"));
        }
    }
    if log.contains("keyring: heard") {
        found.push(format!("a message passed between games: {log}"));
    }
    let int80: Vec<&str> = log.lines().filter(|l| l.starts_with("int80")).collect();
    if int80.is_empty()
        || int80
            .iter()
            .any(|l| *l != "int80 keyctl: denied (killed by signal 31)")
    {
        found.push(format!("the 32-bit call was not refused: {int80:?}"));
    }
    assert_held(&found);
}

/// Spinning children in sessions of their own (`hog-setsid`) against a
/// bot that needs 0.15 s of CPU over each of its first answers (`worker`):
/// the hog is frozen whenever its opponent thinks (none of its children's
/// clock samples falls inside the worker's thinking), its processors are
/// bounded as a whole over its own turns (its 16 children together use at
/// most one core), and the worker forfeits nothing, as in a tournament
/// without the hog. The two play each other alone (two games): the honest
/// bot and the engine log no thinking to compare (issue 57).
fn time(who: As) {
    let world = World::new(who, &["hog-setsid", "worker"])
        .without("engine")
        .without("honest");
    let before = world.snapshot();
    let run = world.judge("first", &[]);
    let mut found = world.findings(&before, &[&run]);
    found.extend(overlaps(&world));
    found.extend(cpu_over_one_core(&world));
    for bot in ["worker", "hog-setsid"] {
        if !forfeits_by(&run.results, bot).is_empty() {
            found.push(format!(
                "{bot} forfeited {:?}",
                forfeits_by(&run.results, bot)
            ));
        }
    }
    // A control without the hog: the worker does as well (against honest).
    let control = World::new(who, &["worker"]).without("engine");
    let alone = control.judge("control", &[]);
    if !forfeits_by(&alone.results, "worker").is_empty() {
        found.push(format!(
            "alone, worker forfeited {:?}",
            forfeits_by(&alone.results, "worker")
        ));
    }
    assert_held(&found);
}

/// The lines of two numbers of a log (`start end`, `clock cpu`).
fn pairs(path: &Path) -> Vec<(f64, f64)> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (a, b) = l.split_once(' ')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect()
}

/// Samples `(clock, cpu)` of each spinning child of the hog, by child.
fn hog_samples(world: &World) -> Vec<Vec<(f64, f64)>> {
    (0..16)
        .map(|i| pairs(&world.bots().join(format!("hog-setsid/hog-{i}.log"))))
        .collect()
}

/// The hog's children's clock samples that fall inside the worker's
/// thinking: the hog ran on its opponent's time.
fn overlaps(world: &World) -> Vec<String> {
    let thinking = pairs(&world.bots().join("worker/worker.log"));
    let samples = hog_samples(world);
    let mut found = Vec::new();
    if thinking.len() < 10 || samples.iter().all(Vec::is_empty) {
        found.push(format!(
            "nothing to compare: {} turns of the worker, {} samples of the hog",
            thinking.len(),
            samples.iter().map(Vec::len).sum::<usize>()
        ));
    }
    let inside = samples
        .iter()
        .flatten()
        .filter(|(t, _)| thinking.iter().any(|(a, b)| a < t && t < b))
        .count();
    if inside > 0 {
        found.push(format!(
            "the hog ran on its opponent's time: {inside} of its samples fell inside the worker's thinking"
        ));
    }
    found
}

/// Over each of the hog's own turns, its children together used at most
/// one core (with a margin for the scheduler's period).
fn cpu_over_one_core(world: &World) -> Vec<String> {
    let turns = pairs(&world.bots().join("hog-setsid/turns.log"));
    let samples = hog_samples(world);
    let mut found = Vec::new();
    if turns.is_empty() {
        found.push("the hog took no turn".into());
    }
    for (start, end) in turns {
        let used: f64 = samples
            .iter()
            .map(|child| {
                let inside: Vec<f64> = child
                    .iter()
                    .filter(|(t, _)| start <= *t && *t <= end)
                    .map(|(_, c)| *c)
                    .collect();
                match (inside.first(), inside.last()) {
                    (Some(first), Some(last)) => last - first,
                    _ => 0.0,
                }
            })
            .sum();
        let wall = end - start;
        if used > 1.25 * wall + 0.1 {
            found.push(format!(
                "the hog's children used {used:.2} s of CPU over {wall:.2} s: more than one core"
            ));
        }
    }
    found
}

/// The bot's disk, `--disk 20M`: files below a path longer than the
/// kernel reads at once (`deep`), and 40 `fallocate`s of 63 MiB at once
/// (`fallocate`). What lands past the bound loses the game for `disk`
/// (`deep`, every game); a write far past it is refused at once by the
/// kernel (`ENOSPC`: the 40 at once usually all are, and a game where one
/// landed is lost for `disk`). Either way the folder holds afterwards no
/// more than the bound, as `du` counts, and none of what was written.
fn disk_floods(who: As) {
    let world = World::new(who, &["deep", "fallocate"]);
    let before = world.snapshot();
    let options = ["--disk", "20M", "--file-size", "8M"];
    let first = world.judge("first", &options);
    let mut found = world.findings(&before, &[&first]);
    found.extend(lost_every_game(&[&first], "deep", "disk", 6));
    found.extend(within_bound(&world, &["deep", "fallocate"], 20 << 20));
    let log = logged("deep", &[&first]);
    if log.matches("6030 bytes of path below the folder").count() != 6 {
        found.push(format!("the deep bot did not get deep every game: {log}"));
    }
    // The fallocate bot's games, in order, with what it logged in each:
    // how many of its 40 files it made, or nothing if it was stopped first.
    let mut made: Vec<Option<usize>> = Vec::new();
    for line in logged("fallocate", &[&first]).lines() {
        if line == "fallocate: begins" {
            made.push(None);
        } else if let (Some(last), Some(n)) = (
            made.last_mut(),
            line.strip_prefix("fallocate: ")
                .and_then(|l| l.split(' ').next()?.parse().ok()),
        ) {
            *last = Some(n);
        }
    }
    // Its games, but those its opponent lost before it was first asked
    // (a bot frozen from its start never ran).
    let asked = |g: &&Value| {
        g["a"] == "fallocate"
            || (g["b"] == "fallocate"
                && (g["forfeit"]["by"] == "fallocate"
                    || g["stones"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|s| s["by"] == "B"))))
    };
    let games: Vec<&Value> = first.results["games"]
        .as_array()
        .map(|g| g.iter().filter(asked).collect())
        .unwrap_or_default();
    if made.len() != games.len() || games.len() < 4 {
        found.push(format!(
            "{} games of the fallocate bot, {} attacks logged",
            games.len(),
            made.len()
        ));
    }
    for (game, made) in games.iter().zip(&made) {
        let by = &game["forfeit"]["by"];
        let kind = &game["forfeit"]["fault"]["kind"];
        let landed = made.is_none_or(|n| n > 0);
        if landed && (by != "fallocate" || kind != "disk") {
            found.push(format!(
                "fallocates landed past the bound ({made:?} of 40), and the game ended {game}"
            ));
        }
        if by == "fallocate" && kind != "disk" {
            found.push(format!("the fallocate bot lost for {kind}"));
        }
    }
    assert_held(&found);
}

/// The attack `mode` alone on the organiser's disk, uncontained: the bot
/// run once as a plain process (its first prompt, then the end of its
/// input) in a fresh folder beside the world. Returns what it logged and
/// what `du` says its folder then holds: the positive control that shows
/// the attack does what it claims where nothing bounds it.
fn alone_on_disk(world: &World, mode: &str) -> (String, u64) {
    let folder = world.root().join("runs").join(format!("alone-{mode}"));
    fs::create_dir_all(&folder).unwrap();
    fs::copy(fixture(), folder.join("bot.py")).unwrap();
    let mut child = Command::new("python3")
        .args(["bot.py", mode, &world.marker, "nobody", "1"])
        .current_dir(&folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(b"A []\n");
    }
    child.wait().unwrap();
    let log = fs::read_to_string(folder.join("attack.log")).unwrap_or_default();
    (log, du(&folder))
}

/// What `du` says `folder` holds, in bytes.
fn du(folder: &Path) -> u64 {
    let du = Command::new("du")
        .args(["-s", "--block-size=1"])
        .arg(folder)
        .output()
        .unwrap();
    String::from_utf8_lossy(&du.stdout)
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(u64::MAX)
}

/// The games of `bot` in which it was asked for an answer (a bot frozen
/// from its start, whose opponent lost first, never ran).
fn asked_games<'a>(results: &'a Value, bot: &str) -> Vec<&'a Value> {
    let asked = |g: &&Value| {
        g["a"] == bot
            || (g["b"] == bot
                && (g["forfeit"]["by"] == bot
                    || g["stones"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|s| s["by"] == "B"))))
    };
    results["games"]
        .as_array()
        .map(|g| g.iter().filter(asked).collect())
        .unwrap_or_default()
}

/// Every entry below `folder`, counted without following links.
fn entries_below(folder: &Path) -> usize {
    let mut count = 0;
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            count += 1;
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(entry.path());
            }
        }
    }
    count
}

/// Empty folders (`folders`, up to 20,000) and links with 200-byte
/// targets (`links`, up to 20,000) under `--disk 1M`: a `tmpfs` gives
/// them no blocks, while the organiser's disk gives each a block. The
/// kernel refuses each flood within a few thousand entries (the `tmpfs`'s
/// entries are bounded by the bytes), each bot loses every game it was
/// asked in for `disk`, and its folder holds at most the bound by `du`,
/// none of the flood kept. Alone on the organiser's disk, the same attack
/// leaves far more than the bound there (`entry_floods_alone_overrun_the_disk`).
fn entry_floods(who: As) {
    let world = World::new(who, &["folders", "links"]);
    let before = world.snapshot();
    let run = world.judge("first", &["--disk", "1M"]);
    let mut found = world.findings(&before, &[&run]);
    found.extend(within_bound(&world, &["folders", "links"], 1 << 20));
    for bot in ["folders", "links"] {
        let games = asked_games(&run.results, bot);
        if games.len() < 4 {
            found.push(format!("{bot} was asked in {} games only", games.len()));
        }
        for game in &games {
            let (by, kind) = (&game["forfeit"]["by"], &game["forfeit"]["fault"]["kind"]);
            // Between the two floods, both go over: whichever the judge
            // hears of first loses (docs/judge.md, Limits).
            let both = [&game["a"], &game["b"]]
                .iter()
                .all(|b| *b == "folders" || *b == "links");
            if kind != "disk" || (by != bot && !both) {
                found.push(format!(
                    "a game of {bot} did not end in its disk forfeit: {game}"
                ));
            }
        }
        // Each flood ends refused by the kernel or cut short by the end of
        // its game, a few thousand entries in.
        let log = logged(bot, &[&run]);
        let made: Vec<u64> = log
            .lines()
            .filter_map(|l| {
                l.strip_prefix(&format!("{bot}: "))?
                    .split_whitespace()
                    .find_map(|w| w.parse().ok())
            })
            .collect();
        if log.contains("never refused") || made.iter().any(|&n| n > 10_000) {
            found.push(format!("{bot}'s floods went on: {log}"));
        }
        let kept = entries_below(&world.bots().join(bot));
        if kept > 50 {
            found.push(format!("{bot}'s folder keeps {kept} entries"));
        }
    }
    assert_held(&found);
}

/// The positive control of [`entry_floods`]: on the organiser's disk,
/// alone (no judge), each flood makes all its entries and holds far more
/// than the bound. It is the same whoever judges, so it runs once, not
/// under each judge (issue 57). 20,000 entries of a block each are 78 MiB
/// on ext4, over the 64 MiB asked: more only took longer to remove.
#[test]
fn entry_floods_alone_overrun_the_disk() {
    let world = World::new(As::Root, &[]);
    let probe = world.root().join("runs/one-folder");
    fs::create_dir_all(&probe).unwrap();
    let folders_take_blocks = fs::metadata(&probe).unwrap().blocks() > 0;
    for (bot, made) in [("folders", "made 20000"), ("links", "made 20000")] {
        let (log, bytes) = alone_on_disk(&world, bot);
        assert!(log.contains(made), "alone, {bot} did not flood: {log}");
        if folders_take_blocks {
            assert!(
                bytes > 64 << 20,
                "alone, {bot}'s flood holds only {bytes} bytes"
            );
        }
    }
}

/// In its first game the bot makes 4,100 decoy files with two names each,
/// then a 1 MiB file with 599 more names, the decoys met first by whatever
/// reads its folder (`hardlinks`), under `--disk 64M`. Inside the game that
/// holds some 17 MiB; the commit keeps every name as a name of its one
/// file, so after the tournament the folder holds at most the bound by
/// `du` (the commit of old, whose table of linked files held 4,096, copied
/// each further name whole: 601 MiB), the big file has its 600 names
/// (the positive control: the attack reached the organiser's disk, as
/// links), and the bot lost no game for its disk.
fn hard_links(who: As) {
    let world = World::new(who, &["hardlinks"]);
    let before = world.snapshot();
    let run = world.judge("first", &["--disk", "64M"]);
    let mut found = world.findings(&before, &[&run]);
    found.extend(within_bound(&world, &["hardlinks"], 64 << 20));
    let log = logged("hardlinks", &[&run]);
    if !log.contains("hardlinks: made 4100 decoys and 600 names of b/big") {
        found.push(format!("the bot did not make its links: {log}"));
    }
    if !log.contains("hardlinks: already made, b/big has 600 names") {
        found.push(format!("a later game did not find the links kept: {log}"));
    }
    let folder = world.bots().join("hardlinks");
    let names = fs::metadata(folder.join("b/big")).map_or(0, |m| m.nlink());
    if names != 600 {
        found.push(format!("b/big has {names} names on disk, not 600"));
    }
    let decoys = fs::metadata(folder.join("a/4099-again")).map_or(0, |m| m.nlink());
    if decoys != 2 {
        found.push(format!("the last decoy has {decoys} names on disk, not 2"));
    }
    let lost = forfeits_by(&run.results, "hardlinks");
    if !lost.is_empty() {
        found.push(format!("the bot lost games: {lost:?}"));
    }
    assert_held(&found);
}

/// The bot reads the host's counts that move as other programs run
/// (`counts`): inside its sandbox /proc/loadavg shows one idle task,
/// /proc/stat zero times and processes, /proc/meminfo all the memory
/// free and its real total, in every game. The positive control: the same
/// bot run uncontained reads the host's own counts (more than one task,
/// times that are not zero).
fn host_counts(who: As) {
    let world = World::new(who, &["counts"]);
    let before = world.snapshot();
    let run = world.judge("first", &[]);
    let mut found = world.findings(&before, &[&run]);
    let log = logged("counts", &[&run]);
    let games = asked_games(&run.results, "counts").len();
    let total = std::fs::read_to_string("/proc/meminfo")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:").map(|v| v.trim().to_string()))
        .unwrap();
    for (said, what) in [
        ("counts: loadavg 0.00 0.00 0.00 1/1 1", "loadavg"),
        ("counts: stat cpu  0 0 0 0 0 0 0 0 0 0", "cpu times"),
        ("counts: stat processes 0", "processes"),
        (&format!("counts: meminfo MemFree: {total}"), "free memory"),
        (
            &format!("counts: meminfo MemTotal: {total}"),
            "total memory",
        ),
    ] {
        let seen = log
            .lines()
            .filter(|l| l.split_whitespace().eq(said.split_whitespace()))
            .count();
        if seen != games || games < 4 {
            found.push(format!(
                "{what}: {seen} neutral readings in {games} games: {log}"
            ));
        }
    }
    // Uncontained, the bot reads the host's counts.
    let (alone, _) = alone_on_disk(&world, "counts");
    let tasks: u64 = alone
        .lines()
        .find_map(|l| l.strip_prefix("counts: loadavg "))
        .and_then(|l| l.split_whitespace().nth(3)?.split('/').nth(1)?.parse().ok())
        .unwrap_or(0);
    assert!(
        tasks > 1,
        "uncontained, loadavg showed no other task: {alone}"
    );
    assert!(
        !alone.contains("counts: stat cpu  0 0 0 0 0 0 0 0 0 0"),
        "uncontained, the cpu times were zero: {alone}"
    );
    assert_held(&found);
}

/// What the organiser's user checks, over and over while a tournament
/// runs, as `nobody` with at most 256 files open: the size of a new pipe
/// and whether it can pass a descriptor on a socket pair. One line a
/// check: the monotonic clock, the size, `passed` or the refusal.
const USER_PROBE: &str = r#"
import array, fcntl, os, resource, select, socket, sys, time
resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
a, b = socket.socketpair()
while True:
    t = time.monotonic()
    r, w = os.pipe()
    size = fcntl.fcntl(w, 1032)
    try:
        a.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [r]))])
        _, extra, _, _ = b.recvmsg(1, socket.CMSG_LEN(4))
        for _, _, data in extra:
            os.close(array.array("i", data)[0])
        passed = "passed"
    except OSError as e:
        passed = e.strerror.replace(" ", "-")
    os.close(r)
    os.close(w)
    print("%.6f %d %s" % (t, size, passed), flush=True)
    if select.select([sys.stdin], [], [], 0.005)[0]:
        break
"#;

/// The hoarder (`hoard`: 64 pipes grown to 1 MiB, descriptors left in
/// flight) under an ordinary user's judge (`extra` its options), with the
/// organiser's user checking its pipes and descriptors all the while
/// ([`USER_PROBE`]): the findings, what the bot logged, and the checks
/// made while it held its hoard (between its first and last answer of a
/// game: `(size, passed)`).
fn hoard_beside_the_user(extra: &[&str]) -> (Vec<String>, String, Vec<(u64, String)>) {
    // One hoard at a time: another's, sharing the user, would bite this one's checks.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let world = World::new(As::User, &["hoard"]);
    let before = world.snapshot();
    let mut probe = Command::new("setpriv")
        .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
        .args(["/usr/bin/python3", "-c", USER_PROBE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let run = world.judge("first", extra);
    drop(probe.stdin.take());
    let checks = String::from_utf8_lossy(&probe.wait_with_output().unwrap().stdout).into_owned();
    let found = world.findings(&before, &[&run]);
    let log = logged("hoard", &[&run]);
    // Each game's answers: a new game begins with the bot's uid.
    let mut windows: Vec<(f64, f64)> = Vec::new();
    for line in log.lines() {
        if line.starts_with("uid ") {
            windows.push((f64::MAX, f64::MIN));
        } else if let (Some(at), Some(last)) = (
            line.strip_prefix("hoard: holding at ")
                .and_then(|t| t.parse::<f64>().ok()),
            windows.last_mut(),
        ) {
            *last = (last.0.min(at), last.1.max(at));
        }
    }
    let during: Vec<(u64, String)> = checks
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let at: f64 = words.next()?.parse().ok()?;
            let size: u64 = words.next()?.parse().ok()?;
            let passed = words.next()?.to_string();
            windows
                .iter()
                .any(|&(from, to)| from <= at && at <= to)
                .then_some((size, passed))
        })
        .collect();
    (found, log, during)
}

/// Under an ordinary user's judge each bot is a subordinate uid of that
/// user: the hoarder fills its own tables, and the organiser's user still
/// gets 64 KiB pipes and passes descriptors while it holds its hoard.
#[test]
fn a_hoarder_fills_no_table_of_an_ordinary_judges_user() {
    if !judge_is_root() {
        return;
    }
    let (mut found, log, during) = hoard_beside_the_user(&[]);
    if !log.contains("hoard: grew 64 pipes to 1 MiB") || !log.contains("descriptors in flight") {
        found.push(format!("the hoarder did not hoard: {log}"));
    }
    if during.is_empty() {
        found.push(format!(
            "no check of the user's ran while the hoard was held: {log}"
        ));
    }
    for (size, passed) in &during {
        if *size != 65536 || passed != "passed" {
            found.push(format!(
                "while the hoard was held the user's pipe had {size} bytes and its descriptor {passed}"
            ));
        }
    }
    assert_held(&found);
}

/// The positive control: with `--bots-share-my-user` the hoarder is the
/// organiser's user to the kernel, and while it holds its hoard the user's
/// new pipes are small or its descriptors refused.
#[test]
fn a_hoarder_sharing_the_judges_user_bites_it() {
    if !judge_is_root() {
        return;
    }
    let (_, log, during) = hoard_beside_the_user(&["--bots-share-my-user"]);
    assert!(!during.is_empty(), "no check ran during the hoard: {log}");
    assert!(
        during
            .iter()
            .any(|(size, passed)| *size < 65536 || passed != "passed"),
        "sharing the user, the hoard did not bite: {during:?} {log}"
    );
}

/// An ordinary user with no subordinate ids (uid 4242, in no
/// /etc/subuid): the judge refuses in one line naming the fix and the flag;
/// `--check-sandbox` says the clause is missing; with the flag it plays,
/// and `--check-sandbox` names the clause open.
#[test]
fn without_subordinate_ids_an_ordinary_judge_refuses_unless_told_to_share() {
    if !judge_is_root() {
        return;
    }
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    common::engine_bot(&bots, "one", 100);
    common::engine_bot(&bots, "two", 100);
    for path in walk(dir.path()) {
        std::os::unix::fs::lchown(&path, Some(4242), Some(4242)).unwrap();
    }
    let judge = common::for_nobody(Path::new(env!("CARGO_BIN_EXE_inarow")));
    let run = |extra: &[&str]| {
        Command::new("setpriv")
            .args(["--reuid", "4242", "--regid", "4242", "--clear-groups"])
            .arg(&judge)
            .args([
                "judge",
                "--memory",
                "unbounded",
                "--cpus",
                "unbounded",
                "--bots",
            ])
            .arg(&bots)
            .args(extra)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let refused = run(&["--results", "r.json", "--sgf", "sgf"]);
    let said = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert!(!refused.status.success(), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("user 4242 has no subordinate uids")
            && said
                .contains("usermod --add-subuids 100000-165535 --add-subgids 100000-165535 4242")
            && said.contains("--bots-share-my-user"),
        "{said}"
    );
    assert!(!dir.path().join("r.json").exists());
    let check = run(&["--check-sandbox"]);
    let report = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(!check.status.success());
    assert!(
        report.contains("user tables:") && report.contains("MISSING: user 4242"),
        "{report}"
    );
    let shared = run(&[
        "--bots-share-my-user",
        "--results",
        "r.json",
        "--sgf",
        "sgf",
    ]);
    assert!(
        shared.status.success(),
        "{}",
        String::from_utf8_lossy(&shared.stderr)
    );
    assert!(dir.path().join("r.json").exists());
    let check = run(&["--check-sandbox", "--bots-share-my-user"]);
    let report = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(check.status.success(), "{report}");
    assert!(report.contains("open: --bots-share-my-user"), "{report}");
}

/// Each game the bot writes 20 MiB into a new folder and makes it
/// unreadable (`chmod 0`), under `--disk 30M`: its first game keeps its
/// 20 MiB, every later game goes over (the hidden folder is measured, by
/// an ordinary user's judge too) and loses for `disk`; its folder holds
/// at most the bound, by `du`, with one hidden folder. Another bot's
/// folder holds 40 MiB in a folder its organiser made unreadable: it is
/// left out as too full, not measured as empty. Uncontained, the hoard
/// grows 20 MiB a game.
fn hidden_folders(who: As) {
    let world = World::new(who, &["hide"]);
    let stash = world.bot("stash", "honest", "python3\nbot.py", false);
    let hidden = stash.join("hidden");
    fs::create_dir(&hidden).unwrap();
    fs::write(hidden.join("hoard"), vec![7u8; 40 << 20]).unwrap();
    if who.drops() {
        common::give_to_nobody(&stash);
    }
    fs::set_permissions(&hidden, fs::Permissions::from_mode(0o000)).unwrap();
    let before = world.snapshot();
    let first = world.judge("first", &["--disk", "30M"]);
    let mut found = world.findings(&before, &[&first]);
    let disk = forfeits_by(&first.results, "hide")
        .iter()
        .filter(|k| *k == "disk")
        .count();
    if disk != 3 {
        found.push(format!(
            "hide lost {disk} games for its disk, not 3 (all but its first): {:?}",
            forfeits_by(&first.results, "hide"),
        ));
    }
    found.extend(within_bound(&world, &["hide"], 30 << 20));
    let hides = fs::read_dir(world.bots().join("hide"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().starts_with("hide-"))
        })
        .count();
    if hides != 1 {
        found.push(format!(
            "the hide bot's folder keeps {hides} hidden folders"
        ));
    }
    let left: Vec<&Value> = first.results["left_out"]
        .as_array()
        .map(|l| l.iter().collect())
        .unwrap_or_default();
    let full = left
        .iter()
        .any(|l| l["folder"] == "stash" && l["reason"].to_string().contains("already holds"));
    if !full {
        found.push(format!("the stash was not left out as too full: {left:?}"));
    }
    assert_held(&found);
}

/// The bot asks for every AIO context of the host (`io_setup`, a counter
/// of the whole host: `/proc/sys/fs/aio-nr`): refused every time, as a call
/// the allow list does not name (`ENOSYS`), and the host's count never
/// moves; it plays on. Alone, uncontained, it takes them.
fn aio_contexts(who: As) {
    // One at a time: the other judge's uncontained bot, taking the host's
    // every context, would leave this one's none and move its count (issue 57).
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (world, mut found, run) = alone(who, "aio", &[]);
    let log = logged("aio", &[&run]);
    let asks: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("aio: io_setup"))
        .collect();
    // At least once in each of its 4 games.
    if asks.len() < 4
        || asks
            .iter()
            .any(|l| *l != "aio: io_setup 65536: denied (Function not implemented)")
    {
        found.push(format!("io_setup was not refused: {asks:?}"));
    }
    for line in log.lines().filter(|l| l.contains("aio-nr went from")) {
        let numbers: Vec<&str> = line
            .split_whitespace()
            .filter(|w| w.parse::<i64>().is_ok())
            .collect();
        if numbers.len() != 2 || numbers[0] != numbers[1] {
            found.push(format!("the host's AIO count moved: {line}"));
        }
    }
    if !forfeits_by(&run.results, "aio").is_empty() {
        found.push(format!(
            "run {}: aio forfeited {:?}",
            run.tag,
            forfeits_by(&run.results, "aio")
        ));
    }
    let (alone, _) = alone_on_disk(&world, "aio");
    assert!(
        alone
            .lines()
            .any(|l| l.starts_with("aio: io_setup") && l.ends_with(": done")),
        "alone, the bot took no AIO context: {alone}"
    );
    assert_held(&found);
}

/// The bot raises its soft limit of open files and opens /dev/null up to
/// 20,000 times in each of 10 children, under `--open-files 256`: no
/// process of it holds more than 256 files (its hard limit), so the bot
/// holds at most 10 times that; it plays on. Alone, each child holds far
/// more.
fn open_files(who: As) {
    let (world, mut found, run) = alone(who, "files", &["--open-files", "256"]);
    let log = logged("files", &[&run]);
    let held: Vec<u64> = log
        .lines()
        .filter_map(|l| {
            l.strip_prefix("files: child ")?
                .split(" held ")
                .nth(1)?
                .parse()
                .ok()
        })
        .collect();
    // Ten children in each of its 4 games.
    if held.len() < 40 || held.iter().any(|n| !(200..=256).contains(n)) {
        found.push(format!("the children held {held:?} files"));
    }
    if !log.contains("files: limit 256, hard 256") {
        found.push(format!("the bot's limit was not 256 hard: {log}"));
    }
    if !forfeits_by(&run.results, "files").is_empty() {
        found.push(format!("run {}: files forfeited", run.tag));
    }
    let (alone, _) = alone_on_disk(&world, "files");
    let most = alone
        .lines()
        .filter_map(|l| {
            l.strip_prefix("files: child ")?
                .split(" held ")
                .nth(1)?
                .parse::<u64>()
                .ok()
        })
        .max()
        .unwrap_or(0);
    assert!(
        most > 1024,
        "alone, a child held only {most} files: {alone}"
    );
    assert_held(&found);
}

/// What `du` says each folder of `bots` holds is at most `bound` bytes, and
/// none holds data its bot wrote in a game over the bound (an empty file
/// made before a write was refused may stay).
fn within_bound(world: &World, bots: &[&str], bound: u64) -> Vec<String> {
    let mut found = Vec::new();
    for bot in bots {
        let folder = world.bots().join(bot);
        let du = Command::new("du")
            .args(["-s", "--block-size=1"])
            .arg(&folder)
            .output()
            .unwrap();
        let bytes: u64 = String::from_utf8_lossy(&du.stdout)
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(u64::MAX);
        if bytes > bound {
            found.push(format!(
                "{bot}'s folder holds {bytes} bytes, over the {bound}"
            ));
        }
        for entry in fs::read_dir(&folder).unwrap().map(|e| e.unwrap()) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let size = entry.metadata().map_or(0, |m| m.blocks() * 512);
            if (name.starts_with("fa-") && size > 0) || name.starts_with("ddd") {
                found.push(format!("{bot}'s folder keeps {name} ({size} bytes)"));
            }
        }
    }
    found
}

/// The bot holds memory in `memfd` pages, up to 3 GiB, `--memory 256M`:
/// counted (by its memory cgroup, also for an ordinary user's judge), it
/// loses every game for its memory and never holds 512 MiB.
fn memfd(who: As) {
    let (_world, mut found, run) = alone(who, "memfd", &[]);
    found.extend(lost_every_game(&[&run], "memfd", "memory", 4));
    let log = logged("memfd", &[&run]);
    if !log.contains("memfd: holding 64 MiB") || log.contains("memfd: holding 512 MiB") {
        found.push(format!("the memfd hog held what it should not: {log}"));
    }
    assert_held(&found);
}

/// The bot writes ANSI and OSC escapes (clear screen, window title, OSC 52
/// clipboard, a bell) on its standard error, shown by the judge, and under
/// `-d`: no raw ESC or BEL byte of a bot reaches the organiser's terminal;
/// they are shown escaped.
fn terminal(who: As) {
    let (world, mut found, run) = alone(who, "ansi", &[]);
    let debug = world.inarow(&debug_args(&world, "ansi"));
    let shown = [
        run.stdout.clone(),
        run.stderr.clone(),
        String::from_utf8_lossy(&debug.output.stdout).into_owned(),
        String::from_utf8_lossy(&debug.output.stderr).into_owned(),
    ]
    .concat();
    if shown.contains('\x1b') || shown.contains('\x07') {
        found.push("a raw ESC or BEL of the bot reached the judge's output".into());
    }
    if !shown.contains("\\x1b]52;c;cHduZWQ=\\x07") {
        found.push(format!(
            "the escapes are not shown escaped: {}",
            tail(&shown)
        ));
    }
    assert_held(&found);
}

/// The bot reads `/proc/1` (its launcher, PID 1 of its namespace) and its
/// own control groups: nothing of the host (no launcher settings, no path
/// of a control group, not the launcher's environment or program).
fn launcher_hidden(who: As) {
    let (world, mut found, _) = alone(who, "proc", &[]);
    let seen = fs::read_to_string(world.bots().join("proc/proc.txt")).unwrap_or_default();
    let judge_pid_free = !seen.contains("inarow-");
    if seen.contains('{') || seen.contains("/sys/fs/cgroup") || !judge_pid_free {
        found.push(format!("the launcher's settings show: {seen}"));
    }
    let cgroup = seen
        .lines()
        .find(|l| l.starts_with("/proc/self/cgroup"))
        .unwrap_or_default()
        .to_string();
    if !cgroup.contains(":/\\n") || cgroup.contains(":/inarow") || cgroup.contains(":/bot") {
        found.push(format!("its control groups show: {cgroup}"));
    }
    found.extend(world.denied("proc", &["read /proc/1/environ", "readlink /proc/1/exe"]));
    // What it could read, it read: the clean content above means something.
    let log = world.attack_log("proc");
    for read in ["read /proc/1/cmdline: done", "read /proc/self/cgroup: done"] {
        if !log.contains(read) {
            found.push(format!("the proc bot could not even read: {log}"));
        }
    }
    assert_held(&found);
}

/// Folders `honest` and `evil`, evil's meta naming itself `honest`, and a
/// grant `--allow-read honest=FILE`: both are left out (one line each) and
/// the others play; with `--rename evil=impostor` evil plays and its read
/// of the file is refused (the grant is the honest folder's).
fn stolen_grant(who: As) {
    let mut world = World::new(who, &["impostor"]);
    world.bot("plain", "honest", "python3\nbot.py", false);
    let evil = world.bots().join("evil");
    fs::rename(world.bots().join("impostor"), &evil).unwrap();
    let meta = fs::read_to_string(evil.join("meta")).unwrap();
    fs::write(
        evil.join("meta"),
        meta.replacen("impostor\n", "honest\n", 1),
    )
    .unwrap();
    world.hostile = vec!["evil".into()];
    let granted = world.root().join("granted.txt");
    fs::write(&granted, "the honest bot's grant").unwrap();
    if who.drops() {
        std::os::unix::fs::lchown(&granted, Some(NOBODY), Some(NOBODY)).unwrap();
        common::give_to_nobody(&evil);
        common::give_to_nobody(&world.bots().join("plain"));
    }
    let grant = format!("honest={}", granted.display());
    let twins = world.judge("twins", &["--allow-read", &grant]);
    let mut found = Vec::new();
    for folder in ["honest", "evil"] {
        found.extend(twins.left_out_findings(folder, "is also given by the bot in folder", 2));
    }
    let renamed = world.judge(
        "renamed",
        &["--allow-read", &grant, "--rename", "evil=impostor"],
    );
    if renamed.bots().len() != 4 {
        found.push(format!("renamed: {:?} played", renamed.bots()));
    }
    found.extend(world.denied("evil", &["read ../../granted.txt"]));
    let loot = fs::read_to_string(evil.join("loot.txt")).unwrap_or_default();
    if loot.contains("grant") {
        found.push(format!("evil read the honest bot's grant: {loot}"));
    }
    assert_held(&found);
}

/// A bot plants a setuid and setgid program in its own folder. In its view
/// the folder is mounted nosuid, but on disk the program is the folder
/// owner's (root's, under a root judge; the judge's user's otherwise), so
/// anyone who can reach the folder could run it as that owner: no file of a
/// bot folder may keep those bits.
fn setuid(who: As) {
    let (_, found) = setuid_attack(who, &[]);
    assert_held(&found);
}

fn setuid_attack(who: As, extra: &[&str]) -> (World, Vec<String>) {
    let (world, mut found, _) = alone(who, "setuid", extra);
    found.extend(world.denied("setuid", &["plant setuid-id", "plant setuid-new"]));
    for path in walk(&world.bots()) {
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        if meta.is_file() && meta.mode() & 0o6000 != 0 {
            found.push(format!(
                "{} has mode {:o} on disk, owned by uid {} gid {}: it runs as them for anyone",
                path.display(),
                meta.mode(),
                meta.uid(),
                meta.gid()
            ));
        }
    }
    (world, found)
}

/// The same attacks with the sandbox off (`--no-sandbox`, judged by
/// root): every check that the contained runs pass must fail here, or it
/// could not have caught anything. One test an attack family, so that the
/// test threads share them (issue 57).
mod the_checks_catch_a_judge_without_its_sandbox {
    use super::*;

    /// Every one of `expected` is among the checks' findings.
    fn caught(expected: &[String], found: &[String]) {
        let missing: Vec<&String> = expected
            .iter()
            .filter(|e| !found.iter().any(|f| f.contains(e.as_str())))
            .collect();
        assert!(
            missing.is_empty(),
            "uncontained, the checks missed {missing:?}; they found:\n  {}",
            found.join("\n  ")
        );
    }

    /// The file attacks: files in and out of the bots' folders rewritten,
    /// secrets read, metas changed, the bots run as the judge.
    #[test]
    fn files() {
        let (world, found) = file_attacks(As::Root, &["--no-sandbox"]);
        let expected = [
            "run first: the judge warned: inarow: warning: --no-sandbox".to_string(),
            "outside the bots' folders: ".to_string(),
            "honest forfeited".to_string(),
            format!("{}/bots/honest/bot.py: ", world.root().display()),
            format!("{}/outside/planted.txt: appeared", world.root().display()),
            format!("{}/bots/honest: mode", world.root().display()),
            format!("{}/secret.txt: mode", world.root().display()),
            format!("loot.txt holds the secret {SECRET:?}"),
            format!("shebang's loot.txt holds the secret {SSH_KEY:?}"),
            "shebang: read z/".to_string(),
            "chmod: utime ../honest: done".to_string(),
            "meta-read/meta changed".to_string(),
            "relink-meta/meta changed".to_string(),
            format!("ran as uid {} (the judge", As::Root.uid()),
        ];
        let mut expected = expected.to_vec();
        world.open_folders();
        if world.keeps_access_times() {
            expected.push("secret.txt was read".into());
            expected.push("home/.ssh/id_rsa was read".into());
        }
        caught(&expected, &found);
    }

    /// The same seed: the rewritten honest bot plays otherwise the second
    /// time.
    #[test]
    fn the_same_seed_gives_the_same_standings() {
        let (world, found) = same_seed_findings(As::Root, &["--no-sandbox"]);
        world.open_folders();
        caught(&["the same seed gave other standings".to_string()], &found);
    }

    /// The channels: the listener reached, the judge's descriptors read
    /// and written, the disk unbounded.
    #[test]
    fn channels() {
        let (world, found) = channel_attacks(As::Root, &["--no-sandbox"]);
        let expected = [
            "the listener heard from another bot: listen: accepted".to_string(),
            "connect: connect ../listen/sock (vs listen): sent".to_string(),
            "connect: connect @abstract (vs listen): sent".to_string(),
            "connect: read /tmp/inarow-drop (vs listen): done".to_string(),
            "fds's loot.txt holds the secret".to_string(),
            "the fds bot held more than 0, 1 and 2".to_string(),
            format!("{}/judge-fd9.log: size", world.root().display()),
            "disk forfeited [], not 10 times disk".to_string(),
        ];
        caught(&expected, &found);
    }

    /// The setuid program planted on disk keeps its mode.
    #[test]
    fn setuid() {
        let (_, found) = setuid_attack(As::Root, &["--no-sandbox"]);
        assert!(
            found
                .iter()
                .any(|f| f.contains("setuid-id has mode 106755 on disk")),
            "uncontained, the setuid program was not caught: {found:?}"
        );
    }

    /// The grandchild outlives the tournament (two games, against honest).
    #[test]
    fn escape() {
        let world = World::new(As::Root, &["escape"]).without("engine");
        let (_world, found, _) = alone_in(world, &["--no-sandbox"]);
        assert!(
            found.iter().any(|f| f.contains("outlived the tournament")),
            "uncontained, the grandchild was not caught: {found:?}"
        );
    }

    /// The organiser's keyring: read, overwritten, a message left for later
    /// games (two, against honest), and the 32-bit call made.
    #[test]
    fn keyring() {
        let world = World::new(As::Root, &["keyring"]).without("engine");
        let (_world, found, run) = alone_in(world, &["--no-sandbox"]);
        let log = logged("keyring", &[&run]);
        caught(
            &[
                format!("keyring's loot.txt holds the secret {KEY_SECRET:?}"),
                "the organiser's key changed".to_string(),
            ],
            &found,
        );
        assert!(
            log.contains("keyring: heard") && log.contains("int80 keyctl: done"),
            "uncontained, the keyring was not reached: {log}"
        );
    }

    /// Time: uncontained, the hog runs on its opponent's time (their two
    /// games, no other bot).
    #[test]
    fn time() {
        let world = World::new(As::Root, &["hog-setsid", "worker"])
            .without("engine")
            .without("honest");
        world.judge("first", &["--no-sandbox"]);
        let found = overlaps(&world);
        assert!(
            found
                .iter()
                .any(|f| f.contains("the hog ran on its opponent's time")),
            "uncontained, the overlap was not seen: {found:?}"
        );
    }

    /// The disk floods stay on disk.
    #[test]
    fn disk_floods() {
        let world = World::new(As::Root, &["deep", "fallocate"]);
        world.judge("first", &["--no-sandbox", "--disk", "20M"]);
        let found = within_bound(&world, &["deep", "fallocate"], 20 << 20);
        for bot in ["deep's folder holds", "fallocate's folder holds"] {
            assert!(
                found.iter().any(|f| f.starts_with(bot)),
                "uncontained, {bot} was not caught: {found:?}"
            );
        }
    }

    /// A hoard in hidden folders grows a game at a time.
    #[test]
    fn hidden_folders() {
        let world = World::new(As::Root, &["hide"]);
        world.judge("first", &["--no-sandbox", "--disk", "30M"]);
        let found = within_bound(&world, &["hide"], 30 << 20);
        assert!(
            found.iter().any(|f| f.starts_with("hide's folder holds")),
            "uncontained, the hidden hoard was not caught: {found:?}"
        );
    }

    /// memfd pages are held (two games, against honest). Writing 3 GiB
    /// took over the usual 20 s a move on a machine busy with other tests,
    /// so this control, which waits for the hoard, gives its bot 120 s.
    #[test]
    fn memfd() {
        let world = World::new(As::Root, &["memfd"]).without("engine");
        let (_world, _, run) = alone_in(world, &["--no-sandbox", "--timeout", "120"]);
        let log = logged("memfd", &[&run]);
        assert!(
            log.contains("memfd: holding 3072 MiB"),
            "uncontained, the memfd hog was held back: {log}"
        );
    }
}

/// The README's tournament: the repository's own bots, copied into a
/// folder of root's, judged by root from the folder above them: no
/// warning, no error of a bot, every game played out, and the Node bot's
/// memory kept (by root, on disk: its folder was never given away).
#[test]
fn the_readmes_tournament_as_root_prints_no_warning() {
    let dir = common::workspace();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots");
    let bots = dir.path().join("bots");
    for path in walk(&repo) {
        let relative = path.strip_prefix(&repo).unwrap();
        let name = relative.to_string_lossy();
        if name.contains("memory.json") || name.ends_with(".tmp") || name.contains("__pycache__") {
            continue;
        }
        let target = bots.join(relative);
        if path.is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
    // The engine on a node budget, not the clock: same command, faster.
    let meta_path = bots.join("inarow/meta");
    let meta = fs::read_to_string(&meta_path).unwrap();
    let mut lines: Vec<String> = meta.lines().map(String::from).collect();
    assert_eq!(lines[1], "inarow", "the engine is the judge's own program");
    let args: Vec<&str> = lines[2].split_whitespace().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--move-time" {
            i += 2;
        } else {
            kept.push(args[i]);
            i += 1;
        }
    }
    kept.extend(["--move-nodes", "300"]);
    lines[2] = kept.join(" ");
    fs::write(&meta_path, lines.join("\n") + "\n").unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["judge", "--seed", "5", "-j", "1"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for bad in [
        "warning",
        "eacces",
        "permission denied",
        "traceback",
        "error",
        "    at ",
    ] {
        assert!(
            !stderr.to_lowercase().contains(bad),
            "{bad:?} in the judge's stderr:\n{stderr}"
        );
    }
    let results: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("results.json")).unwrap())
            .unwrap();
    let games = results["games"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    for game in games {
        assert!(game["forfeit"].is_null(), "{game}");
        assert!(
            ["five", "full board"].contains(&game["reason"].as_str().unwrap()),
            "{game}"
        );
    }
    let memory_path = bots.join("random-js/memory.json");
    let memory: Value = serde_json::from_str(&fs::read_to_string(&memory_path).unwrap()).unwrap();
    for opponent in ["random-python", "inarow"] {
        assert_eq!(memory[opponent]["played"], 2, "{memory}");
    }
    if judge_is_root() {
        let owner = fs::metadata(&memory_path).unwrap().uid();
        assert_eq!(owner, 0, "the bot's files stay root's on disk");
    }
}
