//! The shared gomoku game of the page: the person against the engine,
//! driven through the Swap2 phase machine of the game core.

use std::fmt;
use std::time::{Duration, Instant};

use inarow_core::renju::Forbidden;
use inarow_core::stones::{self, StoneError};
use inarow_core::swap2::{self, Role, Step, Swap, Swap2, Swap2Error};
use inarow_core::{Game as _, Mnk, Player, Point, Rule, Xy};
use inarow_judge::record::{Colour, GameRecord, Seat, Stone};
use serde::{Deserialize, Serialize};

use super::jobs::{Done, Job, Thought};
use super::{SIZE, SIZES, TIME_MS, forbidden_line, forbidden_to_move, point_name, stone_line};

/// Where the game stands, as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// No game yet.
    Idle,
    /// The person places the three opening stones (black, black, white).
    Opening,
    /// The person answers the engine's three stones.
    Answer,
    /// The person chooses a colour after the engine placed two more stones.
    Colour,
    /// The engine is thinking.
    Thinking,
    /// Moves alternate.
    Play,
    /// Five in a row or a full board.
    Over,
}

/// The person's answer to the engine's three stones, as the page sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "choice", deny_unknown_fields)]
pub enum Answer {
    /// Play black.
    Black,
    /// Place a white stone here and play white.
    White {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// Place one black and one white stone; the opener chooses a colour.
    Place {
        /// The black stone.
        black: (usize, usize),
        /// The white stone.
        white: (usize, usize),
    },
}

/// Why a request about the gomoku game was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The request can never be right (bad point): 400; else 409.
    pub bad_input: bool,
    /// One line.
    pub message: String,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn bad(message: impl Into<String>) -> Refused {
    Refused {
        bad_input: true,
        message: message.into(),
    }
}

fn conflict(message: impl Into<String>) -> Refused {
    Refused {
        bad_input: false,
        message: message.into(),
    }
}

/// The shared gomoku game.
#[derive(Clone, Debug)]
pub struct Game {
    game_id: u64,
    /// `None` before the first game.
    swap2: Option<Swap2>,
    person_opens: bool,
    budget: Duration,
    /// Freestyle (five or more wins), exact five or renju.
    rule: Rule,
    /// The board's side.
    size: usize,
    thought: Option<Thought>,
    note: String,
    /// Every step taken, in order: replayed to take moves back.
    steps: Vec<(Role, Step)>,
    /// The person resigned.
    resigned: bool,
    /// When the engine began its job, while it thinks.
    thinking_since: Option<Instant>,
    /// A free start (no Swap2): black first, in the centre, or from the
    /// stones of `setup`.
    free: bool,
    /// The stones a free start was set up with, in order.
    setup: Vec<(Point, Player)>,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            game_id: 0,
            swap2: None,
            person_opens: true,
            budget: Duration::from_millis(1000),
            rule: Rule::Freestyle,
            size: SIZE,
            thought: None,
            note: "Start a game.".into(),
            steps: Vec::new(),
            resigned: false,
            thinking_since: None,
            free: false,
            setup: Vec::new(),
        }
    }
}

/// The person's name in records.
const PERSON: &str = "you";
/// The engine's name in records.
const ENGINE: &str = "inarow engine";

fn colour_name(p: Player) -> &'static str {
    match p {
        Player::X => "black",
        Player::O => "white",
    }
}

/// The empty board of a game under `rule`, `size` points a side.
fn board_of(rule: Rule, size: usize) -> Mnk {
    Mnk::new(size, size, 5, rule).expect("the page's sizes fit the game core")
}

impl Game {
    /// The game now being played (changes on every new game).
    pub fn game_id(&self) -> u64 {
        self.game_id
    }

    /// The person's role in the opening.
    fn person(&self) -> Role {
        if self.person_opens {
            Role::Opener
        } else {
            Role::Answerer
        }
    }

    /// The person's colour, once settled.
    fn person_colour(&self) -> Option<Player> {
        self.swap2.as_ref()?.colour(self.person())
    }

