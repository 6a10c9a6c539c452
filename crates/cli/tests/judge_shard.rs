//! `inarow judge --shard I/N` and `inarow judge merge` end to end: a real
//! tournament of instant bots (this build's house bot) played whole and in
//! shares, merged byte for byte into the whole run's results and SGF.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A bots folder of four house bots (`inarow bot --house`: moves in
/// microseconds, depending only on their seed).
fn house_bots(dir: &Path) -> PathBuf {
    let bots = dir.join("bots");
    for name in ["amy", "bob", "cal", "dan"] {
        let folder = bots.join(name);
        fs::create_dir_all(&folder).unwrap();
        // `inarow` by name: the judge's own program.
        let meta = format!("{name}\ninarow\nbot --house\n0\n");
        fs::write(folder.join("meta"), meta).unwrap();
    }
    bots
}

/// Runs `inarow judge ARGS` with `env` set (and the schedulers' variables
/// of the test's own environment cleared).
fn judge(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_inarow"));
    command.arg("judge").args(args);
    for name in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "JOB_COMPLETION_INDEX",
        "INAROW_SHARDS",
    ] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied()).output().unwrap()
}

fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}", common::stderr(&out));
    common::stdout(&out)
}

/// The one line of a refused command's error.
fn refused(out: Output) -> String {
    assert!(!out.status.success(), "{}", common::stdout(&out));
    let err = common::stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file of an SGF folder with its bytes, by name.
fn sgf_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn shares_merged_are_the_one_machine_run_byte_for_byte() {
    let dir = common::workspace();
    let bots = house_bots(dir.path());
    let (whole, whole_sgf) = (dir.path().join("whole.json"), dir.path().join("sgf-whole"));
    let base = ["--seed", "11", "--bots", path(&bots), "--timeout", "30"];
    let out = ok(judge(
        &[
            &base[..],
            &["--results", path(&whole), "--sgf", path(&whole_sgf)],
        ]
        .concat(),
        &[],
    ));
    assert!(out.contains("rank  name"), "{out}");
    let expected = fs::read(&whole).unwrap();
    assert_eq!(sgf_files(&whole_sgf).len(), 12);
    for count in [1, 2, 5] {
        let mut parts = Vec::new();
        for index in 0..count {
            let part = dir.path().join(format!("part-{index}-of-{count}.json"));
            let shard = format!("{index}/{count}");
            let sgf = dir.path().join(format!("sgf-parts-{count}"));
            let out = ok(judge(
                &[
                    &base[..],
                    &[
                        "--shard",
                        &shard,
                        "--results",
                        path(&part),
                        "--sgf",
                        path(&sgf),
                    ],
                ]
                .concat(),
                &[],
            ));
            assert!(out.contains(&format!("share {shard}")), "{out}");
            parts.push(part);
        }
        // Given in reverse: the order of the parts does not matter.
        parts.reverse();
        let (merged, merged_sgf) = (
            dir.path().join(format!("merged-{count}.json")),
            dir.path().join(format!("sgf-merged-{count}")),
        );
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(|p| path(p)));
        args.extend(["--results", path(&merged), "--sgf", path(&merged_sgf)]);
        let out = ok(judge(&args, &[]));
        assert!(out.contains("rank  name"), "{out}");
        assert_eq!(fs::read(&merged).unwrap(), expected, "{count} shares");
        assert_eq!(sgf_files(&merged_sgf), sgf_files(&whole_sgf));
        // Each share wrote the SGF of its own games, the same as the whole run's.
        assert_eq!(
            sgf_files(&dir.path().join(format!("sgf-parts-{count}"))),
            sgf_files(&whole_sgf)
        );
    }
}

