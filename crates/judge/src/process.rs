//! One bot process for one game: started in its own process group, talked to
//! through non-blocking pipes with deadlines, and killed with its whole group.
//!
//! The judge thread never blocks on a bot without a deadline: writes and
//! reads go through `poll`, so a bot that stops reading its input, floods its
//! output or never ends its line costs only its game.

use std::collections::BTreeSet;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use crate::meta::BotMeta;
use crate::referee::{Contestant, Fault};

/// Longest answer line read from a bot; past it the bot forfeits.
pub const MAX_LINE: usize = 64 * 1024;

/// How long a bot may go on after `EXIT` before its process group is killed.
pub const GRACE: Duration = Duration::from_millis(500);

/// Process groups of every bot now running, so that an interrupt can kill them all.
static LIVE: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every bot process group still running; the interrupt handler calls this.
pub fn kill_all_bots() {
    for &group in live().iter() {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
}

/// Makes Ctrl-C (and SIGTERM) kill every running bot before the judge exits
/// with status 130. Call once, before the first game.
pub fn install_interrupt_handler() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        // Holding the lock keeps any game from starting a bot while we exit.
        let groups = live();
        for &group in groups.iter() {
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
        eprintln!("inarow judge: interrupted; killed {} bot(s)", groups.len());
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

/// A running bot, one per game.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    child: Child,
    group: i32,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    pending: Vec<u8>,
    timeout: Option<Duration>,
    echo: Echo,
    exit_sent: Option<Instant>,
    finished: bool,
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
    /// arguments, in a process group of its own.
    pub fn start(
        bot: &BotMeta,
        opponent: &str,
        seed: u64,
        timeout: Option<Duration>,
        echo: Echo,
    ) -> io::Result<BotProcess> {
        let mut command = Command::new(bot.program());
        command
            .args(&bot.args)
            .arg(opponent)
            .arg(seed.to_string())
            .current_dir(&bot.folder)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match (echo, bot.show_stderr) {
                (Echo::On, _) => Stdio::piped(),
                (Echo::Off, true) => Stdio::inherit(),
                (Echo::Off, false) => Stdio::null(),
            });
        let mut child = {
            let mut groups = live();
            let child = command.spawn()?;
            groups.insert(child.id() as i32);
            child
        };
        let group = child.id() as i32;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        if let Some(stderr) = child.stderr.take() {
            let name = bot.name.clone();
            std::thread::spawn(move || {
                // Ends when every process of the group has closed its stderr.
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    println!("{name} ! {line}");
                }
            });
        }
        let mut bot_process = BotProcess {
            name: bot.name.clone(),
            child,
            group,
            stdin: Some(stdin),
            stdout,
            pending: Vec::new(),
            timeout,
            echo,
            exit_sent: None,
            finished: false,
        };
        if let Err(e) = nonblocking(bot_process.stdin.as_ref().expect("just set"))
            .and_then(|()| nonblocking(&bot_process.stdout))
        {
            bot_process.kill();
            return Err(e);
        }
        Ok(bot_process)
    }

    /// The process id, which is also its process group id.
    pub fn id(&self) -> u32 {
        self.group as u32
    }

    /// Writes one line within the deadline. `Err(None)` means the deadline
    /// passed, `Err(Some(_))` that the bot no longer reads.
    fn send(&mut self, line: &str, deadline: Option<Instant>) -> Result<(), Option<io::Error>> {
        if self.echo == Echo::On {
            println!("{} < {line}", self.name);
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
                    println!("{} > {text}", self.name);
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
                        Ok(false) => {
                            return Err(Fault::Timeout {
                                seconds: self.timeout.map_or(0.0, |t| t.as_secs_f64()),
                            });
                        }
                        Err(_) => return Err(self.gone()),
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Err(self.gone()),
            }
        }
    }

    /// The fault of a bot whose output closed: a crash if it died badly,
    /// otherwise an early end of its output.
    fn gone(&mut self) -> Fault {
        // The exit usually follows the closed pipe within microseconds.
        let deadline = Instant::now() + Duration::from_millis(300);
        match wait_until(&mut self.child, deadline) {
            Some(status) if !status.success() => Fault::Crash {
                status: describe(status),
            },
            _ => Fault::Eof,
        }
    }

    /// Kills the whole process group now and reaps the bot.
    fn kill(&mut self) {
        if self.finished {
            return;
        }
        let group = Pid::from_raw(self.group);
        let members_left = killpg(group, Signal::SIGKILL).is_ok();
        let _ = self.child.wait();
        if members_left {
            // SIGKILL lands asynchronously; wait (briefly: unreaped zombies also
            // answer) until the leftovers are really gone.
            let deadline = Instant::now() + Duration::from_millis(200);
            while killpg(group, None).is_ok() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        live().remove(&self.group);
        self.finished = true;
    }
}

/// Polls for the child's exit until the deadline, sleeping in short growing steps.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    let mut nap = Duration::from_micros(50);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        std::thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(Duration::from_millis(5));
    }
}

fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => status.to_string(),
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
            Err(None) => Err(Fault::Timeout {
                seconds: self.timeout.map_or(0.0, |t| t.as_secs_f64()),
            }),
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
            let deadline = sent + GRACE;
            wait_until(&mut self.child, deadline);
            // Helpers the bot started may still be saving its files: they share the grace.
            let group = Pid::from_raw(self.group);
            while killpg(group, None).is_ok() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        // Always kill the group: children the bot left behind die with it.
        self.kill();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
