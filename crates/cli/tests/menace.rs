//! End-to-end: `inarow menace` driven through pipes, as a script would.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::inarow;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

/// A line of the box listing: number, nine-cell image, beads in ascending order.
fn is_box_line(line: &str) -> bool {
    let parts: Vec<&str> = line.split_whitespace().collect();
    let [number, image, beads] = parts.as_slice() else {
        return false;
    };
    let digits_ascending = beads.chars().all(|c| c.is_ascii_digit() && c != '9')
        && beads.as_bytes().windows(2).all(|w| w[0] <= w[1]);
    number
        .parse::<usize>()
        .is_ok_and(|n| (1..=304).contains(&n))
        && image.len() == 9
        && image.chars().all(|c| matches!(c, 'X' | 'O' | '.'))
        && (digits_ascending || *beads == "-")
}

/// Moves for one game: one malformed, then every square in order with the
/// corner twice, so the second `LL` always finds the square taken; `b1`
/// is `RM` by its name.
fn moves_of_a_game() -> String {
    let squares = ["LL", "LL", "lm", "LR", "ML", "mm", "MR", "RL", "b1", "rr"];
    format!("zz\n{}\n", squares.join("\n"))
}

#[test]
fn scripted_session_through_a_pipe() {
    let input = format!(
        "2\n{}{}{}",
        moves_of_a_game(),
        moves_of_a_game(),
        moves_of_a_game()
    );
    let out = inarow(&["menace", "--seed", "5"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("new game").count(), 2, "{stdout}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error: \"zz\" is not a square"), "{stderr}");
    assert!(
        stderr.contains("error: a3 (LL) is already taken"),
        "{stderr}"
    );
    // Errors and prompts are on standard error, never among the boards;
    // every error is one whole line, and a prompt is shown for every line
    // read (so the same prompt after an error).
    assert!(!stdout.contains("error"), "{stdout}");
    assert!(!stdout.contains("your move") && !stdout.contains("How many games?"));
    assert!(
        stderr.starts_with("How many games? your move (row then column, L/M/R, or a1 to c3): "),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .filter(|l| l.contains("error:"))
            .all(|l| l.starts_with("error: ")),
        "{stderr}"
    );
    let errors = stderr.matches("error:").count();
    let moves = stdout.matches("you play").count();
    assert!(errors >= 4, "{stderr}");
    assert_eq!(
        stderr.matches("your move").count(),
        errors + moves,
        "{stderr}"
    );
    let results = stdout
        .lines()
        .filter(|l| {
            ["MENACE wins", "you win", "draw", "MENACE resigns: you win"].contains(&l.trim())
        })
        .count();
    assert_eq!(results, 2, "{stdout}");
    let boxes: Vec<&str> = stdout.lines().filter(|l| is_box_line(l)).collect();
    assert_eq!(boxes.len(), 2 * 304);
    assert_eq!(boxes[0].split_whitespace().nth(1), Some("........."));
    // Boards: three-cell rows of X, O and . after every move.
    assert!(stdout.lines().any(|l| l.len() == 3 && l.contains('X')));
    assert!(stdout.contains("MENACE plays "));
    // Squares named as everywhere, with the challenge's letters typed.
    assert!(stdout.contains("you play a3 (LL)") || stdout.contains("MENACE plays a3 (LL)"));
    // After the boxes of each game, its result again, last.
    let ends: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(ends.len(), 2, "{stdout}");
    for (k, game) in stdout.split("new game").skip(1).enumerate() {
        let last = game.trim_end().lines().last().unwrap();
        let result = game
            .lines()
            .find(|l| ["MENACE wins", "you win", "draw", "MENACE resigns: you win"].contains(l))
            .unwrap();
        let result = if result == "draw" { "a draw" } else { result };
        assert_eq!(last, format!("game {} of 2: {result}", k + 1), "{game}");
        assert!(is_box_line(game.trim_end().lines().rev().nth(1).unwrap()));
    }
    // The same seed plays the same games.
    let again = inarow(&["menace", "--seed", "5"], &input);
    assert_eq!(text(&again.stdout), stdout);
}

#[test]
fn bad_game_count_is_asked_again() {
    let input = format!("many\n1\n{}{}", moves_of_a_game(), moves_of_a_game());
    let out = inarow(&["menace"], &input);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error: \"many\" is not a number of games"),
        "{stderr}"
    );
    assert!(!stdout.contains("error"), "{stdout}");
    assert_eq!(stdout.matches("new game").count(), 1);
}