    /// Where the game stands: the engine thinks whenever it is to act.
    pub fn phase(&self) -> Phase {
        let Some(swap2) = &self.swap2 else {
            return Phase::Idle;
        };
        if self.resigned {
            return Phase::Over;
        }
        if swap2.to_act() == Some(self.person().other()) {
            return Phase::Thinking;
        }
        match swap2.phase() {
            swap2::Phase::Open => Phase::Opening,
            swap2::Phase::Answer => Phase::Answer,
            swap2::Phase::Colour => Phase::Colour,
            swap2::Phase::Play => Phase::Play,
            swap2::Phase::Over => Phase::Over,
        }
    }

    fn swap2(&mut self) -> &mut Swap2 {
        self.swap2.as_mut().expect("a game in progress")
    }

    /// Starts a game under `rule` on a board `size` points a side; the
    /// engine's first job, if it moves first.
    pub fn new_game(
        &mut self,
        person_opens: bool,
        time_ms: u64,
        rule: Rule,
        size: usize,
    ) -> Result<Option<Job>, Refused> {
        check_settings(time_ms, size)?;
        *self = Game {
            game_id: self.game_id + 1,
            swap2: Some(Swap2::new(&board_of(rule, size))),
            budget: Duration::from_millis(time_ms),
            rule,
            size,
            person_opens,
            ..Game::default()
        };
        if person_opens {
            self.note = "Place two black stones, then one white stone.".into();
            Ok(None)
        } else {
            Ok(Some(self.job("The engine places the opening stones…")))
        }
    }

    /// Starts a game with no Swap2 opening, the person playing `person`:
    /// from the empty board, where black's first stone goes in the centre,
    /// or from `stones` set up (black first and alternating,
    /// checked as moves: on the board, on empty points, none of black's on
    /// a point renju forbade, no five and room left). The engine's first
    /// job, if it is to move.
    pub fn new_free(
        &mut self,
        person: Player,
        stones: &[Xy],
        time_ms: u64,
        rule: Rule,
        size: usize,
    ) -> Result<Option<Job>, Refused> {
        check_settings(time_ms, size)?;
        let setup = set_up(stones, rule, size)?;
        // The person is the opener of the phase machine, though nobody
        // opens: roles only tell the two players apart.
        let swap2 = Swap2::settled(&board_of(rule, size), &setup, person.opponent())
            .expect("stones checked above");
        *self = Game {
            game_id: self.game_id + 1,
            swap2: Some(swap2),
            budget: Duration::from_millis(time_ms),
            rule,
            size,
            person_opens: true,
            free: true,
            setup,
            ..Game::default()
        };
        let job = self.turn();
        if let (None, Some(centre)) = (&job, self.centre_first()) {
            let (x, y) = centre.xy(size);
            self.note = format!(
                "Your move (black): the first stone goes in the centre, {}.",
                point_name(x, y, size)
            );
        }
        Ok(job)
    }

    /// The engine's job for the phase the game is in.
    fn job(&mut self, note: &str) -> Job {
        self.note = note.into();
        self.thinking_since = Some(Instant::now());
        let swap2 = self.swap2.as_ref().expect("a game in progress");
        Job {
            game_id: self.game_id,
            phase: swap2.phase(),
            board: swap2.game().clone(),
            budget: self.budget,
        }
    }

    /// The person's point (x, y), if it is on the board and empty (core's
    /// one check; a forbidden point is refused where the rule asks, by
    /// [`Game::foul`]).
    fn point(&self, x: usize, y: usize) -> Result<Point, Refused> {
        let refused = |e: StoneError| bad(stone_line(e, self.size));
        match self.swap2.as_ref() {
            Some(s) => stones::check(s.game(), Xy::new(x, y), Player::O, false).map_err(refused),
            None => stones::on_board(x, y, self.size).map_err(refused),
        }
    }

    /// Takes a step the page has checked.
    fn step(&mut self, role: Role, step: Step) {
        let taken: Result<(), Swap2Error> = self.swap2().apply(role, step);
        taken.expect("a checked step");
        self.steps.push((role, step));
    }

