//! The Gomocup brain protocol ("new protocol" plus the Swap2 extension),
//! over any line reader and writer so that both binaries and the tests
//! share it.
//!
//! Coordinates are `x,y` with `x` the column and `y` the row, from 0. The
//! brain's own stones are kept as black and the opponent's as white: in
//! freestyle gomoku the colours differ only in who moves, and the brain is
//! always the side to move when asked to think.
//!
//! Decisions where the protocol leaves room:
//! * Board sizes 5 to 20 are accepted (`START`; `RECTSTART` only when square).
//! * Only freestyle is played; `INFO rule` with exact five or renju set is
//!   answered with an `ERROR` line, and play continues as freestyle.
//! * `BOARD` field 3 (a stone of a finished line in a continuous game) takes
//!   the point out of play for both sides.
//! * Every malformed or impossible command gets one `ERROR <reason>` line;
//!   unknown commands get `UNKNOWN <command>`.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use inarow_core::Player;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::board::Board;
use crate::opening::{self, Answer};
use crate::pattern::{BLACK, WALL, WHITE};
use crate::search::{Found, Limits, Options, Searcher};
use crate::time::{self, Clock};

/// Settings of a brain session.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Seed for the opening's random choices.
    pub seed: u64,
    /// Search options.
    pub options: Options,
    /// Print a `MESSAGE` line with the search figures before each move.
    pub messages: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 0,
            options: Options::default(),
            messages: true,
        }
    }
}

/// The brain's state between commands.
pub struct Brain {
    settings: Settings,
    board: Option<Board>,
    searcher: Searcher,
    rng: ChaCha8Rng,
    turn: Option<Duration>,
    match_total: Option<Duration>,
    time_left: Option<Duration>,
    rule: u32,
    max_memory: Option<usize>,
}

/// What one command produced.
enum Step {
    Lines(Vec<String>),
    Quit,
}

fn ok(line: impl Into<String>) -> Step {
    Step::Lines(vec![line.into()])
}

fn error(reason: impl std::fmt::Display) -> Step {
    Step::Lines(vec![format!("ERROR {reason}")])
}

