//! Another engine as a self-play contender, driven over the Gomocup brain
//! protocol: a second build of this one (`pbrain-inarow`) or any other brain.
//!
//! A brain is a program the project did not write, so it runs contained
//! like a judge's bot ([`inarow_judge::sandbox`]): its own folder to read and
//! write (brains keep their files beside themselves), nothing else of ours,
//! and every process it starts dies with it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ChildStdin;
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use inarow_core::{Game, Mnk, Point};
use inarow_engine::search::Limits;
use inarow_engine::selfplay::Contender;
use inarow_judge::sandbox::{self, Contained, End, ProbeError, Program, Sandbox, lines};

/// Time a brain gets to start up and to answer `START` or `RESTART`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Longest line kept from a brain's output: a move is a few bytes, and a
/// brain that never ends its line must not fill our memory.
const MAX_LINE: usize = 4096;

/// Lines read ahead of the match: a brain that floods its output waits
/// for us rather than filling our memory.
const READ_AHEAD: usize = 64;

/// How much of a brain's last standard error line its error messages show.
const LAST_WORDS: usize = 300;

/// How long a brain gets to exit on its own after `END`.
const GRACE: Duration = Duration::from_millis(500);

/// How long a move may take before it counts as lost, for a turn of `turn`.
pub fn patience(turn: Duration) -> Duration {
    turn * 2 + Duration::from_secs(1)
}

/// A brain's program, found before anything starts.
#[derive(Clone, Debug)]
pub struct Place {
    /// The path as given, for messages.
    name: String,
    /// The canonical absolute path: the brain runs in its folder, where a
    /// relative path would no longer lead to it.
    command: String,
    /// The folder it keeps its files in.
    folder: PathBuf,
}

impl Place {
    /// The brain at `path`, or why there is none.
    pub fn find(path: &Path) -> anyhow::Result<Place> {
        let name = path.display().to_string();
        let real =
            std::fs::canonicalize(path).with_context(|| format!("cannot find brain {name}"))?;
        if !real.is_file() {
            bail!("brain {name} is not a program file");
        }
        let folder = real.parent().context("a file has a folder")?.to_path_buf();
        let command = real
            .to_str()
            .with_context(|| format!("brain {name}: its path is not UTF-8"))?
            .to_string();
        Ok(Place {
            name,
            command,
            folder,
        })
    }

    /// The folder it keeps its files in.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The brain as the sandbox starts it, kept out of `folders` (every
    /// brain's of the match; its own is skipped).
    fn program<'a>(&'a self, folders: &'a [PathBuf]) -> Program<'a> {
        Program {
            name: &self.name,
            command: &self.command,
            args: &[],
            folder: &self.folder,
            grants: &[],
            closed: folders,
        }
    }

    /// Probes the brain's sandbox as the judge probes a bot's: an error
    /// (one line) if it would not be contained; warnings for what only
    /// hurts the brain itself. Nothing to check with the sandbox off.
    pub fn check(&self, sandbox: &Sandbox, folders: &[PathBuf]) -> anyhow::Result<Vec<String>> {
        match sandbox.check(&self.program(folders)) {
            Ok(warnings) => Ok(warnings
                .into_iter()
                .map(|w| format!("brain {}: {w}", self.name))
                .collect()),
            Err(ProbeError::NoProgram(e)) => bail!("cannot start brain {}: {e}", self.name),
            Err(ProbeError::Uncontained(e)) => bail!(
                "the sandbox cannot contain brain {} on this machine: {e} (--no-sandbox runs it uncontained)",
                self.name
            ),
        }
    }
}

/// A brain process and the lines it writes.
pub struct Brain {
    name: String,
    process: Contained,
    /// `None` once closed, so that a brain reading to the end of its input
    /// also ends.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last line of its standard error, for error messages.
    last_words: Arc<Mutex<Option<String>>>,
    /// Its sandbox's limits, to say which one it went over.
    limits: sandbox::Limits,
    size: usize,
    /// How long to wait for a move before it counts as lost.
    patience: Duration,
    /// Set when the brain failed outside a move (e.g. on `RESTART`).
    broken: Option<String>,
    /// How many stones of the game, in order, the brain has on its board.
    told: usize,
    /// The last failure shown, so that a brain that died is reported once
    /// rather than once a game.
    reported: Option<String>,
}

