//! The Gomocup brain protocol ("new protocol" plus the Swap2 extension and
//! the Yixin-board extensions), both sides: [`run`] is the brain's loop,
//! reading a manager's commands and answering them with a [`Brain`];
//! [`manager`] writes the commands and reads a brain's replies.
//!
//! Coordinates are `x,y` with `x` the column and `y` the row, from 0.
//!
//! Decisions where the protocol leaves room, on the brain's side:
//! * Only square boards are played (`RECTSTART` only when square; Yixin-
//!   board's `START w h` only when `w = h`).
//! * `BOARD` and `SWAP2BOARD` blocks are checked here: every point on the
//!   board and named once; a brain sees only valid blocks.
//! * Every malformed or impossible command gets one `ERROR <reason>` line;
//!   unknown commands get `UNKNOWN <command>`.
//! * Commands are answered one after another, in the order they came. One
//!   thread reads them while the brain works, so that `YXSTOP` and `END`
//!   reach a brain that thinks: each stops, at once, every think asked for
//!   before it (the answer is the best move found so far); `END` then ends
//!   the session when its turn comes. Other commands that arrive while the
//!   brain thinks wait for the answer. The end of input stops nothing: what
//!   came before it is answered, then the session ends.
//! * Of the Yixin-board extensions (as Yixin-board sends them and Rapfi
//!   answers them):
//!   - `YXBOARD`: a `BOARD` block that sets the position without thinking
//!     (no answer unless it is refused);
//!   - `YXSHOWFORBID`: `FORBID `, black's forbidden points as `xxyy` when
//!     black is to move under renju, then `.`;
//!   - `YXNBEST n` (n from 1): the brain thinks about the position and
//!     sends its best `n` moves as `MESSAGE` lines, then plays the best
//!     one, answered like `BOARD`;
//!   - `YXSTOP`: stops the think under way (see above); nothing is sent
//!     for it when the brain is idle;
//!   - `YXHASHCLEAR`: the brain forgets what it learnt (its table);
//!     answered `MESSAGE transposition table cleared`;
//!   - `YXSHOWINFO`: the brain's `MESSAGE` lines about itself (Yixin-board
//!     reads `MESSAGE INFO MAX_THREAD_NUM n` and `MESSAGE INFO
//!     MAX_HASH_SIZE n`), and realtime messages from then on;
//!   - `INFO max_node n` (a node limit per move; `-1` or `0` for none),
//!     `INFO max_depth n` (`0` for none) and `INFO show_detail n` (bit 1:
//!     realtime messages).

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use inarow_core::Point;
use inarow_core::swap2::{Phase, Swap};

pub mod manager;

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
    /// `rule`: bit 1 exactly five, bit 2 continuous game, bit 4 renju.
    Rule(u64),
    /// `max_node` (Yixin-board): nodes a move may search, `None` for no
    /// limit (sent as `-1`, or `0`).
    MaxNode(Option<u64>),
    /// `max_depth` (Yixin-board): the deepest search, `None` for no limit
    /// (sent as `0`).
    MaxDepth(Option<u64>),
    /// `show_detail` (Yixin-board): bit 1 asks for realtime messages while
    /// the brain thinks.
    ShowDetail(u64),
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

