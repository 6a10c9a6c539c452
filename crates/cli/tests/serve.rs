//! `inarow serve` as a process: it serves, Ctrl-C stops it and saves the
//! state file, and bad flags or files are one-line errors that leave the
//! file alone.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

fn inarow() -> Command {
    Command::new(env!("CARGO_BIN_EXE_inarow"))
}

/// Starts `inarow serve` on a free port; returns it with its address.
fn serve(args: &[&str]) -> (Child, String) {
    let mut child = inarow()
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .strip_prefix("serving on http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    (child, address)
}

fn post(address: &str, path: &str) -> String {
    let mut s = TcpStream::connect(address).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    reply
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn ctrl_c_saves_the_machines_and_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    let (child, address) = serve(&["--state", state.to_str().unwrap(), "--preset", "scroggs"]);
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let reply = post(&address, "/api/menace/new");
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&state).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["format"], "inarow-menace");
    assert_eq!(saved["preset"], "scroggs");
    // The unfinished game is not learned: its bead went back.
    assert_eq!(saved["machines"][0]["games"], 0);
    let beads: u64 = saved["machines"][0]["boxes"][0]["beads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .sum();
    assert_eq!(beads, 24, "three colours of 8 beads in box 1");
    // The same file serves again with its preset.
    let (child, address) = serve(&["--state", state.to_str().unwrap()]);
    let mut s = TcpStream::connect(&address).unwrap();
    write!(
        s,
        "GET /api/menace HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    assert!(reply.contains("\"preset\":\"scroggs\""), "{reply}");
    interrupt(&child);
    assert!(child.wait_with_output().unwrap().status.success());
}

#[test]
fn bad_state_files_and_flags_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    std::fs::write(&state, "{ not json").unwrap();
    let out = inarow()
        .args(["serve", "--port", "0", "--state", state.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("inarow: state file {}", state.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), "{ not json");

    let (child, address) = serve(&[]);
    let out = inarow()
        .args(["serve", "--port", address.rsplit(':').next().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("inarow: cannot listen on {address}")),
        "{err}"
    );
    interrupt(&child);
    assert!(child.wait_with_output().unwrap().status.success());

    let out = inarow()
        .args(["serve", "--bind", "localhost"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'localhost'"));
}
