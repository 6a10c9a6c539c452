//! The referee of one game: the Swap2 opening, the game phase and the close,
//! on the rules of the game core.

use std::borrow::Cow;
use std::fmt;

use inarow_core::swap2::{Phase, Role, Step, Swap, Swap2, Swap2Error};
use inarow_core::{Mnk, Outcome, Player, Point};
use inarow_protocol::koth::{self, AnswerError, SIZE};
use serde::{Deserialize, Serialize};

use inarow_sandbox::limits::{Limit, Limits};

use crate::shown;

/// Why a bot lost a game without being beaten on the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Fault {
    /// The answer could not be parsed.
    Syntax {
        /// The parser's complaint, quoting the answer.
        detail: String,
    },
    /// The answer named a point off the board.
    OffBoard {
        /// The column as written.
        x: i64,
        /// The row as written.
        y: i64,
    },
    /// The answer named a point that already holds a stone.
    Occupied {
        /// The point.
        point: [u8; 2],
    },
    /// The answer named the same point twice.
    Repeated {
        /// The point.
        point: [u8; 2],
    },
    /// No complete answer within the time limit.
    Timeout {
        /// The limit in seconds.
        seconds: f64,
    },
    /// The bot died with a failure status or a signal.
    Crash {
        /// How it ended.
        status: String,
    },
    /// The bot closed its output (or exited cleanly) without answering.
    Eof,
    /// The answer line grew past the limit without a newline.
    EndlessLine {
        /// The limit in bytes.
        limit: usize,
    },
    /// The bot's program could not be started.
    NoStart {
        /// The operating system's reason.
        error: String,
    },
    /// The bot used more memory than its limit, over all its processes.
    Memory {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bot ran more processes and threads at once than its limit.
    Processes {
        /// The limit.
        limit: u64,
    },
    /// One of the bot's processes used more CPU time than its limit.
    Cpu {
        /// The limit in seconds.
        seconds: u64,
    },
    /// The bot wrote a file past the file-size limit.
    FileSize {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bot's folder grew past its disk limit while it ran.
    Disk {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bot's sandbox could not be set up, so it never ran.
    Sandbox {
        /// What failed.
        detail: String,
    },
}

impl Fault {
    /// The fault with the text it carries from the bot (an answer quoted,
    /// how it ended, why it could not start) escaped by
    /// [`shown::escape`]: results files, SGF comments and the organiser's
    /// terminal all show it, and none of them may obey a bot's control
    /// characters.
    pub fn escaped(self) -> Fault {
        let text = |t: String| match shown::escape(&t) {
            Cow::Borrowed(_) => t,
            Cow::Owned(escaped) => escaped,
        };
        match self {
            Fault::Syntax { detail } => Fault::Syntax {
                detail: text(detail),
            },
            Fault::Crash { status } => Fault::Crash {
                status: text(status),
            },
            Fault::NoStart { error } => Fault::NoStart { error: text(error) },
            Fault::Sandbox { detail } => Fault::Sandbox {
                detail: text(detail),
            },
            other => other,
        }
    }

    /// The fault of a bot that went over `limit` of `limits`.
    pub fn over(limit: Limit, limits: &Limits) -> Fault {
        let value = limits.value(limit);
        match limit {
            Limit::Memory => Fault::Memory { limit: value },
            Limit::Processes => Fault::Processes { limit: value },
            Limit::Cpu => Fault::Cpu { seconds: value },
            Limit::FileSize => Fault::FileSize { limit: value },
            Limit::Disk => Fault::Disk { limit: value },
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Syntax { detail } => write!(f, "bad syntax: {detail}"),
            Fault::OffBoard { x, y } => write!(f, "off the board: ({x},{y})"),
            Fault::Occupied { point } => write!(f, "occupied: ({},{})", point[0], point[1]),
            Fault::Repeated { point } => {
                write!(f, "repeated point: ({},{})", point[0], point[1])
            }
            Fault::Timeout { seconds } => write!(f, "timeout: no answer within {seconds} s"),
            Fault::Crash { status } => write!(f, "crash: {status}"),
            Fault::Eof => write!(f, "EOF: closed its output without answering"),
            Fault::EndlessLine { limit } => {
                write!(f, "endless line: more than {limit} bytes without a newline")
            }
            Fault::NoStart { error } => write!(f, "could not start: {error}"),
            Fault::Memory { limit } => write!(f, "memory: {}", Limit::Memory.describe(*limit)),
            Fault::Processes { limit } => {
                write!(f, "processes: {}", Limit::Processes.describe(*limit))
            }
            Fault::Cpu { seconds } => write!(f, "cpu: {}", Limit::Cpu.describe(*seconds)),
            Fault::FileSize { limit } => {
                write!(f, "file size: {}", Limit::FileSize.describe(*limit))
            }
            Fault::Disk { limit } => write!(f, "disk: {}", Limit::Disk.describe(*limit)),
            Fault::Sandbox { detail } => write!(f, "sandbox: {detail}"),
        }
    }
}

impl From<AnswerError> for Fault {
    fn from(e: AnswerError) -> Fault {
        match e {
            AnswerError::OffBoard { x, y } => Fault::OffBoard { x, y },
            syntax => Fault::Syntax {
                detail: syntax.to_string(),
            },
        }
    }
}

/// One side of a game as the referee sees it: a bot process, or a built-in
/// player in `-d` mode and in tests.
pub trait Contestant {
    /// The name used in `EXIT NAME` and the records.
    fn name(&self) -> &str;
    /// Sends a prompt and returns the answer line (without its newline).
    fn ask(&mut self, prompt: &str) -> Result<String, Fault>;
    /// Sends the closing `EXIT` line; no answer is read.
    fn exit(&mut self, line: &str);
    /// Ends the contestant once its grace period is over.
    fn finish(&mut self);
    /// A limit the contestant went over during the game, as the fault it
    /// forfeits for; asked before `EXIT` and again after `finish`.
    fn went_over(&mut self) -> Option<Fault> {
        None
    }
}

/// Which bot of a game: A opens, B answers the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    /// The bot that opens.
    A,
    /// The bot that answers the opening.
    B,
}

/// A stone's colour as the records write it: `B` or `W`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// `B`, black (the core's `Player::X`), who moves first.
    #[serde(rename = "B")]
    Black,
    /// `W`, white (the core's `Player::O`).
    #[serde(rename = "W")]
    White,
}