/// A gomoku engine as the protocol drives it. Errors are one line, sent
/// back as `ERROR <line>`.
pub trait Brain {
    /// The side of the board, once `START` was accepted.
    fn size(&self) -> Option<usize>;
    /// `START` (and `RESTART`, `RECTSTART`): a new empty board.
    fn start(&mut self, size: usize) -> Result<(), String>;
    /// `BEGIN`: the first move of the game.
    fn begin(&mut self) -> Result<Decision, String>;
    /// `TURN`: the opponent played `point`; the brain's move.
    fn turn(&mut self, point: Point) -> Result<Decision, String>;
    /// `BOARD`: this position, stones in the order played; the brain's move.
    fn board(&mut self, stones: &[(Point, Field)]) -> Result<Decision, String>;
    /// `SWAP2BOARD`: the opening `stones` in move order (black, white,
    /// black, ...) and the phase of the opening they leave: [`Phase::Open`]
    /// (no stones), [`Phase::Answer`] (three) or [`Phase::Colour`] (five).
    fn swap2(&mut self, stones: &[Point], phase: Phase) -> Result<Swap2Move, String>;
    /// `TAKEBACK`: the stone on `point` goes.
    fn take_back(&mut self, point: Point) -> Result<(), String>;
    /// `INFO`.
    fn info(&mut self, info: Info) -> Result<(), String>;
    /// `ABOUT`: `name="...", version="...", ...`.
    fn about(&self) -> String;
    /// Called by [`run`] before the first command: how the brain is asked
    /// to stop and how it talks while it thinks.
    fn connect(&mut self, link: Link) {
        let _ = link;
    }
    /// `YXBOARD`: this position, stones in the order played (own stones
    /// are the side to move's), set without thinking.
    fn set_position(&mut self, stones: &[(Point, Field)]) -> Result<(), String> {
        let _ = stones;
        Err("not supported by this brain".into())
    }
    /// `YXSHOWFORBID`: the points where the side to move may not play
    /// (renju's black), in row order.
    fn forbidden_points(&mut self) -> Result<Vec<Point>, String> {
        Err("YXSHOWFORBID is not supported by this brain".into())
    }
    /// `YXNBEST n` (`n` from 1): the best `n` moves of the position, told
    /// through the [`Link`] as `MESSAGE` lines; the best one is played and
    /// answered as a move.
    fn nbest(&mut self, n: usize) -> Result<Decision, String> {
        let _ = n;
        Err("YXNBEST is not supported by this brain".into())
    }
    /// `YXHASHCLEAR`: forget what earlier searches learnt.
    fn clear_hash(&mut self) -> Result<(), String> {
        Err("YXHASHCLEAR is not supported by this brain".into())
    }
    /// `YXSHOWINFO`: the brain's lines about itself, each sent as
    /// `MESSAGE <line>`; realtime messages from then on.
    fn show_info(&mut self) -> Result<Vec<String>, String> {
        Err("YXSHOWINFO is not supported by this brain".into())
    }
}

/// What one command produced.
enum Output {
    Lines(Vec<String>),
    Quit,
}

const NO_BOARD: &str = "no board yet: send START first";

fn ok(line: impl Into<String>) -> Output {
    Output::Lines(vec![line.into()])
}

fn error(reason: impl std::fmt::Display) -> Output {
    Output::Lines(vec![format!("ERROR {reason}")])
}

fn lines(result: Result<Vec<String>, String>) -> Output {
    match result {
        Ok(lines) => Output::Lines(lines),
        Err(e) => error(e),
    }
}

/// Reads `x,y` (spaces allowed around the numbers).
pub fn parse_xy(text: &str) -> Result<(usize, usize), String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() != 2 {
        return Err(format!("expected x,y but got {text:?}"));
    }
    let num = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("expected x,y with whole numbers but got {text:?}"))
    };
    Ok((num(fields[0])?, num(fields[1])?))
}

/// The point at column `x`, row `y` of a board `size` wide.
fn point(x: usize, y: usize, size: usize) -> Result<Point, String> {
    Point::from_xy(x, y, size).ok_or_else(|| format!("point {x},{y} is off the board"))
}

/// Writes `point` as `x,y` on a board `size` wide.
pub fn format_xy(point: Point, size: usize) -> String {
    let (x, y) = point.xy(size);
    format!("{x},{y}")
}

/// The lines for a decision: its message, then the move.
fn decided(decision: Result<Decision, String>, size: usize) -> Output {
    lines(decision.map(|d| {
        let mut out = Vec::new();
        if let Some(m) = d.message {
            out.push(format!("MESSAGE {m}"));
        }
        out.push(format_xy(d.point, size));
        out
    }))
}
/// Checks that `points` are on a board `size` wide, each named once.
fn distinct(points: &[(usize, usize)], size: usize) -> Result<Vec<Point>, String> {
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for &(x, y) in points {
        let p = point(x, y, size)?;
        if out.contains(&p) {
            return Err(format!("point {x},{y} is already taken"));
        }
        out.push(p);
    }
    Ok(out)
}

/// Reads the lines of a block up to `DONE`; the first line `read` refuses
/// is the block's error, once the block is over.
fn block<T>(
    name: &str,
    more: &mut dyn FnMut() -> Option<String>,
    read: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let mut items = Vec::new();
    let mut problem = None;
    loop {
        let Some(line) = more() else {
            return Err(format!("{name} ended without DONE"));
        };
        let line = line.trim();
        if line.eq_ignore_ascii_case("DONE") {
            break;
        }
        if line.is_empty() || problem.is_some() {
            continue;
        }
        match read(line) {
            Ok(item) => items.push(item),
            Err(e) => problem = Some(e),
        }
    }
    problem.map_or(Ok(items), Err)
}

