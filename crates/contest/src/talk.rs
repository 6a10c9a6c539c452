//! The conversation with a contained opponent, a tournament's bot or a
//! match's brain: thawed for its turn, told lines and read answers within
//! a deadline, frozen again once it has answered. Every way it can stay
//! silent ends in a typed [`Hitch`]: the [`Fault`] it forfeits for, or that
//! it could not be held to its own time.

use std::time::{Duration, Instant};

use inarow_sandbox::End;
use inarow_sandbox::FreezeError;
use inarow_sandbox::process::{Running, Silence, Unsent};

use crate::fault::Fault;

/// When an answer is due, and the wait it was given (a late answer's fault
/// names the wait).
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    at: Instant,
    wait: Duration,
}

impl Deadline {
    /// The deadline `wait` from now.
    pub fn after(wait: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + wait,
            wait,
        }
    }
}

/// Why a turn brought no answer.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Hitch {
    /// It could not be thawed for its turn, or kept running after one.
    #[error("{0}")]
    Freezing(FreezeError),
    /// It went over a limit, was late, or was gone.
    #[error("{0}")]
    Silent(Fault),
}

impl From<Hitch> for Fault {
    /// The fault a bot forfeits for: one it cannot hold to its own time
    /// is the sandbox's failure.
    fn from(hitch: Hitch) -> Fault {
        match hitch {
            Hitch::Freezing(e) => Fault::Sandbox {
                detail: e.to_string(),
            },
            Hitch::Silent(fault) => fault,
        }
    }
}

/// A contained program's side of a conversation.
#[derive(Debug)]
pub struct Talk {
    running: Running,
    /// Why it cannot be held to its own time (a process of it kept running
    /// after its answer, or it could not be thawed): every later turn is
    /// refused for it until [`Talk::forgive`].
    unfrozen: Option<FreezeError>,
}

impl Talk {
    /// The conversation with `running`, frozen until its first turn.
    pub fn new(running: Running) -> Talk {
        Talk {
            running,
            unfrozen: None,
        }
    }

    /// The program itself, to ask of its limits and its id.
    pub fn running(&self) -> &Running {
        &self.running
    }

    /// The program itself, to close and finish.
    pub fn running_mut(&mut self) -> &mut Running {
        &mut self.running
    }

    /// One turn: thawed (and left `settle` to itself before it is told
    /// anything), `work` done, frozen again. It thinks on its own time
    /// only: its clock starts after the thaw and its opponent's after the
    /// freeze. A freeze that fails does not take back the answer: it is
    /// kept ([`Talk::unfrozen`]) and refuses the next turn.
    pub fn turn<T>(
        &mut self,
        settle: Duration,
        work: impl FnOnce(&mut Talk) -> Result<T, Hitch>,
    ) -> Result<T, Hitch> {
        if let Some(e) = &self.unfrozen {
            return Err(Hitch::Freezing(e.clone()));
        }
        if let Err(e) = self.running.thaw() {
            self.unfrozen = Some(e.clone());
            return Err(Hitch::Freezing(e));
        }
        if !settle.is_zero() {
            std::thread::sleep(settle);
        }
        let done = work(self);
        if let Err(e) = self.running.freeze() {
            self.unfrozen = Some(e);
        }
        done
    }

    /// Why it cannot be held to its own time, if so.
    pub fn unfrozen(&self) -> Option<&FreezeError> {
        self.unfrozen.as_ref()
    }

    /// Takes back why it could not be held to its own time, so that the
    /// next turn tries again: for a caller that ends the turn in that error.
    pub fn forgive(&mut self) -> Option<FreezeError> {
        self.unfrozen.take()
    }

    /// Writes `line` within the deadline; a program that stopped reading is
    /// gone.
    pub fn tell(&mut self, line: &str, deadline: Option<Deadline>) -> Result<(), Hitch> {
        match self.running.send(line, deadline.map(|d| d.at)) {
            Ok(()) => Ok(()),
            Err(Unsent::Late) => Err(self.late(deadline)),
            Err(Unsent::Closed(_)) => {
                let silence = self.running.gone();
                Err(self.silent(silence, deadline))
            }
        }
    }

    /// Writes `prompt` and reads the answer, both within the deadline; a
    /// program that stopped reading may still have its answer waiting.
    pub fn ask(&mut self, prompt: &str, deadline: Option<Deadline>) -> Result<String, Hitch> {
        match self.running.send(prompt, deadline.map(|d| d.at)) {
            Ok(()) => self.receive(deadline),
            Err(Unsent::Late) => Err(self.late(deadline)),
            Err(Unsent::Closed(_)) => {
                self.running.close_input();
                self.receive(deadline)
            }
        }
    }

    /// Reads one line within the deadline.
    pub fn receive(&mut self, deadline: Option<Deadline>) -> Result<String, Hitch> {
        self.running
            .receive(deadline.map(|d| d.at))
            .map_err(|silence| self.silent(silence, deadline))
    }

    /// A deadline passed while it was told something.
    fn late(&mut self, deadline: Option<Deadline>) -> Hitch {
        let silence = self.running.late();
        self.silent(silence, deadline)
    }

    /// The fault of a program that gave no answer within `deadline`.
    fn silent(&self, silence: Silence, deadline: Option<Deadline>) -> Hitch {
        Hitch::Silent(match silence {
            Silence::Over(limit) => Fault::over(limit, self.running.limits()),
            Silence::Late => Fault::Timeout {
                seconds: deadline.map_or(0.0, |d| d.wait.as_secs_f64()),
            },
            Silence::EndlessLine => Fault::EndlessLine {
                limit: self.running.max_line(),
            },
            Silence::Gone(Some(End::Exit(0)) | None) => Fault::Eof,
            Silence::Gone(Some(End::Exit(code))) => Fault::Crash {
                status: format!("exit status {code}"),
            },
            Silence::Gone(Some(End::Signal(signal))) => Fault::Crash {
                status: format!("killed by signal {signal}"),
            },
            Silence::Gone(Some(End::NoStart(error))) => Fault::NoStart { error },
            Silence::Gone(Some(End::Sandbox(detail))) => Fault::Sandbox { detail },
        })
    }
}