fn games_in(path: &Path) -> u64 {
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(json["format"], "inarow-menace");
    assert_eq!(json["version"], 1);
    json["machines"][0]["games"].as_u64().unwrap()
}

#[test]
fn input_ending_mid_game_keeps_the_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    let state_arg = state.to_str().unwrap();
    let input = format!("9\n{}", moves_of_a_game());
    let out = inarow(&["menace", "--seed", "2", "--state", state_arg], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let started = stdout.matches("new game").count() as u64;
    assert!(started < 9);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("input ended during game {started}")),
        "{stderr}"
    );
    assert_eq!(games_in(&state), started - 1);
    // The next session carries on from the saved boxes.
    let input = format!("1\n{}{}", moves_of_a_game(), moves_of_a_game());
    let out = inarow(&["menace", "--seed", "3", "--state", state_arg], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&state), started);
}

#[test]
fn train_save_load_and_show() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("s.json");
    let csv = dir.path().join("curve.csv");
    let chart = dir.path().join("curve.svg");
    let s = state.to_str().unwrap();
    let out = inarow(
        &[
            "menace",
            "train",
            "--opponent",
            "random",
            "--games",
            "1000",
            "--block",
            "250",
            "--seed",
            "4",
            "--state",
            s,
            "--csv",
            csv.to_str().unwrap(),
            "--chart",
            chart.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("751-1000"), "{table}");
    assert_eq!(games_in(&state), 1000);
    let rows: Vec<String> = fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(
        rows[0],
        "first_game,last_game,wins,draws,losses,win_rate,draw_rate,loss_rate"
    );
    assert!(rows[4].starts_with("751,1000,"));
    let svg = fs::read_to_string(&chart).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("<polyline"),
        "{}",
        &svg[..svg.len().min(300)]
    );

    // Training again goes on from the saved boxes.
    let out = inarow(
        &[
            "menace",
            "train",
            "--opponent",
            "menace",
            "--games",
            "200",
            "--state",
            s,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&state), 1200);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(json["machines"][1]["player"], "O");
    assert_eq!(json["machines"][1]["boxes"].as_array().unwrap().len(), 289);

    let out = inarow(&["menace", "show", "--state", s], "");
    assert!(out.status.success());
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 304);
    assert!(lines.iter().all(|l| is_box_line(l)));
    // A rotated board finds the same box as its image.
    let out = inarow(&["menace", "show", "--state", s, "..X/.O./..."], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let one = text(&out.stdout);
    assert!(lines.contains(&one.trim_end().to_string()), "{one}");
    let corner = inarow(&["menace", "show", "--state", s, "X.O/.../..."], "");
    let mirrored = inarow(&["menace", "show", "--state", s, "..O/.../..X"], "");
    assert_eq!(text(&corner.stdout), text(&mirrored.stdout));
    let out = inarow(&["menace", "show", "XXX/OO./..."], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("the game is over"));
}

#[test]
fn corrupt_state_is_rejected_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("bad.json");
    for content in [
        "{ this is not json",
        "{\"format\": \"inarow-menace\", \"version\": 9}",
    ] {
        fs::write(&state, content).unwrap();
        let out = inarow(&["menace", "--state", state.to_str().unwrap()], "1\nmm\n");
        assert!(!out.status.success());
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("bad.json"), "{stderr}");
        assert!(
            stderr.contains("state file") && stderr.contains("not"),
            "{stderr}"
        );
        assert_eq!(fs::read_to_string(&state).unwrap(), content);
        assert!(!text(&out.stdout).contains("new game"));
    }
}

