//! What a brain is to the protocol: the [`Brain`] trait, the types its
//! methods take and give, and [`BrainError`], its refusals.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use inarow_core::swap2::{Phase, Swap};
use inarow_core::{Point, Rule};

use super::RuleBits;

/// What a `BOARD` line says about a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a stone of a finished line in a continuous game, out of play.
    Wall,
}

/// An `INFO` the brain may use; other keys are information nobody uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: milliseconds per move.
    TimeoutTurn(u64),
    /// `timeout_match`: milliseconds for the match, 0 for no limit.
    TimeoutMatch(u64),
    /// `time_left`: milliseconds left in the match.
    TimeLeft(u64),
    /// `max_memory`: bytes, 0 for no limit.
    MaxMemory(u64),
    /// `game_type`: 0 human, 1 brain, 2 tournament, 3 network.
    GameType(u64),
    /// `rule`: the rule's bits (see [`RuleBits`]).
    Rule(RuleBits),
    /// `max_node` (Yixin-board): nodes a move may search, `None` for no
    /// limit (sent as `-1`, or `0`).
    MaxNode(Option<u64>),
    /// `max_depth` (Yixin-board): the deepest search, `None` for no limit
    /// (sent as `0`).
    MaxDepth(Option<u64>),
    /// `show_detail` (Yixin-board): bit 1 asks for realtime messages while
    /// the brain thinks.
    ShowDetail(u64),
    /// `hash_size` (Yixin-board): the transposition table's size in KiB,
    /// as Rapfi reads it (Yixin-board sends a power of two up to the
    /// brain's `MAX_HASH_SIZE`), 0 for the brain's own size.
    HashSize(u64),
    /// `thread_num` (Yixin-board, Rapfi): search threads, at most the
    /// brain's `MAX_THREAD_NUM`.
    ThreadNum(u64),
}

/// A move a brain decided on, with what it wants to say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The stone it plays.
    pub point: Point,
    /// Sent first as a `MESSAGE` line, when given.
    pub message: Option<String>,
}

/// A brain's answer to `SWAP2BOARD`, by the phase of the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Move {
    /// No stones: the opener's two black stones and one white.
    Open([Point; 3]),
    /// Three stones: the answer to them.
    Answer(Swap),
    /// Five stones: take black (`SWAP`); the opponent plays white.
    TakeBlack,
    /// Five stones: stay white and play this stone.
    PlayWhite(Point),
}

/// The session as a brain reaches it while it works: the flag that asks
/// its think to stop, and the manager's end of the line, for what it says
/// before its answer (realtime messages).
#[derive(Clone, Debug)]
pub struct Link {
    stop: Arc<AtomicBool>,
    out: mpsc::Sender<Option<String>>,
}

impl Link {
    /// The session's link: its stop flag and its line to the writer
    /// (`None` there ends the writing, so a brain is never given it).
    pub(super) fn new(stop: Arc<AtomicBool>, out: mpsc::Sender<Option<String>>) -> Link {
        Link { stop, out }
    }

    /// Set when `YXSTOP` or `END` asks the think under way to stop (a
    /// search watching it stops); the session clears it before each
    /// command that came after them.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// True while the command being answered is asked to stop.
    pub fn stop_asked(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Sends `line` to the manager now, before the command's answer (lines
    /// keep the order they are sent in). Nothing happens once the session
    /// is over.
    pub fn say(&self, line: impl Into<String>) {
        // The session may be over (the brain outlives it): nobody listens.
        let _ = self.out.send(Some(line.into()));
    }
}

/// A Yixin-board extension, named when a brain does not answer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extension {
    /// `YXBOARD`.
    YxBoard,
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `YXNBEST`.
    YxNbest,
    /// `YXHASHCLEAR`.
    YxHashClear,
    /// `YXSHOWINFO`.
    YxShowInfo,
}

impl Extension {
    /// The command's word.
    pub fn word(self) -> &'static str {
        match self {
            Extension::YxBoard => "YXBOARD",
            Extension::YxShowForbid => "YXSHOWFORBID",
            Extension::YxNbest => "YXNBEST",
            Extension::YxHashClear => "YXHASHCLEAR",
            Extension::YxShowInfo => "YXSHOWINFO",
        }
    }
}

/// Why a brain refused a command; sent back as one `ERROR <reason>` line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BrainError {
    /// A command that needs a board came before `START`.
    #[error("no board yet: send START first")]
    NoBoard,
    /// The brain does not answer this extension.
    #[error("{}", unsupported(*.0))]
    Unsupported(Extension),
    /// The position asked about is won already: no move to think about.
    #[error("the game is already over")]
    GameOver,
    /// The position asked about has no empty point.
    #[error("the board is full")]
    BoardFull,
    /// `BEGIN` on a board with stones.
    #[error("BEGIN needs an empty board")]
    BeginNotEmpty,
    /// `TAKEBACK` of an empty point, at column `x`, row `y`.
    #[error("no stone on {x},{y} to take back")]
    NothingToTakeBack {
        /// The column.
        x: usize,
        /// The row.
        y: usize,
    },
    /// `INFO rule` with bits no rule here has: the brain plays `playing`,
    /// the rule of the bits it knows, and says so.
    #[error(
        "rule {bits} is not supported (only freestyle 0, exact five 1 and renju 4): playing {}",
        rule_words(*.playing)
    )]
    UnsupportedRule {
        /// The bits as sent.
        bits: RuleBits,
        /// The rule played from now on.
        playing: Rule,
    },
    /// The brain's own reason (a board size or a stone its engine refuses),
    /// in its engine's words.
    #[error("{0}")]
    Refused(String),
    /// An error in the block of `command` (`BOARD`, `SWAP2BOARD`), named
    /// after it.
    #[error("{command}: {error}")]
    In {
        /// The command's word.
        command: &'static str,
        /// What was wrong.
        error: Box<BrainError>,
    },
}

