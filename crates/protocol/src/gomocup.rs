//! The Gomocup brain protocol ("new protocol" plus the Swap2 extension),
//! both sides: [`run`] is the brain's loop, reading a manager's commands
//! and answering them with a [`Brain`]; [`manager`] writes the commands and
//! reads a brain's replies.
//!
//! Coordinates are `x,y` with `x` the column and `y` the row, from 0.
//!
//! Decisions where the protocol leaves room, on the brain's side:
//! * Only square boards are played (`RECTSTART` only when square).
//! * `BOARD` and `SWAP2BOARD` blocks are checked here: every point on the
//!   board and named once; a brain sees only valid blocks.
//! * Every malformed or impossible command gets one `ERROR <reason>` line;
//!   unknown commands get `UNKNOWN <command>`.
//! * Of the Yixin-board extensions, `YXBOARD` (a `BOARD` block that sets
//!   the position without thinking; no answer unless it is refused) and
//!   `YXSHOWFORBID` (`FORBID `, black's forbidden points as `xxyy` when
//!   black is to move under renju, then `.`) are read here.

use std::io::{self, BufRead, Write};

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
        "START" => match rest.parse::<usize>() {
            Ok(n) => start(brain, n),
            Err(_) => error(format!("START needs a board size, got {rest:?}")),
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
        // Other keys (folder, evaluate, ...) are information we do not use.
        _ => return Output::Lines(Vec::new()),
    };
    let Ok(n) = value.parse::<u64>() else {
        return error(format!("INFO {key} needs a whole number, got {value:?}"));
    };
    lines(brain.info(info(n)).map(|()| Vec::new()))
}

/// Runs a brain session: reads commands from `input` until `END` or the end
/// of input, writing answers to `output` (flushed after each command).
pub fn run<B: Brain + ?Sized, R: BufRead, W: Write>(
    brain: &mut B,
    input: R,
    mut output: W,
) -> io::Result<()> {
    let mut lines = input.lines();
    let mut failure = None;
    let mut next = || match lines.next() {
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => {
            failure = Some(e);
            None
        }
        None => None,
    };
    while let Some(line) = next() {
        match command(brain, &line, &mut next) {
            Output::Quit => break,
            Output::Lines(out) => {
                for l in out {
                    writeln!(output, "{l}")?;
                }
                output.flush()?;
            }
        }
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A brain that answers from fixed points and remembers what it heard.
    #[derive(Default)]
    struct Fixed {
        size: Option<usize>,
        heard: Vec<String>,
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
            Ok(Decision {
                point: at(7, 7),
                message: Some("thinking".into()),
            })
        }
        fn turn(&mut self, point: Point) -> Result<Decision, String> {
            self.heard.push(format!("turn {point}"));
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
    }

    fn session(input: &str) -> (String, Vec<String>) {
        let mut brain = Fixed::default();
        let mut out = Vec::new();
        run(&mut brain, input.as_bytes(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), brain.heard)
    }

    #[test]
    fn commands_before_start_need_a_board() {
        let (out, _) = session("BEGIN\nTURN 1,1\nTAKEBACK x\nRESTART\nBOARD\nDONE\nEND\n");
        assert_eq!(out, "ERROR no board yet: send START first\n".repeat(5));
    }

    #[test]
    fn yixin_commands_a_brain_does_not_know_get_one_error_line() {
        let (out, _) = session(
            "YXSHOWFORBID\nSTART 15\nYXBOARD\n1,1,1\nDONE\nYXSHOWFORBID\nYXBOARD\n1,1\nDONE\nEND\n",
        );
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "ERROR no board yet: send START first",
                "OK",
                "ERROR YXBOARD: not supported by this brain",
                "ERROR YXSHOWFORBID is not supported by this brain",
                "ERROR YXBOARD line \"1,1\": expected x,y,field",
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
        assert_eq!(heard[0], format!("turn {}", at(3, 4)));
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