#[test]
fn schedulers_give_the_share_and_bad_shares_are_refused() {
    let dir = common::workspace();
    let bots = house_bots(dir.path());
    let base = [
        "--seed",
        "4",
        "--bots",
        path(&bots),
        "--timeout",
        "30",
        "--sgf",
    ];
    let run = |file: &str, extra: &[&str], env: &[(&str, &str)]| -> Vec<u8> {
        let part = dir.path().join(file);
        // Each run's records a folder of their own: a run never mixes its
        // records with another's.
        let sgf = dir.path().join(format!("sgf-{file}"));
        let out = judge(
            &[&base[..], &[path(&sgf), "--results", path(&part)], extra].concat(),
            env,
        );
        assert!(out.status.success(), "{}", common::stderr(&out));
        fs::read(part).unwrap()
    };
    let given = run("given.json", &["--shard", "2/3"], &[]);
    let slurm = run(
        "slurm.json",
        &[],
        &[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ],
    );
    assert_eq!(slurm, given, "task 3 of an array numbered from 1");
    let k8s = run(
        "k8s.json",
        &["--shards", "3"],
        &[("JOB_COMPLETION_INDEX", "2")],
    );
    assert_eq!(k8s, given);
    let k8s_env = run(
        "k8s-env.json",
        &[],
        &[("JOB_COMPLETION_INDEX", "2"), ("INAROW_SHARDS", "3")],
    );
    assert_eq!(k8s_env, given);

    let err = refused(judge(&["--shard", "1/3", "--bots", path(&bots)], &[]));
    assert!(err.contains("needs --seed"), "{err}");
    // (clap adds a hint line of its own after the error.)
    let out = judge(&["--shard", "3/3", "--seed", "1"], &[]);
    let err = common::stderr(&out);
    assert!(!out.status.success());
    assert!(
        err.lines()
            .next()
            .unwrap()
            .contains("shard 3 does not exist among 3"),
        "{err}"
    );
    let err = refused(judge(
        &["--seed", "1", "--shards", "3", "--bots", path(&bots)],
        &[],
    ));
    assert!(err.contains("JOB_COMPLETION_INDEX"), "{err}");
    let err = refused(judge(
        &["--seed", "1", "--bots", path(&bots)],
        &[("JOB_COMPLETION_INDEX", "1")],
    ));
    assert!(err.contains("--shards"), "{err}");
}

#[test]
fn a_missing_duplicated_or_foreign_part_is_one_line_naming_it() {
    let dir = common::workspace();
    let bots = house_bots(dir.path());
    let part = |name: &str, seed: &str, shard: &str| -> String {
        let file = dir.path().join(name);
        let sgf = dir.path().join(format!("sgf-{name}"));
        ok(judge(
            &[
                "--seed",
                seed,
                "--bots",
                path(&bots),
                "--timeout",
                "30",
                "--shard",
                shard,
                "--results",
                path(&file),
                "--sgf",
                path(&sgf),
            ],
            &[],
        ));
        path(&file).to_string()
    };
    let p0 = part("p0.json", "8", "0/2");
    let p1 = part("p1.json", "8", "1/2");
    let foreign = part("foreign.json", "9", "1/2");
    // A bot whose folder changed between the shares.
    fs::write(bots.join("cal/book"), "7,7\n").unwrap();
    let changed = part("changed.json", "8", "1/2");
    let results = dir.path().join("results.json");
    let merge = |parts: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(parts);
        args.extend(["--results", path(&results)]);
        refused(judge(&args, &[]))
    };
    let err = merge(&[&p0]);
    assert!(err.contains("share 1/2 is missing"), "{err}");
    let err = merge(&[&p0, &p1, &p1]);
    assert!(err.contains("p1.json: share 1/2 is given twice"), "{err}");
    let err = merge(&[&p0, &foreign]);
    assert!(
        err.contains("foreign.json: a part of another tournament") && err.contains("seed 9, not 8"),
        "{err}"
    );
    let err = merge(&[&p0, &changed]);
    assert!(
        err.contains("changed.json") && err.contains("bot cal's folder has other files"),
        "{err}"
    );
    fs::write(dir.path().join("junk.json"), "{\"format\": 1").unwrap();
    let junk = path(&dir.path().join("junk.json")).to_string();
    let err = merge(&[&p0, &junk]);
    assert!(err.contains("junk.json: not a part file"), "{err}");
    let err = merge(&[&p0, "/no/such/part.json"]);
    assert!(err.contains("/no/such/part.json"), "{err}");
    assert!(!results.exists(), "a refused merge writes nothing");
}

