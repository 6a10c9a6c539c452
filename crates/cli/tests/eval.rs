//! `inarow eval` end to end: self-play games into a games file, tables
//! fitted to them, the tables read back and measured, used by a match and a
//! brain, and damaged files refused in one line.

use std::fs;

use crate::common;

use common::{inarow, stderr, stdout};

/// Runs `inarow` with `args`, which must succeed; its output.
fn ok(args: &[&str]) -> String {
    let out = inarow(args, "");
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Runs `inarow` with `args`, which must fail; its one-line error.
fn refused(args: &[&str]) -> String {
    let out = inarow(args, "");
    assert!(
        !out.status.success(),
        "{args:?} should fail: {}",
        stdout(&out)
    );
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    err
}

#[test]
fn games_fit_check_and_play_with_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.gm");
    let games = games.to_str().unwrap();
    let out = ok(&[
        "eval", "games", "--out", games, "--games", "30", "--nodes", "300", "--seed", "4", "-j",
        "2",
    ]);
    assert!(out.contains("30 games: black won"), "{out}");
    // The same seed plays the same games, however many at once.
    let again = dir.path().join("again.gm");
    ok(&[
        "eval",
        "games",
        "--out",
        again.to_str().unwrap(),
        "--games",
        "30",
        "--nodes",
        "300",
        "--seed",
        "4",
    ]);
    assert_eq!(fs::read(games).unwrap(), fs::read(&again).unwrap());

    let tables = dir.path().join("eval.bin");
    let tables = tables.to_str().unwrap();
    let out = ok(&[
        "eval", "fit", games, "--out", tables, "--from", "tuned", "--epochs", "60",
    ]);
    assert!(
        out.contains("freestyle:") && out.contains("held out"),
        "{out}"
    );
    // The fit keeps the epoch best on held-out games: never worse than
    // where it started.
    let line = out.lines().find(|l| l.contains("fitted")).unwrap();
    let numbers: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let (start_held, fitted_held) = (numbers[numbers.len() - 4], numbers[numbers.len() - 2]);
    assert!(fitted_held <= start_held, "{line}");

    let out = ok(&["eval", "check", tables, games]);
    // A person's summary, not a debug value: what the file is, its
    // SHA-256 as `sha256sum` begins it, and each rule's scale.
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "{tables}: learned tables (evaluation v2), SHA-256 "
        )),
        "{out}"
    );
    assert!(
        !out.contains("Learned {") && !out.contains("sha256:"),
        "{out}"
    );
    let sha = first.split("SHA-256 ").nth(1).unwrap();
    assert!(
        sha[..12].chars().all(|c| c.is_ascii_hexdigit()) && sha[12..].starts_with("..."),
        "{first}"
    );
    assert!(
        first.contains("logistic scale a unit: freestyle 0.") && first.contains(", renju 0."),
        "{first}"
    );
    assert!(!first.contains("the tables this build embeds"), "{first}");
    let losses = out.lines().find(|l| l.starts_with("freestyle: ")).unwrap();
    assert!(
        losses.contains("these tables ") && losses.contains("today's (the embedded tables) "),
        "{losses}"
    );

    // A match and a brain play with the tables from the file.
    let settings = format!("eval={tables}");
    let out = ok(&[
        "selfplay", "--a", &settings, "--pairs", "1", "--nodes", "300",
    ]);
    assert!(out.contains("A vs B"), "{out}");
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let session = common::run(
        brain,
        &["--quiet", "--eval", tables],
        "START 15\nBEGIN\nEND\n",
    );
    let answer = stdout(&session);
    assert!(session.status.success(), "{}", stderr(&session));
    assert_eq!(
        answer.lines().collect::<Vec<_>>(),
        ["OK", "7,7"],
        "{answer}"
    );

    // Damaged files are refused, naming the file and what is wrong.
    let mut bytes = fs::read(tables).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x10;
    let bad = dir.path().join("bad.bin");
    fs::write(&bad, &bytes).unwrap();
    let e = refused(&["eval", "check", bad.to_str().unwrap()]);
    assert!(e.contains("bad.bin") && e.contains("checksum"), "{e}");
    let e = refused(&[
        "selfplay",
        "--a",
        &format!("eval={}", bad.display()),
        "--pairs",
        "1",
    ]);
    assert!(e.contains("checksum"), "{e}");
    let session = common::run(brain, &["--eval", bad.to_str().unwrap()], "");
    assert!(!session.status.success());
    assert!(stderr(&session).contains("--eval") && stderr(&session).contains("checksum"));
    let e = refused(&["eval", "fit", tables, "--out", tables]);
    assert!(e.contains("not a games file"), "{e}");
    let cut = dir.path().join("cut.gm");
    let g = fs::read(games).unwrap();
    fs::write(&cut, &g[..g.len() - 3]).unwrap();
    let e = refused(&["eval", "check", tables, cut.to_str().unwrap()]);
    assert!(e.contains("cut.gm") && e.contains("game 30"), "{e}");
    let e = refused(&["selfplay", "--a", "eval=/nowhere/eval.bin", "--pairs", "1"]);
    assert!(e.contains("hand, tuned, learned or a tables file"), "{e}");
}