    /// The person clicks (x, y): an opening stone or a move.
    pub fn click(&mut self, x: usize, y: usize) -> Result<Option<Job>, Refused> {
        match self.phase() {
            Phase::Opening => {
                let p = self.point(x, y)?;
                self.step(Role::Opener, Step::OpenStone(p));
                if self.swap2().phase() == swap2::Phase::Answer {
                    return Ok(Some(self.job("The engine weighs its answer…")));
                }
                Ok(None)
            }
            Phase::Play => {
                let p = self.point(x, y)?;
                if let Some(centre) = self.centre_first().filter(|&c| c != p) {
                    let (cx, cy) = centre.xy(self.size);
                    return Err(bad(format!(
                        "black's first stone goes in the centre, {}",
                        point_name(cx, cy, self.size)
                    )));
                }
                // Under renju the rule loses black the game on a forbidden
                // point; the page refuses the click instead, as a renju
                // board would, so that a slip is not a lost game.
                if let Some(why) = self.foul(p) {
                    return Err(bad(forbidden_line(why, p, self.size)));
                }
                self.step(self.person(), Step::Play(p));
                Ok(self.after_move(None))
            }
            Phase::Answer => Err(conflict(
                "answer the opening first: take black, place a white stone, or place two stones",
            )),
            Phase::Colour => Err(conflict("choose your colour first")),
            Phase::Thinking => Err(conflict("the engine is thinking: wait for its move")),
            Phase::Idle | Phase::Over => Err(conflict("no game in progress: start a new game")),
        }
    }

    /// The person answers the engine's opening.
    pub fn answer(&mut self, answer: Answer) -> Result<Option<Job>, Refused> {
        if self.phase() != Phase::Answer {
            return Err(conflict("there is no opening to answer now"));
        }
        let swap = match answer {
            Answer::Black => Swap::Black,
            Answer::White { x, y } => Swap::White(self.point(x, y)?),
            Answer::Place { black, white } => {
                if black == white {
                    return Err(bad(
                        "the black and the white stone must be on different points",
                    ));
                }
                Swap::Place {
                    black: self.point(black.0, black.1)?,
                    white: self.point(white.0, white.1)?,
                }
            }
        };
        self.step(Role::Answerer, Step::Answer(swap));
        Ok(match swap {
            Swap::Place { .. } => Some(self.job("The engine chooses its colour…")),
            _ => self.turn(),
        })
    }

    /// The person chooses a colour after the engine placed two stones.
    pub fn choose(&mut self, colour: Player) -> Result<Option<Job>, Refused> {
        if self.phase() != Phase::Colour {
            return Err(conflict("there is no colour to choose now"));
        }
        self.step(Role::Opener, Step::Colour(colour));
        Ok(self.turn())
    }

    /// Why the side to move may not play `p`: black on a forbidden point
    /// under renju.
    fn foul(&self, p: Point) -> Option<Forbidden> {
        let board = self.swap2.as_ref()?.game();
        if board.turn_by_count() == Player::X {
            board.forbidden(p)
        } else {
            None
        }
    }

    /// The note and the next job after a move; `foul` is why the move, on
    /// black's forbidden point, lost the game.
    fn after_move(&mut self, foul: Option<(Forbidden, Point)>) -> Option<Job> {
        if let Some(outcome) = self.swap2().outcome() {
            let person_won = outcome.winner().is_some() && outcome.winner() == self.person_colour();
            self.note = match (foul, outcome.winner()) {
                // Only the engine can play there: the person's click is refused.
                (Some((why, p)), _) => {
                    let (x, y) = p.xy(self.size);
                    format!(
                        "The engine (black) played {}, forbidden under renju ({why}): you win.",
                        point_name(x, y, self.size)
                    )
                }
                (None, Some(_)) if person_won => "Five in a row: you win.".into(),
                (None, Some(_)) => "Five in a row: the engine wins.".into(),
                (None, None) => "The board is full: a draw.".into(),
            };
            return None;
        }
        self.turn()
    }

