//! The example bots of `bots/` in a real tournament, and `inarow bot` itself.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn inarow() -> Command {
    Command::new(env!("CARGO_BIN_EXE_inarow"))
}

fn copy_bot(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if name != "memory.json" {
            fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

fn tournament(dir: &Path, tag: &str) -> (String, String) {
    let results = dir.join(format!("{tag}.json"));
    let out = inarow()
        .args([
            "judge",
            "--seed",
            "5",
            "-j",
            "1",
            "--timeout",
            "30",
            "--bots",
        ])
        .arg(dir.join("bots"))
        .arg("--results")
        .arg(&results)
        .arg("--sgf")
        .arg(dir.join(format!("sgf-{tag}")))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout, fs::read_to_string(results).unwrap())
}

#[test]
fn the_example_bots_play_legally_reproducibly_and_one_remembers() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots");
    copy_bot(
        &repo.join("bots/random-python"),
        &bots.join("random-python"),
    );
    copy_bot(&repo.join("bots/random-js"), &bots.join("random-js"));
    // The house bot's own meta points at the release build; here the test build runs it.
    let house = bots.join("house");
    fs::create_dir_all(&house).unwrap();
    fs::write(
        house.join("meta"),
        format!("house\n{}\nbot\n0\n", env!("CARGO_BIN_EXE_inarow")),
    )
    .unwrap();

    let (stdout, first) = tournament(dir.path(), "first");
    assert!(!stdout.contains("forfeits:"), "{stdout}");
    assert_eq!(
        first.matches("\"reason\": \"five\"").count()
            + first.matches("\"reason\": \"full board\"").count(),
        6
    );
    let (_, second) = tournament(dir.path(), "second");
    assert_eq!(first, second, "memory must not change the moves");

    let memory = fs::read_to_string(bots.join("random-js/memory.json")).unwrap();
    let squeezed: String = memory.split_whitespace().collect();
    // Two games against each opponent per tournament, two tournaments.
    assert!(squeezed.contains("\"house\":{\"played\":4"), "{memory}");
    assert!(
        squeezed.contains("\"random-python\":{\"played\":4"),
        "{memory}"
    );
}

#[test]
fn inarow_bot_answers_every_prompt() {
    let mut bot = inarow()
        .args(["bot", "someone", "12"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let board = r#"[((0,0),"B"),((0,1),"B"),((0,2),"B"),((0,3),"B"),((5,5),"W"),((6,6),"W"),((12,12),"W")]"#;
    let prompts = format!(
        "A []\nB [((7,7),\"B\"),((7,8),\"W\"),((8,8),\"B\")]\nC {board}\n6 {board}\nEXIT someone\n"
    );
    bot.stdin
        .take()
        .unwrap()
        .write_all(prompts.as_bytes())
        .unwrap();
    let out = bot.wait_with_output().unwrap();
    assert!(out.status.success());
    let answers: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_eq!(answers[0].matches('(').count(), 3);
    assert!(
        answers[1] == "B" || answers[1].starts_with("W (") || answers[1].matches('(').count() == 2
    );
    assert!(answers[2] == "B" || answers[2] == "W");
    assert_eq!(answers[3], "(0,4)", "white blocks black's four");
}
