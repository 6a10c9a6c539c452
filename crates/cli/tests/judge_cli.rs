//! `inarow judge` end to end with the scripted fake bots of the judge crate.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn inarow() -> Command {
    Command::new(env!("CARGO_BIN_EXE_inarow"))
}

/// A bot folder `name` (and named so) running the fake bot with `opts`.
fn bot(dir: &Path, name: &str, opts: &str) -> PathBuf {
    common::fake_bot_folder(dir, name, name, opts)
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

fn judge(dir: &Path, extra: &[&str], tag: &str) -> (Output, String, PathBuf) {
    let results = dir.join(format!("results-{tag}.json"));
    let sgf = dir.join(format!("sgf-{tag}"));
    let out = inarow()
        .args(["judge", "--bots"])
        .arg(dir.join("bots"))
        .args(["--timeout", "30", "--results"])
        .arg(&results)
        .arg("--sgf")
        .arg(&sgf)
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    (out, fs::read_to_string(&results).unwrap(), sgf)
}

#[test]
fn a_tournament_prints_standings_writes_results_and_replays_from_its_seed() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    bot(&bots, "cat", "play=pattern");
    let (out, first, sgf) = judge(dir.path(), &["-j", "2"], "first");
    let stdout = text(&out.stdout);
    let seed: u64 = stdout
        .split_whitespace()
        .skip_while(|w| *w != "seed")
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed in {stdout}"));
    assert!(
        stdout.contains("rank  name  points  wins  ties  losses  forfeits"),
        "{stdout}"
    );
    assert!(first.contains(&format!("\"seed\": {seed}")));
    let results: serde_json::Value = serde_json::from_str(&first).unwrap();
    // (The pattern bot may run out of its colour's points against random
    // play and crash: a forfeit, which replays like any game.)
    assert_eq!(results["games"].as_array().unwrap().len(), 6, "six games");
    let records: Vec<_> = fs::read_dir(&sgf)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 6);
    for record in records {
        let game = fs::read_to_string(record).unwrap();
        assert!(
            game.starts_with("(;FF[4]GM[4]") && game.ends_with(")\n"),
            "{game}"
        );
        assert!(game.contains("PB[") && game.contains(";B["));
    }
    let seed_arg = seed.to_string();
    let (_, again, _) = judge(dir.path(), &["-j", "1", "--seed", &seed_arg], "again");
    assert_eq!(
        first, again,
        "the printed seed replays the tournament, -j 1 as -j 2"
    );
}

#[test]
fn debug_mode_echoes_every_line_and_the_bots_stderr() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    let folder = bot(&bots, "bob", "play=random");
    fs::write(
        folder.join("meta"),
        "bob\npython3\nfake_bot.py play=random\n0\n",
    )
    .unwrap();
    let out = inarow()
        .args(["judge", "--seed", "3", "--timeout", "30", "--bots"])
        .arg(&bots)
        .args(["-d", "bob"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for needle in [
        "bob < A []",
        "bob > (",
        "bob < B [",
        "bob < EXIT ",
        "game 1: bob opens",
        "game 2: house opens",
        "bob ! fake bot",
    ] {
        assert!(stdout.contains(needle), "{needle:?} missing from\n{stdout}");
    }
}

#[test]
fn bad_input_gets_a_one_line_error() {
    let dir = common::workspace();
    let out = inarow()
        .args(["judge", "--bots"])
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("missing"), "{stderr}");
    assert_eq!(
        stderr.matches("No such file").count(),
        1,
        "the reason once: {stderr}"
    );

    let bots = dir.path().join("bots");
    let folder = bot(&bots, "one", "");
    bot(&bots, "two", "");
    fs::write(folder.join("meta"), "one\npython3\n\nyes\n").unwrap();
    let out = inarow()
        .args(["judge", "--bots"])
        .arg(&bots)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("line 4"), "{stderr}");

    for given in [&["--timeout=-1"][..], &["--timeout", "-1"]] {
        let out = inarow().arg("judge").args(given).output().unwrap();
        assert!(!out.status.success());
        assert_eq!(
            text(&out.stderr),
            "inarow: --timeout must be a number of seconds from 0 (no limit) to 1000000000, got -1\n"
        );
    }
}

