//! One program running in the [sandbox](crate): started through
//! [`Sandbox::start`], talked to through non-blocking pipes with deadlines,
//! and killed with everything it started. A judge's bot for one game and a
//! Gomocup brain for a whole match both run as a [`Running`].
//!
//! The caller never blocks on a program without a deadline: writes and
//! reads go through `poll`, so a program that stops reading its input, floods
//! its output or never ends its line costs only its own game.

use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::process::{ChildStdin, ChildStdout};
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::{Contestant, End, FreezeError, Limit, Limits, Program, Sandbox, StderrSink};

/// How long a program may go on after its last line (`EXIT`, `END`) before
/// its processes are killed.
pub const GRACE: Duration = Duration::from_millis(500);

fn nonblocking(fd: impl AsFd) -> io::Result<()> {
    let flags = fcntl(&fd, FcntlArg::F_GETFL)?;
    let flags = OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK;
    fcntl(&fd, FcntlArg::F_SETFL(flags))?;
    Ok(())
}

/// Waits until `fd` is ready for `events` or the deadline passes; `false` on timeout.
fn wait_ready(fd: impl AsFd, events: PollFlags, deadline: Option<Instant>) -> io::Result<bool> {
    loop {
        let timeout = match deadline {
            None => PollTimeout::NONE,
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(false);
                }
                // Round up so that a sub-millisecond remainder does not spin.
                let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
                PollTimeout::try_from(ms).unwrap_or(PollTimeout::MAX)
            }
        };
        let mut fds = [PollFd::new(fd.as_fd(), events)];
        match poll(&mut fds, timeout) {
            Ok(0) => continue,
            Ok(_) => return Ok(true),
            Err(nix::errno::Errno::EINTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// How often a wait on a watched program's pipes looks whether the
/// program has ended ([`Running::ending_with_its_program`]).
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// What a wait on a pipe ended with.
enum Waited {
    /// The pipe is ready.
    Ready,
    /// The deadline passed.
    Late,
    /// The program ended (its pipes may still be held by what it left).
    Ended,
}

/// [`wait_ready`], also ending as soon as `program` (when watched) has
/// ended: it is looked at every [`LOOK_EVERY`], as its end is told by its
/// launcher's reports or its exit status, not by a file descriptor.
fn wait_or_end(
    fd: impl AsFd,
    events: PollFlags,
    deadline: Option<Instant>,
    mut program: Option<&mut Contestant>,
) -> io::Result<Waited> {
    loop {
        let Some(watched) = program.as_deref_mut() else {
            return Ok(match wait_ready(&fd, events, deadline)? {
                true => Waited::Ready,
                false => Waited::Late,
            });
        };
        let look = Instant::now() + LOOK_EVERY;
        let until = deadline.map_or(look, |d| d.min(look));
        if wait_ready(&fd, events, Some(until))? {
            return Ok(Waited::Ready);
        }
        if watched.end(Instant::now()).is_some() {
            return Ok(Waited::Ended);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(Waited::Late);
        }
    }
}

/// Why a line could not be written.
#[derive(Debug)]
pub enum Unsent {
    /// The deadline passed with the program's input full.
    Late,
    /// The program no longer reads its input.
    Closed(io::Error),
}

/// Why no line came from a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// It went over a limit of its sandbox (which stalls it or kills it).
    Over(Limit),
    /// The deadline passed.
    Late,
    /// More than the longest line without a newline.
    EndlessLine,
    /// Its output closed, or (watched: [`Running::ending_with_its_program`])
    /// its program ended: how it ended, if that was known soon after
    /// (`None`: still running, or it closed its output and lives on).
    Gone(Option<End>),
}

/// What a line longer than the bound means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongLines {
    /// A fault: a judge's bot must answer in short lines.
    Refuse,
    /// Keep the first bytes, drop the rest: a Gomocup brain may chat at
    /// length (`MESSAGE` lines) and its answers are short.
    Cut,
}

