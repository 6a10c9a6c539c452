//! One bot process for one game: started through the [`sandbox`](crate::sandbox),
//! talked to through non-blocking pipes with deadlines, and killed with
//! everything it started.
//!
//! The judge thread never blocks on a bot without a deadline: writes and
//! reads go through `poll`, so a bot that stops reading its input, floods its
//! output or never ends its line costs only its game.

use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::process::{ChildStdin, ChildStdout};
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::meta::BotMeta;
use crate::referee::{Contestant, Fault};
use crate::sandbox::{self, Contained, End, Limits, Sandbox};

/// Longest answer line read from a bot; past it the bot forfeits.
pub const MAX_LINE: usize = 64 * 1024;

/// How long a bot may go on after `EXIT` before its processes are killed.
pub const GRACE: Duration = Duration::from_millis(500);

/// Kills every bot still running and lets no new one start; the interrupt
/// handler calls this. Returns how many were killed.
pub fn kill_all_bots() -> usize {
    sandbox::shut_down()
}

/// Makes Ctrl-C (and SIGTERM) kill every running bot before the judge exits
/// with status 130. Call once, before the first game.
pub fn install_interrupt_handler() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        // Once shut down, no game can start a bot while we exit.
        let killed = sandbox::shut_down();
        eprintln!("inarow judge: interrupted; killed {killed} bot(s)");
        std::process::exit(130);
    })
}

/// Where a bot's lines go besides the game: nowhere, or echoed for `-d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Echo {
    /// Quiet, as in a tournament.
    Off,
    /// Every line both ways and the bot's standard error printed on standard output.
    On,
}

/// Prints one line on standard output, ignoring a closed output: the judge
/// must finish its games and write its results even if nobody reads.
fn print(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
}

/// How bot processes are started for a game.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    /// Contained or not, and the limits.
    pub sandbox: &'a Sandbox,
    /// Time limit per answer; `None` for none.
    pub timeout: Option<Duration>,
    /// Quiet or echoing.
    pub echo: Echo,
    /// Every bot folder of the tournament: each bot is kept out of the others'.
    pub folders: &'a [PathBuf],
}

/// A running bot, one per game.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    process: Contained,
    limits: Limits,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    pending: Vec<u8>,
    timeout: Option<Duration>,
    echo: Echo,
    exit_sent: Option<Instant>,
}

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

impl BotProcess {
    /// Starts `bot` in its folder with `opponent` and `seed` as the last two
    /// arguments, as `start` says.
    pub fn start(bot: &BotMeta, opponent: &str, seed: u64, start: Start) -> io::Result<BotProcess> {
        let mut args = bot.args.clone();
        args.push(opponent.to_string());
        args.push(seed.to_string());
        let program = bot.contestant(&args, start.folders);
        let name = bot.name.clone();
        let stderr: sandbox::StderrSink = match (start.echo, bot.show_stderr) {
            (Echo::On, _) => Some(Box::new(move |line: &str| {
                print(&format!("{name} ! {line}"))
            })),
            (Echo::Off, true) => Some(Box::new(move |line: &str| {
                let mut err = io::stderr().lock();
                let _ = writeln!(err, "{name} ! {line}");
            })),
            (Echo::Off, false) => None,
        };
        let mut process = start.sandbox.start(&program, stderr)?;
        let stdin = process.stdin.take().expect("piped stdin");
        let stdout = process.stdout.take().expect("piped stdout");
        nonblocking(&stdin)?;
        nonblocking(&stdout)?;
        Ok(BotProcess {
            name: bot.name.clone(),
            process,
            limits: *start.sandbox.limits(),
            stdin: Some(stdin),
            stdout,
            pending: Vec::new(),
            timeout: start.timeout,
            echo: start.echo,
            exit_sent: None,
        })
    }

    /// The process id of what was started, which is also its process group.
    pub fn id(&self) -> u32 {
        self.process.id()
    }