/// Every file of an SGF folder with its text, by name.
fn sgf_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let text = fs::read_to_string(e.path()).unwrap();
            (e.file_name().into_string().unwrap(), text)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn under_renju_a_bot_on_a_forbidden_point_loses_and_the_files_say_why() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    // ann plays black in both games (bob answers `W` when ann opens; ann
    // takes black when bob opens) and its fifth black stone of the list,
    // (7,7), makes two open threes; bob's stones stay on the edge.
    // Every run starts from the same folders, as each machine of a
    // cluster would (the fake bot writes its logs into its folder).
    let fresh = || {
        let _ = fs::remove_dir_all(&bots);
        bot(&bots, "ann", "play=pattern black=(7,5)(7,6)(5,7)(6,7)(7,7)");
        bot(&bots, "bob", "play=pattern swap=white");
    };
    fresh();
    let seed = ["--rule", "renju", "--seed", "7", "-j", "1"];
    let (out, whole, sgf) = judge(dir.path(), &seed, "whole");
    let stdout = text(&out.stdout);
    let results: serde_json::Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(results["rule"], "renju");
    let games = results["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for game in games {
        assert_eq!(
            (
                &game["black"],
                &game["winner"],
                &game["reason"],
                &game["forbidden"]
            ),
            (
                &"ann".into(),
                &"bob".into(),
                &"forbidden".into(),
                &"double three".into()
            ),
            "{game}"
        );
        let last = game["stones"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            last,
            serde_json::json!({"by": last["by"], "colour": "B", "x": 7, "y": 7})
        );
        let line = format!(
            "game {}: ann plays a forbidden point: double three",
            game["index"]
        );
        assert!(stdout.contains(&line), "{line:?} missing from\n{stdout}");
    }
    let first = &results["standings"][0];
    assert_eq!(
        (&first["name"], &first["wins"], &first["forfeits"]),
        (&"bob".into(), &2.into(), &0.into())
    );
    let records = sgf_files(&sgf);
    assert_eq!(records.len(), 2);
    for (name, record) in &records {
        assert!(
            record.starts_with("(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[Renju]AP[inarow judge]"),
            "{name}: {record}"
        );
        assert!(
            record.contains("PB[ann]PW[bob]RE[W+]C[ann plays a forbidden point: double three]"),
            "{name}: {record}"
        );
        assert!(record.ends_with(";B[hh])\n"), "{name}: {record}");
    }
    // Played in two shares and merged, the game replays to the same files.
    let mut parts = Vec::new();
    for index in 0..2 {
        let shard = format!("{index}/2");
        fresh();
        let (_, part, _) = judge(
            dir.path(),
            &[&seed[..], &["--shard", &shard]].concat(),
            &format!("part-{index}"),
        );
        assert!(part.contains(r#""forbidden": "double three""#), "{part}");
        parts.push(dir.path().join(format!("results-part-{index}.json")));
    }
    let merged = dir.path().join("merged.json");
    let merged_sgf = dir.path().join("sgf-merged");
    let out = inarow()
        .args(["judge", "merge"])
        .args(&parts)
        .arg("--results")
        .arg(&merged)
        .arg("--sgf")
        .arg(&merged_sgf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read_to_string(&merged).unwrap(), whole);
    assert_eq!(sgf_files(&merged_sgf), records);
    // A part that says bob lost on the forbidden point is refused.
    let forged = fs::read_to_string(&parts[0]).unwrap().replacen(
        r#""winner": "bob""#,
        r#""winner": "ann""#,
        1,
    );
    fs::write(&parts[0], forged).unwrap();
    let out = inarow()
        .args(["judge", "merge"])
        .args(&parts)
        .arg("--results")
        .arg(dir.path().join("forged.json"))
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "names ann the winner, but ann put the stone on the forbidden point, so bob wins"
        ),
        "{stderr}"
    );
}