/// One running program and its pipes: what the judge writes to it and
/// reads from it, within deadlines, and its end.
#[derive(Debug)]
pub struct Running {
    process: Contestant,
    limits: Limits,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    pending: Vec<u8>,
    max_line: usize,
    long_lines: LongLines,
    /// Dropping the rest of a line cut at `max_line`.
    cutting: bool,
    closed_at: Option<Instant>,
    /// Whether its waits end when its program ends.
    watch_end: bool,
}

impl Running {
    /// Starts `program` in `sandbox`, its standard error to `stderr`, its
    /// answer lines bounded by `max_line` bytes (`long_lines` says what a
    /// longer one means).
    pub fn start(
        sandbox: &Sandbox,
        program: &Program,
        stderr: StderrSink,
        max_line: usize,
        long_lines: LongLines,
    ) -> Result<Running, crate::StartError> {
        let mut process = sandbox.start(program, stderr)?;
        let stdin = process.stdin.take().expect("piped stdin");
        let stdout = process.stdout.take().expect("piped stdout");
        nonblocking(&stdin)?;
        nonblocking(&stdout)?;
        Ok(Running {
            process,
            limits: *sandbox.limits(),
            stdin: Some(stdin),
            stdout,
            pending: Vec::new(),
            max_line,
            long_lines,
            cutting: false,
            closed_at: None,
            watch_end: false,
        })
    }

    /// Makes every wait on its pipes end as soon as its program has ended,
    /// though a process it left behind still holds them open (so that no
    /// write fails and no read sees their end): a program that ends while
    /// it is told something or asked for an answer is gone at once, not
    /// when the deadline passes.
    pub fn ending_with_its_program(&mut self) {
        self.watch_end = true;
    }

    /// The process id of what was started, which is also its process group.
    pub fn id(&self) -> u32 {
        self.process.id()
    }

    /// The longest line read from it: a longer one is refused or cut.
    pub fn max_line(&self) -> usize {
        self.max_line
    }

    /// The limits of its sandbox, to say how far it went over one.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Lets it run: a contained program starts frozen and is frozen between
    /// its turns; call this before the turn's first line is written.
    pub fn thaw(&mut self) -> Result<(), FreezeError> {
        self.process.thaw()
    }

    /// Freezes every process it started once its turn is over, and waits
    /// until they all are: it may not think on its opponent's time. `Err`
    /// when one kept running.
    pub fn freeze(&mut self) -> Result<(), FreezeError> {
        self.process.freeze()
    }

    /// Why what it wrote could not be kept in its folder, if so (known once
    /// it has ended).
    pub fn unkept(&self) -> Option<String> {
        self.process.unkept()
    }

