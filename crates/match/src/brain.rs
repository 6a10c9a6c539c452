//! Another engine as a match contender, driven over the Gomocup brain
//! protocol: a second build of this one (`pbrain-inarow`) or any other brain.
//!
//! A brain is a program the project did not write, so it runs like a
//! judge's bot, in the same conversation ([`inarow_contest::talk`]: thawed
//! for its turn, lines within deadlines, frozen after, its silences the
//! [faults](inarow_contest::fault) a bot forfeits for), behind the same [process layer](inarow_sandbox::process): contained
//! by the [`sandbox`](inarow_sandbox) (its own folder to read and write,
//! nothing else of ours, every process it starts dies with it), its lines
//! read within deadlines. What it writes is outside text: its last words
//! and the lines it answers with are quoted through the sandbox's one
//! gate ([`inarow_sandbox::shown`]) before any message holds them, so a
//! brain's escapes reach neither the organiser's terminal nor a part file.

pub mod error;
mod place;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use inarow_contest::talk::{Deadline, Hitch, Talk};
use inarow_core::{Mnk, Point, Rule};
use inarow_engine::search::Limits;
use inarow_protocol::gomocup::manager;

pub use error::{BrainError, Silent, Stage};
pub use place::{Place, PlaceError};

use crate::Contender;
use crate::game::{Thought, Unanswered};
use inarow_sandbox::process::{LongLines, Running};
use inarow_sandbox::shown::escape;
use inarow_sandbox::{self as sandbox, Sandbox};

/// Time a brain gets to start up and to answer `START` or `RESTART`, and
/// to take a line we write.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// How long a thawed brain is left to itself before it is told anything.
/// A brain is frozen the moment it answers, and some (Rapfi) mark their
/// search finished only after printing the move: told the next move at
/// once on waking, they take it for a command that came while they were
/// still thinking, ignore it, and read its coordinates as an unknown
/// command. Ten milliseconds let such a brain finish its turn first.
const SETTLE: Duration = Duration::from_millis(10);

/// Longest line kept from a brain: a move is a few bytes; the rest of a
/// longer line (a chatty `MESSAGE`) is dropped, so a brain that never ends
/// its line cannot fill our memory.
const MAX_LINE: usize = 4096;

/// How much of a brain's last standard error line its error messages show.
const LAST_WORDS: usize = 300;

/// How long a move may take before it counts as lost, for a turn of `turn`.
pub fn patience(turn: Duration) -> Duration {
    turn * 2 + Duration::from_secs(1)
}

/// The default CPU seconds of a brain: a brain, unlike a judge's bot, lives
/// through every game of the match, and the CPU limit is a backstop against
/// a runaway, not the brain's clock. A match is at most every point of every
/// game at a move's patience, with each of the machine's cores busy; at
/// least an hour.
pub fn cpu_budget(pairs: usize, size: usize, turn: Duration) -> u64 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let moves = pairs.saturating_mul(2 * size * size).saturating_mul(cores);
    let whole = patience(turn).saturating_mul(u32::try_from(moves).unwrap_or(u32::MAX));
    whole.as_secs().max(3600)
}

/// A brain process for a whole match.
pub struct BrainProcess {
    talk: Talk,
    brain: Brain,
}

/// What the match knows of a brain besides the conversation.
struct Brain {
    name: String,
    /// The last line of its standard error, cut and escaped, for error
    /// messages.
    last_words: Arc<Mutex<Option<String>>>,
    size: usize,
    /// How long to wait for a move before it counts as lost.
    patience: Duration,
    /// Set when the brain failed outside a move (e.g. on `RESTART`).
    broken: Option<BrainError>,
    /// How many stones of the game, in order, the brain has on its board.
    told: usize,
    /// A game's time, told as `INFO timeout_match`.
    match_time: Duration,
    /// Of it, what the brain has taken in this game.
    used: Duration,
    /// Whether the brain's messages since its last move was asked for said
    /// it has a forced win.
    proven: bool,
    /// The last evaluation its messages reported since its last move was
    /// asked for.
    eval: Option<Eval>,
}

