//! Every program the judge starts (a tournament's bot for one game, a
//! Gomocup brain for a whole match) runs behind one layer: started through
//! the [`sandbox`](mod@crate::sandbox), talked to through non-blocking pipes with
//! deadlines, and killed with everything it started.
//!
//! The judge thread never blocks on a program without a deadline: writes and
//! reads go through `poll`, so a program that stops reading its input, floods
//! its output or never ends its line costs only its game.
//!
//! Nothing here prints or exits: the lines a bot says go to a [`Listener`]
//! the front hands in, and an interrupt is reported to the front's handler.

use std::fmt;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::process::{ChildStdin, ChildStdout};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::meta::BotMeta;
use crate::referee::{Contestant, Fault};
use crate::sandbox::{self, Contained, End, Limit, Limits, Program, Sandbox};

/// Longest answer line read from a bot; past it the bot forfeits.
pub const MAX_LINE: usize = 64 * 1024;

/// How long a bot may go on after `EXIT` before its processes are killed.
pub const GRACE: Duration = Duration::from_millis(500);

/// Kills every bot still running and lets no new one start; the interrupt
/// handler calls this. Returns how many were killed.
pub fn kill_all_bots() -> usize {
    sandbox::shut_down()
}

/// Makes Ctrl-C (and SIGTERM) kill every running bot and lets no new one
/// start; then `on_interrupt` gets how many were killed (the front says so
/// and exits). Call once, before the first game.
pub fn install_interrupt_handler(
    on_interrupt: impl Fn(usize) + Send + 'static,
) -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(move || {
        // Once shut down, no game can start a bot while the front exits.
        on_interrupt(sandbox::shut_down());
    })
}

/// A line of a bot's conversation, as a [`Listener`] hears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said<'a> {
    /// The judge wrote this line to the bot.
    ToBot(&'a str),
    /// The bot answered this line.
    FromBot(&'a str),
    /// The bot wrote this line on its standard error.
    Stderr(&'a str),
}

impl Said<'_> {
    /// The line as `-d` shows it, after `bot`'s name: `<` for what the judge
    /// wrote, `>` for what the bot answered, `!` for its standard error.
    pub fn shown(&self, bot: &str) -> String {
        match self {
            Said::ToBot(line) => format!("{bot} < {line}"),
            Said::FromBot(line) => format!("{bot} > {line}"),
            Said::Stderr(line) => format!("{bot} ! {line}"),
        }
    }
}

/// Hears the lines of bots (by name) besides the game: the front decides
/// where they are shown. Called from game threads and from the threads
/// relaying standard error.
#[derive(Clone)]
pub struct Listener(Arc<Hear>);

/// What a [`Listener`] does with a bot's line.
type Hear = dyn Fn(&str, Said<'_>) + Send + Sync;

impl Listener {
    /// A listener calling `hear` with the bot's name and its line.
    pub fn new(hear: impl Fn(&str, Said<'_>) + Send + Sync + 'static) -> Listener {
        Listener(Arc::new(hear))
    }

    /// Hands `bot`'s line to the listener.
    pub fn hear(&self, bot: &str, said: Said<'_>) {
        (self.0)(bot, said)
    }

    /// A standard error sink handing each line of `bot` to the listener.
    fn stderr_of(&self, bot: &str) -> sandbox::StderrSink {
        let (listener, bot) = (self.clone(), bot.to_string());
        Some(Box::new(move |line: &str| {
            listener.hear(&bot, Said::Stderr(line))
        }))
    }
}

impl fmt::Debug for Listener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Listener")
    }
}

/// How bot processes are started for a game.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    /// Contained or not, and the limits.
    pub sandbox: &'a Sandbox,
    /// Time limit per answer; `None` for none.
    pub timeout: Option<Duration>,
    /// `-d`: hears every line both ways and the bot's standard error.
    pub echo: Option<&'a Listener>,
    /// Without `echo`: hears the standard error of a bot whose meta file
    /// asks to show it; `None` drops it.
    pub stderr: Option<&'a Listener>,
    /// Every bot folder of the tournament: each bot is kept out of the others'.
    pub folders: &'a [PathBuf],
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
    /// Its output closed: how it ended, if that was known soon after
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
    process: Contained,
    limits: Limits,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    pending: Vec<u8>,
    max_line: usize,
    long_lines: LongLines,
    /// Dropping the rest of a line cut at `max_line`.
    cutting: bool,
    closed_at: Option<Instant>,
}

