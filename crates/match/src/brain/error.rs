//! Why a brain could not start, gave no move, or gave one that is not a
//! move: its silences are the faults a judge's bot
//! forfeits for ([`inarow_contest::Fault`]), said in the match's words.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use inarow_contest::Fault;
use inarow_protocol::gomocup::manager;
use inarow_sandbox::shown::quoted;
use inarow_sandbox::{FreezeError, StartError};

/// Why a brain could not start, gave no move, or gave one that is not a
/// move: one line naming the brain, its outside text quoted.
#[derive(Clone, Debug, thiserror::Error)]
pub enum BrainError {
    /// Its program could not be started.
    #[error("cannot start brain {name}: {error}")]
    Start {
        /// The brain.
        name: String,
        /// Why.
        error: Arc<StartError>,
    },
    /// It could not be thawed for its turn, or kept running after it.
    #[error("brain {name}: {error}")]
    Freezing {
        /// The brain.
        name: String,
        /// Why.
        error: FreezeError,
    },
    /// It went over a limit, was late or was gone.
    #[error("{0}")]
    Silent(Silent),
    /// It answered `START` or `RESTART` with something other than `OK`.
    #[error("brain {name} answered {command} with {}, not OK", quoted(.line))]
    NotOk {
        /// The brain.
        name: String,
        /// The command it answered.
        command: &'static str,
        /// Its answer.
        line: String,
    },
    /// Its answer to a move's question is not `x,y`.
    #[error("brain {name}: expected a move x,y, got {}", quoted(.line))]
    NotAMove {
        /// The brain.
        name: String,
        /// Its answer.
        line: String,
    },
    /// Its move is off the board.
    #[error("brain {name}: {error}")]
    OffBoard {
        /// The brain.
        name: String,
        /// The move and the board.
        error: manager::MoveError,
    },
}

/// While a brain went silent: told a line, or asked for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// It was told a line and did not take it.
    Told,
    /// It was asked for an answer and gave none.
    Asked,
}

/// A brain's silence: the fault a bot would forfeit for, and what the match says
/// of it (when, its wait, its last words on standard error).
#[derive(Clone, Debug)]
pub struct Silent {
    /// The brain.
    pub name: String,
    /// The fault a bot would forfeit for.
    pub fault: Fault,
    /// While it was told a line, or asked for one.
    pub stage: Stage,
    /// How long it was given.
    pub wait: Duration,
    /// The last line of its standard error, cut and escaped, when it went
    /// silent.
    pub last_words: Option<String>,
}

impl fmt::Display for Silent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        let did = match self.stage {
            Stage::Told => "closed its input",
            Stage::Asked => "closed its output",
        };
        let how = match &self.fault {
            Fault::Eof => String::new(),
            Fault::Crash { status } => format!(" ({status})"),
            Fault::Timeout { .. } => {
                let ms = self.wait.as_millis();
                return match self.stage {
                    Stage::Told => write!(f, "brain {name} did not read its input within {ms} ms"),
                    Stage::Asked => write!(f, "brain {name} did not answer within {ms} ms"),
                };
            }
            Fault::NoStart { error } => return write!(f, "cannot start brain {name}: {error}"),
            Fault::Sandbox { detail } => {
                return write!(f, "the sandbox of brain {name} failed: {detail}");
            }
            fault => {
                return match fault.limit() {
                    Some((limit, value)) => write!(
                        f,
                        "brain {name} went over its {limit} limit: {}",
                        limit.describe(value)
                    ),
                    // Not said by a conversation whose long lines are cut.
                    None => write!(f, "brain {name}: {fault}"),
                };
            }
        };
        write!(f, "brain {name} {did}{how}")?;
        match &self.last_words {
            Some(line) => write!(f, "; its last words: {line}"),
            None => Ok(()),
        }
    }
}