    /// Writes one line within the deadline. `Err(None)` means the deadline
    /// passed, `Err(Some(_))` that the bot no longer reads.
    fn send(&mut self, line: &str, deadline: Option<Instant>) -> Result<(), Option<io::Error>> {
        if self.echo == Echo::On {
            print(&format!("{} < {line}", self.name));
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Some(io::ErrorKind::BrokenPipe.into()));
        };
        let mut data = Vec::with_capacity(line.len() + 1);
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        let mut rest = &data[..];
        while !rest.is_empty() {
            match stdin.write(rest) {
                Ok(0) => return Err(Some(io::ErrorKind::WriteZero.into())),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if !wait_ready(&*stdin, PollFlags::POLLOUT, deadline).map_err(Some)? {
                        return Err(None);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Some(e)),
            }
        }
        Ok(())
    }

    /// Reads one line within the deadline, bounded by [`MAX_LINE`].
    fn receive(&mut self, deadline: Option<Instant>) -> Result<String, Fault> {
        let mut chunk = [0u8; 8192];
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                let text = String::from_utf8_lossy(&line[..end]).into_owned();
                if self.echo == Echo::On {
                    print(&format!("{} > {text}", self.name));
                }
                return Ok(text);
            }
            if self.pending.len() > MAX_LINE {
                return Err(Fault::EndlessLine { limit: MAX_LINE });
            }
            match self.stdout.read(&mut chunk) {
                Ok(0) => return Err(self.gone()),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    match wait_ready(&self.stdout, PollFlags::POLLIN, deadline) {
                        Ok(true) => {}
                        Ok(false) => return Err(self.timed_out()),
                        Err(_) => return Err(self.gone()),
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Err(self.gone()),
            }
        }
    }

    /// A limit it went over, as a fault.
    fn over_limit(&mut self) -> Option<Fault> {
        let limit = self.process.went_over()?;
        Some(Fault::over(limit, &self.limits))
    }

    fn timed_out(&mut self) -> Fault {
        // A bot stalled by its own fork bomb or memory hunger is over a limit, not slow.
        self.over_limit().unwrap_or(Fault::Timeout {
            seconds: self.timeout.map_or(0.0, |t| t.as_secs_f64()),
        })
    }

    /// The fault of a bot whose output closed: a limit it went over, a
    /// crash if it died badly, otherwise an early end of its output.
    fn gone(&mut self) -> Fault {
        // The end is usually known within microseconds of the closed pipe.
        let end = self
            .process
            .end(Instant::now() + Duration::from_millis(300));
        if let Some(fault) = self.over_limit() {
            return fault;
        }
        match end {
            Some(End::Exit(0)) | None => Fault::Eof,
            Some(End::Exit(code)) => Fault::Crash {
                status: format!("exit status {code}"),
            },
            Some(End::Signal(signal)) => Fault::Crash {
                status: format!("killed by signal {signal}"),
            },
            Some(End::NoStart(error)) => Fault::NoStart { error },
            Some(End::Sandbox(detail)) => Fault::Sandbox { detail },
        }
    }
}

impl Contestant for BotProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        match self.send(prompt, deadline) {
            Ok(()) => self.receive(deadline),
            Err(None) => Err(self.timed_out()),
            // It stopped reading; an answer may still be waiting, else it is gone.
            Err(Some(_)) => {
                self.stdin = None;
                self.receive(deadline)
            }
        }
    }

    fn exit(&mut self, line: &str) {
        // A bot that no longer reads simply misses the line; the grace period holds all the same.
        let deadline = Instant::now() + GRACE;
        let _ = self.send(line, Some(deadline));
        self.stdin = None;
        self.exit_sent = Some(Instant::now());
    }

    fn finish(&mut self) {
        if let Some(sent) = self.exit_sent {
            // Helpers the bot started may still be saving its files: they share the grace.
            self.process.wait_gone(sent + GRACE);
        }
        // Always kill: children the bot left behind die with it.
        self.process.kill();
    }

    fn went_over(&mut self) -> Option<Fault> {
        self.over_limit()
    }
}
