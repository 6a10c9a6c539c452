//! `inarow selfplay` end to end: settings against settings, against another
//! build through the Gomocup protocol, against broken brains, and against a
//! hostile brain that the sandbox contains.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common;

use common::{inarow, stderr, stdout};

/// A brain `file` holding `script` in a folder `name` of its own under
/// `dir` (from [`common::workspace`]), given to the user brains run as.
fn brain_in(dir: &Path, name: &str, file: &str, script: &str) -> PathBuf {
    let folder = dir.join(name);
    fs::create_dir(&folder).unwrap();
    let brain = folder.join(file);
    fs::write(&brain, script).unwrap();
    fs::set_permissions(&brain, fs::Permissions::from_mode(0o755)).unwrap();
    brain
}

/// Runs `inarow selfplay` with `args`, which must succeed; its output.
fn selfplay(args: &[&str]) -> String {
    let args: Vec<&str> = std::iter::once("selfplay")
        .chain(args.iter().copied())
        .collect();
    let out = inarow(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// One pair of games (40 ms a move) of the engine against `brain`.
fn one_pair_against(brain: &str) -> String {
    selfplay(&["--pairs", "1", "--ms", "40", "--b-brain", brain])
}

/// The `+W =D -L` counts of the summary line.
fn summary(out: &str) -> (u32, u32, u32) {
    let line = out
        .lines()
        .find(|l| l.starts_with("A vs B:"))
        .unwrap_or_else(|| panic!("no summary in {out}"));
    let mut counts = line
        .split_whitespace()
        .skip(3)
        .take(3)
        .map(|t| t[1..].parse::<u32>().unwrap());
    (
        counts.next().unwrap(),
        counts.next().unwrap(),
        counts.next().unwrap(),
    )
}

#[test]
fn settings_against_settings_reproduce_on_a_node_budget() {
    let args = [
        "selfplay",
        "--pairs",
        "2",
        "--nodes",
        "400",
        "--a",
        "lmr_base=40",
    ];
    let first = inarow(&args, "");
    assert!(first.status.success(), "{}", stderr(&first));
    let (w, d, l) = summary(&stdout(&first));
    assert_eq!(w + d + l, 4, "two pairs, colours swapped");
    // The pairs line counts the same games by pair: two pairs whose points
    // (0, ½, 1, 1½, 2 each) add up to the tally's.
    let pairs_line = stdout(&first)
        .lines()
        .find(|l| l.starts_with("A by pair (points 0/0.5/1/1.5/2): "))
        .expect("a pairs line")
        .to_string();
    let counts: Vec<u32> = pairs_line
        .split_whitespace()
        .skip(5)
        .take(5)
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 2, "{pairs_line}");
    let halves: u32 = counts.iter().enumerate().map(|(k, c)| k as u32 * c).sum();
    assert_eq!(halves, 2 * w + d, "{pairs_line}");
    assert!(
        pairs_line.contains(" won ") && pairs_line.contains(" Elo "),
        "{pairs_line}"
    );
    assert!(stdout(&first).contains("illegal moves: 0"));
    // Every game and figure repeats; only the wall-clock longest think may not.
    let games = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.contains("longest think"))
            .map(String::from)
            .collect()
    };
    assert_eq!(games(&stdout(&first)), games(&stdout(&inarow(&args, ""))));
}

#[test]
fn the_games_file_replays_to_the_reported_results() {
    use inarow_core::{Game, Mnk, Outcome, Player, Point};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.txt");
    let out = selfplay(&[
        "--pairs",
        "2",
        "--nodes",
        "300",
        "--games-file",
        file.to_str().unwrap(),
    ]);
    let text = fs::read_to_string(&file).unwrap();
    let mut results = String::new();
    for line in text.lines() {
        let (head, moves) = line.split_once(" | ").expect("opening | moves");
        let mut fields = head.split(' ');
        let (_pair, colour, result) = (
            fields.next(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let mut game = Mnk::gomoku();
        for xy in fields.chain(moves.split(' ')) {
            let (x, y) = xy.split_once(',').unwrap();
            let p = Point::at(x.parse().unwrap(), y.parse().unwrap(), 15);
            game.play(p).expect("every stone legal");
        }
        let a = if colour == "black" {
            Player::X
        } else {
            Player::O
        };
        let replayed = match game.outcome() {
            Some(Outcome::Win(w)) if w == a => "1",
            Some(Outcome::Win(_)) => "0",
            _ => "=",
        };
        assert_eq!(replayed, result, "{line}");
        results.push_str(result);
    }
    assert_eq!(text.lines().count(), 4);
    // The same results as the pair lines on the screen say in words.
    let said: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("pair "))
        .map(|l| l.split_once(": ").unwrap().1.split(';').next().unwrap())
        .collect();
    let expected: Vec<&str> = results
        .as_bytes()
        .chunks(2)
        .map(|pair| pair_in_words(pair[0], pair[1]))
        .collect();
    assert_eq!(said, expected, "{out}");
    assert!(out.contains("\npair 1: "), "{out}");
    assert!(out.contains("; so far A "), "{out}");
}

/// A pair in words from A's results (`1`, `=`, `0`) as black, then as
/// white: who won both, a split and which colour won it, or who won the
/// game that was not drawn and with which colour.
fn pair_in_words(black: u8, white: u8) -> &'static str {
    match (black, white) {
        (b'1', b'1') => "A won both",
        (b'0', b'0') => "B won both",
        (b'=', b'=') => "both drawn",
        (b'1', b'0') => "split (black won both)",
        (b'0', b'1') => "split (white won both)",
        (b'1', b'=') => "A won one (as black), one drawn",
        (b'=', b'1') => "A won one (as white), one drawn",
        // B was white when A was black.
        (b'0', b'=') => "B won one (as white), one drawn",
        (b'=', b'0') => "B won one (as black), one drawn",
        other => panic!("results {other:?}"),
    }
}