impl BrainProcess {
    /// Starts the brain at `place` in `sandbox`, kept out of `folders` (every
    /// brain's of the match), for a `size` board under `rule` with `turn`
    /// per move.
    pub fn start(
        place: &Place,
        folders: &[PathBuf],
        sandbox: &Sandbox,
        size: usize,
        rule: Rule,
        turn: Duration,
    ) -> Result<BrainProcess, BrainError> {
        let name = place.name.clone();
        let last_words = Arc::new(Mutex::new(None));
        let keep = last_words.clone();
        let stderr: sandbox::StderrSink = Some(Box::new(move |line: &str| {
            let line = line.trim();
            if !line.is_empty() {
                // Cut first, so that an escape is never cut in half.
                *lock(&keep) = Some(escape(&shorten(line)).into_owned());
            }
        }));
        let mut running = Running::start(
            sandbox,
            &place.program(folders),
            stderr,
            MAX_LINE,
            LongLines::Cut,
        )
        .map_err(|e| BrainError::Start {
            name: name.clone(),
            error: Arc::new(e),
        })?;
        // A brain that ends, even one leaving a process behind that holds
        // its pipes (so that no write fails and no read sees their end),
        // is gone at once: its game is lost as a crash, with its last
        // words, not after its move's whole time as a timeout.
        running.ending_with_its_program();
        let match_time = turn.saturating_mul(1000);
        let mut brain = BrainProcess {
            talk: Talk::new(running),
            brain: Brain {
                name,
                last_words,
                size,
                patience: patience(turn),
                broken: None,
                told: 0,
                match_time,
                used: Duration::ZERO,
                proven: false,
                eval: None,
            },
        };
        let ms = turn.as_millis();
        let info = [
            manager::info("timeout_turn", ms),
            manager::info("timeout_match", match_time.as_millis()),
            manager::info_rule(rule),
            // Where its files go: its installation is read-only.
            manager::info("folder", place.data_folder().display()),
        ];
        brain.awake(|talk, brain| {
            brain.send(talk, &manager::start(size))?;
            brain.expect_ok(talk, "START")?;
            for line in &info {
                brain.send(talk, line)?;
            }
            Ok(())
        })?;
        Ok(brain)
    }

    /// Lets the brain run for `work`, one turn of its conversation: a
    /// brain thinks only on its own time. A brain that cannot be frozen
    /// after its work loses it, and is tried again on the next.
    fn awake<T>(
        &mut self,
        work: impl FnOnce(&mut Talk, &mut Brain) -> Result<T, BrainError>,
    ) -> Result<T, BrainError> {
        let brain = &mut self.brain;
        let turned = self.talk.turn(SETTLE, |talk| Ok(work(talk, brain)));
        let unfrozen = self.talk.forgive();
        let name = || self.brain.name.clone();
        let done = match turned {
            Ok(done) => done?,
            Err(Hitch::Freezing(error)) => {
                return Err(BrainError::Freezing {
                    name: name(),
                    error,
                });
            }
            Err(Hitch::Silent(_)) => unreachable!("a turn's work says its own silences"),
        };
        match unfrozen {
            Some(error) => Err(BrainError::Freezing {
                name: name(),
                error,
            }),
            None => Ok(done),
        }
    }
}

impl Brain {
    /// Its silence, a `hitch` while it was told a line or asked for one
    /// within `wait`, with its last words.
    fn silent(&self, hitch: Hitch, stage: Stage, wait: Duration) -> BrainError {
        match hitch {
            Hitch::Freezing(error) => BrainError::Freezing {
                name: self.name.clone(),
                error,
            },
            Hitch::Silent(fault) => BrainError::Silent(Silent {
                name: self.name.clone(),
                fault,
                stage,
                wait,
                last_words: lock(&self.last_words).clone(),
            }),
        }
    }

    fn send(&mut self, talk: &mut Talk, line: &str) -> Result<(), BrainError> {
        talk.tell(line, Some(Deadline::after(HANDSHAKE)))
            .map_err(|hitch| self.silent(hitch, Stage::Told, HANDSHAKE))
    }

    /// The next answer line within `wait`, skipping what is not an answer.
    fn answer(&mut self, talk: &mut Talk, wait: Duration) -> Result<String, BrainError> {
        let deadline = Deadline::after(wait);
        loop {
            match talk.receive(Some(deadline)) {
                Ok(line) if manager::is_chatter(line.trim()) => {
                    self.proven |= claims_a_win(line.trim());
                    if let Some(eval) = reported_eval(line.trim()) {
                        self.eval = Some(eval);
                    }
                }
                Ok(line) => return Ok(line.trim().to_string()),
                Err(hitch) => return Err(self.silent(hitch, Stage::Asked, wait)),
            }
        }
    }

    fn expect_ok(&mut self, talk: &mut Talk, command: &'static str) -> Result<(), BrainError> {
        let line = self.answer(talk, HANDSHAKE)?;
        if line != "OK" {
            return Err(BrainError::NotOk {
                name: self.name.clone(),
                command,
                line,
            });
        }
        Ok(())
    }

