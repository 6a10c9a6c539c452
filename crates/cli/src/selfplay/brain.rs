//! Another engine as a self-play contender, driven over the Gomocup brain
//! protocol: a second build of this one (`pbrain-inarow`) or any other brain.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use inarow_core::{Game, Mnk, Point};
use inarow_engine::search::Limits;
use inarow_engine::selfplay::Contender;

/// Time a brain gets to start up and to answer `START` or `RESTART`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A brain process and the lines it writes.
pub struct Brain {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    size: usize,
    /// How long to wait for a move before it counts as lost.
    patience: Duration,
    /// Set when the brain failed outside a move (e.g. on `RESTART`).
    broken: Option<String>,
    /// How many stones of the game, in order, the brain has on its board.
    told: usize,
}

impl Brain {
    /// Starts the brain at `path` for a `size` board with `turn` per move.
    pub fn start(path: &Path, size: usize, turn: Duration) -> anyhow::Result<Brain> {
        let name = path.display().to_string();
        // Resolved first: the brain runs in its own folder, where a relative
        // path would no longer lead to it.
        let path =
            std::fs::canonicalize(path).with_context(|| format!("cannot find brain {name}"))?;
        let folder = path.parent();
        let mut command = Command::new(&path);
        if let Some(folder) = folder {
            // Brains keep their files beside themselves, as managers run them.
            command.current_dir(folder);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start brain {name}"))?;
        let stdin = child.stdin.take().context("brain stdin")?;
        let stdout = child.stdout.take().context("brain stdout")?;
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut brain = Brain {
            name,
            child,
            stdin,
            lines,
            size,
            patience: turn * 2 + Duration::from_secs(1),
            broken: None,
            told: 0,
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
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("brain {} closed its input", self.name))
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
                    bail!(
                        "brain {} did not answer within {} ms",
                        self.name,
                        wait.as_millis()
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    bail!("brain {} closed its output", self.name)
                }
            }
        }
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
            .map_err(|e| format!("{e:#}"))
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "END");
        let _ = self.stdin.flush();
        // Give it a moment to exit on its own, then make sure it is gone.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
