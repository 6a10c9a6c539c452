//! The name rule as a property: whatever a bot calls itself (any Unicode,
//! any length, empty, control characters, look-alikes of another bot or of
//! `TIE`), from a meta file, from `--rename` or from a part file, the judge
//! either refuses the name in one line (no newline, no raw control
//! character) or plays with it, and then every file it writes (results,
//! SGF records, the part file) exists with a name of at most 255 bytes.
//!
//! The games are real: the house bot in-process under each name, through
//! the referee; the files are written by the judge's own writers, and the
//! part file is merged back.

use std::fs;
use std::path::Path;

use proptest::prelude::*;

use inarow_agents::house::HouseBot;
use inarow_contest::Shard;
use inarow_core::Rule;
use inarow_judge::field::{LeftOut, survey, survey_renamed};
use inarow_judge::local::Local;
use inarow_judge::part::{self, Bot, Part, Tournament};
use inarow_judge::rename::Rename;
use inarow_judge::{GameRecord, Results, name, output, play_game, tournament};

/// Whether `line` could reach a terminal as more than one plain line.
fn unsafe_line(line: &str) -> bool {
    line.contains(|c: char| c.is_control())
        || line.contains(['\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}'])
        || line.contains(['\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}'])
}

/// Names worth trying: anything at all, long runs of any character,
/// plain ASCII of every length around the bound and far past it (a name a
/// file system could not hold in a file name), and the look-alikes of
/// the other bot (`ann`), of `TIE` and of an honest name.
fn any_name() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(any::<char>(), 0..300).prop_map(|v| v.into_iter().collect()),
        "[a-zA-Z0-9._-]{0,40}",
        "[a-z]{20,300}",
        "[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}a-z .=/]{0,40}",
        prop::sample::select(vec![
            "",
            "TIE",
            "tie",
            "T1E",
            "TlE",
            "ann",
            "ANN",
            "Ann",
            "a\u{43e}n",
            "honest",
            "h\u{43e}nest",
            "HONEST",
            "h0nest",
            "-x",
            ".x",
            "..",
            "house",
            "x\ny",
            " ann ",
        ])
        .prop_map(String::from),
    ]
}

/// A bots folder in `dir` holding `ann` and, in folder `x`, a bot whose
/// meta file gives `name`.
fn bots_with(dir: &Path, name: &str) -> std::path::PathBuf {
    let bots = dir.join("bots");
    for (folder, given) in [("ann", "ann"), ("x", name)] {
        fs::create_dir_all(bots.join(folder)).unwrap();
        fs::write(
            bots.join(folder).join("meta"),
            format!("{given}\npython3\nbot.py\n0\n"),
        )
        .unwrap();
    }
    bots
}

/// The two games of the tournament of `names` (in folder order), played
/// by house bots in-process under those names, as the schedule has them.
fn play(names: &[String], seed: u64) -> Vec<GameRecord> {
    tournament::schedule(names.len(), seed)
        .iter()
        .map(|fixture| {
            let mut a = Local::new(&names[fixture.a], HouseBot::new(fixture.a_seed));
            let mut b = Local::new(&names[fixture.b], HouseBot::new(fixture.b_seed));
            let mut record = play_game(&tournament::board(Rule::Freestyle), &mut a, &mut b);
            record.index = fixture.index;
            record.a_seed = fixture.a_seed;
            record.b_seed = fixture.b_seed;
            record
        })
        .collect()
}

