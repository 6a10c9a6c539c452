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

#[allow(dead_code)]
#[path = "../../../judge/tests/common/folders.rs"]
mod folders;
#[allow(unused_imports)]
pub use folders::*;
