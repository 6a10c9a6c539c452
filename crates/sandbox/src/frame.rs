//! What the launcher tells the judge about a contestant: one frame a line
//! on the launcher's standard error. The contestant never holds that
//! stream (its own standard error is relayed, framed, by the first stage),
//! so it cannot forge a frame.

use std::io::Write;

use crate::limits::Limit;
use crate::probe::Findings;

/// One message of the launcher to the judge.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame {
    /// A line of the contestant's standard error, and how many bytes of it were cut.
    Stderr(String, u64),
    /// The program ended with this exit code.
    Exit(i32),
    /// The program was killed by this signal.
    Signal(i32),
    /// The program could not be started.
    NoStart(String),
    /// The sandbox could not be set up; the program never ran.
    Sandbox(String),
    /// What a probe found inside the sandbox.
    Probe(Box<Findings>),
    /// The contestant went over a limit the launcher watches (its disk),
    /// and was killed.
    Over(Limit),
    /// Where no control group freezes it: every process of the contestant
    /// is stopped (`true`) or running again (`false`), as asked.
    Frozen(bool),
    /// Where no control group freezes it: some process of the contestant
    /// kept running though every one was told to stop.
    Unfrozen,
    /// What the contestant wrote could not be kept in its folder: why.
    Unkept(String),
}

impl Frame {
    /// The frame as one line (without the newline).
    pub fn encode(&self) -> String {
        let flat = |s: &str| s.replace(['\n', '\r'], " ");
        match self {
            Frame::Stderr(text, cut) => format!("E {cut} {}", flat(text)),
            Frame::Exit(code) => format!("X {code}"),
            Frame::Signal(signal) => format!("S {signal}"),
            Frame::NoStart(why) => format!("N {}", flat(why)),
            Frame::Sandbox(why) => format!("F {}", flat(why)),
            Frame::Probe(findings) => format!(
                "P {}",
                serde_json::to_string(findings).expect("findings are plain data")
            ),
            Frame::Over(limit) => format!("O {}", limit.name()),
            Frame::Frozen(true) => "Z frozen".into(),
            Frame::Frozen(false) => "Z thawed".into(),
            Frame::Unfrozen => "Z unfrozen".into(),
            Frame::Unkept(why) => format!("K {}", flat(why)),
        }
    }

    /// Reads a frame; `None` for a line that is not one.
    pub fn decode(line: &str) -> Option<Frame> {
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        Some(match tag {
            "E" => {
                let (cut, text) = rest.split_once(' ').unwrap_or((rest, ""));
                Frame::Stderr(text.to_string(), cut.parse().ok()?)
            }
            "X" => Frame::Exit(rest.parse().ok()?),
            "S" => Frame::Signal(rest.parse().ok()?),
            "N" => Frame::NoStart(rest.to_string()),
            "F" => Frame::Sandbox(rest.to_string()),
            "P" => Frame::Probe(Box::new(serde_json::from_str(rest).ok()?)),
            "O" => Frame::Over(Limit::from_name(rest)?),
            "Z" => match rest {
                "frozen" => Frame::Frozen(true),
                "thawed" => Frame::Frozen(false),
                "unfrozen" => Frame::Unfrozen,
                _ => return None,
            },
            "K" => Frame::Unkept(rest.to_string()),
            _ => return None,
        })
    }

    /// Writes the frame as a line to `out` in one write, so frames from
    /// several writers never interleave within a line.
    pub fn send(&self, out: &mut impl Write) {
        let mut line = self.encode();
        line.push('\n');
        let _ = out.write_all(line.as_bytes());
        let _ = out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_and_never_span_lines() {
        for frame in [
            Frame::Stderr("a line\nwith a break".into(), 0),
            Frame::Stderr("cut".into(), 12),
            Frame::Exit(3),
            Frame::Signal(9),
            Frame::NoStart("no such file".into()),
            Frame::Sandbox("Landlock: nope".into()),
            Frame::Probe(Box::default()),
            Frame::Over(Limit::Disk),
            Frame::Frozen(true),
            Frame::Frozen(false),
            Frame::Unfrozen,
            Frame::Unkept("no room".into()),
        ] {
            let line = frame.encode();
            assert!(!line.contains('\n'));
            let back = Frame::decode(&line).unwrap();
            match (&frame, &back) {
                (Frame::Stderr(text, cut), Frame::Stderr(t, c)) => {
                    assert_eq!((text.replace('\n', " "), cut), (t.clone(), c));
                }
                _ => assert_eq!(frame, back),
            }
        }
        assert_eq!(Frame::decode("hello"), None);
        assert_eq!(Frame::decode("X nine"), None);
        assert_eq!(Frame::decode("O nothing"), None);
    }
}