impl Colour {
    /// The colour's letter: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Colour::Black => 'B',
            Colour::White => 'W',
        }
    }

    /// The colour in words: `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }

    /// The game core's player of this colour.
    pub fn player(self) -> Player {
        match self {
            Colour::Black => Player::X,
            Colour::White => Player::O,
        }
    }
}

impl From<Player> for Colour {
    fn from(player: Player) -> Colour {
        match player {
            Player::X => Colour::Black,
            Player::O => Colour::White,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// B's answer to the Swap2 opening as the records name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// `black`: B takes black.
    Black,
    /// `white`: B takes white and places a white stone.
    White,
    /// `choose`: B places two stones and A chooses the colours.
    Choose,
}

impl Answer {
    /// The answer as the records write it.
    pub fn name(self) -> &'static str {
        match self {
            Answer::Black => "black",
            Answer::White => "white",
            Answer::Choose => "choose",
        }
    }
}

impl From<Swap> for Answer {
    fn from(swap: Swap) -> Answer {
        match swap {
            Swap::Black => Answer::Black,
            Swap::White(_) => Answer::White,
            Swap::Place { .. } => Answer::Choose,
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended, as the records name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// `five`: a five on the board.
    #[serde(rename = "five")]
    Five,
    /// `full board`: the board full with no five.
    #[serde(rename = "full board")]
    FullBoard,
    /// `forfeit`: a bot lost through a fault.
    #[serde(rename = "forfeit")]
    Forfeit,
    /// `resigned`: a player gave up (the web page's games only; a
    /// tournament's bots cannot resign).
    #[serde(rename = "resigned")]
    Resigned,
}

impl Ending {
    /// The ending as the records write it.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Five => "five",
            Ending::FullBoard => "full board",
            Ending::Forfeit => "forfeit",
            Ending::Resigned => "resigned",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One stone as it was put on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stone {
    /// Who put it there.
    pub by: Seat,
    /// `B` or `W`.
    pub colour: Colour,
    /// Column.
    pub x: u8,
    /// Row.
    pub y: u8,
}

/// Everything that happened in one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Position in the tournament's schedule, from 0.
    pub index: usize,
    /// The bot that opened.
    pub a: String,
    /// The bot that answered the opening.
    pub b: String,
    /// The seed handed to A.
    pub a_seed: u64,
    /// The seed handed to B.
    pub b_seed: u64,
    /// B's answer to the opening: `black`, `white` or `choose`, once given.
    pub swap: Option<Answer>,
    /// Who played black, once colours were settled.
    pub black: Option<String>,
    /// Who played white, once colours were settled.
    pub white: Option<String>,
    /// Every stone in the order it was placed, opening stones first.
    pub stones: Vec<Stone>,
    /// The winner's name; `None` for a tie.
    pub winner: Option<String>,
    /// How the game ended: `five`, `full board` or `forfeit` (`None`
    /// while it goes on).
    pub reason: Option<Ending>,
    /// The bot that forfeited and why.
    pub forfeit: Option<Forfeit>,
    /// The board's side: 15 in every judge game (and then not written, so
    /// records read and write as before); the web page plays 5 to 20.
    #[serde(default = "fifteen", skip_serializing_if = "is_fifteen")]
    pub size: u8,
}

fn fifteen() -> u8 {
    SIZE as u8
}

fn is_fifteen(size: &u8) -> bool {
    *size == fifteen()
}

/// A lost game through a fault rather than on the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The bot at fault.
    pub by: String,
    /// What it did.
    pub fault: Fault,
    /// The fault in words.
    pub reason: String,
}

impl GameRecord {
    /// The record of a game about to start between `a`, who opens, and
    /// `b`: the one builder of records, which the referee and the web
    /// page's game both fill through [`lay`](GameRecord::lay),
    /// [`answer`](GameRecord::answer), [`colours`](GameRecord::colours) and
    /// the endings ([`end`](GameRecord::end), [`forfeit`](GameRecord::forfeit),
    /// [`resign`](GameRecord::resign)).
    pub fn new(a: &str, b: &str) -> GameRecord {
        GameRecord::sized(a, b, SIZE)
    }

