//! The judge against scripted fake bots (tests/fixtures/fake_bot.py): every
//! prompt and answer form, every forfeit, the grace period and the kill,
//! children left behind, seeds and parallel runs.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common;

use inarow_contest::{Ending, Fault};
use inarow_core::{Rule, Xy};
use inarow_judge::process::{BotProcess, Start};
use inarow_judge::record::{Answer, Seat};
use inarow_judge::tournament::{self, Config};
use inarow_judge::{BotMeta, GameRecord, Results, output, play_game};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_bot.py")
}

/// Makes a bot folder `name` in `dir` running the fake bot with `opts`;
/// the script lives in the folder, as a contained bot only sees its own.
fn bot(dir: &Path, name: &str, opts: &[&str]) -> BotMeta {
    let folder = dir.join(name);
    fs::create_dir_all(&folder).unwrap();
    fs::copy(fixture(), folder.join("fake_bot.py")).unwrap();
    let meta = format!("{name}\npython3\nfake_bot.py {}\n0\n", opts.join(" "));
    fs::write(folder.join("meta"), meta).unwrap();
    BotMeta::load(&folder).unwrap()
}

fn log(bot: &BotMeta) -> Vec<String> {
    fs::read_to_string(bot.folder.join("log.txt"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

/// Whether anything the bot started still runs (inside its sandbox, the
/// pids it writes down are its own namespace's).
fn leftovers(bot: &BotMeta) -> Vec<i32> {
    common::processes_in(&bot.folder)
}

/// Whether a process is running (a zombie waiting for its parent counts as gone).
fn alive(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// Plays one game between two bot processes; returns the record and the pids.
fn game(a: &BotMeta, b: &BotMeta, timeout: f64) -> (GameRecord, [u32; 2]) {
    let timeout = (timeout > 0.0).then(|| Duration::from_secs_f64(timeout));
    let sandbox = common::sandbox();
    let folders = [a.folder.clone(), b.folder.clone()];
    let start = Start {
        sandbox: &sandbox,
        timeout,
        echo: None,
        stderr: None,
        folders: &folders,
    };
    let mut pa = BotProcess::start(a, &b.name, 11, start).unwrap();
    let mut pb = BotProcess::start(b, &a.name, 22, start).unwrap();
    let pids = [pa.id(), pb.id()];
    let record = play_game(&tournament::board(Rule::Freestyle), &mut pa, &mut pb);
    (record, pids)
}

#[test]
fn prompts_are_exact_and_a_full_board_is_a_tie() {
    let dir = common::workspace();
    let a = bot(dir.path(), "alice", &["play=pattern", "colour=W"]);
    let b = bot(dir.path(), "bob", &["play=pattern", "swap=choose"]);
    let (record, pids) = game(&a, &b, 5.0);
    assert_eq!(record.winner, None, "{:?}", record.forfeit);
    assert_eq!(record.reason, Some(Ending::FullBoard));
    assert_eq!(record.stones.len(), 225);
    assert_eq!(record.swap.map(Answer::name), Some("choose"));
    assert_eq!(record.named(record.white()), Some("alice"));
    assert_eq!(record.named(record.black), Some("bob"));

    let (la, lb) = (log(&a), log(&b));
    assert_eq!(la[0], "A []");
    // Pattern: black where ((x + 2y) / 2) is even. A put (0,0),(0,2) black and (0,1) white.
    assert_eq!(lb[0], r#"B [((0,0),"B"),((0,1),"W"),((0,2),"B")]"#);
    assert!(
        la[1].starts_with("C [((0,0),\"B\"),((0,1),\"W\"),((0,2),\"B\")"),
        "{}",
        la[1]
    );
    // 3 black, 2 white after B's two stones: white (alice) moves first, then they alternate.
    assert!(la[2].starts_with("1 ["), "{}", la[2]);
    assert!(lb[1].starts_with("2 ["), "{}", lb[1]);
    let numbers: Vec<usize> = la
        .iter()
        .chain(&lb)
        .filter_map(|l| l.split_once(' ')?.0.parse().ok())
        .collect();
    let mut sorted = numbers.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        (1..=220).collect::<Vec<_>>(),
        "every move number once"
    );
    assert!(
        la.iter()
            .all(|l| !l.contains(' ') || l.matches(' ').count() == 1)
    );
    assert_eq!(la.last().unwrap(), "EXIT TIE");
    assert_eq!(lb.last().unwrap(), "EXIT TIE");
    let args = fs::read_to_string(a.folder.join("args.txt")).unwrap();
    assert!(args.ends_with("bob\n11\n"), "{args}");
    assert!(pids.iter().all(|&p| !alive(p as i32)));
}

#[test]
fn each_answer_to_the_opening_settles_colours_and_the_first_mover() {
    let dir = common::workspace();
    let a = bot(dir.path(), "alice", &["play=pattern"]);
    // Alice answers `C` with her default, B: after `choose` she plays black.
    for (swap, black, first) in [
        ("black", "bob", "alice"),
        ("white", "alice", "alice"),
        ("choose", "alice", "bob"),
    ] {
        let b = bot(
            dir.path(),
            &format!("bob-{swap}"),
            &["play=pattern", &format!("swap={swap}")],
        );
        let _ = fs::remove_file(a.folder.join("log.txt"));
        let (record, _) = game(&a, &b, 5.0);
        let black = if black == "bob" {
            b.name.as_str()
        } else {
            "alice"
        };
        assert_eq!(record.swap.map(Answer::name), Some(swap));
        assert_eq!(record.named(record.black), Some(black));
        assert_eq!(record.reason, Some(Ending::FullBoard));
        let first_log = if first == "alice" { log(&a) } else { log(&b) };
        assert!(first_log.iter().any(|l| l.starts_with("1 [")), "{swap}");
        assert_eq!(
            log(&a).iter().any(|l| l.starts_with("C [")),
            swap == "choose"
        );
        let by = if swap == "black" { Seat::A } else { Seat::B };
        assert_eq!(record.stones[3].by, by, "{swap}");
    }
}

/// Bob misbehaves as `fault`; Alice must win and both must hear `EXIT alice`.
fn forfeit(fault: &str, bob_opens: bool, alice_opts: &[&str]) -> Fault {
    // When Bob fails at once, a busy machine may not have given Alice's
    // Python the time to read her prompts before the game is over and her
    // grace after `EXIT` (half a second) is spent: she then heard nothing,
    // or only her first prompts. The game is played again (six times at
    // most) until she was up to hear it: the judge that never says `EXIT`
    // still fails every time.
    for attempt in 1..=6 {
        let dir = common::workspace();
        let fault_opt = format!("fault={fault}");
        let a = bot(dir.path(), "alice", alice_opts);
        let b = bot(dir.path(), "bob", &[&fault_opt, "child=1"]);
        // Bob's faults end the game at once: only his timeout needs the
        // short limit, and a long one keeps a slow Alice in the game.
        let limit = if fault.starts_with("timeout") {
            2.0
        } else {
            10.0
        };
        let start = Instant::now();
        let (record, pids) = if bob_opens {
            game(&b, &a, limit)
        } else {
            game(&a, &b, limit)
        };
        // A fault ends the game at once, not at some later deadline (a margin
        // of seconds: a busy machine is slow).
        assert!(start.elapsed() < Duration::from_secs(60));
        let forfeit = record
            .forfeit
            .clone()
            .unwrap_or_else(|| panic!("{fault}: {record:?}"));
        // Alice ran out of time before Bob's fault came: the machine was
        // too busy for her Python to answer within the limit. Again.
        let alice_slow =
            record.name(forfeit.by) == "alice" && matches!(forfeit.fault, Fault::Timeout { .. });
        if alice_slow && attempt < 6 {
            continue;
        }
        assert_eq!(record.name(forfeit.by), "bob", "{fault}");
        assert_eq!(record.named(record.winner), Some("alice"));
        for pid in pids {
            assert!(!alive(pid as i32), "{fault}: bot {pid} outlived its game");
        }
        if log(&a).last().map(String::as_str) != Some("EXIT alice") && attempt < 6 {
            continue;
        }
        assert_eq!(log(&a).last().map(String::as_str), Some("EXIT alice"));
        assert!(
            b.folder.join("child.pid").exists(),
            "{fault}: the child started"
        );
        assert_eq!(
            leftovers(&b),
            [0; 0],
            "{fault}: the child outlived its game"
        );
        return forfeit.fault;
    }
    unreachable!("the third game returns")
}

#[test]
fn bad_syntax_forfeits() {
    let fault = forfeit("syntax@1", false, &[]);
    assert!(
        matches!(&fault, Fault::Syntax { detail } if detail.contains("hello judge")),
        "{fault:?}"
    );
    let fault = forfeit("raw:B(1,1)@B", false, &[]);
    assert!(matches!(fault, Fault::Syntax { .. }), "{fault:?}");
    let fault = forfeit("raw:maybe@C", true, &["swap=choose"]);
    assert!(matches!(fault, Fault::Syntax { .. }), "{fault:?}");
}

#[test]
fn off_board_occupied_and_repeated_points_forfeit() {
    assert_eq!(
        forfeit("offboard@1", false, &[]),
        Fault::OffBoard { x: 15, y: 3 }
    );
    assert_eq!(
        forfeit("offboard@A", true, &[]),
        Fault::OffBoard { x: -1, y: 4 }
    );
    assert!(matches!(
        forfeit("occupied@2", false, &[]),
        Fault::Occupied { .. }
    ));
    assert_eq!(
        forfeit("repeated@A", true, &[]),
        Fault::Repeated {
            point: Xy::new(1, 1)
        }
    );
    assert_eq!(
        forfeit("repeated@B", false, &["swap=choose"]).to_string(),
        "repeated point: (3,3)"
    );
}

#[test]
fn timeout_forfeits() {
    let start = Instant::now();
    assert_eq!(
        forfeit("timeout@1", false, &[]),
        Fault::Timeout { seconds: 2.0 }
    );
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn crash_eof_and_early_exit_forfeit() {
    assert_eq!(
        forfeit("crash@1", false, &[]),
        Fault::Crash {
            status: "exit status 3".into()
        }
    );
    assert_eq!(forfeit("eof@A", true, &[]), Fault::Eof);
    assert_eq!(forfeit("exitzero@2", false, &[]), Fault::Eof);
}

#[test]
fn an_endless_line_forfeits() {
    assert!(matches!(
        forfeit("endless@1", false, &[]),
        Fault::EndlessLine { .. }
    ));
}

#[test]
fn a_bot_that_cannot_start_forfeits() {
    let dir = common::workspace();
    let a = bot(dir.path(), "alice", &[]);
    let folder = dir.path().join("ghost");
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join("meta"), "ghost\n./no-such-program\n\n0\n").unwrap();
    let ghost = BotMeta::load(&folder).unwrap();
    let config = Config {
        seed: 1,
        jobs: 1,
        timeout: Some(Duration::from_secs(1)),
        rule: Rule::Freestyle,
        sandbox: common::sandbox(),
        stderr: None,
        left_out: Vec::new(),
    };
    let records = tournament::play_all(&[a, ghost], &config, &|_| {});
    assert_eq!(records.len(), 2);
    for record in records {
        assert_eq!(record.named(record.winner), Some("alice"));
        let forfeit = record.forfeit.unwrap();
        assert!(
            matches!(forfeit.fault, Fault::NoStart { .. }),
            "{forfeit:?}"
        );
        assert!(
            forfeit.reason().contains("no-such-program"),
            "{}",
            forfeit.reason()
        );
    }
}

#[test]
fn the_grace_period_lets_a_bot_save_then_a_hanging_bot_is_killed() {
    let dir = common::workspace();
    let a = bot(dir.path(), "saver", &["play=pattern", "on_exit=save"]);
    let b = bot(
        dir.path(),
        "hanger",
        &["play=pattern", "on_exit=hang", "child=1"],
    );
    let start = Instant::now();
    let (record, pids) = game(&a, &b, 5.0);
    let took = start.elapsed();
    assert_eq!(record.reason, Some(Ending::FullBoard));
    assert_eq!(
        fs::read_to_string(a.folder.join("saved.txt")).unwrap(),
        "TIE\n",
        "saving after EXIT fits in the 0.5 s grace"
    );
    assert!(took < Duration::from_secs(60), "{took:?}");
    for pid in pids {
        assert!(!alive(pid as i32));
    }
    assert!(leftovers(&b).is_empty());
}

#[test]
fn a_child_left_behind_dies_with_the_game() {
    let dir = common::workspace();
    let a = bot(dir.path(), "parent", &["play=random", "child=1"]);
    let b = bot(dir.path(), "plain", &["play=random"]);
    let (_, pids) = game(&a, &b, 5.0);
    assert!(a.folder.join("child.pid").exists());
    let left = leftovers(&a);
    assert!(left.is_empty(), "{left:?} of bot {} survived", pids[0]);
}

fn tournament_json(dir: &Path, seed: u64, jobs: usize) -> String {
    let bots: Vec<BotMeta> = ["ann", "ben", "cat"]
        .iter()
        .map(|n| bot(dir, n, &["play=random"]))
        .collect();
    let config = Config {
        seed,
        jobs,
        // Generous: a timeout under a loaded machine would change the results.
        timeout: Some(Duration::from_secs(30)),
        rule: Rule::Freestyle,
        sandbox: common::sandbox(),
        stderr: None,
        left_out: Vec::new(),
    };
    let records = tournament::play_all(&bots, &config, &|_| {});
    output::results_json(&Results::new(&bots, &config, records))
}

#[test]
fn the_same_seed_gives_the_same_results_whatever_the_parallelism() {
    let dir = common::workspace();
    let one = tournament_json(dir.path(), 42, 1);
    let again = tournament_json(dir.path(), 42, 1);
    let parallel = tournament_json(dir.path(), 42, 3);
    assert_eq!(one, again);
    assert_eq!(one, parallel);
    let other = tournament_json(dir.path(), 43, 2);
    assert_ne!(one, other);
    let results: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(results["seed"], 42);
    assert_eq!(results["games"].as_array().unwrap().len(), 6);
    assert!(results["games"][0]["stones"].as_array().unwrap().len() >= 9);
}

/// What a bot counting its games (`count=1`) has counted.
fn counted(bot: &BotMeta) -> String {
    fs::read_to_string(bot.folder.join("count.txt")).unwrap_or_default()
}

/// Why a tournament plays a bot's games one at a time: two games of one
/// bot at once each start from the folder as it was, and the one that ends
/// last writes its files last, so a bot counting its games in a file (read
/// at start, written at `EXIT`) loses a count. One after the other, both
/// count. (`inarow`'s tests `judge_schedule` show that a tournament loses
/// none, whatever `-j`.)
#[test]
fn two_games_of_one_bot_at_once_lose_a_count() {
    use inarow_judge::Contestant;
    let dir = common::workspace();
    let ann = bot(dir.path(), "ann", &["play=random", "count=1"]);
    let sandbox = common::sandbox();
    let folders = [ann.folder.clone()];
    let start = Start {
        sandbox: &sandbox,
        timeout: Some(Duration::from_secs(30)),
        echo: None,
        stderr: None,
        folders: &folders,
    };
    for seed in [1, 2] {
        let mut game = BotProcess::start(&ann, "ben", seed, start).unwrap();
        game.ask("A []").unwrap();
        game.exit("EXIT TIE");
        game.finish();
    }
    assert_eq!(counted(&ann), "2\n", "one after the other");
    // Both have answered, so both have read the count, before either ends.
    let mut first = BotProcess::start(&ann, "ben", 3, start).unwrap();
    let mut second = BotProcess::start(&ann, "cat", 4, start).unwrap();
    first.ask("A []").unwrap();
    second.ask("A []").unwrap();
    first.exit("EXIT TIE");
    second.exit("EXIT TIE");
    first.finish();
    second.finish();
    assert_eq!(counted(&ann), "3\n", "at once, one game's count is lost");
}