#[test]
fn the_bots_left_out_travel_with_the_parts_and_must_match() {
    let dir = common::workspace();
    let bots = house_bots(dir.path());
    let evil = bots.join("evil");
    fs::create_dir_all(&evil).unwrap();
    fs::write(evil.join("meta"), "evil\n/usr/bin/python3\nbot.py\n0\n").unwrap();
    let base = ["--seed", "4", "--bots", path(&bots), "--timeout", "30"];
    let whole = dir.path().join("whole.json");
    let sgf = dir.path().join("sgf");
    ok(judge(
        &[&base[..], &["--results", path(&whole), "--sgf", path(&sgf)]].concat(),
        &[],
    ));
    let expected = fs::read_to_string(&whole).unwrap();
    assert!(expected.contains("\"left_out\""), "{expected}");
    let part = |index: usize, tag: &str| {
        let file = dir.path().join(format!("part-{index}-{tag}.json"));
        let shard = format!("{index}/2");
        let sgf = dir.path().join(format!("sgf-{tag}"));
        ok(judge(
            &[
                &base[..],
                &[
                    "--shard",
                    &shard,
                    "--results",
                    path(&file),
                    "--sgf",
                    path(&sgf),
                ],
            ]
            .concat(),
            &[],
        ));
        file
    };
    let (first, second) = (part(0, "a"), part(1, "a"));
    assert!(fs::read_to_string(&first).unwrap().contains("\"left_out\""));
    let merged = dir.path().join("merged.json");
    let merge = |parts: [&Path; 2]| {
        judge(
            &[
                "merge",
                path(parts[0]),
                path(parts[1]),
                "--results",
                path(&merged),
                "--sgf",
                path(&dir.path().join("sgf-merged")),
            ],
            &[],
        )
    };
    let out = ok(merge([&first, &second]));
    assert!(
        out.contains("left out of every share: evil: meta: line 2"),
        "{out}"
    );
    assert_eq!(fs::read_to_string(&merged).unwrap(), expected);
    // A share that left the bot out for another reason played another
    // tournament.
    fs::write(evil.join("meta"), "evil\n../amy/run\n\n0\n").unwrap();
    let other = part(1, "b");
    let err = refused(merge([&first, &other]));
    assert!(
        err.contains("a part of another tournament")
            && err.contains("left out evil (meta: line 2: the command \"../amy/run\""),
        "{err}"
    );
}

#[test]
fn a_part_edited_by_hand_is_refused_naming_the_part_and_the_game() {
    let dir = common::workspace();
    let bots = house_bots(dir.path());
    let sgf = dir.path().join("sgf");
    let base = ["--seed", "11", "--bots", path(&bots), "--timeout", "30"];
    let parts: Vec<PathBuf> = (0..2)
        .map(|index| {
            let part = dir.path().join(format!("part-{index}.json"));
            let shard = format!("{index}/2");
            ok(judge(
                &[
                    &base[..],
                    &[
                        "--shard",
                        &shard,
                        "--results",
                        path(&part),
                        "--sgf",
                        path(&sgf),
                    ],
                ]
                .concat(),
                &[],
            ));
            part
        })
        .collect();
    let results = dir.path().join("results.json");
    let merge = |parts: &[&Path]| {
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(|p| path(p)));
        let merged_sgf = dir.path().join("sgf-merged");
        args.extend(["--results", path(&results), "--sgf", path(&merged_sgf)]);
        judge(&args, &[])
    };
    ok(merge(&[&parts[0], &parts[1]]));
    fs::remove_file(&results).unwrap();

    // A game the house bots won with a five, and the part that holds it.
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(p).unwrap()).unwrap()
    };
    let (share, place) = (0..2)
        .find_map(|s| {
            let games = read(&parts[s])["games"].as_array().unwrap().clone();
            Some((s, games.iter().position(|g| g["reason"] == "five")?))
        })
        .expect("a game won with a five");
    let original = read(&parts[share]);
    let game = &original["games"][place];
    let index = game["index"].as_u64().unwrap();
    let winner = game["winner"].as_str().unwrap().to_string();
    let loser = if game["a"] == *winner.as_str() {
        &game["b"]
    } else {
        &game["a"]
    };
    let loser = loser.as_str().unwrap().to_string();
    let forged = dir.path().join("forged.json");
    let other = &parts[1 - share];
    let forge = |change: &dyn Fn(&mut serde_json::Value), says: &str| {
        let mut part = original.clone();
        change(&mut part["games"][place]);
        fs::write(&forged, serde_json::to_string_pretty(&part).unwrap()).unwrap();
        let err = refused(merge(&[other, &forged]));
        assert!(
            err.contains(&format!("{}: game {index}", path(&forged))) && err.contains(says),
            "{err}\nnot: {says}"
        );
    };
    // The winner flipped. (Every other forgery of a game, and its one
    // line, is the judge crate's `a_part_whose_games_do_not_replay_is_refused_naming_the_game`:
    // here, that the command names the file and the game.)
    forge(
        &|g| g["winner"] = loser.clone().into(),
        &format!("names {loser} the winner, but {winner} made the five"),
    );
    // A seed changed.
    forge(&|g| g["b_seed"] = 12345.into(), "is not the scheduled one");
    assert!(!results.exists(), "a refused merge writes nothing");
}

