//! Helpers shared by the end-to-end tests: run `inarow` with piped input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `inarow ARGS` with `input` on its standard input and waits for it.
pub fn inarow(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start inarow");
    // The program may stop reading early (a bad state file); ignore a broken pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("inarow runs")
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