impl Brain {
    /// Starts the brain at `place` in `sandbox`, kept out of `folders` (every
    /// brain's of the match), for a `size` board with `turn` per move.
    pub fn start(
        place: &Place,
        folders: &[PathBuf],
        sandbox: &Sandbox,
        size: usize,
        turn: Duration,
    ) -> anyhow::Result<Brain> {
        let name = place.name.clone();
        let last_words = Arc::new(Mutex::new(None));
        let keep = last_words.clone();
        let stderr: sandbox::StderrSink = Some(Box::new(move |line: &str| {
            let line = line.trim();
            if !line.is_empty() {
                *lock(&keep) = Some(shorten(line));
            }
        }));
        let mut process = sandbox
            .start(&place.program(folders), stderr)
            .with_context(|| format!("cannot start brain {name}"))?;
        let stdin = process.stdin.take().context("brain stdin")?;
        let stdout = process.stdout.take().context("brain stdout")?;
        let (send, lines) = sync_channel(READ_AHEAD);
        std::thread::spawn(move || {
            let mut listened = true;
            // Read to the end even when nobody listens any more, so that the
            // brain never hangs on a full pipe.
            lines::each_line(stdout, MAX_LINE, |line, _cut| {
                listened = listened && send.send(line.to_string()).is_ok();
            });
        });
        let mut brain = Brain {
            name,
            process,
            stdin: Some(stdin),
            lines,
            last_words,
            limits: *sandbox.limits(),
            size,
            patience: patience(turn),
            broken: None,
            told: 0,
            reported: None,
        };
        brain.send(&format!("START {size}"))?;
        brain.expect_ok("START")?;
        let ms = turn.as_millis();
        brain.send(&format!("INFO timeout_turn {ms}"))?;
        brain.send(&format!("INFO timeout_match {}", ms.saturating_mul(1000)))?;
        brain.send("INFO rule 0")?;
        Ok(brain)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        sent.map_err(|_| self.gone("closed its input"))
    }

    /// The next answer line within `wait`, skipping `MESSAGE` and `DEBUG`.
    fn answer(&mut self, wait: Duration) -> anyhow::Result<String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    if line.is_empty() || line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
                        continue;
                    }
                    return Ok(line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    // A brain stalled by its own memory hunger or fork bomb
                    // is over a limit, not slow.
                    return Err(self.over_limit().unwrap_or_else(|| {
                        anyhow!(
                            "brain {} did not answer within {} ms",
                            self.name,
                            wait.as_millis()
                        )
                    }));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.gone("closed its output"));
                }
            }
        }
    }

    /// Why the brain stopped talking: a limit it went over, why it could not
    /// start, or how it ended, with its last words on standard error.
    fn gone(&mut self, what: &str) -> anyhow::Error {
        // The end is usually known right after its pipes close.
        let end = self
            .process
            .end(Instant::now() + Duration::from_millis(300));
        if let Some(over) = self.over_limit() {
            return over;
        }
        let how = match end {
            Some(End::Exit(0)) | None => String::new(),
            Some(End::Exit(code)) => format!(" (exit status {code})"),
            Some(End::Signal(signal)) => format!(" (killed by signal {signal})"),
            Some(End::NoStart(why)) => return anyhow!("cannot start brain {}: {why}", self.name),
            Some(End::Sandbox(why)) => {
                return anyhow!("the sandbox of brain {} failed: {why}", self.name);
            }
        };
        let words = match lock(&self.last_words).as_deref() {
            Some(line) => format!("; its last words: {line}"),
            None => String::new(),
        };
        anyhow!("brain {} {what}{how}{words}", self.name)
    }

    /// The limit the brain went over, in words.
    fn over_limit(&mut self) -> Option<anyhow::Error> {
        let limit = self.process.went_over()?;
        Some(anyhow!(
            "brain {} went over its {limit} limit: {}",
            self.name,
            limit.describe(self.limits.value(limit))
        ))
    }

    fn expect_ok(&mut self, command: &str) -> anyhow::Result<()> {
        let line = self.answer(HANDSHAKE)?;
        if line != "OK" {
            bail!(
                "brain {} answered {command} with {line:?}, not OK",
                self.name
            );
        }
        Ok(())
    }

    /// Asks for a move as managers do: `BEGIN` on an empty board, `BOARD`
    /// with every stone in the order played when the brain's board is new,
    /// then `TURN` with each opponent move (brains keep their own moves, and
    /// some add `BOARD` stones to what they already have).
    fn ask_move(&mut self, game: &Mnk, history: &[Point]) -> anyhow::Result<Point> {
        if let Some(why) = self.broken.take() {
            bail!(why);
        }
        if history.is_empty() {
            self.send("BEGIN")?;
        } else if self.told > 0 && self.told + 1 == history.len() {
            let p = history[self.told];
            self.send(&format!("TURN {},{}", p.col(self.size), p.row(self.size)))?;
        } else {
            if self.told > 0 {
                // Out of step (not in a match's normal flow): start afresh.
                self.send("RESTART")?;
                self.expect_ok("RESTART")?;
            }
            let me = game.to_move();
            self.send("BOARD")?;
            for &p in history {
                let who = if game.stone(p) == Some(me) { 1 } else { 2 };
                self.send(&format!("{},{},{who}", p.col(self.size), p.row(self.size)))?;
            }
            self.send("DONE")?;
        }
        let line = self.answer(self.patience)?;
        let p = parse_move(&line, self.size).with_context(|| format!("brain {}", self.name))?;
        self.told = history.len() + 1;
        Ok(p)
    }
}

