//! Why a bot lost a game without being beaten on the board: the
//! [`Fault`]s the referee, the conversation with a contained opponent and
//! the replay speak, each with the words the records write beside it.

use std::borrow::Cow;
use std::fmt;

use inarow_core::{PlayError, Xy};
use serde::{Deserialize, Serialize};

use inarow_sandbox::limits::{Limit, Limits};

use inarow_sandbox::shown;

/// Why a bot lost a game without being beaten on the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Fault {
    /// The answer could not be parsed.
    Syntax {
        /// The parser's complaint, quoting the answer.
        detail: String,
    },
    /// The answer named a point off the board.
    OffBoard {
        /// The column as written.
        x: i64,
        /// The row as written.
        y: i64,
    },
    /// The answer named a point that already holds a stone.
    Occupied {
        /// The point.
        point: Xy,
    },
    /// The answer named the same point twice.
    Repeated {
        /// The point.
        point: Xy,
    },
    /// No complete answer within the time limit.
    Timeout {
        /// The limit in seconds.
        seconds: f64,
    },
    /// The bot died with a failure status or a signal.
    Crash {
        /// How it ended.
        status: String,
    },
    /// The bot closed its output (or exited cleanly) without answering.
    Eof,
    /// The answer line grew past the limit without a newline.
    EndlessLine {
        /// The limit in bytes.
        limit: usize,
    },
    /// The bot's program could not be started.
    NoStart {
        /// The operating system's reason.
        error: String,
    },
    /// The bot used more memory than its limit, over all its processes.
    Memory {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bot ran more processes and threads at once than its limit.
    Processes {
        /// The limit.
        limit: u64,
    },
    /// One of the bot's processes used more CPU time than its limit.
    Cpu {
        /// The limit in seconds.
        seconds: u64,
    },
    /// The bot wrote a file past the file-size limit.
    FileSize {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bot's folder grew past its disk limit while it ran.
    Disk {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bot's sandbox could not be set up, so it never ran.
    Sandbox {
        /// What failed.
        detail: String,
    },
}

impl Fault {
    /// The fault with the text it carries from the bot (an answer quoted,
    /// how it ended, why it could not start) escaped by
    /// [`shown::escape`]: results files, SGF comments and the organiser's
    /// terminal all show it, and none of them may obey a bot's control
    /// characters.
    pub fn escaped(self) -> Fault {
        let text = |t: String| match shown::escape(&t) {
            Cow::Borrowed(_) => t,
            Cow::Owned(escaped) => escaped,
        };
        match self {
            Fault::Syntax { detail } => Fault::Syntax {
                detail: text(detail),
            },
            Fault::Crash { status } => Fault::Crash {
                status: text(status),
            },
            Fault::NoStart { error } => Fault::NoStart { error: text(error) },
            Fault::Sandbox { detail } => Fault::Sandbox {
                detail: text(detail),
            },
            other => other,
        }
    }

    /// The fault of a stone the board refused at `size`: taken, or off
    /// the board. A referee asks for moves only while the game goes on.
    pub fn refused(refused: PlayError, size: usize) -> Fault {
        match refused {
            PlayError::Occupied(p) => Fault::Occupied {
                point: p.to_xy(size),
            },
            PlayError::OffBoard(p) => {
                let (x, y) = p.xy(size);
                Fault::OffBoard {
                    x: x as i64,
                    y: y as i64,
                }
            }
            PlayError::GameOver => unreachable!("a move is asked for only while the game goes on"),
        }
    }

    /// The limit a bot went over, and the limit's value, for the faults
    /// of limits ([`Fault::over`]'s).
    pub fn limit(&self) -> Option<(Limit, u64)> {
        match *self {
            Fault::Memory { limit } => Some((Limit::Memory, limit)),
            Fault::Processes { limit } => Some((Limit::Processes, limit)),
            Fault::Cpu { seconds } => Some((Limit::Cpu, seconds)),
            Fault::FileSize { limit } => Some((Limit::FileSize, limit)),
            Fault::Disk { limit } => Some((Limit::Disk, limit)),
            _ => None,
        }
    }

    /// The fault of a bot that went over `limit` of `limits`.
    pub fn over(limit: Limit, limits: &Limits) -> Fault {
        let value = limits.value(limit);
        match limit {
            Limit::Memory => Fault::Memory { limit: value },
            Limit::Processes => Fault::Processes { limit: value },
            Limit::Cpu => Fault::Cpu { seconds: value },
            Limit::FileSize => Fault::FileSize { limit: value },
            Limit::Disk => Fault::Disk { limit: value },
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Syntax { detail } => write!(f, "bad syntax: {detail}"),
            Fault::OffBoard { x, y } => write!(f, "off the board: ({x},{y})"),
            Fault::Occupied { point } => write!(f, "occupied: ({point})"),
            Fault::Repeated { point } => write!(f, "repeated point: ({point})"),
            Fault::Timeout { seconds } => write!(f, "timeout: no answer within {seconds} s"),
            Fault::Crash { status } => write!(f, "crash: {status}"),
            Fault::Eof => write!(f, "EOF: closed its output without answering"),
            Fault::EndlessLine { limit } => {
                write!(f, "endless line: more than {limit} bytes without a newline")
            }
            Fault::NoStart { error } => write!(f, "could not start: {error}"),
            Fault::Memory { limit } => write!(f, "memory: {}", Limit::Memory.describe(*limit)),
            Fault::Processes { limit } => {
                write!(f, "processes: {}", Limit::Processes.describe(*limit))
            }
            Fault::Cpu { seconds } => write!(f, "cpu: {}", Limit::Cpu.describe(*seconds)),
            Fault::FileSize { limit } => {
                write!(f, "file size: {}", Limit::FileSize.describe(*limit))
            }
            Fault::Disk { limit } => write!(f, "disk: {}", Limit::Disk.describe(*limit)),
            Fault::Sandbox { detail } => write!(f, "sandbox: {detail}"),
        }
    }
}
