//! `inarow judge` plays a bot's games one at a time, so that `-j` changes
//! nothing a bot sees; and runs never mix: a second run in one folder keeps
//! the first one's files, and a run refused before its first game leaves
//! the folder as it was.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A bot folder `name` (and named so) running the fake bot with `opts`.
fn bot(bots: &Path, name: &str, opts: &str) -> PathBuf {
    common::fake_bot_folder(bots, name, name, opts)
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

fn succeeded(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// How many games the counting bot in `folder` counted.
fn counted(folder: &Path) -> String {
    fs::read_to_string(folder.join("count.txt")).unwrap_or_default()
}

/// Three bots that count their games in a file (read at start, written at
/// `EXIT`), in tournaments of one seed at `-j 1`, `-j 2` and `-j 3`, by a
/// root judge or by an ordinary user's (`nobody`, in control groups given
/// to it, when the tests run as root): each bot counts every game it played
/// (4), and the results files are byte for byte the same. A judge that let
/// two games of one bot overlap would lose counts (the judge crate's
/// `two_games_of_one_bot_at_once_lose_a_count` shows it).
fn each_game_counts(as_user: bool) {
    let mut results = Vec::new();
    for jobs in ["1", "2", "3"] {
        let dir = common::workspace();
        let bots = dir.path().join("bots");
        let folders: Vec<PathBuf> = ["ann", "ben", "cat"]
            .iter()
            .map(|name| bot(&bots, name, "play=random count=1"))
            .collect();
        let delegated = common::Delegated::new();
        let mut judge = if as_user {
            common::give_to_nobody(dir.path());
            delegated.command(env!("CARGO_BIN_EXE_inarow"))
        } else {
            Command::new(env!("CARGO_BIN_EXE_inarow"))
        };
        let out = judge
            .args(["judge", "--seed", "21", "-j", jobs, "--timeout", "30"])
            .arg("--bots")
            .arg(&bots)
            .arg("--results")
            .arg(dir.path().join("results.json"))
            .arg("--sgf")
            .arg(dir.path().join("sgf"))
            .output()
            .unwrap();
        let stdout = succeeded(&out);
        assert!(
            // Any two games of three bots share one: never two at once.
            stdout.contains("6 games, 1 at once"),
            "{stdout}"
        );
        for folder in &folders {
            assert_eq!(counted(folder), "4\n", "-j {jobs}: {}", folder.display());
        }
        results.push(fs::read(dir.path().join("results.json")).unwrap());
    }
    assert!(results[0] == results[1] && results[1] == results[2]);
}

#[test]
fn each_game_of_a_bot_starts_from_the_folder_its_last_game_left_under_a_root_judge() {
    each_game_counts(false);
}

#[test]
fn each_game_of_a_bot_starts_from_the_folder_its_last_game_left_under_an_ordinary_judge() {
    each_game_counts(true);
}

/// The example bot random-js, with the engine and the Python example, in a
/// `-j 2` tournament: its memory counts every game it played.
#[test]
fn random_js_remembers_every_game_of_a_parallel_tournament() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    for name in ["random-js", "random-python"] {
        let folder = bots.join(name);
        fs::create_dir_all(&folder).unwrap();
        for file in fs::read_dir(repo.join("bots").join(name)).unwrap() {
            let path = file.unwrap().path();
            if path.file_name().unwrap() != "memory.json" {
                fs::copy(&path, folder.join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    // A fourth bot, so that two games of disjoint bots can be played at once.
    bot(&bots, "ann", "play=random");
    common::engine_bot(&bots, "inarow", 300);
    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args([
            "judge",
            "--seed",
            "3",
            "-j",
            "2",
            "--timeout",
            "30",
            "--bots",
        ])
        .arg(&bots)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = succeeded(&out);
    assert!(!stdout.contains("forfeits:"), "{stdout}");
    let memory = fs::read_to_string(bots.join("random-js/memory.json")).unwrap();
    let memory: serde_json::Value = serde_json::from_str(&memory).unwrap();
    for opponent in ["random-python", "ann", "inarow"] {
        assert_eq!(memory[opponent]["played"], 2, "{opponent}: {memory}");
    }
}

/// Every file under `dir` with its length and a hash of its bytes (a
/// folder as `/`), `skip` aside.
fn tree(dir: &Path, skip: &[&str]) -> BTreeMap<String, String> {
    use std::hash::{Hash, Hasher};
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        let name = path.strip_prefix(dir).unwrap().display().to_string();
        if skip.iter().any(|s| name.starts_with(s)) {
            continue;
        }
        if path.is_dir() {
            stack.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            found.insert(format!("{name}/"), String::new());
        } else {
            let bytes = fs::read(&path).unwrap();
            let mut hasher = std::hash::DefaultHasher::new();
            bytes.hash(&mut hasher);
            found.insert(
                name,
                format!("{} bytes, {:x}", bytes.len(), hasher.finish()),
            );
        }
    }
    found
}

/// The names in `folder`, sorted.
fn names_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// `inarow judge ARGS` in `dir` with its bots folder `bots`, uncontained:
/// the sandbox is not the point here.
fn judge_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["judge", "--no-sandbox", "--timeout", "30", "--bots", "bots"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_second_run_in_one_folder_keeps_the_first_runs_results_and_records() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    bot(&bots, "ann", "play=random");
    bot(&bots, "ben", "play=random");
    let first = judge_in(dir.path(), &["--seed", "1"]);
    let stdout = succeeded(&first);
    assert!(
        text(&first.stderr)
            .contains("writing the results to results.json and the SGF records into sgf"),
        "{}",
        text(&first.stderr)
    );
    assert!(stdout.contains("results in results.json, SGF records in sgf"));
    let kept = tree(dir.path(), &["bots"]);
    assert_eq!(
        kept.keys().collect::<Vec<_>>(),
        [
            "/",
            "results.json",
            "sgf/",
            "sgf/game-0000-ann-vs-ben.sgf",
            "sgf/game-0001-ben-vs-ann.sgf"
        ]
        .iter()
        .collect::<Vec<_>>()
    );

    for (seed, n) in [("2", 2), ("3", 3)] {
        let again = judge_in(dir.path(), &["--seed", seed]);
        let stdout = succeeded(&again);
        let stderr = text(&again.stderr);
        // Said before the first game, and at the end.
        let before = format!(
            "inarow judge: writing the results to results-{n}.json and the SGF records into sgf-{n} (results.json or sgf holds another run's files, which are kept)"
        );
        assert!(stderr.lines().any(|l| l == before), "{stderr}");
        assert!(
            stdout.ends_with(&format!(
                "results in results-{n}.json, SGF records in sgf-{n}\n"
            )),
            "{stdout}"
        );
        let written: serde_json::Value = serde_json::from_str(
            &fs::read_to_string(dir.path().join(format!("results-{n}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(written["seed"].to_string(), seed);
        assert_eq!(names_in(&dir.path().join(format!("sgf-{n}"))).len(), 2);
        // The first run's files, byte for byte, and nothing added to them.
        let now = tree(dir.path(), &["bots", "results-", "sgf-"]);
        assert_eq!(now, kept, "after run {n}");
    }

    // Explicit names are numbered the same way: FILE-2.json with DIR-2.
    for round in ["first", "second"] {
        let out = judge_in(
            dir.path(),
            &[
                "--seed",
                "4",
                "--results",
                "out/r.json",
                "--sgf",
                "out/records",
            ],
        );
        if round == "first" {
            // No folder for the results: refused, and nothing made.
            assert!(!out.status.success());
            assert!(!dir.path().join("out").exists());
            fs::create_dir(dir.path().join("out")).unwrap();
            succeeded(&judge_in(
                dir.path(),
                &[
                    "--seed",
                    "4",
                    "--results",
                    "out/r.json",
                    "--sgf",
                    "out/records",
                ],
            ));
            assert_eq!(names_in(&dir.path().join("out")), ["r.json", "records"]);
        } else {
            let stdout = succeeded(&out);
            assert!(
                stdout.ends_with("results in out/r-2.json, SGF records in out/records-2\n"),
                "{stdout}"
            );
            assert_eq!(
                names_in(&dir.path().join("out")),
                ["r-2.json", "r.json", "records", "records-2"]
            );
        }
    }
}

/// Two bots of the house in `bots/`, named `names`, that write nothing in
/// their folders.
fn house_bots(bots: &Path, names: &[&str]) {
    for name in names {
        let folder = bots.join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(
            folder.join("meta"),
            format!("{name}\ninarow\nbot --house\n0\n"),
        )
        .unwrap();
    }
}

#[test]
fn two_runs_started_at_once_in_one_folder_each_keep_their_own_pair() {
    // Each run's bots have names of their own, so that a record in the
    // wrong SGF folder shows; 50 rounds, a fresh folder each, both runs
    // started before either is waited for. (The judge crate's
    // `runs_started_at_once_claim_a_pair_each_where_a_look_alone_collides`
    // is the control: a look and a write at the end collide.)
    let runs = [
        ("1", "bots-a", ["ann", "ben"]),
        ("2", "bots-b", ["cat", "dan"]),
    ];
    for round in 0..50 {
        let dir = common::workspace();
        for (_, bots, names) in runs {
            house_bots(&dir.path().join(bots), &names);
        }
        let started: Vec<_> = runs
            .iter()
            .map(|(seed, bots, _)| {
                Command::new(env!("CARGO_BIN_EXE_inarow"))
                    .args(["judge", "--no-sandbox", "--timeout", "30", "-j", "1"])
                    .args(["--seed", seed, "--bots", bots])
                    .current_dir(dir.path())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outs: Vec<Output> = started
            .into_iter()
            .map(|run| run.wait_with_output().unwrap())
            .collect();
        let mut pairs = Vec::new();
        for ((seed, _, names), out) in runs.iter().zip(&outs) {
            let stdout = succeeded(out);
            let kept = stdout.lines().last().unwrap();
            let (results, sgf) = kept
                .strip_prefix("results in ")
                .and_then(|rest| rest.split_once(", SGF records in "))
                .unwrap_or_else(|| panic!("round {round}: {stdout}"));
            let written: serde_json::Value =
                serde_json::from_str(&fs::read_to_string(dir.path().join(results)).unwrap())
                    .unwrap();
            assert_eq!(written["seed"].to_string(), *seed, "round {round}");
            // Its records whole in its own folder, and no other run's.
            let records = names_in(&dir.path().join(sgf));
            assert_eq!(
                records.len(),
                written["games"].as_array().unwrap().len(),
                "round {round}: {records:?}"
            );
            assert!(
                records
                    .iter()
                    .all(|r| r.contains(names[0]) && r.contains(names[1])),
                "round {round}: {sgf} holds {records:?}"
            );
            pairs.push((results.to_string(), sgf.to_string()));
        }
        pairs.sort();
        assert_eq!(
            pairs,
            [
                ("results-2.json".to_string(), "sgf-2".to_string()),
                ("results.json".to_string(), "sgf".to_string())
            ],
            "round {round}"
        );
        // The one that found the first pair claimed said where it writes.
        assert!(
            outs.iter().any(|out| text(&out.stderr).contains(
                "writing the results to results-2.json and the SGF records into sgf-2 (results.json or sgf holds another run's files, which are kept)"
            )),
            "round {round}"
        );
    }
}

#[test]
fn shares_keep_to_their_own_records_and_a_merge_never_writes_over_one() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    // Bots that write nothing in their folders: every share must find the
    // folders as the others did.
    house_bots(&bots, &["ann", "ben", "cat"]);
    let share = |index: &str| {
        let out = judge_in(
            dir.path(),
            &["--seed", "5", "--shard", index, "--sgf", "sgf-parts"],
        );
        (succeeded(&out), text(&out.stderr))
    };
    // The shares of one tournament write their records into one folder.
    let (first, said) = share("0/2");
    assert!(first.contains("part in part-0-of-2.json"), "{first}");
    assert!(
        said.contains("writing the part to part-0-of-2.json and the SGF records into sgf-parts\n"),
        "{said}"
    );
    let (second, _) = share("1/2");
    assert!(second.contains("part in part-1-of-2.json"), "{second}");
    assert_eq!(names_in(&dir.path().join("sgf-parts")).len(), 6);
    let parts = tree(dir.path(), &["bots"]);
    // A share played again keeps the first one's part and records.
    let (again, said) = share("1/2");
    assert!(
        again.contains("part in part-1-of-2-2.json, their SGF records in sgf-parts-2"),
        "{again}"
    );
    assert!(said.contains("which are kept"), "{said}");
    assert_eq!(
        tree(dir.path(), &["bots", "part-1-of-2-2.json", "sgf-parts-2"]),
        parts
    );
    assert_eq!(names_in(&dir.path().join("sgf-parts-2")).len(), 3);

    let merge = || {
        let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["judge", "merge", "part-0-of-2.json", "part-1-of-2.json"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        (succeeded(&out), text(&out.stderr))
    };
    let (merged, _) = merge();
    assert!(
        merged.ends_with("results in results.json, SGF records in sgf\n"),
        "{merged}"
    );
    let results = fs::read(dir.path().join("results.json")).unwrap();
    let (again, said) = merge();
    assert!(
        said.contains("inarow judge merge: writing the results to results-2.json and the SGF records into sgf-2"),
        "{said}"
    );
    assert!(
        again.ends_with("results in results-2.json, SGF records in sgf-2\n"),
        "{again}"
    );
    assert_eq!(fs::read(dir.path().join("results.json")).unwrap(), results);
    assert_eq!(
        fs::read(dir.path().join("results-2.json")).unwrap(),
        results
    );
    assert_eq!(
        names_in(&dir.path().join("sgf")),
        names_in(&dir.path().join("sgf-2"))
    );
}

#[test]
fn a_run_refused_before_its_first_game_leaves_the_folder_as_it_was() {
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    let ann = bot(&bots, "ann", "play=random");
    // An earlier run's files, to be left alone.
    fs::write(dir.path().join("results.json"), "an earlier run").unwrap();
    fs::create_dir(dir.path().join("sgf")).unwrap();
    fs::write(dir.path().join("sgf/game-0000-x-vs-y.sgf"), "(;)").unwrap();
    let before = tree(dir.path(), &[]);
    let refused = |args: &[&str], says: &str| {
        let out = judge_in(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = text(&out.stderr);
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|l| !l.contains("warning: --no-sandbox"))
            .collect();
        assert_eq!(lines.len(), 1, "{args:?}: {stderr}");
        assert!(lines[0].contains(says), "{args:?}: {stderr}");
        assert_eq!(tree(dir.path(), &[]), before, "{args:?}");
    };
    // One bot is no tournament: refused after the names were chosen.
    refused(&[], "holds 1 bot(s) that can play");
    refused(&["--sgf", "deep/er/sgf"], "holds 1 bot(s) that can play");
    refused(
        &["--results", "r.json", "--sgf", "new"],
        "holds 1 bot(s) that can play",
    );
    // A bad flag value, a bad rename.
    refused(&["-j", "0"], "--jobs must be a whole number");
    refused(&["--rename", "nobody=x"], "nobody");
    // A bad bot with --strict.
    bot(&bots, "ben", "play=random");
    fs::write(bots.join("ben/meta"), "ben\n../ann/fake_bot.py\n\n0\n").unwrap();
    let before = tree(dir.path(), &[]);
    let out = judge_in(dir.path(), &["--strict", "--sgf", "fresh"]);
    assert!(!out.status.success());
    assert_eq!(tree(dir.path(), &[]), before);
    assert!(!ann.join("log.txt").exists(), "no game was played");
}