impl BrainError {
    /// This error, named as one of `command`'s block.
    pub fn within(self, command: &'static str) -> BrainError {
        BrainError::In {
            command,
            error: Box::new(self),
        }
    }
}

/// The words of an extension a brain lacks. `YXBOARD`'s are bare: every
/// refusal of a `YXBOARD` is sent after `YXBOARD: `.
fn unsupported(extension: Extension) -> String {
    match extension {
        Extension::YxBoard => "not supported by this brain".to_string(),
        other => format!("{} is not supported by this brain", other.word()),
    }
}

/// A rule as `INFO rule`'s refusal names it.
fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Exact => "exact five",
        Rule::Renju => "renju",
    }
}

/// A gomoku engine as the protocol drives it. A refusal is sent back as
/// `ERROR <reason>`.
pub trait Brain {
    /// The side of the board, once `START` was accepted.
    fn size(&self) -> Option<usize>;
    /// `START` (and `RESTART`, `RECTSTART`): a new empty board.
    fn start(&mut self, size: usize) -> Result<(), BrainError>;
    /// `BEGIN`: the first move of the game.
    fn begin(&mut self) -> Result<Decision, BrainError>;
    /// `TURN`: the opponent played `point`; the brain's move.
    fn turn(&mut self, point: Point) -> Result<Decision, BrainError>;
    /// `BOARD`: this position, stones in the order played; the brain's move.
    fn board(&mut self, stones: &[(Point, Field)]) -> Result<Decision, BrainError>;
    /// `SWAP2BOARD`: the opening `stones` in move order (black, white,
    /// black, ...) and the phase of the opening they leave: [`Phase::Open`]
    /// (no stones), [`Phase::Answer`] (three) or [`Phase::Colour`] (five).
    fn swap2(&mut self, stones: &[Point], phase: Phase) -> Result<Swap2Move, BrainError>;
    /// `TAKEBACK`: the stone on `point` goes.
    fn take_back(&mut self, point: Point) -> Result<(), BrainError>;
    /// `INFO`.
    fn info(&mut self, info: Info) -> Result<(), BrainError>;
    /// `ABOUT`: `name="...", version="...", ...`.
    fn about(&self) -> String;
    /// Called by [`super::run`] before the first command: how the brain is
    /// asked to stop and how it talks while it thinks.
    fn connect(&mut self, link: Link) {
        let _ = link;
    }
    /// `YXBOARD`: this position, stones in the order played (own stones
    /// are the side to move's), set without thinking.
    fn set_position(&mut self, stones: &[(Point, Field)]) -> Result<(), BrainError> {
        let _ = stones;
        Err(BrainError::Unsupported(Extension::YxBoard))
    }
    /// `YXSHOWFORBID`: the points where the side to move may not play
    /// (renju's black), in row order.
    fn forbidden_points(&mut self) -> Result<Vec<Point>, BrainError> {
        Err(BrainError::Unsupported(Extension::YxShowForbid))
    }
    /// `YXNBEST n` (`n` from 1): the best `n` moves of the position, told
    /// through the [`Link`] as `MESSAGE` lines; the best one is played and
    /// answered as a move.
    fn nbest(&mut self, n: usize) -> Result<Decision, BrainError> {
        let _ = n;
        Err(BrainError::Unsupported(Extension::YxNbest))
    }
    /// `YXHASHCLEAR`: forget what earlier searches learnt.
    fn clear_hash(&mut self) -> Result<(), BrainError> {
        Err(BrainError::Unsupported(Extension::YxHashClear))
    }
    /// `YXSHOWINFO`: the brain's lines about itself, each sent as
    /// `MESSAGE <line>`; realtime messages from then on.
    fn show_info(&mut self) -> Result<Vec<String>, BrainError> {
        Err(BrainError::Unsupported(Extension::YxShowInfo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_keep_the_words_the_brain_always_sent() {
        let cases = [
            (BrainError::NoBoard, "no board yet: send START first"),
            (
                BrainError::Unsupported(Extension::YxBoard),
                "not supported by this brain",
            ),
            (
                BrainError::Unsupported(Extension::YxNbest),
                "YXNBEST is not supported by this brain",
            ),
            (
                BrainError::NothingToTakeBack { x: 3, y: 4 },
                "no stone on 3,4 to take back",
            ),
            (
                BrainError::UnsupportedRule {
                    bits: RuleBits(9),
                    playing: Rule::Exact,
                },
                "rule 9 is not supported (only freestyle 0, exact five 1 and renju 4): playing exact five",
            ),
            (
                BrainError::Refused("point 1,1 is already taken".into()).within("BOARD"),
                "BOARD: point 1,1 is already taken",
            ),
        ];
        for (error, words) in cases {
            assert_eq!(error.to_string(), words);
        }
    }
}