/// `BOARD` (or `YXBOARD`, named `name`): `x,y,field` lines up to `DONE`,
/// each point on the board and named once.
fn position_block(
    name: &str,
    size: Option<usize>,
    more: &mut dyn FnMut() -> Option<String>,
) -> Result<(usize, Vec<(Point, Field)>), String> {
    let read = |line: &str| match line
        .rsplit_once(',')
        .map(|(xy, f)| (parse_xy(xy), f.trim()))
    {
        Some((Ok(xy), f)) => match f {
            "1" => Ok((xy, Field::Own)),
            "2" => Ok((xy, Field::Opponent)),
            "3" => Ok((xy, Field::Wall)),
            _ => Err(format!("{name} line {line:?}: field must be 1, 2 or 3")),
        },
        _ => Err(format!("{name} line {line:?}: expected x,y,field")),
    };
    let stones = block(name, more, read)?;
    let size = size.ok_or(NO_BOARD)?;
    let xys: Vec<(usize, usize)> = stones.iter().map(|&(xy, _)| xy).collect();
    let points = distinct(&xys, size).map_err(|e| format!("{name}: {e}"))?;
    Ok((
        size,
        points
            .into_iter()
            .zip(stones.iter().map(|&(_, f)| f))
            .collect(),
    ))
}

/// `BOARD`: the position, then the brain's move.
fn board_block<B: Brain + ?Sized>(
    brain: &mut B,
    more: &mut dyn FnMut() -> Option<String>,
) -> Output {
    match position_block("BOARD", brain.size(), more) {
        Ok((size, stones)) => decided(brain.board(&stones), size),
        Err(e) => error(e),
    }
}

/// `YXBOARD`: the position, set without an answer.
fn yxboard_block<B: Brain + ?Sized>(
    brain: &mut B,
    more: &mut dyn FnMut() -> Option<String>,
) -> Output {
    match position_block("YXBOARD", brain.size(), more).and_then(|(_, stones)| {
        brain
            .set_position(&stones)
            .map_err(|e| format!("YXBOARD: {e}"))
    }) {
        Ok(()) => Output::Lines(Vec::new()),
        Err(e) => error(e),
    }
}

/// `YXSHOWFORBID`: `FORBID ` and each point as `xxyy`, then `.`.
fn show_forbidden<B: Brain + ?Sized>(brain: &mut B) -> Output {
    let Some(size) = brain.size() else {
        return error(NO_BOARD);
    };
    lines(brain.forbidden_points().map(|points| {
        let listed: String = points
            .iter()
            .map(|p| {
                let (x, y) = p.xy(size);
                format!("{x:02}{y:02}")
            })
            .collect();
        vec![format!("FORBID {listed}.")]
    }))
}

/// `SWAP2BOARD`: stones in move order (black, white, black, white, black)
/// up to `DONE`; the brain answers by the phase of the opening.
fn swap2_block<B: Brain + ?Sized>(
    brain: &mut B,
    more: &mut dyn FnMut() -> Option<String>,
) -> Output {
    let read = |line: &str| parse_xy(line).map_err(|e| format!("SWAP2BOARD: {e}"));
    let xys = match block("SWAP2BOARD", more, read) {
        Ok(s) => s,
        Err(e) => return error(e),
    };
    let Some(size) = brain.size() else {
        return error(NO_BOARD);
    };
    let stones = match distinct(&xys, size) {
        Ok(points) => points,
        Err(e) => return error(format!("SWAP2BOARD: {e}")),
    };
    // The stones so far say what the opening asks of the brain (the core's
    // board holds 16 x 16 at most, so the count decides, not a replay).
    let phase = match stones.len() {
        0 => Phase::Open,
        3 => Phase::Answer,
        5 => Phase::Colour,
        n => return error(format!("SWAP2BOARD needs 0, 3 or 5 stones, got {n}")),
    };
    let fmt = |p: Point| format_xy(p, size);
    match (phase, brain.swap2(&stones, phase)) {
        (_, Err(e)) => error(e),
        // Move order: black, white, black.
        (Phase::Open, Ok(Swap2Move::Open([b1, b2, w]))) => {
            ok(format!("{} {} {}", fmt(b1), fmt(w), fmt(b2)))
        }
        (Phase::Answer, Ok(Swap2Move::Answer(swap))) => match swap {
            Swap::Black => ok("SWAP"),
            Swap::White(w) => ok(fmt(w)),
            // Move order: the fourth stone (white), then the fifth (black).
            Swap::Place { black, white } => ok(format!("{} {}", fmt(white), fmt(black))),
        },
        (Phase::Colour, Ok(Swap2Move::TakeBlack)) => ok("SWAP"),
        (Phase::Colour, Ok(Swap2Move::PlayWhite(p))) => ok(fmt(p)),
        (phase, Ok(answer)) => error(format!(
            "the brain answered {answer:?} in the {phase:?} phase of the opening"
        )),
    }
}