    /// Writes one line within the deadline.
    pub fn send(&mut self, line: &str, deadline: Option<Instant>) -> Result<(), Unsent> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Unsent::Closed(io::ErrorKind::BrokenPipe.into()));
        };
        let mut data = Vec::with_capacity(line.len() + 1);
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        let mut rest = &data[..];
        while !rest.is_empty() {
            match stdin.write(rest) {
                Ok(0) => return Err(Unsent::Closed(io::ErrorKind::WriteZero.into())),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let program = self.watch_end.then_some(&mut self.process);
                    match wait_or_end(&*stdin, PollFlags::POLLOUT, deadline, program) {
                        Ok(Waited::Ready) => {}
                        Ok(Waited::Late) => return Err(Unsent::Late),
                        Ok(Waited::Ended) => {
                            return Err(Unsent::Closed(io::ErrorKind::BrokenPipe.into()));
                        }
                        Err(e) => return Err(Unsent::Closed(e)),
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Unsent::Closed(e)),
            }
        }
        Ok(())
    }

    /// Closes its input: a program reading to the end of its input ends.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Reads one line (without its newline) within the deadline, bounded by
    /// the longest line.
    pub fn receive(&mut self, deadline: Option<Instant>) -> Result<String, Silence> {
        let mut chunk = [0u8; 8192];
        // The program ended: what it wrote before is still read.
        let mut ended = false;
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                return Ok(String::from_utf8_lossy(&line[..end]).into_owned());
            }
            if self.pending.len() > self.max_line {
                match self.long_lines {
                    LongLines::Refuse => return Err(Silence::EndlessLine),
                    LongLines::Cut => {
                        self.pending.truncate(self.max_line);
                        self.cutting = true;
                    }
                }
            }
            match self.stdout.read(&mut chunk) {
                Ok(0) => return Err(self.gone()),
                Ok(n) if self.cutting => {
                    if let Some(end) = chunk[..n].iter().position(|&b| b == b'\n') {
                        self.pending.extend_from_slice(&chunk[end..n]);
                        self.cutting = false;
                    }
                }
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if ended {
                        return Err(self.gone());
                    }
                    let program = self.watch_end.then_some(&mut self.process);
                    match wait_or_end(&self.stdout, PollFlags::POLLIN, deadline, program) {
                        Ok(Waited::Ready) => {}
                        Ok(Waited::Late) => return Err(self.late()),
                        Ok(Waited::Ended) => ended = true,
                        Err(_) => return Err(self.gone()),
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Err(self.gone()),
            }
        }
    }

    /// The limit it went over, if any.
    pub fn went_over(&mut self) -> Option<Limit> {
        self.process.went_over()
    }

    /// A deadline passed: a program stalled by its own fork bomb or memory
    /// hunger is over a limit, not slow.
    pub fn late(&mut self) -> Silence {
        self.went_over().map_or(Silence::Late, Silence::Over)
    }

    /// Its output closed: a limit it went over, else how it ended.
    pub fn gone(&mut self) -> Silence {
        // The end is usually known within microseconds of the closed pipe.
        let end = self
            .process
            .end(Instant::now() + Duration::from_millis(300));
        match self.went_over() {
            Some(limit) => Silence::Over(limit),
            None => Silence::Gone(end),
        }
    }

    /// Says its last line (`EXIT`, `END`) if it still reads, within the
    /// grace period, and closes its input; the grace period starts now
    /// (thawed: it may save its files).
    pub fn close(&mut self, line: &str) {
        let _ = self.thaw();
        // A program that no longer reads simply misses the line; the grace period holds all the same.
        let _ = self.send(line, Some(Instant::now() + GRACE));
        self.stdin = None;
        self.closed_at = Some(Instant::now());
    }

    /// Ends it: once closed, it and the helpers it started get the rest of
    /// the grace period to save their files; then whatever is left is
    /// killed, and what it wrote is kept in its folder.
    pub fn finish(&mut self) {
        let _ = self.thaw();
        if let Some(closed) = self.closed_at {
            self.process.wait_gone(closed + GRACE);
        }
        // Always kill: children it left behind die with it.
        self.process.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program that reads one line, then exits with status 4, leaving a
    /// process behind that holds both its pipes (and never reads or writes).
    fn leaving(folder: &std::path::Path, watched: bool) -> Running {
        let args = [
            "-c".to_string(),
            "read line; exec 3<&0; sleep 600 0<&3 & exit 4".to_string(),
        ];
        let program = Program {
            name: "leaving",
            command: "sh",
            args: &args,
            folder,
            workdir: None,
            grants: &[],
            closed: &[],
        };
        let mut running =
            Running::start(&Sandbox::off(), &program, None, 64, LongLines::Refuse).unwrap();
        if watched {
            running.ending_with_its_program();
        }
        running
    }

    #[test]
    fn a_watched_program_that_ends_is_gone_though_what_it_left_holds_its_pipes() {
        let dir = tempfile::tempdir().unwrap();
        // No deadline at all: only its end can end the wait.
        let mut running = leaving(dir.path(), true);
        running.send("BOARD", None).unwrap();
        assert_eq!(
            running.receive(None),
            Err(Silence::Gone(Some(End::Exit(4))))
        );
        // Told more once it ended: the lines go (its leftover holds the
        // pipe) and the answer it never gives is its end, at once.
        running.send("DONE", None).unwrap();
        assert_eq!(
            running.receive(None),
            Err(Silence::Gone(Some(End::Exit(4))))
        );
        // Unwatched, the same program is only late: its pipes never close.
        let mut running = leaving(dir.path(), false);
        running.send("BOARD", None).unwrap();
        let deadline = Instant::now() + Duration::from_millis(300);
        assert_eq!(running.receive(Some(deadline)), Err(Silence::Late));
    }
}