    /// Asks for a move as managers do: `BEGIN` on an empty board, `BOARD`
    /// with every stone in the order played when the brain's board is new,
    /// then `TURN` with each opponent move (brains keep their own moves, and
    /// some add `BOARD` stones to what they already have).
    fn ask_move(
        &mut self,
        talk: &mut Talk,
        game: &Mnk,
        history: &[Point],
    ) -> Result<Point, BrainError> {
        if let Some(why) = self.broken.take() {
            return Err(why);
        }
        // A game's time is the brain's alone: told before every move, as
        // managers do, so that a brain keeping its own match clock (Rapfi)
        // starts each game with the whole of it rather than running down
        // over the match.
        let left = self.match_time.saturating_sub(self.used);
        self.send(talk, &manager::info("time_left", left.as_millis()))?;
        if history.is_empty() {
            self.send(talk, manager::BEGIN)?;
        } else if self.told > 0 && self.told + 1 == history.len() {
            self.send(talk, &manager::turn(history[self.told], self.size))?;
        } else {
            if self.told > 0 {
                // Out of step (not in a match's normal flow): start afresh.
                self.send(talk, manager::RESTART)?;
                self.expect_ok(talk, "RESTART")?;
            }
            for line in manager::board(game, history) {
                self.send(talk, &line)?;
            }
        }
        self.proven = false;
        let p = self.read_move(talk)?;
        self.told = history.len() + 1;
        Ok(p)
    }

    /// The brain's answer within its patience, read as a move on the board.
    fn read_move(&mut self, talk: &mut Talk) -> Result<Point, BrainError> {
        let line = self.answer(talk, self.patience)?;
        let name = self.name.clone();
        manager::parse_move(&line, self.size).map_err(|e| match e {
            manager::MoveError::Syntax(_) => BrainError::NotAMove { name, line },
            error => BrainError::OffBoard { name, error },
        })
    }
}

impl BrainProcess {
    /// The brain's move in the position `history` reached (`game`), on a
    /// budget of `nodes` and no match clock, with the last evaluation it
    /// reported: the question `inarow selfplay oracle` and `agree` ask a
    /// brain started for it alone (so no hash of another position helps).
    pub fn move_at_nodes(
        &mut self,
        game: &Mnk,
        history: &[Point],
        nodes: u64,
    ) -> Result<(Point, Option<Eval>), BrainError> {
        self.awake(|talk, brain| {
            if let Some(why) = brain.broken.take() {
                return Err(why);
            }
            brain.send(talk, &manager::info("max_node", nodes))?;
            brain.send(talk, &manager::info("timeout_match", 0))?;
            if brain.told > 0 {
                brain.send(talk, manager::RESTART)?;
                brain.expect_ok(talk, "RESTART")?;
            }
            if history.is_empty() {
                brain.send(talk, manager::BEGIN)?;
            } else {
                for line in manager::board(game, history) {
                    brain.send(talk, &line)?;
                }
            }
            brain.eval = None;
            let p = brain.read_move(talk)?;
            brain.told = history.len() + 1;
            Ok((p, brain.eval))
        })
    }
}

impl Contender for BrainProcess {
    fn new_game(&mut self) {
        let restarted = self.awake(|talk, brain| {
            brain.send(talk, manager::RESTART)?;
            brain.expect_ok(talk, "RESTART")
        });
        let brain = &mut self.brain;
        brain.broken = restarted.err();
        brain.told = 0;
        brain.used = Duration::ZERO;
    }

    fn think(
        &mut self,
        game: &Mnk,
        history: &[Point],
        _limits: Limits,
    ) -> Result<Thought, Unanswered> {
        // The brain keeps its own clock from `INFO timeout_turn`.
        let start = Instant::now();
        let moved = self
            .awake(|talk, brain| brain.ask_move(talk, game, history))
            .map(|p| Thought {
                point: p,
                took: start.elapsed(),
                proven: self.brain.proven,
            });
        self.brain.used += start.elapsed();
        Ok(moved?)
    }
}

impl Drop for BrainProcess {
    fn drop(&mut self) {
        let running = self.talk.running_mut();
        // Its input is closed after `END`: some brains end at the end of their input.
        running.close(manager::END);
        // Whatever it left behind dies with it, after the grace period.
        running.finish();
    }
}