/// `START n`, or Yixin-board's `START w h` (square only): the side.
fn start_size(rest: &str) -> Result<usize, String> {
    let numbers: Vec<&str> = rest.split_whitespace().collect();
    let parse = |s: &str| s.parse::<usize>().ok();
    match numbers[..] {
        [n] if parse(n).is_some() => Ok(parse(n).unwrap_or_default()),
        [w, h] => match (parse(w), parse(h)) {
            (Some(w), Some(h)) if w == h => Ok(w),
            (Some(w), Some(h)) => Err(format!("only square boards are supported, not {w}x{h}")),
            _ => Err(format!("START needs a board size, got {rest:?}")),
        },
        _ => Err(format!("START needs a board size, got {rest:?}")),
    }
}

/// `YXNBEST n`: the brain's best `n` moves (its messages), then its move.
fn nbest<B: Brain + ?Sized>(brain: &mut B, rest: &str) -> Output {
    let Some(size) = brain.size() else {
        return error(NO_BOARD);
    };
    match rest.parse::<usize>() {
        Ok(n) if n >= 1 => decided(brain.nbest(n), size),
        _ => error(format!(
            "YXNBEST needs how many moves to show, a whole number from 1, got {rest:?}"
        )),
    }
}

/// Handles one command; `more` supplies the lines of `BOARD` and
/// `SWAP2BOARD` blocks.
fn command<B: Brain + ?Sized>(
    brain: &mut B,
    line: &str,
    more: &mut dyn FnMut() -> Option<String>,
) -> Output {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let start = |brain: &mut B, size| match brain.start(size) {
        Ok(()) => ok("OK"),
        Err(e) => error(e),
    };
    match word.to_ascii_uppercase().as_str() {
        "START" => match start_size(rest) {
            Ok(n) => start(brain, n),
            Err(e) => error(e),
        },
        "RECTSTART" => match parse_xy(rest) {
            Ok((w, h)) if w == h => start(brain, w),
            Ok((w, h)) => error(format!("only square boards are supported, not {w}x{h}")),
            Err(e) => error(format!("RECTSTART: {e}")),
        },
        "RESTART" => match brain.size() {
            Some(n) => start(brain, n),
            None => error(NO_BOARD),
        },
        "BEGIN" => match brain.size() {
            Some(size) => decided(brain.begin(), size),
            None => error(NO_BOARD),
        },
        "TURN" => match (brain.size(), parse_xy(rest)) {
            (None, _) => error(NO_BOARD),
            (_, Err(e)) => error(format!("TURN: {e}")),
            (Some(size), Ok((x, y))) => match point(x, y, size) {
                Ok(p) => decided(brain.turn(p), size),
                Err(e) => error(e),
            },
        },
        "BOARD" => board_block(brain, more),
        "YXBOARD" => yxboard_block(brain, more),
        "YXSHOWFORBID" => show_forbidden(brain),
        "YXNBEST" => nbest(brain, rest),
        // The reader already stopped what came before it; idle, nothing
        // is left to stop.
        "YXSTOP" => Output::Lines(Vec::new()),
        "YXHASHCLEAR" => lines(
            brain
                .clear_hash()
                .map(|()| vec!["MESSAGE transposition table cleared".to_string()]),
        ),
        "YXSHOWINFO" => lines(
            brain
                .show_info()
                .map(|info| info.into_iter().map(|l| format!("MESSAGE {l}")).collect()),
        ),
        "SWAP2BOARD" => swap2_block(brain, more),
        "TAKEBACK" => match (brain.size(), parse_xy(rest)) {
            (None, _) => error(NO_BOARD),
            (_, Err(e)) => error(format!("TAKEBACK: {e}")),
            (Some(size), Ok((x, y))) => match point(x, y, size).and_then(|p| brain.take_back(p)) {
                Ok(()) => ok("OK"),
                Err(e) => error(e),
            },
        },
        "INFO" => info(brain, rest),
        "ABOUT" => ok(brain.about()),
        "END" => Output::Quit,
        "" => Output::Lines(Vec::new()),
        other => ok(format!("UNKNOWN command {other}")),
    }
}