/// Writes what a run writes for `names` into `out` (the results file, the
/// SGF records, a part file, then the merge of that part), and checks that
/// every file is there with a bounded name.
fn write_and_check(out: &Path, names: &[String], left_out: Vec<LeftOut>, seed: u64) {
    let games = play(names, seed);
    let results = Results {
        left_out: left_out.clone(),
        ..Results::of_games(seed, Rule::Freestyle, 1.0, names.to_vec(), games.clone())
    };
    let results_path = out.join("results.json");
    output::write_atomic(&results_path, output::results_json(&results).as_bytes()).unwrap();
    let sgf = inarow_judge::sgf::write_sgf_dir(&out.join("sgf"), &games).unwrap();
    assert_eq!(sgf.len(), games.len());
    let bots = names
        .iter()
        .map(|name| Bot {
            name: name.clone(),
            command: "python3".into(),
            args: vec!["bot.py".into()],
            folder_sha256: "0".repeat(64),
        })
        .collect();
    let tournament = Tournament {
        seed,
        rule: Rule::Freestyle,
        timeout_seconds: 1.0,
        limits: None,
        bots,
        left_out,
    };
    let part = Part::new(Shard::WHOLE, tournament, games);
    let part_path = out.join("part-0-of-1.json");
    let part_text = part.to_json();
    output::write_atomic(&part_path, part_text.as_bytes()).unwrap();
    let merged = part::merge(&[("part-0-of-1.json", &part_text)]).unwrap();
    assert_eq!(
        output::results_json(&merged),
        output::results_json(&results),
        "a merge of the part is the run's results"
    );
    for path in std::iter::once(results_path).chain(sgf).chain([part_path]) {
        assert!(path.is_file(), "{}", path.display());
        for part in path.strip_prefix(out).unwrap().components() {
            let bytes = part.as_os_str().len();
            assert!(bytes <= 255, "{bytes} bytes: {}", path.display());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_name_is_refused_in_one_line_or_plays_and_its_files_are_written(
        name in any_name(),
        seed in any::<u64>(),
    ) {
        // The rule itself: a refusal is one safe line.
        if let Err(problem) = name::check(&name) {
            let line = problem.to_string();
            prop_assert!(!unsafe_line(&line), "{line:?}");
        }

        // From a meta file.
        let dir = tempfile::tempdir().unwrap();
        let bots = bots_with(dir.path(), &name);
        let found = survey(&bots).unwrap();
        for left in &found.left_out {
            prop_assert!(!unsafe_line(&left.reason), "{:?}", left.reason);
            prop_assert!(!unsafe_line(&left.folder), "{:?}", left.folder);
        }
        let playing: Vec<String> = found.bots.iter().map(|b| b.name.clone()).collect();
        for played in &playing {
            prop_assert_eq!(name::check(played), Ok(()));
        }
        // A plain name on one line that passes the rule and is not `ann`'s
        // look-alike plays; any other is left out.
        // (A meta line is trimmed; a line break makes it more lines.)
        let line = name.trim();
        let good = !name.contains('\n') && name::check(line).is_ok();
        let twin = good && name::look_alike(line, "ann");
        prop_assert_eq!(playing.len() == 2, good && !twin, "{:?} {:?}", playing, found.left_out);
        // A twin of `ann` leaves both out; any other refusal, `x` alone.
        let left = if good && !twin { 0 } else if twin { 2 } else { 1 };
        prop_assert_eq!(found.left_out.len(), left);
        if playing.len() == 2 {
            let out = dir.path().join("out-meta");
            fs::create_dir(&out).unwrap();
            write_and_check(&out, &playing, found.left_out.clone(), seed);
        }

        // From `--rename`: the organiser's name for the bot in folder `x`.
        match Rename::parse(&format!("x={name}")) {
            Err(refused) => {
                let line = refused.to_string();
                prop_assert!(!unsafe_line(&line), "{line:?}");
                prop_assert!(name::check(&name).is_err());
            }
            Ok(rename) => {
                prop_assert_eq!(name::check(&name), Ok(()));
                match survey_renamed(&bots, &[rename]) {
                    Err(taken) => {
                        let line = taken.to_string();
                        prop_assert!(!unsafe_line(&line), "{line:?}");
                        prop_assert!(name::look_alike(&name, "ann"), "{line}");
                    }
                    Ok(found) => {
                        let playing: Vec<String> = found.bots.iter().map(|b| b.name.clone()).collect();
                        prop_assert_eq!(&playing, &["ann".to_string(), name.clone()]);
                        let out = dir.path().join("out-rename");
                        fs::create_dir(&out).unwrap();
                        write_and_check(&out, &playing, Vec::new(), seed);
                    }
                }
            }
        }

        // From a part file: a merge refuses the part in one line naming
        // it, or merges it (checked above for the names that play).
        if name::check(&name).is_err() || name::look_alike(&name, "ann") {
            let names = ["ann".to_string(), name.clone()];
            let tournament = Tournament {
                seed,
                rule: Rule::Freestyle,
                timeout_seconds: 1.0,
                limits: None,
                bots: names
                    .iter()
                    .map(|n| Bot {
                        name: n.clone(),
                        command: "python3".into(),
                        args: Vec::new(),
                        folder_sha256: "0".repeat(64),
                    })
                    .collect(),
                left_out: Vec::new(),
            };
            let text = Part::new(Shard::WHOLE, tournament, Vec::new()).to_json();
            let refused = part::merge(&[("the-part.json", &text)]).unwrap_err().to_string();
            prop_assert!(refused.starts_with("the-part.json: bot 2"), "{refused}");
            prop_assert!(!unsafe_line(&refused), "{refused:?}");
        }
    }
}
