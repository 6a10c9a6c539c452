//! `inarow selfplay` end to end: settings against settings, against another
//! build through the Gomocup protocol, and against a broken brain.

use std::os::unix::fs::PermissionsExt;

mod common;

use common::{inarow, stderr, stdout};

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
        "selfplay", "--pairs", "2", "--nodes", "400", "--a", "width=8",
    ];
    let first = inarow(&args, "");
    assert!(first.status.success(), "{}", stderr(&first));
    let (w, d, l) = summary(&stdout(&first));
    assert_eq!(w + d + l, 4, "two pairs, colours swapped");
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
fn another_build_plays_through_the_brain_protocol() {
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let out = inarow(
        &["selfplay", "--pairs", "1", "--ms", "40", "--b-brain", brain],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (w, d, l) = summary(&stdout(&out));
    assert_eq!(w + d + l, 2);
    assert!(
        stdout(&out).contains("illegal moves: 0"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_brain_that_answers_nonsense_loses_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let brain = dir.path().join("nonsense");
    std::fs::write(
        &brain,
        "#!/bin/sh\nwhile read line; do case \"$line\" in START*|RESTART*) echo OK;; DONE*) echo nonsense;; END*) exit 0;; esac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&brain, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = inarow(
        &[
            "selfplay",
            "--pairs",
            "1",
            "--ms",
            "40",
            "--b-brain",
            brain.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(summary(&stdout(&out)), (2, 0, 0));
    assert!(stdout(&out).contains("illegal moves: 2"));
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
            "--pairs must be at least 1",
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