fn info<B: Brain + ?Sized>(brain: &mut B, rest: &str) -> Output {
    let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let value = value.trim();
    let key = key.to_ascii_lowercase();
    let info: fn(u64) -> Info = match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn,
        "timeout_match" => Info::TimeoutMatch,
        "time_left" => Info::TimeLeft,
        "max_memory" => Info::MaxMemory,
        "game_type" => Info::GameType,
        "rule" => Info::Rule,
        // Yixin-board sends -1 for no limit; Rapfi reads 0 so too.
        "max_node" => |n| Info::MaxNode((n > 0).then_some(n)),
        "max_depth" => |n| Info::MaxDepth((n > 0).then_some(n)),
        "show_detail" => Info::ShowDetail,
        // Other keys (folder, evaluate, thread_num, ...) are information
        // we do not use.
        _ => return Output::Lines(Vec::new()),
    };
    let n = match value.parse::<u64>() {
        Ok(n) => n,
        Err(_) if key == "max_node" && value == "-1" => 0,
        Err(_) if key == "max_node" => {
            return error(format!(
                "INFO max_node needs a whole number of nodes (-1 or 0 for no limit), got {value:?}"
            ));
        }
        Err(_) => return error(format!("INFO {key} needs a whole number, got {value:?}")),
    };
    lines(brain.info(info(n)).map(|()| Vec::new()))
}

/// Which commands are asked to stop: `YXSTOP` and `END` stop every
/// command that came before them (by line number), thinking or queued.
struct Stops {
    /// The flag the brain's search watches.
    flag: Arc<AtomicBool>,
    /// Commands on lines before this one are to stop.
    before: Mutex<u64>,
}

impl Stops {
    /// A `YXSTOP` or `END` read on line `line`.
    fn ask(&self, line: u64) {
        // The flag changes under the lock, so that `arm` never undoes a
        // stop asked for after it looked.
        let mut before = self.before.lock().unwrap_or_else(|e| e.into_inner());
        *before = (*before).max(line);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// The command on line `line` is about to be answered.
    fn arm(&self, line: u64) {
        let before = self.before.lock().unwrap_or_else(|e| e.into_inner());
        self.flag.store(*before > line, Ordering::SeqCst);
    }
}

/// The first word of `line`, if it is one that stops thinking.
fn stops_thinking(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.eq_ignore_ascii_case("YXSTOP") || word.eq_ignore_ascii_case("END")
}

/// Runs a brain session: reads commands from `input` until `END` or the end
/// of input, writing answers to `output` (flushed after each line).
///
/// `input` is read on a thread of its own, so that `YXSTOP` and `END` reach
/// a brain while it thinks; that thread is left behind, blocked on its
/// read, when `END` ends the session first.
pub fn run<B, R, W>(brain: &mut B, input: R, output: W) -> io::Result<()>
where
    B: Brain + ?Sized,
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    let stops = Arc::new(Stops {
        flag: Arc::new(AtomicBool::new(false)),
        before: Mutex::new(0),
    });
    let (line_tx, line_rx) = mpsc::channel::<io::Result<(u64, String)>>();
    let reader_stops = Arc::clone(&stops);
    std::thread::spawn(move || {
        for (n, line) in (1..).zip(input.lines()) {
            let failed = line.is_err();
            if let Ok(l) = &line
                && stops_thinking(l)
            {
                reader_stops.ask(n);
            }
            if line_tx.send(line.map(|l| (n, l))).is_err() || failed {
                break;
            }
        }
    });
    let (out_tx, out_rx) = mpsc::channel::<Option<String>>();
    brain.connect(Link {
        stop: Arc::clone(&stops.flag),
        out: out_tx.clone(),
    });
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || write_lines(out_rx, output));
        let mut failure = None;
        let mut next = || match line_rx.recv() {
            Ok(Ok(line)) => Some(line),
            Ok(Err(e)) => {
                failure = Some(e);
                None
            }
            Err(_) => None,
        };
        while let Some((n, line)) = next() {
            stops.arm(n);
            let mut more = || next().map(|(_, l)| l);
            match command(brain, &line, &mut more) {
                Output::Quit => break,
                Output::Lines(out) => {
                    for l in out {
                        let _ = out_tx.send(Some(l));
                    }
                }
            }
        }
        let _ = out_tx.send(None);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the thread writing the answers panicked")));
        match failure {
            Some(e) => Err(e),
            None => written,
        }
    })
}

