//! Numbers on every command's line: a negative number is read as a number
//! (never taken for an unknown flag), and a number out of range is refused
//! in one line naming the flag, the value and what is allowed, with clap's
//! exit code for a mistake on the command line, before anything is done.

use crate::common;

use common::{run, stderr};

/// Runs `program ARGS` in an empty folder; its refusal, checked to be one
/// line with exit code 2 and to leave the folder empty.
fn refused(program: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(program)
        .args(args)
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "{args:?} wrote something"
    );
    err.trim_end().to_string()
}

#[test]
fn every_command_refuses_numbers_out_of_range_naming_flag_and_value() {
    let at_least_one = "a whole number of at least 1";
    let seed = format!("a whole number from 0 to {}", u64::MAX);
    for (args, flag, value, allowed) in [
        (
            &["menace", "train", "--opponent", "random", "--games", "-5"][..],
            "--games",
            "-5",
            at_least_one,
        ),
        (
            &["menace", "train", "--opponent", "random", "--games", "0"],
            "--games",
            "0",
            at_least_one,
        ),
        (
            &[
                "menace",
                "train",
                "--opponent",
                "random",
                "--games",
                "9",
                "--block",
                "0",
            ],
            "--block",
            "0",
            at_least_one,
        ),
        (
            &[
                "menace",
                "train",
                "--opponent",
                "random",
                "--games",
                "9",
                "--save-every",
                "-1",
            ],
            "--save-every",
            "-1",
            at_least_one,
        ),
        (&["menace", "--seed", "-3"], "--seed", "-3", &seed),
        (&["judge", "-j", "-1"], "--jobs", "-1", at_least_one),
        (&["judge", "-j", "0"], "--jobs", "0", at_least_one),
        (&["judge", "--shards", "0"], "--shards", "0", at_least_one),
        (
            &["judge", "--processes", "0"],
            "--processes",
            "0",
            at_least_one,
        ),
        (&["judge", "--cpu", "-5"], "--cpu", "-5", at_least_one),
        (
            &["judge", "--timeout", "-1"],
            "--timeout",
            "-1",
            "a number of seconds from 0 (no limit) to 1000000000",
        ),
        (
            &["judge", "--memory", "-5"],
            "--memory",
            "-5",
            "a size of at least 1 byte such as 64k, 512M or 2G, or unbounded",
        ),
        (
            &["judge", "--cpus", "0"],
            "--cpus",
            "0",
            "a number of processors from 0.01 to 4096 such as 1, 2 or 0.5, or unbounded",
        ),
        (&["judge", "--seed", "-7"], "--seed", "-7", &seed),
        (
            &["bot", "--move-nodes", "0"],
            "--move-nodes",
            "0",
            at_least_one,
        ),
        (
            &["bot", "--move-time", "-0.5"],
            "--move-time",
            "-0.5",
            "a number of seconds above 0 and at most 3600",
        ),
        (&["pbrain", "--seed", "-1"], "--seed", "-1", &seed),
        (
            &["serve", "--port", "-1"],
            "--port",
            "-1",
            "a whole number from 0 to 65535",
        ),
        (
            &["serve", "--port", "65536"],
            "--port",
            "65536",
            "a whole number from 0 to 65535",
        ),
        (
            &["serve", "--header-timeout-ms", "0"],
            "--header-timeout-ms",
            "0",
            at_least_one,
        ),
        (
            &["serve", "--body-timeout-ms", "-10"],
            "--body-timeout-ms",
            "-10",
            at_least_one,
        ),
        (
            &["eval", "games", "--out", "g.txt", "--games", "-5"],
            "--games",
            "-5",
            at_least_one,
        ),
        (
            &["eval", "games", "--out", "g.txt", "--nodes", "0"],
            "--nodes",
            "0",
            at_least_one,
        ),
        (
            &["eval", "games", "--out", "g.txt", "--stones", "21"],
            "--stones",
            "21",
            "a whole number from 1 to 20",
        ),
        (
            &["eval", "games", "--out", "g.txt", "--size", "4"],
            "--size",
            "4",
            "a whole number from 5 to 20",
        ),
        (
            &["eval", "fit", "g.txt", "--out", "t.txt", "--epochs", "0"],
            "--epochs",
            "0",
            at_least_one,
        ),
        (
            &["selfplay", "--pairs", "-5"],
            "--pairs",
            "-5",
            at_least_one,
        ),
        (
            &["selfplay", "openings", "--out", "o.txt", "--count", "-1"],
            "--count",
            "-1",
            at_least_one,
        ),
    ] {
        let err = refused(env!("CARGO_BIN_EXE_inarow"), args);
        assert_eq!(
            err,
            format!("inarow: {flag} must be {allowed}, got {value}"),
            "{args:?}"
        );
    }
    // The brain under the name managers know reads its numbers the same way.
    let err = refused(env!("CARGO_BIN_EXE_pbrain-inarow"), &["--seed", "-1"]);
    assert_eq!(err, format!("pbrain-inarow: --seed must be {seed}, got -1"));
}

#[test]
fn clap_mistakes_are_one_line_too_and_help_is_whole() {
    for (args, says) in [
        (
            &["menace", "train", "--gmes", "5"][..],
            "inarow: unexpected argument '--gmes' found (tip: a similar argument exists: '--games')",
        ),
        (
            &["menace", "train"],
            "inarow: the following required arguments were not provided: --games <GAMES>",
        ),
        (
            &["judge", "--bogus"],
            "inarow: unexpected argument '--bogus' found",
        ),
        (
            &["selfplay", "--elo0"],
            "inarow: a value is required for '--elo0 <ELO0>' but none was supplied",
        ),
        (&["nosuch"], "inarow: unrecognized subcommand 'nosuch'"),
    ] {
        let err = refused(env!("CARGO_BIN_EXE_inarow"), args);
        assert!(err.starts_with(says), "{args:?}: {err}");
    }
    // Help goes to standard output whole, and succeeds.
    let out = run(env!("CARGO_BIN_EXE_inarow"), &["judge", "--help"], "");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Usage: inarow judge [OPTIONS]"), "{help}");
    assert!(help.lines().count() > 20, "{help}");
    assert!(out.stderr.is_empty());
}