    /// Where black's first stone must go: the centre, on the empty board
    /// of a free start; none otherwise.
    fn centre_first(&self) -> Option<Point> {
        let empty = self.swap2.as_ref()?.game().stones() == 0;
        let c = self.size / 2;
        (self.free && empty).then(|| Point::at(c, c, self.size))
    }

    /// The person's move, or the engine's job for its own.
    fn turn(&mut self) -> Option<Job> {
        let person = self.person_colour().expect("colours chosen");
        if self.phase() == Phase::Thinking
            && let Some(centre) = self.centre_first()
        {
            // Nothing to think over: black's first stone goes in the centre.
            self.step(self.person().other(), Step::Play(centre));
            let (x, y) = centre.xy(self.size);
            let next = self.after_move(None);
            self.note = format!(
                "The engine (black) opened in the centre, {}. {}",
                point_name(x, y, self.size),
                self.note
            );
            return next;
        }
        if self.phase() == Phase::Thinking {
            Some(self.job("The engine is thinking…"))
        } else {
            self.note = format!("Your move ({}).", colour_name(person));
            None
        }
    }

    /// Applies the engine's work for `game_id`; stale work is dropped.
    /// Returns the next job (the engine may have to move right away).
    pub fn done(&mut self, game_id: u64, done: Done) -> Option<Job> {
        if game_id != self.game_id || self.phase() != Phase::Thinking {
            return None;
        }
        let engine = self.person().other();
        self.thinking_since = None;
        match done {
            Done::Opened(stones) => {
                self.step(engine, Step::Open(stones));
                self.note = "Answer: take black, place a white stone and take white, or place a black and a white stone and let the engine choose.".into();
                None
            }
            Done::Answered(swap) => {
                self.step(engine, Step::Answer(swap));
                if let Swap::Place { .. } = swap {
                    self.note = "The engine placed two stones: choose your colour.".into();
                    None
                } else {
                    self.turn()
                }
            }
            Done::Chose(colour) => {
                self.step(engine, Step::Colour(colour));
                self.turn()
            }
            Done::Moved(thought) => {
                // The engine's move goes through the rule as it is: on a
                // forbidden point black loses, and the note says why.
                let best = thought.best.point(self.size);
                let foul = self.foul(best).map(|why| (why, best));
                self.step(engine, Step::Play(best));
                self.thought = Some(Thought::on(
                    &thought,
                    self.size,
                    super::jobs::win_scale(self.rule),
                ));
                self.after_move(foul)
            }
        }
    }

    /// Takes back the person's last move and the engine's reply to it
    /// (after the opening only, and not while the engine thinks).
    pub fn take_back(&mut self) -> Result<(), Refused> {
        match self.phase() {
            Phase::Idle => return Err(conflict("no game in progress: nothing to take back")),
            Phase::Thinking => {
                return Err(conflict("the engine is thinking: take back after its move"));
            }
            Phase::Opening | Phase::Answer | Phase::Colour => {
                return Err(conflict(
                    "the opening cannot be taken back: start a new game",
                ));
            }
            Phase::Play | Phase::Over => {}
        }
        if self.resigned {
            return Err(conflict("you resigned: start a new game"));
        }
        let person = self.person();
        let Some(last) = self
            .steps
            .iter()
            .rposition(|&(role, step)| role == person && matches!(step, Step::Play(_)))
        else {
            let since = if self.free { "start" } else { "opening" };
            return Err(conflict(format!(
                "nothing to take back: you have not moved since the {since}"
            )));
        };
        let mut swap2 = self.start();
        for &(role, step) in &self.steps[..last] {
            swap2.apply(role, step).expect("steps taken before replay");
        }
        self.swap2 = Some(swap2);
        self.steps.truncate(last);
        self.thought = None;
        let colour = self.person_colour().expect("colours chosen");
        self.note = format!("Move taken back: your move ({}).", colour_name(colour));
        Ok(())
    }

