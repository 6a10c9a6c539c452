//! A bot's name under the one rule, from every source, end to end: a meta
//! file's name too long for the SGF writer, look-alike names, the protocol's
//! own word, a part file's names for `inarow judge merge`; and the one gate
//! for outside text (a part file's text, a Gomocup brain's last words).
//!
//! Each tournament is judged once by root and once by an ordinary user
//! (`nobody` in control groups delegated to it, when the tests run as
//! root), as the other hostile bots are.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Who runs the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum As {
    /// Root (the tests' own user when they do not run as root).
    Root,
    /// An ordinary user: `nobody` in delegated control groups when the
    /// tests run as root.
    User,
}

/// A bot folder `folder` whose meta file gives `name`, running the fake bot
/// at random.
fn bot(bots: &Path, folder: &str, name: &str) -> PathBuf {
    common::fake_bot_folder(bots, folder, name, "play=random")
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// Whether `bytes` hold anything a terminal would obey: ESC, BEL, a C1
/// control or a bidirectional override.
fn holds_raw_controls(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    bytes.contains(&0x1b) || bytes.contains(&0x07) || text.contains(['\u{9b}', '\u{202e}'])
}

/// A test's world: its folder, with `bots/` and `out/` for the judge's
/// files, both the judge's user's.
struct World {
    dir: tempfile::TempDir,
    who: As,
    delegated: Option<common::Delegated>,
}

impl World {
    fn new(who: As) -> World {
        let dir = common::workspace();
        fs::create_dir_all(dir.path().join("bots")).unwrap();
        fs::create_dir_all(dir.path().join("out")).unwrap();
        World {
            dir,
            who,
            delegated: (who == As::User).then(common::Delegated::new),
        }
    }

    fn bots(&self) -> PathBuf {
        self.dir.path().join("bots")
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    /// `inarow ARGS` run by the world's judge.
    fn inarow(&self, args: &[&str]) -> Output {
        let mut command = match &self.delegated {
            Some(delegated) => {
                // An ordinary user's judge runs in its user's folders.
                common::give_to_nobody(self.dir.path());
                delegated.command(env!("CARGO_BIN_EXE_inarow"))
            }
            None => Command::new(env!("CARGO_BIN_EXE_inarow")),
        };
        command.args(args).output().unwrap()
    }

    /// A tournament over the bots folder, writing `out/TAG.json` and
    /// `out/TAG-sgf`, with `extra` options; it must succeed.
    fn judge(&self, tag: &str, extra: &[&str]) -> (Output, serde_json::Value, PathBuf) {
        let (results, sgf) = (
            self.out().join(format!("{tag}.json")),
            self.out().join(format!("{tag}-sgf")),
        );
        let bots = self.bots();
        let mut args = vec![
            "judge",
            "--seed",
            "11",
            "-j",
            "2",
            "--timeout",
            "30",
            "--bots",
            bots.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
        ];
        args.extend(extra);
        let out = self.inarow(&args);
        assert!(
            out.status.success(),
            "{:?}: {}",
            self.who,
            text(&out.stderr)
        );
        assert!(!holds_raw_controls(&out.stdout), "{}", text(&out.stdout));
        assert!(!holds_raw_controls(&out.stderr), "{}", text(&out.stderr));
        let written = fs::read_to_string(&results).unwrap();
        (out, serde_json::from_str(&written).unwrap(), sgf)
    }
}

/// The lines of the judge's standard error leaving out a folder, by folder.
fn leaving_out(out: &Output, bots: &Path) -> Vec<(String, String)> {
    let prefix = format!("inarow judge: leaving out {}/", bots.display());
    text(&out.stderr)
        .lines()
        .filter_map(|line| line.strip_prefix(&prefix))
        .map(|rest| {
            let (folder, why) = rest.split_once(": ").unwrap();
            (folder.to_string(), why.to_string())
        })
        .collect()
}

/// Every SGF file the run wrote, each name within 255 bytes.
fn sgf_names(sgf: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(sgf)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    for name in &names {
        assert!(name.len() <= 255, "{name}");
    }
    names
}

macro_rules! under_both_judges {
    ($($case:ident),* $(,)?) => {
        $(
            mod $case {
                #[test]
                fn under_a_root_judge() {
                    super::$case(super::As::Root)
                }

                #[test]
                fn under_an_ordinary_judge() {
                    super::$case(super::As::User)
                }
            }
        )*
    };
}

under_both_judges!(long_name, look_alikes);

/// A bot named with 250 letters is left out in one line; the others play,
/// and the standings and every SGF record are written. Before the rule the
/// judge built `game-0000-aaa...-vs-ann.sgf` from it, a name the file
/// system refuses: it exited 1 with no standings and no SGF for anyone.
fn long_name(who: As) {
    let world = World::new(who);
    let bots = world.bots();
    bot(&bots, "ann", "ann");
    bot(&bots, "ben", "ben");
    let long = "a".repeat(250);
    bot(&bots, "long", &long);
    let (out, results, sgf) = world.judge("long", &[]);
    let left = leaving_out(&out, &bots);
    assert_eq!(
        left,
        [(
            "long".to_string(),
            format!(
                "meta: line 1: the bot's name \"{}\"... has 250 characters; a name has at most 32",
                "a".repeat(40)
            )
        )],
        "{}",
        text(&out.stderr)
    );
    assert_eq!(results["bots"], serde_json::json!(["ann", "ben"]));
    assert_eq!(results["left_out"][0]["folder"], "long");
    assert_eq!(results["games"].as_array().unwrap().len(), 2);
    assert_eq!(sgf_names(&sgf).len(), 2);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("2 bots, 2 games"), "{stdout}");
    assert!(stdout.contains("results in"), "{stdout}");
    assert!(
        !bots.join("long/args.txt").exists(),
        "the bot left out never ran"
    );

    // The positive control: the file the SGF writer built from that name
    // before the rule cannot be made here.
    let old = sgf.join(format!("game-0000-{long}-vs-ann.sgf"));
    let refused = fs::write(&old, "(;)").unwrap_err();
    assert!(
        refused.to_string().starts_with("File name too long"),
        "{refused}"
    );
}

/// `honest` beside `HONEST` (look-alikes: both left out, each naming the
/// other), beside `hоnest` with a Cyrillic о (refused by the rule: the
/// honest bot is not left out for an impostor's name the judge can tell
/// is not one), and `TIE` (the protocol's word: `EXIT TIE` must mean a
/// tie). `--rename` decides: renamed, each plays under its new name.
fn look_alikes(who: As) {
    let world = World::new(who);
    let bots = world.bots();
    bot(&bots, "ann", "ann");
    bot(&bots, "ben", "ben");
    bot(&bots, "honest", "honest");
    bot(&bots, "shouting", "HONEST");
    bot(&bots, "cyrillic", "h\u{43e}nest");
    bot(&bots, "tie", "TIE");
    let (out, results, _) = world.judge("alike", &[]);
    let left = leaving_out(&out, &bots);
    let why = |folder: &str| {
        left.iter()
            .find(|(f, _)| f == folder)
            .map(|(_, why)| why.as_str())
            .unwrap_or_else(|| panic!("{folder} not left out: {}", text(&out.stderr)))
    };
    assert_eq!(left.len(), 4, "{}", text(&out.stderr));
    assert_eq!(
        why("honest"),
        "meta: the name \"honest\" is also given by the bot in folder shouting (as \"HONEST\", which looks like it): both are left out (inarow judge --rename FOLDER=NAME decides)"
    );
    assert!(
        why("shouting").starts_with("meta: the name \"HONEST\" is also given by the bot in folder honest (as \"honest\", which looks like it)"),
        "{left:?}"
    );
    assert_eq!(
        why("cyrillic"),
        "meta: line 1: the bot's name \"h\u{43e}nest\" holds U+043E; use ASCII letters, digits, '-', '_' and '.'"
    );
    assert_eq!(
        why("tie"),
        "meta: line 1: the bot's name \"TIE\" looks like TIE, the protocol's word in `EXIT TIE`; a name never does"
    );
    assert_eq!(results["bots"], serde_json::json!(["ann", "ben"]));
    assert_eq!(results["games"].as_array().unwrap().len(), 2);

    // The organiser decides: the shouting and the Cyrillic bot renamed,
    // the honest one plays beside them under its own name.
    for gone in ["ann", "ben"] {
        fs::remove_dir_all(bots.join(gone)).unwrap();
    }
    let (out, results, sgf) = world.judge(
        "renamed",
        &["--rename", "shouting=loud", "--rename", "cyrillic=impostor"],
    );
    assert_eq!(
        results["bots"],
        serde_json::json!(["impostor", "honest", "loud"])
    );
    let left = leaving_out(&out, &bots);
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0].0, "tie");
    assert_eq!(sgf_names(&sgf).len(), 6);
    // Each played under the name the organiser gave, told to its opponents.
    let told = fs::read_to_string(bots.join("honest/args.txt")).unwrap();
    assert!(told.contains("impostor") || told.contains("loud"), "{told}");
}