/// Writes each line that comes until `None`, flushing after each; after a
/// failed write the rest is read and dropped, and the failure returned.
fn write_lines<W: Write>(lines: mpsc::Receiver<Option<String>>, mut output: W) -> io::Result<()> {
    let mut result = Ok(());
    while let Ok(Some(line)) = lines.recv() {
        if result.is_ok() {
            result = writeln!(output, "{line}").and_then(|()| output.flush());
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A brain that answers from fixed points and remembers what it heard.
    /// With `thinking` set, `BEGIN` says so (through its link and on
    /// `thinking`) and waits for the stop flag before it answers.
    #[derive(Default)]
    struct Fixed {
        size: Option<usize>,
        heard: Vec<String>,
        link: Option<Link>,
        thinking: Option<mpsc::Sender<()>>,
    }

    impl Fixed {
        /// Whether the command being answered is asked to stop.
        fn stop_asked(&self) -> bool {
            self.link.as_ref().is_some_and(Link::stop_asked)
        }

        /// Waits for the stop flag, as a search watching it would: true if
        /// it came. The bound only keeps a broken session from hanging
        /// the tests; nothing depends on how long the wait takes.
        fn wait_for_stop(&self) -> bool {
            for _ in 0..20_000 {
                if self.stop_asked() {
                    return true;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            false
        }
    }

    fn at(x: usize, y: usize) -> Point {
        Point::at(y, x, 15)
    }

    impl Brain for Fixed {
        fn size(&self) -> Option<usize> {
            self.size
        }
        fn start(&mut self, size: usize) -> Result<(), String> {
            self.size = Some(size);
            Ok(())
        }
        fn begin(&mut self) -> Result<Decision, String> {
            if let Some(thinking) = &self.thinking {
                if let Some(link) = &self.link {
                    link.say("MESSAGE REALTIME BEST 7,7");
                }
                let _ = thinking.send(());
                let stopped = self.wait_for_stop();
                self.heard.push(format!("begin stopped {stopped}"));
            }
            Ok(Decision {
                point: at(7, 7),
                message: Some("thinking".into()),
            })
        }
        fn turn(&mut self, point: Point) -> Result<Decision, String> {
            self.heard
                .push(format!("turn {point} stop {}", self.stop_asked()));
            Ok(Decision {
                point: at(1, 2),
                message: None,
            })
        }
        fn board(&mut self, stones: &[(Point, Field)]) -> Result<Decision, String> {
            self.heard.push(format!("board {stones:?}"));
            self.begin()
        }
        fn swap2(&mut self, stones: &[Point], phase: Phase) -> Result<Swap2Move, String> {
            self.heard.push(format!("swap2 {} {phase:?}", stones.len()));
            Ok(match phase {
                Phase::Open => Swap2Move::Open([at(7, 7), at(8, 8), at(7, 8)]),
                Phase::Answer => Swap2Move::Answer(Swap::Place {
                    black: at(1, 1),
                    white: at(2, 2),
                }),
                _ => Swap2Move::TakeBlack,
            })
        }
        fn take_back(&mut self, point: Point) -> Result<(), String> {
            self.heard.push(format!("takeback {point}"));
            Ok(())
        }
        fn info(&mut self, info: Info) -> Result<(), String> {
            self.heard.push(format!("{info:?}"));
            Ok(())
        }
        fn about(&self) -> String {
            "name=\"fixed\"".into()
        }
        fn connect(&mut self, link: Link) {
            self.link = Some(link);
        }
    }

    fn session(input: &str) -> (String, Vec<String>) {
        let mut brain = Fixed::default();
        let mut out = Vec::new();
        let input = io::Cursor::new(input.as_bytes().to_vec());
        run(&mut brain, input, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), brain.heard)
    }

    /// Input that arrives as a test sends it: a read waits for the next
    /// piece, and the input ends when the sender goes.
    struct Pipe {
        pieces: mpsc::Receiver<Vec<u8>>,
        piece: io::Cursor<Vec<u8>>,
    }

    impl io::Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            loop {
                let n = io::Read::read(&mut self.piece, buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                match self.pieces.recv() {
                    Ok(piece) => self.piece = io::Cursor::new(piece),
                    Err(_) => return Ok(0),
                }
            }
        }
    }

    #[test]
    fn commands_before_start_need_a_board() {
        let (out, _) = session("BEGIN\nTURN 1,1\nTAKEBACK x\nRESTART\nBOARD\nDONE\nEND\n");
        assert_eq!(out, "ERROR no board yet: send START first\n".repeat(5));
    }

    #[test]
    fn yixin_commands_a_brain_does_not_know_get_one_error_line() {
        let (out, _) = session(
            "YXSHOWFORBID\nYXNBEST 2\nYXSTOP\nSTART 15\nYXBOARD\n1,1,1\nDONE\nYXSHOWFORBID\n\
             YXBOARD\n1,1\nDONE\nYXNBEST 2\nYXNBEST 0\nYXNBEST two\nYXNBEST\nYXHASHCLEAR\n\
             YXSHOWINFO\nYXSTOP\nEND\n",
        );
        let nbest = "ERROR YXNBEST needs how many moves to show, a whole number from 1, got";
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "ERROR no board yet: send START first",
                "ERROR no board yet: send START first",
                // YXSTOP with nothing to stop says nothing.
                "OK",
                "ERROR YXBOARD: not supported by this brain",
                "ERROR YXSHOWFORBID is not supported by this brain",
                "ERROR YXBOARD line \"1,1\": expected x,y,field",
                "ERROR YXNBEST is not supported by this brain",
                &format!("{nbest} \"0\""),
                &format!("{nbest} \"two\""),
                &format!("{nbest} \"\""),
                "ERROR YXHASHCLEAR is not supported by this brain",
                "ERROR YXSHOWINFO is not supported by this brain",
            ]
        );
    }

    #[test]
    fn yixin_board_starts_with_width_and_height() {
        let (out, _) = session("START 15 15\nSTART 15 16\nSTART 15 x\nSTART\nSTART 1 2 3\n");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "OK",
                "ERROR only square boards are supported, not 15x16",
                "ERROR START needs a board size, got \"15 x\"",
                "ERROR START needs a board size, got \"\"",
                "ERROR START needs a board size, got \"1 2 3\"",
            ]
        );
    }

    #[test]
    fn yixin_infos_reach_the_brain_and_bad_values_get_one_error_line() {
        let (out, heard) = session(
            "INFO max_node -1\nINFO max_node 0\nINFO max_node 30000\nINFO MAX_NODE 5\n\
             INFO max_node -5\nINFO max_node lots\nINFO max_node\nINFO max_depth 0\n\
             INFO max_depth 12\nINFO max_depth -1\nINFO show_detail 1\nINFO show_detail on\n\
             INFO caution_factor 1\nINFO thread_num 1\nINFO hash_size 0\nINFO nbestsym 0\n",
        );
        let node = "ERROR INFO max_node needs a whole number of nodes (-1 or 0 for no limit), got";
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                &format!("{node} \"-5\""),
                &format!("{node} \"lots\""),
                &format!("{node} \"\""),
                "ERROR INFO max_depth needs a whole number, got \"-1\"",
                "ERROR INFO show_detail needs a whole number, got \"on\"",
            ]
        );
        assert_eq!(
            heard,
            [
                "MaxNode(None)",
                "MaxNode(None)",
                "MaxNode(Some(30000))",
                "MaxNode(Some(5))",
                "MaxDepth(None)",
                "MaxDepth(Some(12))",
                "ShowDetail(1)",
            ]
        );
    }

    /// Runs a session whose input is `first`, then, once the brain says it
    /// is thinking (in `BEGIN`), `then`: the output lines and what the
    /// brain heard.
    fn mid_think(first: &str, then: &str) -> (Vec<String>, Vec<String>) {
        let (pieces, pipe) = mpsc::channel::<Vec<u8>>();
        let (thinking, thinks) = mpsc::channel();
        let mut brain = Fixed {
            thinking: Some(thinking),
            ..Fixed::default()
        };
        pieces.send(first.as_bytes().to_vec()).unwrap();
        let then = then.as_bytes().to_vec();
        let feeder = std::thread::spawn(move || {
            thinks.recv().expect("the brain thinks");
            pieces.send(then).unwrap();
            // The input ends here.
        });
        let input = io::BufReader::new(Pipe {
            pieces: pipe,
            piece: io::Cursor::new(Vec::new()),
        });
        let mut out = Vec::new();
        run(&mut brain, input, &mut out).unwrap();
        feeder.join().unwrap();
        let out = String::from_utf8(out).unwrap();
        (out.lines().map(str::to_string).collect(), brain.heard)
    }

    #[test]
    fn yxstop_reaches_a_brain_while_it_thinks_and_stops_what_came_before_it() {
        let (out, heard) = mid_think("START 15\nBEGIN\n", "TURN 1,1\nYXSTOP\nTURN 2,2\n");
        assert_eq!(
            out,
            [
                "OK",
                // Said while thinking, before the answer.
                "MESSAGE REALTIME BEST 7,7",
                "MESSAGE thinking",
                "7,7",
                "1,2",
                "1,2",
            ]
        );
        assert_eq!(
            heard,
            [
                "begin stopped true".to_string(),
                // Queued before the YXSTOP: asked to stop too.
                format!("turn {} stop true", at(1, 1)),
                // After it: thinks in peace.
                format!("turn {} stop false", at(2, 2)),
            ]
        );
    }

    #[test]
    fn end_stops_a_think_and_ends_the_session() {
        let (out, heard) = mid_think("START 15\nBEGIN\n", "END\nTURN 1,1\n");
        assert_eq!(
            out,
            ["OK", "MESSAGE REALTIME BEST 7,7", "MESSAGE thinking", "7,7"]
        );
        assert_eq!(heard, ["begin stopped true"]);
    }

    #[test]
    fn the_end_of_input_stops_nothing() {
        let (out, heard) = session("START 15\nTURN 1,1\nTURN 2,2");
        assert_eq!(out, "OK\n1,2\n1,2\n");
        assert_eq!(
            heard,
            [
                format!("turn {} stop false", at(1, 1)),
                format!("turn {} stop false", at(2, 2)),
            ]
        );
    }

    #[test]
    fn swap2_stones_come_in_move_order_and_answers_go_back_in_it() {
        let (out, heard) = session(
            "START 15\nSWAP2BOARD\nDONE\nSWAP2BOARD\n7,7\n8,8\n6,7\nDONE\nSWAP2BOARD\n1,1\n2,2\n3,3\n4,4\n5,5\nDONE\nSWAP2BOARD\n1,1\nDONE\nSWAP2BOARD\n1,1\n1,1\n1,1\nDONE\n",
        );
        let want = [
            "OK",
            // Black, white, black.
            "7,7 7,8 8,8",
            // The fourth stone (white), then the fifth (black).
            "2,2 1,1",
            "SWAP",
            "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got 1",
            "ERROR SWAP2BOARD: point 1,1 is already taken",
        ];
        assert_eq!(out.lines().collect::<Vec<_>>(), want);
        assert_eq!(heard, ["swap2 0 Open", "swap2 3 Answer", "swap2 5 Colour"]);
    }

    #[test]
    fn moves_blocks_and_infos_reach_the_brain_checked() {
        let input = "START 15\nBEGIN\nTURN 3,4\nTURN 15,0\nTURN x\nBOARD\n1,1,1\n2,2,2\n3,3,3\nDONE\nBOARD\n1,1,4\nDONE\nBOARD\n1,1,1\n";
        let (out, heard) = session(input);
        let want = [
            "OK",
            "MESSAGE thinking",
            "7,7",
            "1,2",
            "ERROR point 15,0 is off the board",
            "ERROR TURN: expected x,y but got \"x\"",
            "MESSAGE thinking",
            "7,7",
            "ERROR BOARD line \"1,1,4\": field must be 1, 2 or 3",
            "ERROR BOARD ended without DONE",
        ];
        assert_eq!(out.lines().collect::<Vec<_>>(), want);
        assert_eq!(heard[0], format!("turn {} stop false", at(3, 4)));
        assert!(heard[1].starts_with("board [(Point(16), Own)"));
        let (out, heard) =
            session("INFO timeout_turn 500\nINFO folder /x\nINFO rule x\nABOUT\nFOO\n");
        assert_eq!(
            out,
            "ERROR INFO rule needs a whole number, got \"x\"\nname=\"fixed\"\nUNKNOWN command FOO\n"
        );
        assert_eq!(heard, ["TimeoutTurn(500)"]);
    }
}