/// Makes `levels` folders of 200-letter names below `top` and a file at
/// the bottom, by open folders (no path of that length opens at once),
/// and returns the path's length.
fn deep_path(top: &Path, levels: usize) -> usize {
    use std::os::fd::OwnedFd;
    use std::os::unix::fs::OpenOptionsExt;
    /// `open`'s flag for a folder (Linux).
    const O_DIRECTORY: i32 = 0o200_000;
    let name = "d".repeat(200);
    let mut here = OwnedFd::from(
        fs::OpenOptions::new()
            .read(true)
            .custom_flags(O_DIRECTORY)
            .open(top)
            .unwrap(),
    );
    for _ in 0..levels {
        // Through /proc/self/fd: each step is a short path.
        let at = PathBuf::from(format!(
            "/proc/self/fd/{}",
            std::os::fd::AsRawFd::as_raw_fd(&here)
        ));
        fs::create_dir(at.join(&name)).unwrap();
        here = OwnedFd::from(
            fs::OpenOptions::new()
                .read(true)
                .custom_flags(O_DIRECTORY)
                .open(at.join(&name))
                .unwrap(),
        );
    }
    let at = PathBuf::from(format!(
        "/proc/self/fd/{}",
        std::os::fd::AsRawFd::as_raw_fd(&here)
    ));
    fs::write(at.join("deep"), "left by an earlier game").unwrap();
    levels * 201 + 4
}

/// A bot whose folder holds a file below a path of 6,000 bytes (as a
/// hostile bot can leave): a share still reads every folder (the digest
/// walks by open folders) and plays, and its merge is the one-machine run.
/// The path is really past what the kernel opens at once.
#[test]
fn a_path_past_the_kernels_limit_in_a_bot_folder_stops_no_share() {
    let dir = common::workspace();
    let bots = house_bots(dir.path());
    let length = deep_path(&bots.join("bob"), 30);
    assert!(length > 6000);
    let deep: PathBuf = std::iter::repeat_n("d".repeat(200), 30).collect();
    let refused = fs::read_dir(bots.join("bob").join(deep)).unwrap_err();
    assert_eq!(refused.raw_os_error(), Some(36), "ENAMETOOLONG: {refused}");
    let base = ["--seed", "5", "--bots", path(&bots), "--timeout", "30"];
    let part = dir.path().join("part.json");
    let sgf = dir.path().join("sgf-part");
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain([
            "--shard",
            "0/1",
            "--results",
            path(&part),
            "--sgf",
            path(&sgf),
        ])
        .collect();
    ok(judge(&args, &[]));
    let text = fs::read_to_string(&part).unwrap();
    assert!(text.contains("folder_sha256"), "{text}");
    let merged = dir.path().join("merged.json");
    ok(judge(
        &[
            "merge",
            path(&part),
            "--results",
            path(&merged),
            "--sgf",
            path(&dir.path().join("sgf-merged")),
        ],
        &[],
    ));
    assert!(
        fs::read_to_string(&merged)
            .unwrap()
            .contains("\"standings\"")
    );
}