    /// [`new`](GameRecord::new) on a board `size` points wide (the judge
    /// plays 15; the web page plays 5 to 20).
    pub fn sized(a: &str, b: &str, size: usize) -> GameRecord {
        GameRecord {
            index: 0,
            a: a.to_string(),
            b: b.to_string(),
            a_seed: 0,
            b_seed: 0,
            swap: None,
            black: None,
            white: None,
            stones: Vec::new(),
            winner: None,
            reason: None,
            forfeit: None,
            size: size as u8,
        }
    }

    /// The name of the bot in `seat`.
    pub fn name(&self, seat: Seat) -> &str {
        match seat {
            Seat::A => &self.a,
            Seat::B => &self.b,
        }
    }

    /// The loser's name, if someone won.
    pub fn loser(&self) -> Option<&str> {
        let winner = self.winner.as_deref()?;
        Some(if winner == self.a { &self.b } else { &self.a })
    }

    /// Notes a stone of `colour` put at `point` by the bot in `seat`.
    pub fn lay(&mut self, seat: Seat, point: Point, colour: Player) {
        let (x, y) = point.xy(self.size as usize);
        let (x, y) = (x as u8, y as u8);
        self.stones.push(Stone {
            by: seat,
            colour: colour.into(),
            x,
            y,
        });
    }

    /// Notes B's answer to the opening.
    pub fn answer(&mut self, swap: Swap) {
        self.swap = Some(swap.into());
    }

    /// Notes who plays black and white, once `swap2` has settled it.
    pub fn colours(&mut self, swap2: &Swap2) {
        let name = |colour| {
            let role = swap2.role(colour)?;
            Some(self.name(role.into()).to_string())
        };
        let (black, white) = (name(Player::X), name(Player::O));
        if black.is_some() {
            self.black = black;
            self.white = white;
        }
    }