    /// The game as it began: empty for Swap2, set up for a free start.
    fn start(&self) -> Swap2 {
        let rules = board_of(self.rule, self.size);
        if !self.free {
            return Swap2::new(&rules);
        }
        let person = self
            .person_colour()
            .expect("colours settled from the start");
        Swap2::settled(&rules, &self.setup, person.opponent()).expect("checked at the start")
    }

    /// The person resigns the game in progress: the engine wins.
    pub fn resign(&mut self) -> Result<(), Refused> {
        if matches!(self.phase(), Phase::Idle | Phase::Over) {
            return Err(conflict("no game in progress: nothing to resign"));
        }
        self.resigned = true;
        self.thinking_since = None;
        self.note = "You resigned: the engine wins.".into();
        Ok(())
    }

    /// Who placed each stone, in the order of [`Swap2::stones`].
    fn placers(&self) -> Vec<Role> {
        // A free start's stones set up count as placed by their colour's player.
        let mut by: Vec<Role> = match &self.swap2 {
            Some(s) => self.setup.iter().filter_map(|&(_, c)| s.role(c)).collect(),
            None => Vec::new(),
        };
        for &(role, step) in &self.steps {
            let n = match step {
                Step::Open(_) => 3,
                Step::OpenStone(_) | Step::Play(_) | Step::Answer(Swap::White(_)) => 1,
                Step::Answer(Swap::Place { .. }) => 2,
                Step::Answer(Swap::Black) | Step::Colour(_) => 0,
            };
            by.extend(std::iter::repeat_n(role, n));
        }
        by
    }

    fn name(&self, role: Role) -> &'static str {
        if role == self.person() {
            PERSON
        } else {
            ENGINE
        }
    }

    /// The game as the judge records one (the person's name is `you`),
    /// for its SGF; `None` before the first game.
    pub fn record(&self) -> Option<GameRecord> {
        let swap2 = self.swap2.as_ref()?;
        let mut record = GameRecord::sized(
            self.name(Role::Opener),
            self.name(Role::Answerer),
            self.size,
        );
        record.index = self.game_id as usize;
        for (&(p, colour), &role) in swap2.stones().iter().zip(&self.placers()) {
            record.lay(Seat::from(role), p, colour);
        }
        let swap = self.steps.iter().find_map(|&(_, step)| match step {
            Step::Answer(swap) => Some(swap),
            _ => None,
        });
        if let Some(swap) = swap {
            record.answer(swap);
        }
        record.colours(swap2);
        if self.resigned {
            record.resign(Seat::from(self.person()));
        } else if let Some(outcome) = swap2.outcome() {
            record.end(outcome);
        }
        Some(record)
    }

    /// The game as SGF, the way the judge writes its records, with its
    /// rule as `RU[Freestyle]`, `RU[Exact]` or `RU[Renju]` (the page reads
    /// them back); an unfinished game has no result.
    pub fn sgf(&self) -> Option<String> {
        let mut record = self.record()?;
        // Numbered as the game goes, black first and then in turn, as the
        // page's move lists and links number it: a Swap2 opening's stones
        // (placed black, black, white) are moves 1, 3 and 2.
        record.stones = in_turn(std::mem::take(&mut record.stones));
        Some(inarow_judge::sgf::sgf_by_under(
            &record,
            "inarow serve",
            self.phase() == Phase::Over,
            self.rule,
        ))
    }

    /// Everything the page draws.
    pub fn view(&self) -> serde_json::Value {
        let by = self.placers();
        let stones: Vec<_> = self
            .swap2
            .iter()
            .flat_map(|s| s.stones())
            .zip(&by)
            .enumerate()
            .map(|(n, (&(p, colour), &role))| {
                let (x, y) = p.xy(self.size);
                let c = if colour == Player::X { "B" } else { "W" };
                // A free start's stones set up were nobody's move.
                let by = if n < self.setup.len() {
                    "setup"
                } else if role == self.person() {
                    "you"
                } else {
                    "engine"
                };
                serde_json::json!({"x": x, "y": y, "colour": c, "by": by})
            })
            .collect();
        let phase = self.phase();
        let to_move = match (phase, &self.swap2) {
            (Phase::Play | Phase::Thinking, Some(s)) if self.person_colour().is_some() => {
                Some(colour_name(s.game().turn_by_count()))
            }
            _ => None,
        };
        // Black's forbidden points while black is to move under renju.
        let forbidden: Vec<_> = match (to_move, &self.swap2) {
            (Some("black"), Some(s)) => forbidden_to_move(s.game())
                .into_iter()
                .map(|(Xy { x, y }, why)| serde_json::json!({"x": x, "y": y, "why": why.to_string()}))
                .collect(),
            _ => Vec::new(),
        };
        serde_json::json!({
            "game_id": self.game_id,
            "size": self.size,
            "rule": self.rule.name(),
            "phase": phase,
            "start": if self.free { "free" } else { "swap2" },
            "setup": self.setup.len(),
            "person_opens": self.person_opens,
            "person": self.person_colour().map(colour_name),
            "to_move": to_move,
            "time_ms": self.budget.as_millis() as u64,
            "stones": stones,
            "forbidden": forbidden,
            "thought": self.thought,
            "note": self.note,
            "resigned": self.resigned,
            "thinking_ms": self
                .thinking_since
                .filter(|_| phase == Phase::Thinking)
                .map(|t| t.elapsed().as_millis() as u64),
            "can_take_back": self.can_take_back(),
        })
    }

    /// Whether [`Game::take_back`] would take a move back now.
    fn can_take_back(&self) -> bool {
        matches!(self.phase(), Phase::Play | Phase::Over)
            && !self.resigned
            && self
                .steps
                .iter()
                .any(|&(role, step)| role == self.person() && matches!(step, Step::Play(_)))
    }
}