#[test]
fn an_unknown_rule_is_refused_naming_the_three() {
    let out = inarow().args(["judge", "--rule", "caro"]).output().unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    // Clap's refusal in one line, as the program's other errors.
    assert_eq!(
        stderr,
        "inarow: invalid value 'caro' for '--rule <RULE>': the rule \"caro\" is not freestyle, exact or renju\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let help = inarow().args(["judge", "--help"]).output().unwrap();
    assert!(
        text(&help.stdout).contains("renju"),
        "{}",
        text(&help.stdout)
    );
}

/// A judge whose two bots hang at their first move, each with a child, and
/// no time limit: it runs until it is stopped. Returns once the bot asked
/// first and its child run (the other is frozen until its turn, so its
/// program has not started; its launcher runs).
fn hanging_judge(dir: &Path) -> std::process::Child {
    let bots = dir.join("bots");
    let ann = bot(&bots, "ann", "fault=timeout@1 child=1");
    let ben = bot(&bots, "ben", "fault=timeout@1 child=1");
    let judge = inarow()
        .args(["judge", "--timeout", "0", "-j", "1", "--bots"])
        .arg(&bots)
        .arg("--results")
        .arg(dir.join("r.json"))
        .arg("--sgf")
        .arg(dir.join("sgf"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its files reach its folder only when its game ends: count processes.
    let _ = (ann, ben);
    let start = Instant::now();
    while common::processes_in(&bots).len() < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the first bot and its child never ran"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    judge
}

/// Nothing runs in the bots folder within 30 seconds (the kernel finishes
/// killing a namespace a moment after its first process dies; a busy
/// machine may take its time: the wait ends as soon as none is left).
fn assert_no_bot_left(dir: &Path, after: &str) {
    let bots = dir.join("bots");
    let start = Instant::now();
    while !common::processes_in(&bots).is_empty() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let left = common::processes_in(&bots);
    assert!(left.is_empty(), "{left:?} outlived the {after} judge");
}

#[test]
fn ctrl_c_kills_every_bot_and_their_children() {
    let dir = common::workspace();
    let mut judge = hanging_judge(dir.path());
    // The judge has claimed its results file (said before the first game)
    // and the first bot and its child run: the events the interrupt needs.
    let mut stderr = std::io::BufReader::new(judge.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("inarow judge: writing the results to") {
        let mut line = String::new();
        let read = std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
        assert!(read > 0, "the judge ended first: {said}");
        said.push_str(&line);
    }
    assert!(dir.path().join("r.json").exists(), "claimed: {said}");
    let status = Command::new("kill")
        .args(["-INT", &judge.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = judge.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_no_bot_left(dir.path(), "interrupted");
    assert!(
        !dir.path().join("r.json").exists(),
        "no half-written results, and the claim given back"
    );
}

#[test]
fn an_unwritable_results_path_stops_the_judge_before_any_game() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    let ann = bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let out = inarow()
        .args(["judge", "--bots"])
        .arg(&bots)
        .arg("--results")
        .arg(dir.path().join("no-such-folder/results.json"))
        .arg("--sgf")
        .arg(dir.path().join("sgf"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no-such-folder/results.json"), "{stderr}");
    assert!(!ann.join("log.txt").exists(), "no game was played");
}

#[test]
fn a_closed_standard_output_never_loses_the_results() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let results = dir.path().join("results.json");
    // As `inarow judge | head -1` once the reader is gone: every write fails.
    let mut judge = inarow()
        .args(["judge", "--seed", "4", "--timeout", "30", "--bots"])
        .arg(&bots)
        .arg("--results")
        .arg(&results)
        .arg("--sgf")
        .arg(dir.path().join("sgf"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(judge.stdout.take());
    let out = judge.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = fs::read_to_string(&results).unwrap();
    assert_eq!(written.matches("\"reason\": ").count(), 2, "{written}");
    assert_eq!(fs::read_dir(dir.path().join("sgf")).unwrap().count(), 2);
}

#[test]
fn a_judge_killed_outright_takes_every_bot_down_with_it() {
    let dir = common::workspace();
    let mut judge = hanging_judge(dir.path());
    // SIGKILL: the judge runs no code of its own; the kernel must do it all.
    judge.kill().unwrap();
    judge.wait().unwrap();
    assert_no_bot_left(dir.path(), "killed");
}

/// Two bots (`ann`, `ben`) and a folder for the results, all `nobody`'s
/// (when the tests run as root): an ordinary user's judge's world. The
/// test's folder, the bots folder and the results folder.
fn nobodys_bots() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let out_dir = dir.path().join("out");
    fs::create_dir_all(&out_dir).unwrap();
    common::give_to_nobody(&out_dir);
    common::give_to_nobody(&bots);
    (dir, bots, out_dir)
}

/// Runs `inarow ARGS` as a user who may make no user namespace: a machine
/// that disables them. As a plain user, a first user namespace allows one
/// more, which is then used up by the one the judge runs in. The judge has
/// control groups of its own (`delegated`), so only the namespaces are
/// missing.
fn judge_without_user_namespaces(delegated: &common::Delegated, args: &[&str]) -> Output {
    let script = r#"echo 1 > /proc/sys/user/max_user_namespaces && exec unshare --user --map-user=65534 --map-group=65534 "$@""#;
    let mut command = if inarow_sandbox::judge_is_root() {
        // Root gives up root first (root may always make namespaces).
        let mut command = delegated.command("unshare");
        command.args(["--user", "--map-root-user"]);
        command
    } else {
        let mut command = Command::new("unshare");
        command.args(["--user", "--map-root-user"]);
        command
    };
    command
        .args(["sh", "-c", script, "sh"])
        .arg(common::for_nobody(Path::new(env!("CARGO_BIN_EXE_inarow"))))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn where_the_kernel_refuses_the_sandbox_the_judge_refuses_to_start() {
    let (_dir, bots, out_dir) = nobodys_bots();
    let ann = bots.join("ann");
    let results = out_dir.join("r.json");
    let sgf = out_dir.join("sgf");
    let args = [
        "judge",
        "--seed",
        "2",
        "--bots",
        bots.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
        "--sgf",
        sgf.to_str().unwrap(),
    ];
    let delegated = common::Delegated::new();
    let out = judge_without_user_namespaces(&delegated, &args);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("the sandbox cannot contain ann on this machine")
            && stderr.contains("user namespaces")
            && stderr.contains("--no-sandbox"),
        "{stderr}"
    );
    assert!(!ann.join("log.txt").exists(), "no game was played");
    assert!(!results.exists());

    let mut uncontained = args.to_vec();
    uncontained.push("--no-sandbox");
    let out = judge_without_user_namespaces(&delegated, &uncontained);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("warning: --no-sandbox"));
    assert!(results.exists());

    let out = judge_without_user_namespaces(
        &delegated,
        &["judge", "--check-sandbox", "--bots", bots.to_str().unwrap()],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("NOT CONTAINED"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_judge_that_is_not_root_contains_its_bots_in_user_namespaces() {
    let (_dir, bots, out_dir) = nobodys_bots();
    let delegated = common::Delegated::new();
    let as_user = |args: &[&str]| {
        delegated
            .command(env!("CARGO_BIN_EXE_inarow"))
            .args(args)
            .output()
            .unwrap()
    };
    let bots_arg = bots.to_str().unwrap();
    let out = as_user(&["judge", "--check-sandbox", "--bots", bots_arg]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    assert!(
        report.contains("by a user namespace nested in the launcher's: in force"),
        "{report}"
    );
    assert!(!report.contains("MISSING"), "{report}");
    assert_eq!(report.matches(": contained").count(), 2, "{report}");
    // What the contract leaves open is named (issue 54): the host's counts
    // between games at once, and the user's own kernel tables.
    let open = report
        .lines()
        .find(|l| l.trim_start().starts_with("host counts:"))
        .unwrap_or_else(|| panic!("no host counts clause: {report}"));
    assert!(open.contains("open: sysinfo()"), "{open}");
    assert!(open.contains("-j 1 plays no two games at once"), "{open}");
    let tables = report
        .lines()
        .find(|l| l.trim_start().starts_with("user tables:"))
        .unwrap_or_else(|| panic!("no user tables clause: {report}"));
    assert!(
        tables.contains("by a subordinate uid of the judge's user") && tables.ends_with("in force"),
        "{tables}"
    );
    let results = out_dir.join("r.json");
    let sgf = out_dir.join("sgf");
    let play = [
        "judge",
        "--seed",
        "8",
        "--bots",
        bots_arg,
        "--results",
        results.to_str().unwrap(),
        "--sgf",
        sgf.to_str().unwrap(),
    ];
    let out = as_user(&play);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(written["games"].as_array().unwrap().len(), 2);
}

/// An ordinary user's judge with no control group of its own (no
/// delegation) cannot bound its bots' memory or processors over all their
/// processes: it says so in one line and refuses to start, unless told the
/// bounds are off; then it still freezes each bot between its answers, by
/// stopping every process of its PID namespace.
#[test]
fn without_a_delegated_cgroup_an_ordinary_judge_refuses_unless_told_unbounded() {
    if !inarow_sandbox::judge_is_root() {
        // The tests' own user may have a delegated cgroup, or not.
        return;
    }
    let (_dir, bots, out_dir) = nobodys_bots();
    let results = out_dir.join("r.json");
    let as_nobody = |extra: &[&str]| {
        Command::new("setpriv")
            .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
            .arg(common::for_nobody(Path::new(env!("CARGO_BIN_EXE_inarow"))))
            .args(["judge", "--seed", "3", "--timeout", "30", "--bots"])
            .arg(&bots)
            // nobody has no subordinate ids outside a `Delegated`.
            .arg("--bots-share-my-user")
            .arg("--results")
            .arg(&results)
            .arg("--sgf")
            .arg(out_dir.join("sgf"))
            .args(extra)
            .output()
            .unwrap()
    };
    let out = as_nobody(&[]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("memory controller")
            && stderr.contains("systemd-run --user --scope -p Delegate=yes")
            && stderr.contains("--memory unbounded"),
        "{stderr}"
    );
    assert!(!results.exists());
    let out = as_nobody(&["--memory", "unbounded"]);
    assert!(
        text(&out.stderr).contains("--cpus unbounded"),
        "{}",
        text(&out.stderr)
    );
    let out = as_nobody(&["--memory", "unbounded", "--cpus", "unbounded"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    for game in written["games"].as_array().unwrap() {
        assert!(game["forfeit"].is_null(), "{game}");
    }
}

/// A bots folder with two good bots (`ann`, `honest`) and `evil`, whose
/// meta runs the honest bot's program from outside its own folder.
fn with_a_bad_bot(dir: &Path) -> (PathBuf, PathBuf) {
    let bots = dir.join("bots");
    let ann = bot(&bots, "ann", "play=random");
    bot(&bots, "honest", "play=random");
    let evil = bot(&bots, "evil", "play=random");
    fs::write(evil.join("meta"), "evil\n../honest/bot.py\n\n0\n").unwrap();
    (ann, evil)
}

#[test]
fn a_bad_bot_is_left_out_and_the_others_play() {
    let dir = common::workspace();
    let (_, evil) = with_a_bad_bot(dir.path());
    let (out, results, sgf) = judge(dir.path(), &["--seed", "6", "-j", "1"], "left-out");
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("evil")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with(&format!(
            "inarow judge: leaving out {}: meta: line 2: the command \"../honest/bot.py\"",
            evil.display()
        )),
        "{stderr}"
    );
    assert!(!evil.join("log.txt").exists(), "the bad bot never ran");
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(results["bots"], serde_json::json!(["ann", "honest"]));
    let left = results["left_out"].as_array().unwrap();
    assert_eq!(left.len(), 1, "{results}");
    assert_eq!(left[0]["folder"], "evil");
    let reason = left[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("meta: line 2: the command \"../honest/bot.py\" is refused")
            && !reason.contains(&*dir.path().to_string_lossy()),
        "a reason that names no path of this machine: {reason}"
    );
    assert_eq!(results["games"].as_array().unwrap().len(), 2);
    assert_eq!(fs::read_dir(sgf).unwrap().count(), 2);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("2 bots, 2 games"), "{stdout}");
}

#[test]
fn with_strict_a_bad_bot_stops_the_judge_before_any_game() {
    let dir = common::workspace();
    let (ann, evil) = with_a_bad_bot(dir.path());
    let results = dir.path().join("results.json");
    let out = inarow()
        .args(["judge", "--strict", "--timeout", "30", "--bots"])
        .arg(dir.path().join("bots"))
        .arg("--results")
        .arg(&results)
        .arg("--sgf")
        .arg(dir.path().join("sgf"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&*evil.to_string_lossy())
            && stderr.contains("../honest/bot.py")
            && stderr.contains("--strict"),
        "{stderr}"
    );
    assert!(!ann.join("log.txt").exists(), "no game was played");
    assert!(!results.exists());
    assert!(text(&out.stdout).is_empty());
}

#[test]
fn one_good_bot_is_no_tournament() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    let ann = bot(&bots, "ann", "play=random");
    let out = inarow()
        .args(["judge", "--bots"])
        .arg(&bots)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("holds 1 bot(s) that can play"), "{stderr}");
    // A second folder giving the same name: both are left out, and the
    // one line names each and why.
    let twin = bot(&bots, "twin", "play=random");
    fs::write(twin.join("meta"), "ann\npython3\nfake_bot.py\n0\n").unwrap();
    let out = inarow()
        .args(["judge", "--bots"])
        .arg(&bots)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("holds 0 bot(s) that can play"), "{stderr}");
    for (folder, other) in [("ann", "twin"), ("twin", "ann")] {
        assert!(
            stderr.contains(&format!(
                "{folder}: meta: the name \"ann\" is also given by the bot in folder {other}: both are left out (inarow judge --rename FOLDER=NAME decides)"
            )),
            "{stderr}"
        );
    }
    assert!(!ann.join("log.txt").exists());
}

#[test]
fn read_grants_to_one_bot_name_a_bot_of_the_folder() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    let ann = bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let books = dir.path().join("books");
    fs::create_dir_all(&books).unwrap();
    let refused = |grant: &str, says: &str| {
        let out = inarow()
            .args(["judge", "--timeout", "30", "--bots"])
            .arg(&bots)
            .args(["--allow-read", grant])
            .arg("--results")
            .arg(dir.path().join("results.json"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{grant}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{grant}: {stderr}");
        assert!(stderr.contains(says), "{grant}: {stderr}");
    };
    let books_arg = books.to_str().unwrap();
    refused(
        &format!("nobody={books_arg}"),
        "holds no bot folder \"nobody\" (name a bot by its folder's name)",
    );
    refused(
        &format!("ann={}", bots.join("ben").display()),
        "--allow-read for bot ann: cannot grant",
    );
    refused(&format!("ann={books_arg}/none"), "cannot grant");
    refused(bots.to_str().unwrap(), "it would open");
    assert!(!ann.join("log.txt").exists(), "no game was played");
    assert!(!dir.path().join("results.json").exists());
    // By folder, a good grant plays.
    let (_, results, _) = judge(
        dir.path(),
        &["--seed", "2", "--allow-read", &format!("ann={books_arg}")],
        "granted",
    );
    assert!(results.contains("\"games\""));
    // Sizes are read as --memory reads them.
    let out = inarow()
        .args(["judge", "--disk", "lots", "--bots"])
        .arg(&bots)
        .output()
        .unwrap();
    assert_eq!(
        text(&out.stderr),
        "inarow: --disk must be a size of at least 1 byte such as 64k, 512M or 2G, got lots\n"
    );
    let out = inarow()
        .args(["judge", "--stderr-limit", "0", "--bots"])
        .arg(&bots)
        .output()
        .unwrap();
    assert_eq!(
        text(&out.stderr),
        "inarow: --stderr-limit must be a size of at least 1 byte such as 64k, 512M or 2G, got 0\n"
    );
}

#[test]
fn bots_in_a_folder_only_root_may_enter_play_as_their_own_users_without_a_warning() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    // A `mktemp -d` (mode 700, root's when the tests run as root): no bot's
    // uid could enter it, but each bot sees only its own folder, at its path.
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
    let bots = dir.path().join("bots");
    for name in ["ann", "ben"] {
        let folder = bot(&bots, name, "play=random");
        // Each bot keeps a file of its own; the fake bot logs its games.
        fs::write(folder.join("keep.txt"), name).unwrap();
    }
    let (out, results, _) = judge(dir.path(), &["--seed", "5"], "closed");
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("warning"), "{stderr}");
    assert!(!results.contains("\"forfeit\": {"), "{results}");
    for name in ["ann", "ben"] {
        let log = bots.join(name).join("log.txt");
        let meta = fs::metadata(&log).unwrap_or_else(|e| panic!("{name} kept no log: {e}"));
        // Written by the bot's own uid, kept on disk as the folder owner's.
        assert_eq!(meta.uid(), fs::metadata(bots.join(name)).unwrap().uid());
    }
}

#[test]
fn a_bot_whose_program_is_not_there_is_left_out_and_the_others_play() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let ghost = bots.join("ghost");
    fs::create_dir_all(&ghost).unwrap();
    fs::write(ghost.join("meta"), "ghost\n./missing\n\n0\n").unwrap();
    let (out, results, _) = judge(dir.path(), &["--seed", "3"], "left-out");
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("ghost")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("./missing"), "{stderr}");
    assert!(results.contains("\"left_out\""), "{results}");
    assert!(!results.contains("\"forfeit\": {"), "{results}");
}

/// A bot that tries to read the file named by its first argument, notes
/// `read PATH: ok TEXT` or `read PATH: denied` in `read.txt` in its own
/// folder (a bot sees an ungranted path as missing), then plays as the fake
/// bot (copied beside it) plays at random.
const READER_BOT: &str = r#"import os, sys
path = sys.argv[1]
try:
    with open(path) as f:
        what = "ok " + f.read().strip()
except OSError:
    what = "denied"
with open("read.txt", "a") as f:
    f.write("read %s: %s\n" % (path, what))
os.execv(sys.executable, [sys.executable, "fake_bot.py", "play=random"] + sys.argv[2:])
"#;

/// A reader bot (see [`READER_BOT`]) in folder `folder` whose meta gives
/// `name` and which tries to read `secret`.
fn reader(bots: &Path, folder: &str, name: &str, secret: &Path) -> PathBuf {
    let folder = bot(bots, folder, "");
    fs::write(folder.join("reader.py"), READER_BOT).unwrap();
    let meta = format!("{name}\npython3\nreader.py {}\n0\n", secret.display());
    fs::write(folder.join("meta"), meta).unwrap();
    folder
}

#[test]
fn a_bot_that_names_itself_like_another_steals_no_grant() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    let ann = bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let secret = dir.path().join("secret.txt");
    fs::write(&secret, "the honest bot's book\n").unwrap();
    let honest = reader(&bots, "honest", "honest", &secret);
    // Its meta gives the honest bot's name, to get the grant meant for it.
    let evil = reader(&bots, "evil", "honest", &secret);
    let grant = format!("honest={}", secret.display());

    // Which folder is meant is not the judge's guess: neither plays.
    let (out, results, _) = judge(
        dir.path(),
        &["--seed", "1", "--allow-read", &grant],
        "twins",
    );
    let stderr = text(&out.stderr);
    for (folder, other) in [(&evil, "honest"), (&honest, "evil")] {
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains(&format!("leaving out {}:", folder.display())))
            .collect();
        assert_eq!(lines.len(), 1, "{stderr}");
        assert!(
            lines[0].ends_with(&format!(
                ": meta: the name \"honest\" is also given by the bot in folder {other}: both are left out (inarow judge --rename FOLDER=NAME decides)"
            )),
            "{stderr}"
        );
    }
    assert_eq!(stderr.matches("leaving out").count(), 2, "{stderr}");
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(results["bots"], serde_json::json!(["ann", "ben"]));
    let left: Vec<&str> = results["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["folder"].as_str().unwrap())
        .collect();
    assert_eq!(left, ["evil", "honest"]);
    assert_eq!(results["games"].as_array().unwrap().len(), 2);
    for folder in [&honest, &evil] {
        assert!(!folder.join("read.txt").exists(), "a twin never ran");
    }

    // The organiser decides: evil plays as impostor, the grant reaches
    // only the folder it names.
    let (out, results, _) = judge(
        dir.path(),
        // One game at a time: each game's writes land in the folder when
        // it ends, so two games at once would each append to the file as
        // it was when they began.
        &[
            "--seed",
            "1",
            "-j",
            "1",
            "--rename",
            "evil=impostor",
            "--allow-read",
            &grant,
        ],
        "renamed",
    );
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("leaving out"), "{stderr}");
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(
        results["bots"],
        serde_json::json!(["ann", "ben", "impostor", "honest"])
    );
    assert!(results.get("left_out").is_none(), "{results}");
    assert_eq!(results["games"].as_array().unwrap().len(), 12);
    let read = |folder: &Path| fs::read_to_string(folder.join("read.txt")).unwrap();
    let (honest_read, evil_read) = (read(&honest), read(&evil));
    let path = secret.display();
    assert_eq!(
        honest_read,
        format!("read {path}: ok the honest bot's book\n").repeat(6)
    );
    assert_eq!(evil_read, format!("read {path}: denied\n").repeat(6));
    assert!(
        fs::read_to_string(evil.join("args.txt"))
            .unwrap()
            .starts_with("play=random\n"),
        "the reader ran the fake bot"
    );
    let stdout = text(&out.stdout);
    assert!(!stdout.contains(" forfeits: "), "{stdout}");

    // Debugged alone, each bot gets the grants to its folder only.
    for (folder, name, said) in [("evil", "impostor", "denied"), ("honest", "honest", "ok")] {
        fs::remove_file(bots.join(folder).join("read.txt")).unwrap();
        let out = inarow()
            .args(["judge", "--seed", "3", "--timeout", "30", "--bots"])
            .arg(&bots)
            // nobody has no subordinate ids outside a `Delegated`.
            .arg("--bots-share-my-user")
            .args([
                "-d",
                folder,
                "--rename",
                "evil=impostor",
                "--allow-read",
                &grant,
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains(&format!("debugging {name} against")),
            "{stdout}"
        );
        let log = read(&bots.join(folder));
        assert!(
            log.starts_with(&format!("read {path}: {said}")),
            "{folder}: {log}"
        );
    }

    // A grant names a folder, never a name, the organiser's included; a
    // rename must name a folder and a free, good name. Each is one line,
    // before any game.
    fs::remove_file(ann.join("log.txt")).unwrap();
    let refused = |extra: &[&str], says: &str| {
        let out = inarow()
            .args(["judge", "--seed", "1", "--bots"])
            .arg(&bots)
            .args(extra)
            .arg("--results")
            .arg(dir.path().join("refused.json"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{extra:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
        assert!(text(&out.stdout).is_empty(), "{extra:?}");
    };
    let by_name = format!("impostor={}", secret.display());
    refused(
        &["--rename", "evil=impostor", "--allow-read", &by_name],
        "holds no bot folder \"impostor\" (name a bot by its folder's name)",
    );
    refused(
        &["--rename", "evil=honest"],
        "--rename evil=honest: the name \"honest\" is also given by the bot in folder honest",
    );
    refused(
        &["--rename", "evil=ann"],
        "--rename evil=ann: the name \"ann\" is also given by the bot in folder ann",
    );
    refused(&["--rename", "nobody=x"], "--rename nobody=x: ");
    refused(&["--rename", "evil=--help"], "starts with '-'");
    refused(&["--rename", "evil=a;b"], "use ASCII letters, digits");
    refused(&["--rename", "evil"], "write FOLDER=NAME");
    assert!(!ann.join("log.txt").exists(), "no game was played");
    assert!(!dir.path().join("refused.json").exists());
}

/// A bot that writes terminal escapes (clear the screen, set the window
/// title, write the clipboard with OSC 52, CSI as one C1 character) and a
/// bidirectional override on its standard error, then answers every prompt
/// with the same bytes.
const NOISY_BOT: &str = r#"import sys
junk = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\u202eevil\u202c\x9b2J"
sys.stderr.buffer.write(("noisy " + junk + "\n").encode())
sys.stderr.flush()
for line in sys.stdin:
    if line.startswith("EXIT"):
        break
    sys.stdout.buffer.write((junk + "\n").encode())
    sys.stdout.flush()
"#;

/// Whether `bytes` hold anything a terminal would obey from a bot: ESC,
/// BEL, a C1 control or a bidirectional override.
fn holds_raw_controls(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    bytes.contains(&0x1b)
        || bytes.contains(&0x07)
        || text.contains(['\u{9b}', '\u{202e}', '\u{202c}'])
}

#[test]
fn what_a_bot_writes_reaches_the_terminal_and_the_files_escaped() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let noisy = bots.join("noisy");
    fs::create_dir_all(&noisy).unwrap();
    fs::write(noisy.join("noisy.py"), NOISY_BOT).unwrap();
    fs::write(noisy.join("meta"), "noisy\npython3\nnoisy.py\n1\n").unwrap();

    let (out, results, sgf) = judge(dir.path(), &["--seed", "7"], "noisy");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(!holds_raw_controls(&out.stdout), "{stdout:?}");
    assert!(!holds_raw_controls(&out.stderr), "{stderr:?}");
    // Its standard error, shown as the meta file asks, written out.
    let shown =
        r"noisy ! noisy \x1b[2J\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\u{202e}evil\u{202c}\u{9b}2J";
    assert_eq!(stderr.matches(shown).count(), 4, "{stderr}");
    // Its answers forfeit its games, quoted escaped.
    assert_eq!(
        stdout.matches("noisy forfeits: bad syntax").count(),
        4,
        "{stdout}"
    );
    assert!(!holds_raw_controls(results.as_bytes()));
    let parsed: serde_json::Value = serde_json::from_str(&results).unwrap();
    let games = parsed["games"].as_array().unwrap();
    let reasons: Vec<&str> = games
        .iter()
        .filter_map(|g| g["forfeit"]["reason"].as_str())
        .collect();
    assert_eq!(reasons.len(), 4, "{results}");
    for reason in reasons {
        assert!(!reason.contains(|c: char| c.is_control()), "{reason:?}");
        assert!(!reason.contains(['\u{202e}', '\u{202c}']), "{reason:?}");
        assert!(reason.contains("]52;c;cHduZWQ="), "{reason:?}");
    }
    for record in fs::read_dir(&sgf).unwrap() {
        let game = fs::read(record.unwrap().path()).unwrap();
        assert!(!holds_raw_controls(&game), "{}", text(&game));
    }

    // Under -d every line is on standard output: its answers and its
    // standard error, escaped.
    let out = inarow()
        .args(["judge", "--seed", "3", "--timeout", "30", "--bots"])
        .arg(&bots)
        .args(["-d", "noisy"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!holds_raw_controls(&out.stdout), "{:?}", text(&out.stdout));
    assert!(!holds_raw_controls(&out.stderr), "{:?}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for needle in [
        r"noisy > \x1b[2J\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\u{202e}evil\u{202c}\u{9b}2J",
        r"noisy ! noisy \x1b[2J",
        "game 1: noisy opens; noisy forfeits: bad syntax",
        "game 2: house opens; noisy forfeits: bad syntax",
    ] {
        assert!(stdout.contains(needle), "{needle:?} missing from\n{stdout}");
    }
}

/// A bot's files are kept one by one when its game ends; where its folder's
/// own file system is full, what could not be kept is said in one line
/// (`NAME * ...`), and the folder holds each file whole or not at all.
#[test]
fn what_could_not_be_kept_in_a_full_folder_is_said() {
    if !inarow_sandbox::judge_is_root() {
        // Making a small file system needs root.
        return;
    }
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    fs::create_dir_all(&bots).unwrap();
    // The bots folder on a file system of 2 MiB.
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=2m,mode=755", "tmpfs"])
        .arg(&bots)
        .status()
        .unwrap();
    assert!(mounted.success());
    /// Unmounts the small file system however the test ends.
    struct Mounted<'a>(&'a Path);
    impl Drop for Mounted<'_> {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg("-l").arg(self.0).status();
        }
    }
    let _mounted = Mounted(&bots);
    bot(&bots, "ann", "play=random big=3000");
    bot(&bots, "ben", "play=random");
    let (out, results, _) = judge(dir.path(), &["--seed", "2", "-j", "1"], "full");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ann * what it wrote in this game could not all be kept"))
        .collect();
    assert_eq!(said.len(), 2, "one line a game: {stderr}");
    assert!(said[0].contains("No space left on device"), "{stderr}");
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    for game in results["games"].as_array().unwrap() {
        assert!(
            game["forfeit"].is_null(),
            "within its --disk, no forfeit: {game}"
        );
    }
}

/// Runs `inarow ARGS` with its standard error on a terminal (a pseudo
/// terminal 120 columns wide, as a person's), so that the judge draws its
/// live bar; what reached that terminal, and the exit code.
fn on_a_terminal(args: &[&std::ffi::OsStr]) -> (Vec<u8>, Option<i32>) {
    const RUN: &str = r#"
import fcntl, os, pty, struct, subprocess, sys, termios
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
seen = []
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    seen.append(chunk)
sys.stdout.buffer.write(b"".join(seen))
sys.exit(child.wait())
"#;
    let out = Command::new("python3")
        .args(["-c", RUN])
        .arg(env!("CARGO_BIN_EXE_inarow"))
        .args(args)
        .output()
        .unwrap();
    (out.stdout, out.status.code())
}

/// Bots' standard error lines are printed above the live bar, each whole:
/// the bar is cleared for them and drawn again below, never inside one.
#[test]
fn bot_lines_print_whole_above_the_live_bar() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    let names = ["ann", "ben", "cat", "dan"];
    for name in names {
        let folder = bot(&bots, name, "play=random");
        // Shown: the fake bot says one line as it starts each game.
        fs::write(
            folder.join("meta"),
            format!("{name}\npython3\nfake_bot.py play=random\n1\n"),
        )
        .unwrap();
    }
    let results = dir.path().join("results.json");
    let sgf = dir.path().join("sgf");
    let args: Vec<&std::ffi::OsStr> = vec![
        "judge".as_ref(),
        "--seed".as_ref(),
        "4".as_ref(),
        "-j".as_ref(),
        "3".as_ref(),
        "--timeout".as_ref(),
        "30".as_ref(),
        "--bots".as_ref(),
        bots.as_os_str(),
        "--results".as_ref(),
        results.as_os_str(),
        "--sgf".as_ref(),
        sgf.as_os_str(),
    ];
    let (seen, code) = on_a_terminal(&args);
    let seen = text(&seen);
    assert_eq!(code, Some(0), "{seen:?}");
    // The bar was drawn (its games count), so the lines met it.
    assert!(seen.contains("/12 games"), "{seen:?}");
    // Two bots start in each of the 12 games: 24 lines, each from its
    // bot's name to its end of line with nothing between (the terminal
    // ends a line with \r\n).
    let mut whole = 0;
    for (at, _) in seen.match_indices(" ! fake bot ") {
        let start = seen[..at]
            .rfind(['\n', '\r', 'm', 'K'])
            .map_or(0, |i| i + 1);
        let end = at + seen[at..].find('\n').unwrap();
        let line = &seen[start..end];
        let name = &seen[start..at];
        assert!(names.contains(&name), "{line:?} in {seen:?}");
        let rest = line[name.len()..].trim_end_matches('\r');
        let opponent = rest
            .strip_prefix(" ! fake bot ")
            .and_then(|r| r.split_once(" starting against "))
            .map(|(pid, opponent)| {
                assert!(pid.chars().all(|c| c.is_ascii_digit()), "{line:?}");
                opponent
            });
        assert!(
            opponent.is_some_and(|o| names.contains(&o) && o != name),
            "a broken line {line:?} in {seen:?}"
        );
        whole += 1;
    }
    assert_eq!(whole, 24, "{seen:?}");
}