/// `judge merge` reads part files from other machines: a part whose bot
/// name holds ESC, BEL and U+202E is refused in one line naming the part
/// and the name, escaped; what it carries of the bots left out is shown
/// and kept escaped.
#[test]
fn a_merge_refuses_a_part_whose_names_break_the_rule_and_shows_its_text_escaped() {
    let world = World::new(As::Root);
    let bots = world.bots();
    bot(&bots, "ann", "ann");
    bot(&bots, "ben", "ben");
    let part = world.out().join("part.json");
    let out = world.inarow(&[
        "judge",
        "--seed",
        "5",
        "--shard",
        "0/1",
        "--timeout",
        "30",
        "--bots",
        bots.to_str().unwrap(),
        "--results",
        part.to_str().unwrap(),
        "--sgf",
        world.out().join("part-sgf").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let merge = |part: &Path, tag: &str| {
        let results = world.out().join(format!("{tag}.json"));
        let out = world.inarow(&[
            "judge",
            "merge",
            part.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
            "--sgf",
            world.out().join(format!("{tag}-sgf")).to_str().unwrap(),
        ]);
        assert!(!holds_raw_controls(&out.stdout), "{}", text(&out.stdout));
        assert!(!holds_raw_controls(&out.stderr), "{}", text(&out.stderr));
        (out, fs::read_to_string(results).unwrap_or_default())
    };
    let (out, _) = merge(&part, "plain");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&part).unwrap()).unwrap();

    // A bot's name with terminal escapes: refused, quoted escaped.
    let mut named = written.clone();
    named["tournament"]["bots"][1]["name"] = "ben\x1b]0;t\x07\u{202e}".into();
    let hostile = world.out().join("hostile-part.json");
    fs::write(&hostile, serde_json::to_string(&named).unwrap()).unwrap();
    // The positive control: the part itself holds the raw characters.
    let read: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&hostile).unwrap()).unwrap();
    assert!(
        read["tournament"]["bots"][1]["name"]
            .as_str()
            .unwrap()
            .contains(['\x1b', '\x07', '\u{202e}'])
    );
    let (out, results) = merge(&hostile, "hostile");
    assert!(!out.status.success());
    assert_eq!(
        text(&out.stderr),
        format!(
            "inarow: {}: bot 2: the name \"ben\\x1b]0;t\\x07\\u{{202e}}\" holds U+001B; use ASCII letters, digits, '-', '_' and '.'\n",
            hostile.display()
        )
    );
    assert!(results.is_empty(), "nothing written");

    // A look-alike of another bot's name: refused too.
    let mut alike = written.clone();
    alike["tournament"]["bots"][1]["name"] = "ANN".into();
    fs::write(&hostile, serde_json::to_string(&alike).unwrap()).unwrap();
    let (out, _) = merge(&hostile, "alike");
    assert!(
        text(&out.stderr)
            .ends_with("bot 2 is named \"ANN\", which looks like bot 1's name \"ann\"\n"),
        "{}",
        text(&out.stderr)
    );

    // What it says of a bot left out: shown and kept escaped.
    let mut left = written;
    left["tournament"]["left_out"] = serde_json::json!([
        {"folder": "evil\x1b[2J", "reason": "meta: \u{202e}gnorw"}
    ]);
    fs::write(&hostile, serde_json::to_string(&left).unwrap()).unwrap();
    let (out, results) = merge(&hostile, "left");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(r"left out of every share: evil\x1b[2J: meta: \u{202e}gnorw"),
        "{}",
        text(&out.stdout)
    );
    assert!(!holds_raw_controls(results.as_bytes()), "{results}");
    assert!(results.contains(r"evil\\x1b[2J"), "{results}");
}

/// The bot named as the house bot of `-d` plays a house bot named
/// otherwise: `EXIT NAME` always tells them apart.
#[test]
fn a_bot_that_looks_like_the_house_bot_plays_house_judge_under_debug() {
    let world = World::new(As::Root);
    let bots = world.bots();
    bot(&bots, "mimic", "H0USE");
    let out = world.inarow(&[
        "judge",
        "--seed",
        "3",
        "--timeout",
        "30",
        "--bots",
        bots.to_str().unwrap(),
        "-d",
        "mimic",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.starts_with("debugging H0USE against the built-in bot house-judge"),
        "{stdout}"
    );
    let told = fs::read_to_string(bots.join("mimic/args.txt")).unwrap();
    assert!(told.contains("house-judge"), "{told}");
}