/// Reads `x,y` (spaces allowed around the numbers).
fn parse_xy(text: &str) -> Result<(usize, usize), String> {
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

impl Brain {
    /// A brain with no board yet (the manager starts with `START`).
    pub fn new(settings: Settings) -> Brain {
        Brain {
            settings,
            board: None,
            searcher: Searcher::new(settings.options),
            rng: ChaCha8Rng::seed_from_u64(settings.seed),
            turn: None,
            match_total: None,
            time_left: None,
            rule: 0,
            max_memory: None,
        }
    }

    fn budget(&self) -> Duration {
        let match_left = self.time_left.or(self.match_total);
        time::budget(Clock {
            turn: self.turn,
            match_left,
        })
    }

    fn board(&mut self) -> Result<&mut Board, String> {
        self.board
            .as_mut()
            .ok_or_else(|| "no board yet: send START first".to_string())
    }

    fn start(&mut self, size: usize) -> Step {
        match Board::new(size) {
            Ok(b) => {
                self.board = Some(b);
                self.searcher.clear();
                ok("OK")
            }
            Err(e) => error(e),
        }
    }

    /// Thinks for the brain (black, the side to move) and plays the move.
    fn think(&mut self) -> Step {
        let budget = self.budget();
        let Some(b) = self.board.as_mut() else {
            return error("no board yet: send START first");
        };
        if b.last_move_won() || has_five(b) {
            return error("the game is already over");
        }
        if b.empty_count() == 0 {
            return error("the board is full");
        }
        b.set_to_move(Player::X);
        let found = self.searcher.search(b, Limits::time(budget));
        let (x, y) = b.xy(found.best);
        b.play_unchecked(found.best);
        b.set_to_move(Player::X);
        let mut lines = Vec::new();
        if self.settings.messages {
            lines.push(message(&found));
        }
        lines.push(format!("{x},{y}"));
        Step::Lines(lines)
    }

    /// Handles one command; `more` supplies the lines of `BOARD` and
    /// `SWAP2BOARD` blocks.
    fn command(&mut self, line: &str, more: &mut dyn FnMut() -> Option<String>) -> Step {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_uppercase().as_str() {
            "START" => match rest.parse::<usize>() {
                Ok(n) => self.start(n),
                Err(_) => error(format!("START needs a board size, got {rest:?}")),
            },
            "RECTSTART" => match parse_xy(rest) {
                Ok((w, h)) if w == h => self.start(w),
                Ok((w, h)) => error(format!("only square boards are supported, not {w}x{h}")),
                Err(e) => error(format!("RECTSTART: {e}")),
            },
            "RESTART" => match self.board.as_ref().map(Board::size) {
                Some(n) => self.start(n),
                None => error("no board yet: send START first"),
            },
            "BEGIN" => match self.board() {
                Ok(b) if b.stones() > 0 => error("BEGIN needs an empty board"),
                Ok(_) => self.think(),
                Err(e) => error(e),
            },
            "TURN" => {
                let xy = parse_xy(rest);
                match (self.board(), xy) {
                    (Err(e), _) => error(e),
                    (_, Err(e)) => error(format!("TURN: {e}")),
                    (Ok(b), Ok((x, y))) => match b.place(x, y, WHITE) {
                        Ok(()) => self.think(),
                        Err(e) => error(e),
                    },
                }
            }
            "BOARD" => self.board_block(more),
            "SWAP2BOARD" => self.swap2(more),
            "TAKEBACK" => {
                let xy = parse_xy(rest);
                match (self.board(), xy) {
                    (Err(e), _) => error(e),
                    (_, Err(e)) => error(format!("TAKEBACK: {e}")),
                    (Ok(b), Ok((x, y))) => match b.checked_index(x, y) {
                        Err(e) => error(e),
                        Ok(i) if b.is_empty(i) => {
                            error(format!("no stone on {x},{y} to take back"))
                        }
                        Ok(i) => {
                            b.remove(i);
                            b.set_to_move(Player::X);
                            ok("OK")
                        }
                    },
                }
            }
            "INFO" => self.info(rest),
            "ABOUT" => ok(format!(
                "name=\"inarow\", version=\"{}\", author=\"inarow developers\", country=\"-\", www=\"-\"",
                env!("CARGO_PKG_VERSION")
            )),
            "END" => Step::Quit,
            "" => Step::Lines(Vec::new()),
            other => ok(format!("UNKNOWN command {other}")),
        }
    }

    fn info(&mut self, rest: &str) -> Step {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        let number = || value.parse::<u64>();
        let key = key.to_ascii_lowercase();
        let numeric = matches!(
            key.as_str(),
            "timeout_turn" | "timeout_match" | "time_left" | "max_memory" | "game_type" | "rule"
        );
        if !numeric {
            // Other keys (folder, evaluate, ...) are information we do not use.
            return Step::Lines(Vec::new());
        }
        let Ok(n) = number() else {
            return error(format!("INFO {key} needs a whole number, got {value:?}"));
        };
        match key.as_str() {
            "timeout_turn" => self.turn = Some(Duration::from_millis(n)),
            // 0 means no limit for the match.
            "timeout_match" => self.match_total = (n > 0).then(|| Duration::from_millis(n)),
            "time_left" => self.time_left = Some(Duration::from_millis(n)),
            "max_memory" => {
                let bytes = if n == 0 { None } else { Some(n as usize) };
                if bytes != self.max_memory {
                    self.max_memory = bytes;
                    let mut options = self.settings.options;
                    if let Some(m) = bytes {
                        // Half for the table, the rest for everything else.
                        options.tt_bytes = options.tt_bytes.min(m / 2);
                    }
                    self.searcher = Searcher::new(options);
                }
            }
            "rule" => {
                self.rule = n as u32;
                if n & 1 != 0 || n & 4 != 0 {
                    return error(format!(
                        "rule {n} is not supported: this brain plays freestyle (five or more wins)"
                    ));
                }
            }
            _ => {}
        }
        Step::Lines(Vec::new())
    }

    /// `BOARD`: `x,y,field` lines up to `DONE`, then think.
    fn board_block(&mut self, more: &mut dyn FnMut() -> Option<String>) -> Step {
        let mut stones = Vec::new();
        let mut problem: Option<String> = None;
        loop {
            let Some(line) = more() else {
                return error("BOARD ended without DONE");
            };
            let line = line.trim();
            if line.eq_ignore_ascii_case("DONE") {
                break;
            }
            if line.is_empty() || problem.is_some() {
                continue;
            }
            match line
                .rsplit_once(',')
                .map(|(xy, f)| (parse_xy(xy), f.trim()))
            {
                Some((Ok((x, y)), f)) => match f {
                    "1" => stones.push((x, y, BLACK)),
                    "2" => stones.push((x, y, WHITE)),
                    "3" => stones.push((x, y, WALL)),
                    _ => problem = Some(format!("BOARD line {line:?}: field must be 1, 2 or 3")),
                },
                _ => problem = Some(format!("BOARD line {line:?}: expected x,y,field")),
            }
        }
        if let Some(p) = problem {
            return error(p);
        }
        let size = match self.board.as_ref() {
            Some(b) => b.size(),
            None => return error("no board yet: send START first"),
        };
        let mut b = Board::new(size).expect("size was accepted");
        for (x, y, v) in stones {
            if let Err(e) = b.place(x, y, v) {
                return error(format!("BOARD: {e}"));
            }
        }
        self.board = Some(b);
        self.think()
    }

    /// `SWAP2BOARD`: stones in move order (black, white, black, white,
    /// black) up to `DONE`; answer by the number of stones.
    fn swap2(&mut self, more: &mut dyn FnMut() -> Option<String>) -> Step {
        let mut points = Vec::new();
        let mut problem = None;
        loop {
            let Some(line) = more() else {
                return error("SWAP2BOARD ended without DONE");
            };
            let line = line.trim();
            if line.eq_ignore_ascii_case("DONE") {
                break;
            }
            if line.is_empty() || problem.is_some() {
                continue;
            }
            match parse_xy(line) {
                Ok(xy) => points.push(xy),
                Err(e) => problem = Some(format!("SWAP2BOARD: {e}")),
            }
        }
        if let Some(p) = problem {
            return error(p);
        }
        let Some(size) = self.board.as_ref().map(Board::size) else {
            return error("no board yet: send START first");
        };
        let mut b = Board::new(size).expect("size was accepted");
        for (k, &(x, y)) in points.iter().enumerate() {
            if let Err(e) = b.place(x, y, if k % 2 == 0 { BLACK } else { WHITE }) {
                return error(format!("SWAP2BOARD: {e}"));
            }
        }
        b.set_to_move(if points.len() % 2 == 0 {
            Player::X
        } else {
            Player::O
        });
        let budget = self.budget();
        let fmt = |b: &Board, i: usize| {
            let (x, y) = b.xy(i);
            format!("{x},{y}")
        };
        match points.len() {
            0 => {
                let [b1, b2, w] = opening::open(
                    size,
                    &mut self.searcher,
                    &mut self.rng,
                    Limits::time(budget),
                );
                // Move order: black, white, black.
                ok(format!(
                    "{},{} {},{} {},{}",
                    b1.0, b1.1, w.0, w.1, b2.0, b2.1
                ))
            }
            3 => match opening::answer(&mut b, &mut self.searcher, Limits::time(budget)) {
                Answer::Black => ok("SWAP"),
                Answer::White(w) => ok(fmt(&b, w)),
                // Move order: the fourth stone (white), then the fifth (black).
                Answer::Place { black, white } => {
                    ok(format!("{} {}", fmt(&b, white), fmt(&b, black)))
                }
            },
            5 => {
                let (colour, found) =
                    opening::choose(&mut b, &mut self.searcher, Limits::time(budget));
                if colour == b.to_move() {
                    ok(fmt(&b, found.best))
                } else {
                    ok("SWAP")
                }
            }
            n => error(format!("SWAP2BOARD needs 0, 3 or 5 stones, got {n}")),
        }
    }
}

fn has_five(b: &Board) -> bool {
    let mut copy = b.clone();
    // Any stone of a five shows it as the last move won; check each stone.
    let stones: Vec<u16> = b.history().to_vec();
    stones.iter().rev().any(|_| {
        let won = copy.last_move_won();
        copy.take_back();
        won
    })
}

fn message(found: &Found) -> String {
    format!(
        "MESSAGE depth {} score {} nodes {} time {} ms{}",
        found.depth,
        found.score,
        found.nodes,
        found.elapsed.as_millis(),
        if found.vcf { " (VCF)" } else { "" }
    )
}

/// Runs a brain session: reads commands from `input` until `END` or the end
/// of input, writing answers to `output` (flushed after each command).
pub fn run<R: BufRead, W: Write>(input: R, mut output: W, settings: Settings) -> io::Result<()> {
    let mut brain = Brain::new(settings);
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
        let step = brain.command(&line, &mut next);
        match step {
            Step::Quit => break,
            Step::Lines(out) => {
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