    /// Notes how the game ended on the board: a five, or the board full.
    pub fn end(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win(colour) => {
                self.winner = match colour {
                    Player::X => self.black.clone(),
                    Player::O => self.white.clone(),
                };
                self.reason = Some(Ending::Five);
            }
            Outcome::Draw => self.reason = Some(Ending::FullBoard),
        }
    }

    /// Notes that the bot in `seat` lost the game through `fault`, its
    /// text escaped ([`Fault::escaped`]): every fault of a record passes
    /// here, whoever built it.
    pub fn forfeit(&mut self, seat: Seat, fault: Fault) {
        let fault = fault.escaped();
        self.forfeit = Some(Forfeit {
            by: self.name(seat).to_string(),
            reason: fault.to_string(),
            fault,
        });
        self.winner = Some(self.name(seat.other()).to_string());
        self.reason = Some(Ending::Forfeit);
    }

    /// Notes that the player in `seat` resigned: the other one wins.
    pub fn resign(&mut self, seat: Seat) {
        self.winner = Some(self.name(seat.other()).to_string());
        self.reason = Some(Ending::Resigned);
    }
}

impl Seat {
    /// The other seat of the game.
    pub fn other(self) -> Seat {
        match self {
            Seat::A => Seat::B,
            Seat::B => Seat::A,
        }
    }
}

/// A point as the records keep it: `[X, Y]`, column then row.
fn xy(p: Point) -> [u8; 2] {
    let (x, y) = p.xy(SIZE);
    [x as u8, y as u8]
}

impl From<Role> for Seat {
    fn from(role: Role) -> Seat {
        match role {
            Role::Opener => Seat::A,
            Role::Answerer => Seat::B,
        }
    }
}

/// The referee of one game while it runs: the Swap2 game, its record and
/// the two seats.
struct Referee<'a> {
    swap2: Swap2,
    record: GameRecord,
    seats: [&'a mut dyn Contestant; 2],
    on_stone: OnStone<'a>,
}

/// Sees each stone as it is put on the board: who put it, where, which colour.
pub type OnStone<'a> = &'a mut dyn FnMut(Seat, Point, Player);

impl Referee<'_> {
    fn ask(&mut self, seat: Seat, prompt: &str) -> Result<String, (Seat, Fault)> {
        self.seats[seat as usize].ask(prompt).map_err(|f| (seat, f))
    }

    /// Takes one step of `role` into the game and its record.
    fn apply(&mut self, role: Role, step: Step) -> Result<(), Fault> {
        let before = self.swap2.stones().len();
        let refused = self.swap2.apply(role, step).err();
        let mut laid = self.swap2.stones()[before..].to_vec();
        if let (Some(Swap2Error::Occupied(p)), Step::Answer(Swap::Place { black, white })) =
            (refused, step)
        {
            // The referee has always laid an answer's stones one by one: a
            // black stone laid before its white one was found taken stays
            // in the record.
            if p == white {
                laid.push((black, Player::X));
            }
        }
        for (p, colour) in laid {
            self.record.lay(role.into(), p, colour);
            (self.on_stone)(role.into(), p, colour);
        }
        match refused {
            None => Ok(()),
            Some(Swap2Error::Occupied(p)) => Err(Fault::Occupied { point: xy(p) }),
            Some(Swap2Error::Repeated(p)) => Err(Fault::Repeated { point: xy(p) }),
            Some(e) => unreachable!("the referee asks each player in turn, on the board: {e}"),
        }
    }

    /// Plays the opening and the game phase; `Err` names the bot at fault.
    fn play(&mut self) -> Result<Option<Outcome>, (Seat, Fault)> {
        while let Some(prompt) = koth::prompt(&self.swap2) {
            let phase = self.swap2.phase();
            let role = self
                .swap2
                .to_act()
                .expect("a game going on has a player to act");
            let seat = Seat::from(role);
            let answer = self.ask(seat, &prompt)?;
            let step = koth::parse_step(phase, &answer).map_err(|e| (seat, e.into()))?;
            self.apply(role, step).map_err(|f| (seat, f))?;
            if let Step::Answer(swap) = step {
                self.record.answer(swap);
            }
            if phase != Phase::Play {
                self.record.colours(&self.swap2);
            }
        }
        Ok(self.swap2.outcome())
    }
}