/// Reads a brain's move `x,y` (x the column, y the row).
pub fn parse_move(line: &str, size: usize) -> anyhow::Result<Point> {
    let parsed = line.split_once(',').and_then(|(x, y)| {
        Some((
            x.trim().parse::<usize>().ok()?,
            y.trim().parse::<usize>().ok()?,
        ))
    });
    match parsed {
        Some((x, y)) if x < size && y < size => Ok(Point::at(y, x, size)),
        Some((x, y)) => bail!("move {x},{y} is off the {size}x{size} board"),
        None => bail!("expected a move x,y, got {line:?}"),
    }
}

impl Contender for Brain {
    fn new_game(&mut self) {
        let restarted = self.send("RESTART").and_then(|_| self.expect_ok("RESTART"));
        self.broken = restarted.err().map(|e| format!("{e:#}"));
        self.told = 0;
    }

    fn think(
        &mut self,
        game: &Mnk,
        history: &[Point],
        _limits: Limits,
    ) -> Result<(Point, Duration), String> {
        // The brain keeps its own clock from `INFO timeout_turn`.
        let start = Instant::now();
        self.ask_move(game, history)
            .map(|p| (p, start.elapsed()))
            .map_err(|e| {
                let why = format!("{e:#}");
                // The match only counts the loss: say why here, once.
                if self.reported.as_ref() != Some(&why) {
                    eprintln!("inarow: {why}; it loses the game");
                    self.reported = Some(why.clone());
                }
                why
            })
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        // Closed after `END`: some brains end at the end of their input.
        let told = self
            .stdin
            .take()
            .is_some_and(|mut stdin| writeln!(stdin, "END").and_then(|_| stdin.flush()).is_ok());
        if told {
            // Helpers it started may still be saving its files: they share the grace.
            self.process.wait_gone(Instant::now() + GRACE);
        }
        // Always: whatever it left behind dies with it.
        self.process.kill();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// At most [`LAST_WORDS`] characters of `line`.
fn shorten(line: &str) -> String {
    match line.char_indices().nth(LAST_WORDS) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brain_is_a_file_found_by_its_real_path() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        std::fs::create_dir(real.join("a")).unwrap();
        std::fs::write(real.join("a/brain"), "").unwrap();
        let place = Place::find(&real.join("a/../a/brain")).unwrap();
        assert_eq!(place.command, real.join("a/brain").to_str().unwrap());
        assert_eq!(place.folder, real.join("a"));
        assert_eq!(place.name, real.join("a/../a/brain").display().to_string());
        let missing = Place::find(&real.join("nothing")).unwrap_err();
        assert!(format!("{missing:#}").starts_with("cannot find brain"));
        let folder = Place::find(&real.join("a")).unwrap_err();
        assert!(folder.to_string().contains("is not a program file"));
    }

    #[test]
    fn last_words_are_cut_to_a_readable_length() {
        assert_eq!(shorten("short"), "short");
        let long = "é".repeat(LAST_WORDS + 10);
        let cut = shorten(&long);
        assert_eq!(cut.chars().count(), LAST_WORDS + 3);
        assert!(cut.ends_with("..."));
    }

    #[test]
    fn moves_are_column_then_row() {
        assert_eq!(parse_move("3,4", 15).unwrap(), Point::at(4, 3, 15));
        assert_eq!(parse_move(" 14 , 0 ", 15).unwrap(), Point::at(0, 14, 15));
        assert!(
            parse_move("15,0", 15)
                .unwrap_err()
                .to_string()
                .contains("off the")
        );
        assert!(
            parse_move("OK", 15)
                .unwrap_err()
                .to_string()
                .contains("expected a move")
        );
    }
}
