//! Helpers shared by the end-to-end tests: run `inarow` with piped input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `inarow ARGS` with `input` on its standard input and waits for it.
#[allow(dead_code)]
pub fn inarow(args: &[&str], input: &str) -> Output {
    run(env!("CARGO_BIN_EXE_inarow"), args, input)
}

/// Runs `program ARGS` with `input` on its standard input and waits for it.
#[allow(dead_code)]
pub fn run(program: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {program}: {e}"));
    // The program may stop reading early (a bad state file); ignore a broken pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("the program runs")
}

/// Standard output as text.
#[allow(dead_code)]
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
#[allow(dead_code)]
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The judge crate's scripted bot (`fake_bot.py`), its options chosen in
/// its meta file.
#[allow(dead_code)]
pub fn fake_bot() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../judge/tests/fixtures/fake_bot.py")
}

/// A bot folder `folder` of `bots` whose meta file gives `name` and runs
/// the fake bot with `opts` (copied in: a contained bot reads only its own
/// folder).
#[allow(dead_code)]
pub fn fake_bot_folder(
    bots: &std::path::Path,
    folder: &str,
    name: &str,
    opts: &str,
) -> std::path::PathBuf {
    let folder = bots.join(folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(fake_bot(), folder.join("fake_bot.py")).unwrap();
    let meta = format!("{name}\npython3\nfake_bot.py {opts}\n0\n");
    std::fs::write(folder.join("meta"), meta).unwrap();
    folder
}

/// A bot folder `name` of `bots` playing the project's engine at `nodes`
/// positions a move (so that its games replay exactly): its meta names
/// the bare program `inarow`, the judge's own, found after PATH.
#[allow(dead_code)]
pub fn engine_bot(bots: &std::path::Path, name: &str, nodes: u64) -> std::path::PathBuf {
    let folder = bots.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let meta = format!("{name}\ninarow\nbot --move-nodes {nodes}\n0\n");
    std::fs::write(folder.join("meta"), meta).unwrap();
    folder
}

#[allow(dead_code)]
#[path = "../../../judge/tests/common/folders.rs"]
mod folders;
#[allow(unused_imports)]
pub use folders::*;