/// Referees one game on `rules` (an empty board: gomoku or exact-five gomoku)
/// between `a`, who opens, and `b`. Every way a bot can fail costs it the
/// game; both bots always get their `EXIT` line and are finished.
pub fn play_game(rules: &Mnk, a: &mut dyn Contestant, b: &mut dyn Contestant) -> GameRecord {
    play_game_watched(rules, a, b, &mut |_, _, _| {})
}

/// [`play_game`], showing every stone to `on_stone` as it is put down.
pub fn play_game_watched(
    rules: &Mnk,
    a: &mut dyn Contestant,
    b: &mut dyn Contestant,
    on_stone: OnStone<'_>,
) -> GameRecord {
    let record = GameRecord::new(a.name(), b.name());
    let mut referee = Referee {
        swap2: Swap2::new(rules),
        record,
        seats: [a, b],
        on_stone,
    };
    let mut result = referee.play();
    // A bot over a limit loses even a game it won on the board.
    if result.is_ok() {
        if let Some(over) = over_limit(&mut referee.seats) {
            result = Err(over);
        }
    }
    let mut record = referee.record;
    settle(&mut record, result);
    let line = koth::exit_line(record.winner.as_deref());
    for seat in referee.seats.iter_mut() {
        seat.exit(&line);
    }
    for seat in referee.seats.iter_mut() {
        seat.finish();
    }
    // The grace period after `EXIT` is still the game's.
    if record.forfeit.is_none() {
        if let Some(over) = over_limit(&mut referee.seats) {
            settle(&mut record, Err(over));
        }
    }
    record
}

/// The first seat (A before B) that went over a limit, and its fault.
fn over_limit(seats: &mut [&mut dyn Contestant; 2]) -> Option<(Seat, Fault)> {
    [Seat::A, Seat::B]
        .into_iter()
        .find_map(|seat| Some((seat, seats[seat as usize].went_over()?)))
}

