//! `inarow selfplay --shard I/N` and `inarow selfplay merge` end to end, on
//! a node budget: the merged pair lines, score, Elo, SPRT verdict and games
//! file are the one-machine run's, and a merge says when the SPRT stopped.

use crate::common;

use std::fs;
use std::path::Path;

use common::{inarow, stderr, stdout};

fn ok(args: &[&str]) -> String {
    let out = inarow(args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// The lines a merge must reproduce: pairs, score with Elo, the pairs'
/// points with Elo by pairs, and the SPRT.
fn verdict_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| {
            l.starts_with("pair ")
                || l.starts_with("A vs B")
                || l.starts_with("A by pair")
                || l.starts_with("SPRT")
        })
        .collect()
}

/// Plays `args` whole and in `count` shares, merges, and returns the
/// one-machine output and the merge's (games files compared on the way).
fn whole_and_merged(dir: &Path, args: &[&str], count: usize) -> (String, String) {
    let games = dir.join("whole.txt");
    let whole = ok(&[
        &["selfplay"],
        args,
        &["--games-file", games.to_str().unwrap()],
    ]
    .concat());
    let mut parts = Vec::new();
    for index in 0..count {
        let part = dir.join(format!("part-{index}.json"));
        let shard = format!("{index}/{count}");
        let out = ok(&[
            &["selfplay"],
            args,
            &["--shard", &shard, "--part", part.to_str().unwrap()],
        ]
        .concat());
        assert!(out.contains(&format!("share {shard}: ")), "{out}");
        parts.push(part.to_str().unwrap().to_string());
    }
    let merged_games = dir.join("merged.txt");
    let mut merge = vec!["selfplay", "merge"];
    merge.extend(parts.iter().map(String::as_str));
    merge.extend(["--games-file", merged_games.to_str().unwrap()]);
    let merged = ok(&merge);
    assert_eq!(
        fs::read(&merged_games).unwrap(),
        fs::read(&games).unwrap(),
        "the games file"
    );
    (whole, merged)
}

#[test]
fn shares_merged_score_as_one_machine_on_a_node_budget() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--a",
        "lmr_base=40",
        "--pairs",
        "5",
        "--nodes",
        "300",
        "--seed",
        "3",
    ];
    let (whole, merged) = whole_and_merged(dir.path(), &args, 3);
    assert_eq!(verdict_lines(&merged), verdict_lines(&whole), "{merged}");
    assert_eq!(verdict_lines(&whole).len(), 5 + 3);
    assert!(
        merged.contains("all 5 pairs are in: the SPRT did not stop"),
        "{merged}"
    );
}

#[test]
fn a_merge_stops_where_the_sprt_stopped_one_machine() {
    let dir = tempfile::tempdir().unwrap();
    // The same engine on both sides scores about half: "A is 300 Elo
    // better" against "600 better" is decided for H0 within a few pairs
    // (after pair 4 with this seed: 6 pairs in all still give the shares
    // pairs past the stop, and cost half of 12, issue 57).
    let args = [
        "--pairs", "6", "--nodes", "200", "--seed", "5", "--elo0", "300", "--elo1", "600",
    ];
    let (whole, merged) = whole_and_merged(dir.path(), &args, 2);
    assert!(whole.contains("H0 accepted"), "{whole}");
    let played = whole.lines().filter(|l| l.starts_with("pair ")).count();
    assert!(played < 6, "{whole}");
    assert_eq!(verdict_lines(&merged), verdict_lines(&whole), "{merged}");
    assert!(
        merged.contains(&format!("the SPRT stopped after pair {played}")),
        "{merged}"
    );
}

#[test]
fn a_part_of_another_match_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let part = |name: &str, shard: &str, a: &str| {
        let path = dir.path().join(name);
        let p = path.to_str().unwrap();
        ok(&[
            "selfplay", "--a", a, "--pairs", "2", "--nodes", "100", "--shard", shard, "--part", p,
        ]);
        p.to_string()
    };
    let p0 = part("p0.json", "0/2", "lmr_base=40");
    let other = part("other.json", "1/2", "lmr_base=50");
    let out = inarow(&["selfplay", "merge", &p0, &other], "");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("other.json: a part of another match")
            && err.contains("A lmr_base=50, not lmr_base=40"),
        "{err}"
    );
    let out = inarow(&["selfplay", "merge", &p0], "");
    assert!(
        stderr(&out).contains("pair 2 is share 1/2's, which is missing"),
        "{}",
        stderr(&out)
    );
}