#[test]
fn bad_requests_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.gm");
    let out = out.to_str().unwrap();
    let e = refused(&["eval", "games", "--out", out, "--games", "0"]);
    assert!(e.contains("--games"), "{e}");
    let e = refused(&["eval", "games", "--out", out, "--settings", "lmr_base=oops"]);
    assert!(e.contains("--settings"), "{e}");
    let e = refused(&["eval", "fit", "/nowhere.gm", "--out", out]);
    assert!(e.contains("/nowhere.gm"), "{e}");
    // A games file that cannot be written is refused before any game.
    let e = refused(&["eval", "games", "--out", "/nowhere/g.gm"]);
    assert!(
        e.contains("cannot write the games file /nowhere/g.gm"),
        "{e}"
    );
    // The seeded set is played only without games files.
    let e = refused(&["eval", "check", out, out, "--play", "5"]);
    assert!(e.contains("--play"), "{e}");
}

/// A model file in the published classical format (made here: the real
/// ones are data from elsewhere), whose point values favour shapes with
/// more own stones, so that it plays.
fn classical_model(path: &std::path::Path) {
    use inarow_engine::eval::fine::{CODES, MASKS, code_patterns};
    use inarow_engine::eval::fine_tables::FineTables;
    let value = std::array::from_fn(|_| {
        (0..CODES as u16)
            .map(|c| {
                code_patterns(c)
                    .iter()
                    .map(|&p| (p as i16) * (p as i16))
                    .sum()
            })
            .collect()
    });
    let tables = FineTables {
        scale: 250.0,
        value,
        threat: std::array::from_fn(|_| vec![0; MASKS]),
        order: std::array::from_fn(|_| vec![[1, 1]; CODES]),
    };
    fs::write(path, tables.to_classical_model()).unwrap();
}