/// Whether a brain's `MESSAGE` line says it has a forced win: a score
/// written as Rapfi and this project's brain write one, `+M` and the plies
/// to the five, after `Eval` or `score` (`MESSAGE Speed 1.2M | Depth 9-21 |
/// Eval +M7 | ...`, `MESSAGE depth 9 score +M7 nodes ...`).
pub fn claims_a_win(line: &str) -> bool {
    let Some(text) = line.strip_prefix("MESSAGE") else {
        return false;
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).any(|w| {
        matches!(w[0], "Eval" | "score")
            && w[1]
                .strip_prefix("+M")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// A brain's evaluation of its position, from the side to move, as its
/// `MESSAGE` lines report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A score in the brain's own units (Rapfi's and this project's: about
    /// 1500 and more is a won game).
    Score(i64),
    /// A forced five in this many plies: positive for the side to move,
    /// negative against it.
    Mate(i64),
}

impl Eval {
    /// Beyond this score a game is decided: nothing is left to choose.
    pub const DECIDED: i64 = 1500;

    /// Whether the game is decided (a mate, or a score past
    /// [`Eval::DECIDED`] either way): its move is no choice to compare.
    pub fn decided(self) -> bool {
        match self {
            Eval::Score(s) => s.abs() > Eval::DECIDED,
            Eval::Mate(_) => true,
        }
    }
}

/// The evaluation a brain's `MESSAGE` line reports, as Rapfi (`Eval 34`,
/// `Eval -M7`) and this project's brain (`score 431`, `score +M7`) write
/// it; `None` for any other line, or a value that is not one.
pub fn reported_eval(line: &str) -> Option<Eval> {
    let text = line.strip_prefix("MESSAGE")?;
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).rev().find_map(|w| {
        if !matches!(w[0], "Eval" | "score") {
            return None;
        }
        let (negative, rest) = match w[1].as_bytes().first()? {
            b'-' => (true, &w[1][1..]),
            b'+' => (false, &w[1][1..]),
            _ => (false, w[1]),
        };
        let (mate, digits) = match rest.strip_prefix('M') {
            Some(d) => (true, d),
            None => (false, rest),
        };
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: i64 = digits.parse().ok()?;
        let n = if negative { -n } else { n };
        Some(if mate { Eval::Mate(n) } else { Eval::Score(n) })
    })
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
    fn messages_that_claim_a_forced_win() {
        for yes in [
            "MESSAGE Speed 1.2M | Depth 9-21 | Eval +M7 | Node 3M | Time 2s",
            "MESSAGE depth 9 score +M13 nodes 1200 time 30 ms pv h8 i9",
        ] {
            assert!(claims_a_win(yes), "{yes}");
        }
        for no in [
            "MESSAGE Speed 1.2M | Depth 9-21 | Eval -M7 | Node 3M",
            "MESSAGE depth 9 score 431 nodes 1200",
            "MESSAGE Eval +M",
            "MESSAGE Eval +Mx",
            "DEBUG Eval +M7",
            "MESSAGE Eval: +M7",
        ] {
            assert!(!claims_a_win(no), "{no}");
        }
    }

    #[test]
    fn evaluations_are_read_from_either_brains_messages() {
        for (line, eval) in [
            (
                "MESSAGE Speed 1.2M | Depth 9-21 | Eval 34 | Node 3M",
                Some(Eval::Score(34)),
            ),
            (
                "MESSAGE Speed 1.2M | Depth 9-21 | Eval -M7 | Node 3M",
                Some(Eval::Mate(-7)),
            ),
            (
                "MESSAGE depth 9 score +M13 nodes 1200",
                Some(Eval::Mate(13)),
            ),
            (
                "MESSAGE depth 9 score -431 (win rate 20%) nodes 1200",
                Some(Eval::Score(-431)),
            ),
            (
                "MESSAGE depth 9 score 12 nodes 5 score 40",
                Some(Eval::Score(40)),
            ),
            ("MESSAGE Eval +M", None),
            ("MESSAGE Eval 99999999999999999999", None),
            ("MESSAGE Eval x12", None),
            ("DEBUG Eval 12", None),
            ("MESSAGE Eval", None),
        ] {
            assert_eq!(reported_eval(line), eval, "{line}");
        }
        assert!(!Eval::Score(1500).decided());
        assert!(Eval::Score(-1501).decided());
        assert!(Eval::Mate(-3).decided());
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
    fn a_brain_has_cpu_time_for_the_whole_match() {
        for (pairs, ms) in [(1, 50), (20, 100), (200, 1000)] {
            let turn = Duration::from_millis(ms);
            let cpu = cpu_budget(pairs, 15, turn) as f64;
            // Every stone of every game at the longest a move may take.
            let whole = (pairs * 2 * 225) as f64 * patience(turn).as_secs_f64();
            assert!(cpu >= whole, "{pairs} pairs at {ms} ms: {cpu} s");
            assert!(cpu >= 3600.0);
        }
    }
}