#[test]
fn unwritable_path_and_preset_mismatch_are_reported() {
    let out = inarow(&["menace", "--state", "/no/such/dir/menace.json"], "1\n");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("inarow: cannot write state file /no/such/dir/menace.json"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("m.json");
    let s = state.to_str().unwrap();
    let out = inarow(
        &[
            "menace",
            "train",
            "--opponent",
            "perfect",
            "--games",
            "20",
            "--preset",
            "michie",
            "--state",
            s,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = inarow(&["menace", "--preset", "scroggs", "--state", s], "1\n");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("holds boxes of preset michie, but --preset scroggs was given")
    );
    let out = inarow(&["menace", "--preset", "fast"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown preset"));
}

/// A script reading standard output line by line: the first line is
/// `new game`, and it answers each board MENACE shows with the first empty
/// square, prompts never mixed into what it reads.
#[test]
fn stdout_reads_line_by_line_on_a_pipe() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["menace", "--seed", "7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "1").unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "new game");
    let mut board: Vec<String> = Vec::new();
    let mut last_mover = String::new();
    let mut result = None;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if ["MENACE wins", "you win", "draw", "MENACE resigns: you win"].contains(&line.as_str()) {
            result = Some(line);
            break;
        }
        if line.starts_with("MENACE plays ") || line.starts_with("you play ") {
            last_mover = line;
            board.clear();
        } else if line.len() == 3 {
            board.push(line);
        } else if line.is_empty() && last_mover.starts_with("MENACE") {
            let cells: String = board.concat();
            if let Some(i) = cells.find('.') {
                let name = format!("{}{}", ["L", "M", "R"][i / 3], ["L", "M", "R"][i % 3]);
                // MENACE may have won with this move: then nobody reads it.
                let _ = writeln!(input, "{name}");
            }
        } else {
            assert!(line.is_empty(), "unexpected line {line:?}");
        }
    }
    assert!(result.is_some(), "the game ended");
    let mut boxes: Vec<String> = lines.map(Result::unwrap).collect();
    let result = result.unwrap();
    let result = if result == "draw" { "a draw" } else { &result };
    assert_eq!(boxes.pop(), Some(format!("game 1 of 1: {result}")));
    assert_eq!(boxes.len(), 304, "{boxes:?}");
    assert!(boxes.iter().all(|l| is_box_line(l)));
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("How many games? your move"), "{stderr}");
}

/// Waits until `done()` holds, for at most a minute.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn train_args<'a>(state: &'a str, games: &'a str) -> Vec<&'a str> {
    vec![
        "menace",
        "train",
        "--opponent",
        "random",
        "--games",
        games,
        "--state",
        state,
    ]
}

/// The one-line refusal a second writer gets while `pid` holds `state`.
fn assert_in_use(out: &Output, state: &Path, pid: u32) {
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr,
        format!(
            "inarow: state file {} is in use by another inarow (pid {pid})\n",
            state.display()
        )
    );
    assert!(!text(&out.stdout).contains("new game"));
}

#[test]
fn a_second_writer_is_refused_and_a_killed_run_keeps_its_saves() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    let s = state.to_str().unwrap();
    let mut args = train_args(s, "1000000000");
    args.extend(["--save-every", "1000"]);
    let mut trainer = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first save makes the file; the run goes on.
    wait_for("the first save", || state.exists());
    let out = inarow(&train_args(s, "10"), "");
    assert_in_use(&out, &state, trainer.id());
    let out = inarow(&["menace", "--state", s], "1\nMM\n");
    assert_in_use(&out, &state, trainer.id());
    // Readers go on: every save is whole.
    let out = inarow(&["menace", "show", "--state", s], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 304);

    wait_for("a few saves", || games_in(&state) >= 3000);
    trainer.kill().unwrap();
    trainer.wait().unwrap();
    let saved = games_in(&state);
    assert!(saved >= 3000 && saved % 1000 == 0, "{saved}");
    // The file loads, and the lock went with the killed run.
    let out = inarow(&train_args(s, "10"), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&state), saved + 10);
    assert!(!dir.path().join("menace.json.lock").exists());
}

#[test]
fn the_page_holds_the_lock_while_it_serves() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    let s = state.to_str().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["serve", "--port", "0", "--state", s])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("serving on "), "{line}");
    let out = inarow(&train_args(s, "10"), "");
    assert_in_use(&out, &state, server.id());
    let out = inarow(&["serve", "--port", "0", "--state", s], "");
    assert_in_use(&out, &state, server.id());
    let status = Command::new("kill")
        .args(["-INT", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(server.wait().unwrap().success());
    let out = inarow(&train_args(s, "10"), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&state), 10);
}

#[test]
fn a_fifo_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("state.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let f = fifo.to_str().unwrap();
    for (args, verb) in [
        (train_args(f, "10"), "write"),
        (vec!["menace", "--state", f], "write"),
        (vec!["menace", "show", "--state", f], "read"),
    ] {
        let out = inarow(&args, "1\n");
        assert!(!out.status.success());
        assert_eq!(
            text(&out.stderr),
            format!(
                "inarow: cannot {verb} state file {f}: it is a FIFO (named pipe), not a regular file\n"
            )
        );
    }
    assert!(fifo.exists());
}