#[test]
fn a_classical_model_is_measured_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model.bin");
    classical_model(&model);
    let games = dir.path().join("games.gm");
    let games = games.to_str().unwrap();
    ok(&[
        "eval", "games", "--out", games, "--games", "10", "--nodes", "200", "--seed", "5",
    ]);
    let named = format!("rapfi:{}", model.display());
    let out = ok(&["eval", "check", &named, games]);
    assert!(
        out.contains("a classical model (Rapfi's), logistic scale 250"),
        "{out}"
    );
    for line in [
        "the model:",
        "today's (the embedded tables):",
        "the tuned pattern evaluation:",
    ] {
        assert!(out.contains(line), "{out}");
    }
    assert!(out.contains("freestyle: 10 games"), "{out}");

    // Fine tables fitted here (a tables file of version 3) are measured
    // and played the same way.
    let fine = dir.path().join("fine.bin");
    let fine = fine.to_str().unwrap();
    let out = ok(&[
        "eval", "fit", "--fine", games, "--out", fine, "--epochs", "20",
    ]);
    assert!(
        out.contains("held out") && out.contains("ranked first"),
        "{out}"
    );
    let out = ok(&["eval", "check", fine, games]);
    assert!(
        out.contains("fine tables (evaluation v3), SHA-256 ") && out.contains("logistic scale 250"),
        "{out}"
    );
    let settings = format!("eval={fine},order_fine=100");
    let out = ok(&[
        "selfplay", "--a", &settings, "--pairs", "1", "--nodes", "300",
    ]);
    assert!(out.contains("A vs B"), "{out}");
    let e = refused(&[
        "eval", "fit", "--fine", games, "--from", "tuned", "--out", fine,
    ]);
    assert!(e.contains("--from"), "{e}");

    // A match and a brain play with it, ordering by its move scores too.
    let settings = format!("eval={named},order_fine=100");
    let out = ok(&[
        "selfplay", "--a", &settings, "--pairs", "1", "--nodes", "300",
    ]);
    assert!(out.contains("A vs B"), "{out}");
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let session = common::run(
        brain,
        &["--quiet", "--eval", &named],
        "START 15\nBEGIN\nTURN 8,8\nEND\n",
    );
    assert!(session.status.success(), "{}", stderr(&session));
    assert_eq!(stdout(&session).lines().count(), 3, "{}", stdout(&session));

    // Files that are not models, or damaged ones, are refused in a line.
    let e = refused(&["eval", "check", &format!("rapfi:{games}")]);
    assert!(
        e.contains("games.gm") && e.contains("not an LZ4 frame"),
        "{e}"
    );
    let mut bytes = fs::read(&model).unwrap();
    let n = bytes.len();
    bytes[n - 6] ^= 0x21;
    let bad = dir.path().join("bad.bin");
    fs::write(&bad, &bytes).unwrap();
    let e = refused(&[
        "selfplay",
        "--a",
        &format!("eval=rapfi:{}", bad.display()),
        "--pairs",
        "1",
    ]);
    assert!(
        e.contains("bad.bin") && e.contains("classical model"),
        "{e}"
    );
    let session = common::run(brain, &["--eval", "rapfi:/nowhere/model.bin"], "");
    assert!(!session.status.success());
    assert!(
        stderr(&session).contains("cannot read"),
        "{}",
        stderr(&session)
    );
}

#[test]
fn check_without_games_measures_on_a_seeded_set_it_plays() {
    let embedded = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/data/eval.bin");
    let embedded = embedded.to_str().unwrap();
    let args = [
        "eval", "check", embedded, "--play", "3", "--nodes", "100", "--rule", "exact",
    ];
    let out = ok(&args);
    assert!(out.contains("the tables this build embeds"), "{out}");
    assert!(
        out.contains(
            "no games file given: measuring on 3 seeded self-play games of today's engine (100 nodes a move, seed 1, exact)"
        ),
        "{out}"
    );
    // Its loss beside today's: here the same tables, so the same loss.
    let line = out
        .lines()
        .find(|l| l.starts_with("exact: "))
        .expect("a loss");
    let losses: Vec<f64> = line
        .split([' ', ','])
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(losses.len(), 4, "positions, then three losses: {line}");
    assert!(losses[0] > 0.0 && losses[1] > 0.0, "{line}");
    assert_eq!(losses[1], losses[2], "{line}");
    assert!(!out.contains("freestyle: "), "one rule's games: {out}");
    // Seeded: the same set, the same figures.
    assert_eq!(ok(&args), out);
}

#[test]
fn games_are_written_as_they_end_and_the_file_always_reads() {
    use inarow_engine::learn::games::read_games;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.gm");
    let total = 20;
    let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["eval", "games", "--nodes", "100", "--seed", "2", "--out"])
        .arg(&path)
        .args(["--games", &total.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // How many games the file held each time it was read during the run.
    let mut seen = std::collections::BTreeSet::new();
    loop {
        let running = child.try_wait().unwrap().is_none();
        if let Ok(bytes) = fs::read(&path) {
            // A read may meet a game being appended; whole files count.
            if let Ok(games) = read_games(&bytes) {
                seen.insert(games.len());
            }
        }
        if !running {
            break;
        }
        std::thread::yield_now();
    }
    assert!(child.wait().unwrap().success());
    let games = read_games(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(games.len(), total);
    // Written as they end, not all at the end: it held some, not all.
    assert!(
        seen.iter().any(|&n| n > 0 && n < total),
        "counts seen during the run: {seen:?}"
    );
}