/// On a terminal a bar counts the pairs as they end (the time it has run
/// ticking on), the pair lines printed above it; the bar is drawn on
/// standard error, which `script` makes a terminal.
#[test]
fn a_progress_bar_counts_the_pairs_on_a_terminal_only() {
    let command = format!(
        "{} selfplay --pairs 2 --nodes 300",
        env!("CARGO_BIN_EXE_inarow")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .output()
        .expect("script (util-linux) runs a command on a terminal");
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    // The bar's message: A's tally so far, after the time left.
    for said in ["0/2 pairs, ", "2/2 pairs, ", ", eta ", "s  A ", "pair 2: "] {
        assert!(shown.contains(said), "{said}: {shown}");
    }
    // Not a terminal: no bar, the pair lines alone.
    let plain = selfplay(&["--pairs", "2", "--nodes", "300"]);
    assert!(!plain.contains(" pairs, "), "{plain}");
    let out = inarow(&["selfplay", "--pairs", "2", "--nodes", "300"], "");
    assert!(!stderr(&out).contains("pairs"), "{}", stderr(&out));
}

#[test]
fn another_build_plays_through_the_brain_protocol() {
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let out = one_pair_against(brain);
    let (w, d, l) = summary(&out);
    assert_eq!(w + d + l, 2);
    assert!(out.contains("illegal moves: 0"), "{}", out);
    // Every win by a five was proven before it came, at the latest by the
    // five itself: the engine's score, and the brain's `score +M..` message.
    let proven = proven_wins(&out);
    assert_eq!(proven, [(w, w), (l, l)], "{out}");
}

/// Each side's `(proven, wins)` from the summary's proven-wins line.
fn proven_wins(out: &str) -> [(u32, u32); 2] {
    let line = out
        .lines()
        .find(|l| l.starts_with("wins proven early:"))
        .unwrap_or_else(|| panic!("no proven wins in {out}"));
    let side = |name: &str| {
        let at = line.find(&format!("{name} ")).expect("a side") + name.len() + 1;
        let words: Vec<&str> = line[at..].split_whitespace().collect();
        (words[0].parse().unwrap(), words[2].parse().unwrap())
    };
    [side("A"), side("B")]
}

#[test]
fn a_brain_that_answers_nonsense_loses_every_game() {
    let dir = common::workspace();
    let brain = brain_in(
        dir.path(),
        "nonsense",
        "nonsense",
        "#!/bin/sh\nwhile read line; do case \"$line\" in START*|RESTART*) echo OK;; DONE*) echo nonsense;; END*) exit 0;; esac; done\n",
    );
    let out = one_pair_against(brain.to_str().unwrap());
    assert_eq!(summary(&out), (2, 0, 0));
    assert!(out.contains("illegal moves: 2"));
}

/// A brain that keeps its own board as Gomocup brains do (`BOARD` adds to
/// it, `TURN` adds the opponent's stone, its own answer is kept), answers
/// `ERROR` for a stone on a taken point, plays the first empty point, and
/// logs every command.
const KEEPING_BRAIN: &str = r#"#!/usr/bin/env python3
import os, sys
log = open(sys.argv[1], "a")
size, taken, in_board = 15, set(), False
def say(text):
    print(text, flush=True)
def put(x, y):
    if (x, y) in taken:
        return False
    taken.add((x, y))
    return True
def move():
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                return say(f"{x},{y}")
bad = False
for line in sys.stdin:
    line = line.strip()
    log.write(line + "\n")
    log.flush()
    word = line.split(" ")[0]
    if in_board:
        if line == "DONE":
            in_board = False
            say("ERROR a stone on a taken point") if bad else move()
        else:
            x, y, _ = map(int, line.split(","))
            bad = bad or not put(x, y)
    elif word in ("START", "RESTART"):
        taken.clear()
        say("OK")
    elif word == "BOARD":
        in_board, bad = True, False
    elif word == "TURN":
        x, y = map(int, line.split(" ")[1].split(","))
        say("ERROR a stone on a taken point") if not put(x, y) else move()
    elif word == "BEGIN":
        move()
    elif word == "END":
        break
"#;

#[test]
fn brains_are_told_the_game_as_managers_do() {
    let dir = common::workspace();
    // The brain may write only in its own folder (its HOME, `INFO
    // folder`): its installation is read-only.
    let brain = brain_in(
        dir.path(),
        "keeper",
        "keeper.py",
        &KEEPING_BRAIN.replace("sys.argv[1]", "os.path.join(os.environ['HOME'], 'log.txt')"),
    );
    let kept = dir.path().join("kept");
    fs::create_dir(&kept).unwrap();
    let log = kept.join("log.txt");
    let openings = dir.path().join("openings.txt");
    fs::write(&openings, "7,7 8,8 7,9 9,7 6,6\n").unwrap();
    let out = selfplay(&[
        "--pairs",
        "1",
        "--ms",
        "40",
        "--openings",
        openings.to_str().unwrap(),
        "--b-brain",
        brain.to_str().unwrap(),
        "--b-folder",
        kept.to_str().unwrap(),
    ]);
    // Legal throughout: the brain never saw a stone twice.
    assert!(out.contains("illegal moves: 0"), "{}", out);
    assert_eq!(
        summary(&out),
        (2, 0, 0),
        "the engine beats first-empty-point play"
    );
    let log = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    // One BOARD a game, right after the restart, with the opening in the
    // order played and the brain's colour marked; TURN after that.
    let boards: Vec<usize> = (0..lines.len()).filter(|&k| lines[k] == "BOARD").collect();
    assert_eq!(boards.len(), 2, "{log}");
    for &k in &boards {
        assert!(
            lines[k - 1] == "RESTART" || lines[k - 1].starts_with("INFO"),
            "{log}"
        );
        let stones: Vec<&str> = lines[k + 1..]
            .iter()
            .take_while(|l| **l != "DONE")
            .copied()
            .collect();
        let points: Vec<&str> = stones
            .iter()
            .map(|s| s.rsplit_once(',').unwrap().0)
            .collect();
        assert_eq!(&points[..5], ["7,7", "8,8", "7,9", "9,7", "6,6"], "{log}");
    }
    assert!(
        lines.iter().filter(|l| l.starts_with("TURN ")).count() >= 2,
        "{log}"
    );
    // Before every move the time left in the game (40 s at 40 ms a move),
    // whole again at each game's start.
    for k in 0..lines.len() {
        let asks = lines[k] == "BOARD" || lines[k].starts_with("TURN ") || lines[k] == "BEGIN";
        if asks {
            let told = lines[k - 1]
                .strip_prefix("INFO time_left ")
                .unwrap_or_else(|| panic!("{log}"));
            let ms: u64 = told.parse().unwrap();
            assert!(ms <= 40_000 && ms > 30_000, "{log}");
            if lines[k] == "BOARD" {
                assert_eq!(ms, 40_000, "{log}");
            }
        }
    }
}

/// A brain runs in its installation, read-only, and writes only to a
/// folder of its own: its build folder (here with 40 MiB of weights, over
/// `--disk 16M`) is never written to nor measured.
#[test]
fn a_brain_writes_only_to_its_own_folder_never_its_installation() {
    let dir = common::workspace();
    let script = KEEPING_BRAIN
        .replace("sys.argv[1]", "os.path.join(os.environ['HOME'], 'log.txt')")
        .replace(
            "bad = False\n",
            "bad = False\ntry:\n    open('written-in-installation', 'w').write('x')\n    log.write('installation: writable\\n')\nexcept OSError as e:\n    log.write('installation: %s\\n' % e.strerror)\n",
        );
    let brain = brain_in(dir.path(), "installed", "brain.py", &script);
    let installation = brain.parent().unwrap();
    fs::write(installation.join("weights.bin"), vec![1u8; 40 << 20]).unwrap();
    let kept = dir.path().join("kept");
    fs::create_dir(&kept).unwrap();
    let out = selfplay(&[
        "--pairs",
        "1",
        "--ms",
        "40",
        "--disk",
        "16M",
        "--b-brain",
        brain.to_str().unwrap(),
        "--b-folder",
        kept.to_str().unwrap(),
    ]);
    assert!(out.contains("illegal moves: 0"), "{out}");
    let log = fs::read_to_string(kept.join("log.txt")).unwrap();
    assert!(log.contains("installation: Read-only file system"), "{log}");
    assert!(!installation.join("written-in-installation").exists());
    assert_eq!(
        fs::read_dir(&kept).unwrap().count(),
        1,
        "its log, nothing else"
    );
}

#[test]
fn a_brain_chatting_at_length_plays_on() {
    // Gomocup brains may send long MESSAGE lines before an answer: the
    // manager keeps the first bytes of such a line and skips it, as
    // managers do; only an answer has to be short.
    let dir = common::workspace();
    let chatty = KEEPING_BRAIN
        .replace("sys.argv[1]", "os.path.join(os.environ['HOME'], 'log.txt')")
        .replace(
            "def move():\n",
            "def move():\n    say(\"MESSAGE \" + \"pv \" * 20000)\n",
        );
    let brain = brain_in(dir.path(), "chatty", "chatty.py", &chatty);
    let out = one_pair_against(brain.to_str().unwrap());
    assert!(out.contains("illegal moves: 0"), "{out}");
    assert_eq!(summary(&out).0 + summary(&out).1 + summary(&out).2, 2);
}

#[test]
fn bad_brains_and_flags_are_one_line_errors() {
    for (args, want) in [
        (
            &["selfplay", "--b-brain", "/no/such/brain"][..],
            "cannot find brain /no/such/brain",
        ),
        (
            &["selfplay", "--nodes", "100", "--a-brain", "/bin/true"][..],
            "--nodes needs two engines",
        ),
        (
            &["selfplay", "--pairs", "0"][..],
            "--pairs must be a whole number of at least 1, got 0",
        ),
        (
            &["selfplay", "--pairs=-5"][..],
            "--pairs must be a whole number of at least 1, got -5",
        ),
    ] {
        let out = inarow(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    // A program that is no brain at all fails its handshake.
    let out = inarow(&["selfplay", "--pairs", "1", "--b-brain", "/bin/true"], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("brain /bin/true"), "{}", stderr(&out));
}

const VICTIM: &str = "the victim's text, outside the brain's folder";
const SECRET: &str = "the secret outside the brain's folder";

/// A brain that, on `START`, tries to overwrite `@VICTIM@` and to copy
/// `@SECRET@` into its folder, and (when `@ESCAPE@`) to leave a grandchild
/// in a session of its own; it records each attempt in `attempts.log` in
/// its folder, then plays the first empty point, legally, as Gomocup brains
/// speak.
const HOSTILE_BRAIN: &str = r#"#!/usr/bin/env python3
import os, subprocess, sys
# Its own folder (HOME, `INFO folder`): its installation is read-only.
here = os.environ["HOME"]

def record(text):
    with open(os.path.join(here, "attempts.log"), "a") as f:
        f.write(text + "\n")

def attempt(what, action):
    try:
        action()
        record(what + ": done")
    except OSError as e:
        record("%s: denied (%s)" % (what, e.strerror))

def overwrite():
    with open(@VICTIM@, "w") as f:
        f.write("overwritten by the brain")

def steal():
    with open(@SECRET@) as f:
        text = f.read()
    with open(os.path.join(here, "loot.txt"), "w") as f:
        f.write(text)

def escape():
    # Leaves this process's session and group; writes its pid to show it ran.
    subprocess.Popen(
        ["sh", "-c", "echo $$ > grandchild.pid; exec sleep 600"],
        cwd=here, start_new_session=True, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def attack():
    attempt("overwrite the victim", overwrite)
    attempt("steal the secret", steal)
    if @ESCAPE@:
        attempt("start a grandchild", escape)

size, taken, in_board, attacked = 15, set(), False, False
def move():
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                print("%d,%d" % (x, y), flush=True)
                return
for line in sys.stdin:
    line = line.strip()
    word = line.split(" ")[0]
    if in_board:
        if line == "DONE":
            in_board = False
            move()
        else:
            x, y, _ = map(int, line.split(","))
            taken.add((x, y))
    elif word in ("START", "RESTART"):
        if not attacked:
            attacked = True
            attack()
        taken.clear()
        print("OK", flush=True)
    elif word == "BOARD":
        in_board = True
        taken.clear()
    elif word == "BEGIN":
        move()
    elif word == "TURN":
        x, y = map(int, line.split(" ")[1].split(","))
        taken.add((x, y))
        move()
    elif word == "END":
        break
"#;

/// A test folder with a victim and a secret that the brains' user could
/// write and read by their permissions (so only the sandbox stops it), and
/// the hostile brain in a folder of its own.
struct Hostile {
    dir: tempfile::TempDir,
    brain: PathBuf,
    /// The folder it keeps its files in (`--b-folder`).
    kept: PathBuf,
}

impl Hostile {
    fn new(escape: bool) -> Hostile {
        let dir = common::workspace();
        let victim = dir.path().join("victim.txt");
        fs::write(&victim, VICTIM).unwrap();
        fs::set_permissions(&victim, fs::Permissions::from_mode(0o666)).unwrap();
        let secret = dir.path().join("secret.txt");
        fs::write(&secret, SECRET).unwrap();
        fs::set_permissions(&secret, fs::Permissions::from_mode(0o644)).unwrap();
        let script = HOSTILE_BRAIN
            .replace("@VICTIM@", &format!("{:?}", victim.to_str().unwrap()))
            .replace("@SECRET@", &format!("{:?}", secret.to_str().unwrap()))
            .replace("@ESCAPE@", if escape { "True" } else { "False" });
        let brain = brain_in(dir.path(), "hostile", "brain.py", &script);
        let kept = dir.path().join("kept");
        fs::create_dir(&kept).unwrap();
        Hostile { dir, brain, kept }
    }

    /// Where the brain keeps its files.
    fn folder(&self) -> &Path {
        &self.kept
    }

    /// Processes of the match left, in its installation or its folder.
    fn left(&self) -> Vec<i32> {
        let mut left = left_in(self.brain.parent().unwrap());
        left.extend(left_in(&self.kept));
        left
    }

    fn attempts(&self) -> String {
        fs::read_to_string(self.folder().join("attempts.log")).unwrap_or_default()
    }

    fn victim(&self) -> String {
        fs::read_to_string(self.dir.path().join("victim.txt")).unwrap()
    }

    /// Plays one pair against the brain, which must go through; stdout and stderr.
    fn play(&self, extra: &[&str]) -> (String, String) {
        let mut args = vec!["selfplay", "--pairs", "1", "--ms", "50", "--b-brain"];
        args.push(self.brain.to_str().unwrap());
        args.extend(["--b-folder", self.kept.to_str().unwrap()]);
        args.extend(extra);
        let out = inarow(&args, "");
        assert!(out.status.success(), "{}", stderr(&out));
        let played = stdout(&out);
        assert!(played.contains("illegal moves: 0"), "{played}");
        let (w, d, l) = summary(&played);
        assert_eq!(w + d + l, 2, "{played}");
        (played, stderr(&out))
    }
}

/// Processes running in `folder`, once the kernel has had ~2 s to finish
/// killing them.
fn left_in(folder: &Path) -> Vec<i32> {
    let start = Instant::now();
    loop {
        let left = common::processes_in(folder);
        if left.is_empty() || start.elapsed() > Duration::from_secs(30) {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_hostile_brain_touches_nothing_outside_its_folder_and_leaves_nothing_running() {
    let hostile = Hostile::new(true);
    hostile.play(&[]);
    let attempts = hostile.attempts();
    assert_eq!(hostile.victim(), VICTIM, "{attempts}");
    assert!(
        attempts.contains("overwrite the victim: denied"),
        "{attempts}"
    );
    assert!(attempts.contains("steal the secret: denied"), "{attempts}");
    assert!(
        !hostile.folder().join("loot.txt").exists(),
        "the secret was copied: {attempts}"
    );
    // The grandchild ran (so its end below means something) ...
    assert!(attempts.contains("start a grandchild: done"), "{attempts}");
    assert!(
        hostile.folder().join("grandchild.pid").exists(),
        "{attempts}"
    );
    // ... and died with the brain although it left the brain's session.
    let left = hostile.left();
    assert!(left.is_empty(), "processes {left:?} outlived the match");
}

#[test]
fn no_sandbox_warns_and_runs_the_brain_uncontained() {
    // No grandchild: nothing would kill it.
    let hostile = Hostile::new(false);
    let (_, err) = hostile.play(&["--no-sandbox"]);
    assert!(
        err.contains("warning: --no-sandbox: contestants run uncontained"),
        "{err}"
    );
    // What the sandbox denies goes through without it: the contained test's
    // denials are the sandbox's doing.
    let attempts = hostile.attempts();
    assert!(
        attempts.contains("overwrite the victim: done"),
        "{attempts}"
    );
    assert_eq!(hostile.victim(), "overwritten by the brain");
    assert_eq!(
        fs::read_to_string(hostile.folder().join("loot.txt")).unwrap(),
        SECRET
    );
    assert!(hostile.left().is_empty());
}

#[test]
fn engines_of_this_build_need_no_sandbox() {
    // Without a brain, the sandbox options are not even looked at: no
    // warning, no probe, and a grant that does not exist does not matter.
    let args = [
        "selfplay",
        "--pairs",
        "1",
        "--nodes",
        "100",
        "--no-sandbox",
        "--allow-read",
        "/no/such/path",
    ];
    let out = inarow(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_brain_that_dies_says_how_with_its_last_words() {
    let dir = common::workspace();
    let brain = brain_in(
        dir.path(),
        "dying",
        "brain.sh",
        "#!/bin/sh\nread line\necho 'fatal: no weights file' >&2\nexit 3\n",
    );
    let out = inarow(
        &[
            "selfplay",
            "--pairs",
            "1",
            "--b-brain",
            brain.to_str().unwrap(),
        ],
        "",
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    let last = err.trim().lines().last().unwrap_or_default();
    assert!(
        last.contains("closed its output (exit status 3); its last words: fatal: no weights file"),
        "{err}"
    );
    assert!(left_in(brain.parent().unwrap()).is_empty());
}

/// Whether `bytes` hold anything a terminal would obey: ESC, BEL or a
/// bidirectional override.
fn holds_raw_controls(bytes: &[u8]) -> bool {
    bytes.contains(&0x1b)
        || bytes.contains(&0x07)
        || String::from_utf8_lossy(bytes).contains('\u{202e}')
}

/// What a brain writes is outside text: its last words on standard error
/// and a line it answers with reach the organiser's terminal escaped,
/// whatever terminal escapes and bidirectional overrides they hold.
#[test]
fn what_a_brain_writes_reaches_the_terminal_escaped() {
    let dir = common::workspace();
    // It writes the title, clear-screen and U+202E both to its folder
    // (HOME) and to its standard error, then dies.
    let dying = brain_in(
        dir.path(),
        "dying",
        "brain.sh",
        "#!/bin/sh\nread line\njunk=$(printf '\\033]0;title\\007\\033[2J\\342\\200\\256evil')\nprintf '%s\\n' \"$junk\" > \"$HOME/said.txt\"\nprintf 'fatal %s\\n' \"$junk\" >&2\nexit 3\n",
    );
    let kept = dir.path().join("kept");
    fs::create_dir(&kept).unwrap();
    let out = inarow(
        &[
            "selfplay",
            "--pairs",
            "1",
            "--b-brain",
            dying.to_str().unwrap(),
            "--b-folder",
            kept.to_str().unwrap(),
        ],
        "",
    );
    assert!(!out.status.success());
    // The positive control: the brain did write the raw bytes.
    let said = fs::read(kept.join("said.txt")).unwrap();
    assert_eq!(said, "\x1b]0;title\x07\x1b[2J\u{202e}evil\n".as_bytes());
    assert!(!holds_raw_controls(&out.stdout), "{:?}", stdout(&out));
    assert!(!holds_raw_controls(&out.stderr), "{:?}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.trim_end().ends_with(
            r"closed its output (exit status 3); its last words: fatal \x1b]0;title\x07\x1b[2J\u{202e}evil"
        ),
        "{err}"
    );

    // One that dies asked for its first move: its game is lost, and why
    // is said on the terminal and kept in the share's part file, escaped.
    let mid_game = brain_in(
        dir.path(),
        "mid-game",
        "brain.sh",
        "#!/bin/sh\njunk=$(printf '\\033]0;title\\007\\033[2J\\342\\200\\256evil')\nwhile read line; do case \"$line\" in START*|RESTART*) echo OK;; BEGIN*|TURN*|DONE*) printf 'fatal %s\\n' \"$junk\" >&2; exit 3;; esac; done\n",
    );
    let part = dir.path().join("part.json");
    let out = inarow(
        &[
            "selfplay",
            "--pairs",
            "1",
            "--ms",
            "40",
            "--shard",
            "0/1",
            "--part",
            part.to_str().unwrap(),
            "--b-brain",
            mid_game.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!holds_raw_controls(&out.stderr), "{:?}", stderr(&out));
    assert!(
        stderr(&out).contains(
            r"its last words: fatal \x1b]0;title\x07\x1b[2J\u{202e}evil; it loses the game"
        ),
        "{}",
        stderr(&out)
    );
    let kept: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&part).unwrap()).unwrap();
    let failure = kept["pairs"][0]["games"][0]["failure"].as_str().unwrap();
    assert!(
        failure.ends_with(r"its last words: fatal \x1b]0;title\x07\x1b[2J\u{202e}evil"),
        "{failure}"
    );

    // A brain that answers START with escapes is quoted escaped.
    let garbled = brain_in(
        dir.path(),
        "garbled",
        "brain.sh",
        "#!/bin/sh\nread line\nprintf 'OK\\033[2J\\342\\200\\256\\n'\nread line\n",
    );
    let out = inarow(
        &[
            "selfplay",
            "--pairs",
            "1",
            "--b-brain",
            garbled.to_str().unwrap(),
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(!holds_raw_controls(&out.stderr), "{:?}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(r#"answered START with "OK\x1b[2J\u{202e}", not OK"#),
        "{err}"
    );
}

/// A brain that answers `START` and then, asked for a move, takes memory
/// 16 MiB at a time (touching it) up to 1 GiB.
const HUNGRY_BRAIN: &str = r#"#!/usr/bin/env python3
import sys
kept = []
for line in sys.stdin:
    word = line.strip().split(" ")[0]
    if word in ("START", "RESTART"):
        print("OK", flush=True)
    elif word in ("BEGIN", "TURN", "DONE"):
        for _ in range(64):
            block = bytearray(16 << 20)
            for j in range(0, len(block), 4096):
                block[j] = 1
            kept.append(block)
        print("7,7", flush=True)
    elif word == "END":
        break
"#;

/// Whether the sandbox caps memory over all of a bot's processes here (a
/// memory cgroup), as `inarow judge --check-sandbox` says.
fn memory_cgroup() -> bool {
    let empty = common::workspace();
    let out = inarow(
        &[
            "judge",
            "--check-sandbox",
            "--bots",
            empty.path().to_str().unwrap(),
        ],
        "",
    );
    stdout(&out)
        .lines()
        .any(|l| l.trim_start().starts_with("memory:") && l.ends_with("in force"))
}

#[test]
fn a_brain_over_its_memory_loses_and_is_told_why() {
    let dir = common::workspace();
    let brain = brain_in(dir.path(), "hungry", "brain.py", HUNGRY_BRAIN);
    let args = [
        "selfplay",
        "--pairs",
        "1",
        "--ms",
        "50",
        "--memory",
        "128M",
        "--b-brain",
        brain.to_str().unwrap(),
    ];
    let run = inarow(&args, "");
    assert!(run.status.success(), "{}", stderr(&run));
    let (out, err) = (stdout(&run), stderr(&run));
    assert_eq!(summary(&out), (2, 0, 0), "{out}");
    assert!(out.contains("illegal moves: 2"), "{out}");
    // The memory cgroup counts it (the sandbox refuses to run without one).
    assert!(memory_cgroup());
    let over = format!(
        "inarow: brain {} went over its memory limit: over its 128 MiB of memory; it loses the game",
        brain.display()
    );
    // Once: the dead brain loses its second game for the same reason.
    assert_eq!(err.matches(&over).count(), 1, "{err}");
    assert!(left_in(brain.parent().unwrap()).is_empty());
}

#[test]
fn open_openings_are_written_as_an_openings_file_a_match_reads() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("open.txt");
    // Two open openings of seed 7 into `out`, on `jobs` threads.
    let find = |out: &Path, jobs: &str| {
        selfplay(&[
            "openings",
            "--out",
            out.to_str().unwrap(),
            "--count",
            "2",
            "--tries",
            "40",
            "--nodes",
            "150,250,400,600",
            "--seed",
            "7",
            "-j",
            jobs,
        ])
    };
    let made = find(&file, "2");
    assert!(made.starts_with("2 open openings of 2 wanted"), "{made}");
    let text = std::fs::read_to_string(&file).unwrap();
    let openings: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(openings.len(), 2, "{text}");
    for line in &openings {
        let (points, black) = line.split_once(" # black ").expect("black's score");
        let black: f64 = black.parse().unwrap();
        assert!((0.375..=0.625).contains(&black), "{line}");
        assert!((4..=6).contains(&points.split(' ').count()), "{line}");
    }
    // The same seed writes the same file, with one job or two.
    let again = dir.path().join("again.txt");
    find(&again, "1");
    assert_eq!(std::fs::read(&again).unwrap(), text.as_bytes());
    let out = selfplay(&[
        "--openings",
        file.to_str().unwrap(),
        "--pairs",
        "2",
        "--nodes",
        "200",
    ]);
    let (w, d, l) = summary(&out);
    assert_eq!(w + d + l, 4);
    // Bad requests are one line each, and nothing is written.
    for (args, says) in [
        (
            &["--stones", "7-3"][..],
            "--stones must be N or LEAST-MOST stones with 1 <= LEAST <= MOST <= 9 (an opening is drawn within three points of the centre), got 7-3",
        ),
        (
            &["--nodes", "0"][..],
            "--nodes must be a whole number of at least 1, got 0",
        ),
        (
            &["--nodes", "2000,-5"][..],
            "--nodes must be a whole number of at least 1, got -5",
        ),
        (&["--stones", "4-12"][..], "LEAST <= MOST <= 9"),
        (&["--stones", "-3"][..], "LEAST <= MOST <= 9"),
        (
            &["--within", "0.7"][..],
            "--within must be a number from 0 to 0.5, got 0.7",
        ),
        (
            &["--within", "-0.1"][..],
            "--within must be a number from 0 to 0.5, got -0.1",
        ),
        (
            &["--count", "0"][..],
            "--count must be a whole number of at least 1, got 0",
        ),
        (
            &["--tries", "-1"][..],
            "--tries must be a whole number of at least 1, got -1",
        ),
        (
            &["-j", "0"][..],
            "--jobs must be a whole number of at least 1, got 0",
        ),
        (
            &["--size", "5"][..],
            "--size must be at least 7 for generated openings",
        ),
        (
            &["--size", "21"][..],
            "--size must be a whole number from 5 to 20, got 21",
        ),
    ] {
        let bad = dir.path().join("bad.txt");
        let mut all = vec!["selfplay", "openings", "--out", bad.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = inarow(&all, "");
        let err = stderr(&out);
        assert!(
            !out.status.success() && err.contains(says),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!bad.exists());
    }
}

/// What no match can mean is refused in one line before any game, and
/// `--games` (a count elsewhere) never names a file here.
#[test]
fn numbers_no_match_can_mean_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (
            &["--ms", "0"][..],
            "--ms must be a whole number of at least 1, got 0",
        ),
        (
            &["--ms", "-100"][..],
            "--ms must be a whole number of at least 1, got -100",
        ),
        (
            &["--nodes", "0"][..],
            "--nodes must be a whole number of at least 1, got 0",
        ),
        (
            &["--nodes", "-1"][..],
            "--nodes must be a whole number of at least 1, got -1",
        ),
        (
            &["-j", "0"][..],
            "--jobs must be a whole number of at least 1, got 0",
        ),
        (
            &["-j", "-2"][..],
            "--jobs must be a whole number of at least 1, got -2",
        ),
        (
            &["--stones", "0"][..],
            "--stones must be a whole number from 1 to 20, got 0",
        ),
        (
            &["--size", "-15"][..],
            "--size must be a whole number from 5 to 20, got -15",
        ),
        (
            &["--seed", "-1"][..],
            "--seed must be a whole number from 0 to",
        ),
        (
            &["--shards", "0"][..],
            "--shards must be a whole number of at least 1, got 0",
        ),
        (
            &["--shard", "-1/2"][..],
            "invalid value '-1/2' for '--shard <I/N>'",
        ),
        (
            &["--elo0", "x"][..],
            "--elo0 must be a number of Elo, got x",
        ),
        (
            &["--elo0", "30", "--elo1", "10"][..],
            "--elo0 (30) must be below --elo1 (10)",
        ),
        (
            &["--elo0", "-5", "--elo1", "-5"][..],
            "--elo0 (-5) must be below --elo1 (-5)",
        ),
        (&["--games", "4"][..], "write the games with --games-file 4"),
    ] {
        let mut all = vec!["selfplay", "--pairs", "1"];
        all.extend_from_slice(args);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(&all)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written, no file named 4"
    );
    // A negative hypothesis is a number, not an unknown argument.
    let out = selfplay(&[
        "--pairs", "1", "--nodes", "200", "--elo0", "-10", "--elo1", "5",
    ]);
    assert!(out.contains("SPRT elo0 -10 elo1 5"), "{out}");
}

/// `-j 2` plays two pairs at once and reports them as one thread would:
/// on nodes, the same pair lines, figures and games file as `-j 1`.
#[test]
fn pairs_played_at_once_report_as_one_thread_would() {
    let dir = tempfile::tempdir().unwrap();
    let run = |jobs: &str| {
        let file = dir.path().join(format!("games-{jobs}.txt"));
        let out = selfplay(&[
            "--pairs",
            "6",
            "--nodes",
            "300",
            "--seed",
            "4",
            "-j",
            jobs,
            "--games-file",
            file.to_str().unwrap(),
        ]);
        // Only the wall clock may differ.
        let shown: Vec<String> = out
            .lines()
            .filter(|l| !l.starts_with("illegal moves"))
            .map(String::from)
            .collect();
        (shown, fs::read(&file).unwrap())
    };
    let (one, one_games) = run("1");
    let (two, two_games) = run("2");
    assert_eq!(one.iter().filter(|l| l.starts_with("pair ")).count(), 6);
    assert_eq!(one, two);
    assert_eq!(one_games, two_games);
    // An SPRT that decides early (A is surely better than -300) stops at
    // the same pair with two threads as with one.
    let stop = |jobs: &str| {
        let out = selfplay(&[
            "--pairs", "10", "--nodes", "200", "--elo0", "-400", "--elo1", "-300", "-j", jobs,
        ]);
        out.lines()
            .filter(|l| !l.starts_with("illegal moves"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let early = stop("1");
    let pairs = early.iter().filter(|l| l.starts_with("pair ")).count();
    assert!(pairs < 10, "the SPRT stopped early: {early:?}");
    assert!(early.iter().any(|l| l.contains("H1 accepted")), "{early:?}");
    assert_eq!(stop("2"), early);
}

/// A brain that, told a position (`BOARD`), says why on its standard
/// error and exits while the position's lines are still coming, leaving a
/// process behind that holds its pipes: no write to it fails and no read
/// sees its output close.
const QUITTING_BRAIN: &str = r#"#!/usr/bin/env python3
import subprocess, sys
for line in sys.stdin:
    word = line.split(" ")[0].strip()
    if word in ("START", "RESTART"):
        print("OK", flush=True)
    elif word == "BOARD":
        print("fatal: cannot read boards", file=sys.stderr, flush=True)
        subprocess.Popen(["sleep", "600"])
        sys.exit(4)
    elif word == "END":
        break
"#;

#[test]
fn a_brain_that_exits_while_told_the_position_loses_at_once_as_a_crash() {
    let dir = common::workspace();
    let quitting = brain_in(dir.path(), "quitting", "brain.py", QUITTING_BRAIN);
    let keeper = brain_in(
        dir.path(),
        "keeper",
        "keeper.py",
        &KEEPING_BRAIN.replace("sys.argv[1]", "os.path.join(os.environ['HOME'], 'log.txt')"),
    );
    let openings = dir.path().join("openings.txt");
    fs::write(&openings, "7,7 8,8 7,9 9,7 6,6\n").unwrap();
    // Ten minutes a move (a move's patience is twice that and a second):
    // the match ends only because the brain's end is noticed, not its
    // silence.
    let out = inarow(
        &[
            "selfplay",
            "--pairs",
            "1",
            "--ms",
            "600000",
            "--openings",
            openings.to_str().unwrap(),
            "--a-brain",
            keeper.to_str().unwrap(),
            "--b-brain",
            quitting.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // Both games lost the same way (said once): the first while it was
    // told the position, the second when told to start afresh; each at
    // once, as a crash with its last words, never as a timeout.
    let err = stderr(&out);
    let lost: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("loses the game"))
        .collect();
    assert_eq!(lost.len(), 1, "{err}");
    assert!(
        lost[0].contains(
            "brain.py closed its output (exit status 4); its last words: fatal: cannot read boards"
        ),
        "{err}"
    );
    assert!(
        stdout(&out).contains("illegal moves: 2"),
        "{}",
        stdout(&out)
    );
    assert_eq!(summary(&stdout(&out)), (2, 0, 0));
    assert!(left_in(quitting.parent().unwrap()).is_empty());
}

/// A's pairs by points (0, ½, 1, 1½, 2) from the pairs line, and the line.
fn pairs_of(out: &str) -> ([u32; 5], String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("A by pair (points 0/0.5/1/1.5/2): "))
        .unwrap_or_else(|| panic!("no pairs line in {out}"));
    let counts: Vec<u32> = line
        .split_whitespace()
        .skip(5)
        .take(5)
        .map(|t| t.parse().unwrap())
        .collect();
    (counts.try_into().unwrap(), line.to_string())
}

#[test]
fn elo_comes_with_an_interval_only_from_two_pairs_that_went_to_one_side() {
    // The same engine on both sides (the default: the issue's match of four
    // split pairs), and a weaker evaluation for A.
    for extra in [&[][..], &["--a", "eval=hand"]] {
        let mut args = vec!["--pairs", "4", "--nodes", "300"];
        args.extend_from_slice(extra);
        let out = selfplay(&args);
        let (c, line) = pairs_of(&out);
        let pairs: u32 = c.iter().sum();
        let informative = pairs - c[2];
        if extra.is_empty() {
            // Each game starts with cleared tables: the same engine plays
            // the same game from an opening whoever is black, so every
            // pair gives each side one point.
            assert_eq!(c, [0, 0, 4, 0, 0], "{line}");
        }
        let games = out.lines().find(|l| l.starts_with("A vs B:")).unwrap();
        if informative < 2 {
            assert!(
                line.contains(&format!(
                    "no Elo yet: {informative} of {pairs} pairs went to one side, and an interval needs at least 2"
                )),
                "{line}"
            );
            assert!(
                games.ends_with("no Elo yet: too few pairs went to one side (by pair, below)"),
                "{games}"
            );
        } else if c.contains(&pairs) {
            assert!(line.contains("no Elo yet: all 4 pairs gave A "), "{line}");
        } else {
            // An interval of some width, around its estimate.
            let figures: Vec<f64> = line
                .split("Elo ")
                .nth(1)
                .unwrap()
                .split(['[', ']', ',', ' '])
                .filter_map(|t| t.parse().ok())
                .collect();
            let [elo, lo, hi] = figures[..] else {
                panic!("{line}")
            };
            assert!(lo < elo && elo < hi, "{line}");
        }
        // Never an interval of no width.
        assert!(!out.contains("[+0, +0]"), "{out}");
    }
}

#[test]
fn a_match_names_its_sides_and_its_openings_first() {
    let out = selfplay(&["--pairs", "1", "--nodes", "200", "--a", "lmr_base=40"]);
    let first: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(
        first,
        [
            "A: the inarow engine of this build, settings lmr_base=40",
            "B: the inarow engine of this build, default settings",
            "1 pairs of balanced 5-stone openings from seed 1, 15x15 freestyle, 200 nodes a move",
        ],
        "{out}"
    );
    // The same settings written two ways are the same engine: said so.
    let out = selfplay(&[
        "--pairs", "1", "--nodes", "200", "--stones", "4", "--a", "tt_mb=32",
    ]);
    assert!(
        out.contains("\nA and B are the same engine with the same settings: the match measures only its noise"),
        "{out}"
    );
    assert!(out.contains("balanced 4-stone openings"), "{out}");
    // The help says what the defaults are.
    let help = stdout(&inarow(&["selfplay", "--help"], ""));
    assert!(!help.contains("four-stone"), "{help}");
    assert!(
        help.contains("balanced openings of --stones stones are generated"),
        "{help}"
    );
    let stones = help
        .split("--stones <STONES>")
        .nth(1)
        .and_then(|rest| rest.split("--size").next())
        .unwrap();
    assert!(stones.contains("[default: 5]"), "{stones}");
}

/// One game as c-gomoku-cli writes it: three opening stones, then 17
/// moves, none ending the game (the last six plies give no position).
const ORACLE_GAMES: &str = "\
(;FF[4]GM[4]GN[1]EV[a x b]RO[1.1]RU[0]SZ[15]PB[a]PW[b]RE[0]TE[Draw by adjudication]
;B[hh]C[opening move];W[ig]C[opening move];B[gi]C[opening move]
;W[aa]C[5ms];B[hi]C[5ms];W[ac]C[5ms];B[mc]C[5ms];W[ae]C[5ms];B[cm]C[5ms]
;W[ag]C[5ms];B[em]C[5ms];W[ai]C[5ms];B[gm]C[5ms];W[ca]C[5ms];B[im]C[5ms]
;W[ea]C[5ms];B[km]C[5ms];W[ga]C[5ms];B[mm]C[5ms];W[ia]C[5ms])
";

#[test]
pub(crate) fn oracle_then_agree_finds_a_brain_agrees_with_itself_at_fixed_nodes() {
    let dir = common::workspace();
    let at = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    fs::write(at("games.sgf"), ORACLE_GAMES).unwrap();
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let oracle = |out: &str| {
        let said = selfplay(&[
            "oracle",
            &at("games.sgf"),
            "--brain",
            brain,
            "--nodes",
            "300",
            "--count",
            "3",
            "--seed",
            "5",
            "--out",
            out,
        ]);
        assert!(
            said.starts_with(&format!("oracle: 3 positions to {out} (")),
            "{said}"
        );
        assert!(said.ends_with(", 11 positions in the games)\n"), "{said}");
        fs::read_to_string(out).unwrap()
    };
    // The same positions and moves on every run: seeded, fixed nodes.
    let positions = oracle(&at("positions"));
    assert_eq!(positions, oracle(&at("again")));
    assert_eq!(positions.lines().count(), 3, "{positions}");
    for line in positions.lines() {
        let (moves, best) = line.split_once(" | ").expect("moves | move");
        assert!(moves.starts_with("7,7 8,6 6,8"), "{line}");
        assert_eq!(best.split(',').count(), 2, "{line}");
    }
    let said = selfplay(&[
        "agree",
        &at("positions"),
        "--brain",
        brain,
        "--nodes",
        "300",
        "--marks",
        &at("marks"),
    ]);
    assert_eq!(said, "agree: 3 of 3 (100.0%)\n");
    assert_eq!(fs::read_to_string(at("marks")).unwrap(), "1\n1\n1\n");
    // Paired with a run that missed the first position.
    fs::write(at("other"), "0\n1\n1\n").unwrap();
    let said = selfplay(&[
        "agree",
        &at("positions"),
        "--brain",
        brain,
        "--nodes",
        "300",
        "--against",
        &at("other"),
    ]);
    assert_eq!(
        said,
        format!(
            "agree: 3 of 3 (100.0%)\nagainst {}: only this brain 1, only the other 0, both 2, neither 0; McNemar p = 1.000 (z = +1.00)\n",
            at("other")
        )
    );
}

#[test]
fn oracle_and_agree_refuse_bad_files_in_one_line() {
    let dir = common::workspace();
    let at = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let refused = |args: &[&str]| {
        let args: Vec<&str> = std::iter::once("selfplay")
            .chain(args.iter().copied())
            .collect();
        let out = inarow(&args, "");
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
        stderr(&out)
    };
    fs::write(at("positions"), "7,7 8,6 6,8 | 9,5\n7,7 8,6 | 7,7\n").unwrap();
    assert_eq!(
        refused(&["agree", &at("positions"), "--brain", brain, "--nodes", "10"]),
        format!(
            "inarow: {} is not a positions file: line 2: the move 7,7 is on a stone\n",
            at("positions")
        )
    );
    fs::write(at("positions"), "7,7 8,6 6,8 | 9,5\n").unwrap();
    fs::write(at("marks"), "1\nyes\n").unwrap();
    assert_eq!(
        refused(&[
            "agree",
            &at("positions"),
            "--brain",
            brain,
            "--nodes",
            "10",
            "--against",
            &at("marks"),
        ]),
        format!(
            "inarow: {} is not a marks file of {}: line 2: expected 0 or 1, got \"yes\"\n",
            at("marks"),
            at("positions")
        )
    );
    fs::write(at("games.sgf"), "(;GN[1]SZ[15];B[hh];W[zz])").unwrap();
    assert_eq!(
        refused(&[
            "oracle",
            &at("games.sgf"),
            "--brain",
            brain,
            "--nodes",
            "10",
            "--count",
            "1",
            "--out",
            &at("out"),
        ]),
        format!(
            "inarow: {} holds no games to take positions from: game 1: move 2 [zz] is not a point of a 15x15 board\n",
            at("games.sgf")
        )
    );
    // A file that cannot be saved is refused before any brain runs.
    let nowhere = at("no/such/folder/marks");
    let said = refused(&[
        "agree",
        &at("positions"),
        "--brain",
        brain,
        "--nodes",
        "10",
        "--marks",
        &nowhere,
    ]);
    assert!(
        said.starts_with(&format!("inarow: cannot write the marks file {nowhere}: "))
            && said.lines().count() == 1,
        "{said}"
    );
}