/// Writes the outcome of the game into its record.
fn settle(record: &mut GameRecord, result: Result<Option<Outcome>, (Seat, Fault)>) {
    match result {
        Ok(Some(outcome)) => record.end(outcome),
        Ok(None) => record.end(Outcome::Draw),
        Err((seat, fault)) => record.forfeit(seat, fault),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use inarow_agents::house::HouseBot;

    use super::*;
    use crate::local::Local;

    /// Answers from a script and remembers every line it heard.
    struct Scripted {
        name: &'static str,
        answers: VecDeque<&'static str>,
        heard: Vec<String>,
        finished: bool,
    }

    fn scripted(name: &'static str, answers: &[&'static str]) -> Scripted {
        Scripted {
            name,
            answers: answers.iter().copied().collect(),
            heard: Vec::new(),
            finished: false,
        }
    }

    impl Contestant for Scripted {
        fn name(&self) -> &str {
            self.name
        }
        fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
            self.heard.push(prompt.to_string());
            self.answers.pop_front().map(String::from).ok_or(Fault::Eof)
        }
        fn exit(&mut self, line: &str) {
            self.heard.push(line.to_string());
        }
        fn finish(&mut self) {
            self.finished = true;
        }
    }

    #[test]
    fn five_in_a_row_wins_for_the_bot_playing_that_colour() {
        // A: black (0,0),(1,0), white (0,9); B plays black; white (A) moves first.
        let mut a = scripted("ay", &["(0,0) (1,0) (0,9)", "(0,5)", "(0,6)", "(0,7)"]);
        let mut b = scripted("bee", &["B", "(2,0)", "(3,0)", "(4,0)"]);
        let record = play_game(&Mnk::gomoku(), &mut a, &mut b);
        assert_eq!(record.winner.as_deref(), Some("bee"));
        assert_eq!(record.reason, Some(Ending::Five));
        assert_eq!(record.black.as_deref(), Some("bee"));
        assert_eq!(record.stones.len(), 9);
        assert_eq!(a.heard[0], "A []");
        assert_eq!(b.heard[0], r#"B [((0,0),"B"),((0,9),"W"),((1,0),"B")]"#);
        assert!(a.heard[1].starts_with("1 [") && b.heard[1].starts_with("2 ["));
        assert!(a.heard[3].starts_with("5 ["));
        assert_eq!(a.heard.last().unwrap(), "EXIT bee");
        assert_eq!(b.heard.last().unwrap(), "EXIT bee");
        assert!(a.finished && b.finished);
    }

    #[test]
    fn an_overline_wins_only_under_the_freestyle_rule() {
        // Black fills (0,0)..(5,0) except (2,0), then closes the gap: six in a row.
        let a_script = [
            "(0,0) (1,0) (0,9)",
            "(10,10)",
            "(12,12)",
            "(10,12)",
            "(12,10)",
            "(14,14)",
        ];
        let b_script = ["B", "(3,0)", "(4,0)", "(5,0)", "(2,0)", "(9,9)"];
        let mut a = scripted("ay", &a_script);
        let mut b = scripted("bee", &b_script);
        let record = play_game(&Mnk::gomoku(), &mut a, &mut b);
        assert_eq!(
            (record.winner.as_deref(), record.stones.len()),
            (Some("bee"), 11)
        );
        let mut a = scripted("ay", &a_script);
        let mut b = scripted("bee", &b_script);
        let record = play_game(&Mnk::gomoku_exact(), &mut a, &mut b);
        // No five: the game goes on until the scripts run dry and A forfeits.
        assert_eq!(record.forfeit.map(|f| f.by), Some("ay".to_string()));
    }

    #[test]
    fn a_forfeit_keeps_no_control_character_of_the_bot() {
        let mut a = scripted("ay", &["\x1b]52;c;cHduZWQ=\x07 \u{202e}"]);
        let mut b = scripted("bee", &[]);
        let record = play_game(&Mnk::gomoku(), &mut a, &mut b);
        let forfeit = record.forfeit.unwrap();
        assert_eq!(forfeit.by, "ay");
        let Fault::Syntax { detail } = &forfeit.fault else {
            panic!("{:?}", forfeit.fault)
        };
        for text in [detail, &forfeit.reason] {
            assert!(!text.contains(['\x1b', '\x07', '\u{202e}']), "{text}");
            assert!(text.contains("]52;c;cHduZWQ="), "{text}");
        }
        // Whoever built the fault, the record holds it escaped.
        let mut record = GameRecord::new("ay", "bee");
        let faults = [
            Fault::Crash {
                status: "\x1b[2J".into(),
            },
            Fault::NoStart {
                error: "\u{9b}2J".into(),
            },
            Fault::Sandbox {
                detail: "\x07".into(),
            },
            Fault::Syntax {
                detail: "\u{2066}".into(),
            },
        ];
        for fault in faults {
            record.forfeit(Seat::A, fault);
            let kept = record.forfeit.as_ref().unwrap();
            let json = serde_json::to_string(kept).unwrap();
            assert!(!kept.reason.contains(|c: char| c.is_control()), "{json}");
            assert!(!json.contains(['\u{9b}', '\u{2066}']), "{json}");
            assert!(
                !json.contains("\\u001b") && !json.contains("\\u0007"),
                "{json}"
            );
        }
    }

    #[test]
    fn the_house_bot_plays_itself_to_the_end() {
        for seed in 0..4 {
            let mut a = Local::new("one", HouseBot::new(seed));
            let mut b = Local::new("two", HouseBot::new(seed + 100));
            let record = play_game(&Mnk::gomoku(), &mut a, &mut b);
            assert!(record.forfeit.is_none(), "{:?}", record.forfeit);
            assert!(matches!(
                record.reason,
                Some(Ending::Five | Ending::FullBoard)
            ));
        }
    }
}