impl Running {
    /// Starts `program` in `sandbox`, its standard error to `stderr`, its
    /// answer lines bounded by `max_line` bytes (`long_lines` says what a
    /// longer one means).
    pub fn start(
        sandbox: &Sandbox,
        program: &Program,
        stderr: sandbox::StderrSink,
        max_line: usize,
        long_lines: LongLines,
    ) -> io::Result<Running> {
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
        })
    }

    /// The process id of what was started, which is also its process group.
    pub fn id(&self) -> u32 {
        self.process.id()
    }

    /// The limits of its sandbox, to say how far it went over one.
    pub fn limits(&self) -> &Limits {
        &self.limits
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
                    match wait_ready(&*stdin, PollFlags::POLLOUT, deadline) {
                        Ok(true) => {}
                        Ok(false) => return Err(Unsent::Late),
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
                    match wait_ready(&self.stdout, PollFlags::POLLIN, deadline) {
                        Ok(true) => {}
                        Ok(false) => return Err(self.late()),
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
    /// grace period, and closes its input; the grace period starts now.
    pub fn close(&mut self, line: &str) {
        // A program that no longer reads simply misses the line; the grace period holds all the same.
        let _ = self.send(line, Some(Instant::now() + GRACE));
        self.stdin = None;
        self.closed_at = Some(Instant::now());
    }

    /// Ends it: once closed, it and the helpers it started get the rest of
    /// the grace period to save their files; then whatever is left is killed.
    pub fn finish(&mut self) {
        if let Some(closed) = self.closed_at {
            self.process.wait_gone(closed + GRACE);
        }
        // Always kill: children it left behind die with it.
        self.process.kill();
    }
}

/// A running bot, one per game.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    running: Running,
    timeout: Option<Duration>,
    echo: Option<Listener>,
}

impl BotProcess {
    /// Starts `bot` in its folder with `opponent` and `seed` as the last two
    /// arguments, as `start` says.
    pub fn start(bot: &BotMeta, opponent: &str, seed: u64, start: Start) -> io::Result<BotProcess> {
        let mut args = bot.args.clone();
        args.push(opponent.to_string());
        args.push(seed.to_string());
        let program = bot.contestant(&args, start.folders);
        let stderr = match (start.echo, start.stderr) {
            (Some(echo), _) => echo.stderr_of(&bot.name),
            (None, Some(shown)) if bot.show_stderr => shown.stderr_of(&bot.name),
            (None, _) => None,
        };
        Ok(BotProcess {
            name: bot.name.clone(),
            running: Running::start(start.sandbox, &program, stderr, MAX_LINE, LongLines::Refuse)?,
            timeout: start.timeout,
            echo: start.echo.cloned(),
        })
    }

    /// The process id of what was started, which is also its process group.
    pub fn id(&self) -> u32 {
        self.running.id()
    }

    fn echo(&self, said: Said<'_>) {
        if let Some(echo) = &self.echo {
            echo.hear(&self.name, said);
        }
    }

    /// The fault a bot forfeits for when no answer came.
    fn fault(&self, silence: Silence) -> Fault {
        match silence {
            Silence::Over(limit) => Fault::over(limit, self.running.limits()),
            Silence::Late => Fault::Timeout {
                seconds: self.timeout.map_or(0.0, |t| t.as_secs_f64()),
            },
            Silence::EndlessLine => Fault::EndlessLine { limit: MAX_LINE },
            Silence::Gone(Some(End::Exit(0)) | None) => Fault::Eof,
            Silence::Gone(Some(End::Exit(code))) => Fault::Crash {
                status: format!("exit status {code}"),
            },
            Silence::Gone(Some(End::Signal(signal))) => Fault::Crash {
                status: format!("killed by signal {signal}"),
            },
            Silence::Gone(Some(End::NoStart(error))) => Fault::NoStart { error },
            Silence::Gone(Some(End::Sandbox(detail))) => Fault::Sandbox { detail },
        }
    }

    fn receive(&mut self, deadline: Option<Instant>) -> Result<String, Fault> {
        match self.running.receive(deadline) {
            Ok(line) => {
                self.echo(Said::FromBot(&line));
                Ok(line)
            }
            Err(silence) => Err(self.fault(silence)),
        }
    }
}

impl Contestant for BotProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        self.echo(Said::ToBot(prompt));
        match self.running.send(prompt, deadline) {
            Ok(()) => self.receive(deadline),
            Err(Unsent::Late) => {
                let silence = self.running.late();
                Err(self.fault(silence))
            }
            // It stopped reading; an answer may still be waiting, else it is gone.
            Err(Unsent::Closed(_)) => {
                self.running.close_input();
                self.receive(deadline)
            }
        }
    }

    fn exit(&mut self, line: &str) {
        self.echo(Said::ToBot(line));
        self.running.close(line);
    }

    fn finish(&mut self) {
        self.running.finish();
    }

    fn went_over(&mut self) -> Option<Fault> {
        let limit = self.running.went_over()?;
        Some(Fault::over(limit, self.running.limits()))
    }
}