#[test]
fn a_read_only_state_file_is_refused_and_a_mode_is_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    let s = state.to_str().unwrap();
    assert!(inarow(&train_args(s, "10"), "").status.success());
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    fs::set_permissions(&state, fs::Permissions::from_mode(0o640)).unwrap();
    assert!(inarow(&train_args(s, "10"), "").status.success());
    assert_eq!(mode(&state), 0o640);
    assert_eq!(games_in(&state), 20);

    fs::set_permissions(&state, fs::Permissions::from_mode(0o444)).unwrap();
    let before = fs::read_to_string(&state).unwrap();
    for args in [train_args(s, "10"), vec!["menace", "--state", s]] {
        let out = inarow(&args, "1\n");
        assert!(!out.status.success());
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "inarow: cannot write state file {s}: it is read-only"
            )),
            "{stderr}"
        );
    }
    assert_eq!(fs::read_to_string(&state).unwrap(), before);
    assert_eq!(mode(&state), 0o444);
    // Still shown.
    assert!(
        inarow(&["menace", "show", "--state", s], "")
            .status
            .success()
    );
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["menace.json"]);
}

/// Whether the tests run as root (as in CI): only then can a file be given
/// to another user.
fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().unwrap();
    text(&out.stdout).trim() == "0"
}

/// Makes `link` a symbolic link to `target`, made by user nobody (65534)
/// when the tests run as root: with `setpriv`, else made here and given
/// away with `lchown`. Returns the link's owner.
fn link_as_nobody(target: &Path, link: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    if is_root() {
        let _ = Command::new("setpriv")
            .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
            .arg("ln")
            .arg("-s")
            .arg(target)
            .arg(link)
            .stderr(Stdio::null())
            .status();
        if fs::symlink_metadata(link).is_err() {
            std::os::unix::fs::symlink(target, link).unwrap();
            std::os::unix::fs::lchown(link, Some(65534), Some(65534)).unwrap();
        }
    } else {
        std::os::unix::fs::symlink(target, link).unwrap();
    }
    fs::symlink_metadata(link).unwrap().uid()
}

/// What is kept of a file's metadata to tell it was not touched.
fn fingerprint(path: &Path) -> (u64, u32, u32, u64, i64, i64) {
    use std::os::unix::fs::MetadataExt;
    let m = fs::symlink_metadata(path).unwrap();
    (
        m.ino(),
        m.mode(),
        m.uid(),
        m.len(),
        m.mtime(),
        m.mtime_nsec(),
    )
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Another user links the state's lock file to a file of root's; root's
/// run refuses in one line and never writes through the link.
#[test]
fn a_lock_file_linked_by_another_user_is_refused_and_not_written_through() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let victim = dir.path().join("root-only.txt");
    fs::write(&victim, "root's own data\n").unwrap();
    fs::set_permissions(&victim, fs::Permissions::from_mode(0o600)).unwrap();
    // A folder everyone may write (not sticky: the kernel's protection of
    // links in sticky folders is not what is tested here).
    let shared = dir.path().join("shared");
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o777)).unwrap();
    let state = shared.join("x.json");
    let lock = shared.join("x.json.lock");
    let owner = link_as_nobody(&victim, &lock);
    if is_root() {
        assert_eq!(owner, 65534);
    }
    let before = fingerprint(&victim);
    let s = state.to_str().unwrap();
    for args in [train_args(s, "10"), vec!["menace", "--state", s]] {
        let out = inarow(&args, "1\nMM\n");
        assert!(!out.status.success());
        assert_eq!(
            text(&out.stderr),
            format!(
                "inarow: cannot lock state file {s}: {s}.lock is a symbolic link, not a lock \
                 file; it is left as it is (remove it if no inarow is using the file)\n"
            )
        );
        assert!(!text(&out.stdout).contains("new game"));
    }
    assert_eq!(fs::read_to_string(&victim).unwrap(), "root's own data\n");
    assert_eq!(fingerprint(&victim), before);
    assert!(fs::symlink_metadata(&lock).unwrap().is_symlink());
    assert_eq!(names_in(&shared), ["x.json.lock"]);
}