/// Refuses a thinking time or board size the page may not ask for.
fn check_settings(time_ms: u64, size: usize) -> Result<(), Refused> {
    if !SIZES.contains(&size) {
        return Err(bad(format!(
            "board size {size} is out of range: use {} to {}",
            SIZES.start(),
            SIZES.end()
        )));
    }
    if !TIME_MS.contains(&time_ms) {
        return Err(bad(format!(
            "time {time_ms} ms is out of range: use {} to {} ms per move",
            TIME_MS.start(),
            TIME_MS.end()
        )));
    }
    Ok(())
}

/// The stones of a free start, black first and alternating, each checked
/// as a move on a board `size` points a side under `rule`; the one line
/// that refuses the first that cannot stand.
fn set_up(stones: &[Xy], rule: Rule, size: usize) -> Result<Vec<(Point, Player)>, Refused> {
    let mut board = board_of(rule, size);
    let put = stones::replay(&mut board, stones.iter().copied(), true)
        .map_err(|(n, e)| bad(format!("stone {n}: {}", stone_line(e, size))))?;
    if let Some(outcome) = board.outcome() {
        let end = match outcome.winner() {
            Some(_) => "makes five",
            None => "fills the board",
        };
        return Err(bad(format!(
            "stone {put} {end}: the game would be over before it starts"
        )));
    }
    // Black first, then in turn: the colours the replay gave.
    Ok(stones
        .iter()
        .zip([Player::X, Player::O].into_iter().cycle())
        .map(|(&Xy { x, y }, colour)| (Point::at(x, y, size), colour))
        .collect())
}

/// `stones` in the game's order: black's and white's in turn from black,
/// each colour's in the order placed (the Swap2 opening places black,
/// black, white); as they are where the colours are not in turn.
pub fn in_turn(stones: Vec<Stone>) -> Vec<Stone> {
    let (black, white): (Vec<Stone>, Vec<Stone>) = stones
        .iter()
        .cloned()
        .partition(|s| s.colour == Colour::Black);
    if black.len() != white.len() && black.len() != white.len() + 1 {
        return stones;
    }
    let mut whites = white.into_iter();
    black
        .into_iter()
        .flat_map(|b| std::iter::once(b).chain(whites.next()))
        .collect()
}