/// A writer killed between making its temporary file and renaming it
/// leaves the file behind; the next writer removes those of writers that
/// are gone, and the state is whole after every kill.
#[test]
fn temporaries_left_by_killed_writers_are_removed_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("x.json");
    let s = state.to_str().unwrap();
    assert!(inarow(&train_args(s, "10"), "").status.success());

    // Left as a killed writer leaves them: its process is gone.
    let mut gone = Command::new("true").spawn().unwrap();
    let gone_pid = gone.id();
    gone.wait().unwrap();
    let live = format!(".x.json.tmp-{}-0", std::process::id());
    let other = ".tmpAbC123".to_string();
    for name in [
        format!(".x.json.tmp-{gone_pid}-0"),
        format!(".x.json.tmp-{gone_pid}-5"),
        live.clone(),
        other.clone(),
    ] {
        fs::write(dir.path().join(name), "{\"half\": ").unwrap();
    }
    assert!(inarow(&train_args(s, "10"), "").status.success());
    // A live writer's (this test's) and a name that is not ours are kept.
    let mut expected = vec![live.clone(), other.clone(), "x.json".to_string()];
    expected.sort();
    assert_eq!(names_in(dir.path()), expected);
    assert_eq!(games_in(&state), 20);

    // Really killed, while saving after every game.
    let mut saved = games_in(&state);
    let start = Instant::now();
    for round in 0..6u64 {
        let mut args = train_args(s, "1000000000");
        args.extend(["--save-every", "1"]);
        let mut trainer = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(60 + 25 * round));
        trainer.kill().unwrap();
        trainer.wait().unwrap();
        let now = games_in(&state);
        assert!(now >= saved, "{now} < {saved}");
        saved = now;
    }
    assert!(start.elapsed() < Duration::from_secs(60));
    let out = inarow(&train_args(s, "10"), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&state), saved + 10);
    assert_eq!(names_in(dir.path()), expected);
}

/// A state path that is a symbolic link is followed: its target is saved
/// in place, in the target's folder, the link stays, and the target's lock
/// covers both names. Another user's link is refused.
#[test]
fn a_linked_state_is_saved_at_its_target_and_the_link_stays() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    fs::create_dir(&real).unwrap();
    let target = real.join("s.json");
    let link = dir.path().join("x.json");
    std::os::unix::fs::symlink("real/s.json", &link).unwrap();
    let (l, t) = (link.to_str().unwrap(), target.to_str().unwrap());
    // Dangling at first: the first save makes the target.
    assert!(inarow(&train_args(l, "10"), "").status.success());
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(games_in(&target), 10);
    assert!(inarow(&train_args(t, "10"), "").status.success());
    assert!(inarow(&train_args(l, "10"), "").status.success());
    assert_eq!(games_in(&target), 30);
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(names_in(dir.path()), ["real", "x.json"]);
    assert_eq!(names_in(&real), ["s.json"]);

    // One lock for both names, kept beside the target.
    let mut args = train_args(l, "1000000000");
    args.extend(["--save-every", "1000"]);
    let mut trainer = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("a save through the link", || games_in(&target) >= 1030);
    assert!(real.join("s.json.lock").exists());
    assert_in_use(&inarow(&train_args(t, "10"), ""), &target, trainer.id());
    assert_in_use(&inarow(&train_args(l, "10"), ""), &link, trainer.id());
    trainer.kill().unwrap();
    trainer.wait().unwrap();
    let out = inarow(&["menace", "show", "--state", l], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());

    if is_root() {
        // Another user's link could point anywhere root may write.
        std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).unwrap();
        let before = fingerprint(&target);
        for (args, verb) in [
            (train_args(l, "10"), "write"),
            (vec!["menace", "show", "--state", l], "read"),
        ] {
            let out = inarow(&args, "");
            assert!(!out.status.success());
            assert_eq!(
                text(&out.stderr),
                format!(
                    "inarow: cannot {verb} state file {l}: the symbolic link {l} belongs to \
                     another user (uid 65534), so it is not followed\n"
                )
            );
        }
        assert_eq!(fingerprint(&target), before);
    }
}

#[test]
fn a_closed_pipe_ends_show_quietly() {
    // `inarow menace show | head`: the reader goes before the boxes are written.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["menace", "show"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(text(&out.stderr), "");
    assert!(out.status.success(), "{:?}", out.status);
}

#[test]
fn the_chart_is_svg_and_its_errors_name_the_given_path() {
    let dir = tempfile::tempdir().unwrap();
    let train = |chart: &Path| {
        let chart = chart.to_str().unwrap();
        inarow(
            &[
                "menace",
                "train",
                "--opponent",
                "random",
                "--games",
                "20",
                "--chart",
                chart,
            ],
            "",
        )
    };
    let svg = dir.path().join("c.svg");
    let out = train(&svg);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // Not SVG: refused before any game, nothing written.
    let png = dir.path().join("c.png");
    let out = train(&png);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("SVG only: name the file with .svg"), "{err}");
    assert!(err.contains("c.png") && !png.exists(), "{err}");
    assert_eq!(text(&out.stdout), "");
    let missing = dir.path().join("no/such/dir/c.svg");
    let out = train(&missing);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains(&missing.display().to_string()), "{err}");
    assert!(!err.contains("c.svg.tmp-"), "{err}");
}
