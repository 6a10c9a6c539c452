//! Gomoku (15x15, freestyle) against the engine, through the Swap2-style
//! opening of the king-of-the-hill spec: the opener places two black stones
//! and one white; the answerer takes black, places a white stone and takes
//! white, or places one more stone of each colour and lets the opener
//! choose. Then the colour with fewer stones moves.
//!
//! The engine sits behind [`Brain`] so the page does not care which search
//! answers; thinking runs off the request threads and its answer is applied
//! only if the game it was asked about is still the one on the board.

use std::fmt;
use std::time::Duration;

use inarow_core::{Game, Mnk, Player, Point};
use inarow_engine::koth::board_of;
use inarow_engine::opening::{self, Answer};
use inarow_engine::search::{Limits, Options, Searcher};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Board side.
pub const SIZE: usize = 15;
/// Shortest and longest thinking time per move the page may ask for.
pub const TIME_MS: std::ops::RangeInclusive<u64> = 50..=10_000;

/// What the engine thought about a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Thought {
    /// The move chosen, as (x, y).
    pub best: (usize, usize),
    /// Its score for the engine (positive is good for it).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The expected line from the move chosen on, as (x, y).
    pub pv: Vec<(usize, usize)>,
}

/// A gomoku player the page can ask: every opening role and every move.
pub trait Brain: Send {
    /// Two black stones and one white, to open.
    fn open(&mut self, budget: Duration) -> [(usize, usize); 3];
    /// The answer to three opening stones (white to move).
    fn answer(&mut self, game: &Mnk, budget: Duration) -> Swap;
    /// The colour to play after the answerer placed two more stones.
    fn colour(&mut self, game: &Mnk, budget: Duration) -> Player;
    /// The next move for the side to move, with the search's view of it.
    fn think(&mut self, game: &Mnk, budget: Duration) -> Thought;
}

/// An answer to the three opening stones, in (x, y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "choice", deny_unknown_fields)]
pub enum Swap {
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

/// `inarow-engine`: its Swap2 opening and its search, with the principal
/// variation the search reports.
pub struct EngineBrain {
    searcher: Searcher,
    rng: ChaCha8Rng,
}

impl EngineBrain {
    /// An engine whose random choices (opening shapes) follow `seed`.
    pub fn new(seed: u64) -> EngineBrain {
        EngineBrain {
            searcher: Searcher::new(Options {
                tt_bytes: 8 << 20,
                ..Options::default()
            }),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Brain for EngineBrain {
    fn open(&mut self, budget: Duration) -> [(usize, usize); 3] {
        opening::open(
            SIZE,
            &mut self.searcher,
            &mut self.rng,
            Limits::time(budget),
        )
    }

    fn answer(&mut self, game: &Mnk, budget: Duration) -> Swap {
        let mut b = board_of(game, Some(3)).expect("three opening stones");
        match opening::answer(&mut b, &mut self.searcher, Limits::time(budget)) {
            Answer::Black => Swap::Black,
            Answer::White(w) => {
                let (x, y) = b.xy(w);
                Swap::White { x, y }
            }
            Answer::Place { black, white } => Swap::Place {
                black: b.xy(black),
                white: b.xy(white),
            },
        }
    }

    fn colour(&mut self, game: &Mnk, budget: Duration) -> Player {
        let mut b = board_of(game, Some(5)).expect("five opening stones");
        opening::choose(&mut b, &mut self.searcher, Limits::time(budget)).0
    }

    fn think(&mut self, game: &Mnk, budget: Duration) -> Thought {
        let mut b = board_of(game, None).expect("a game going on");
        let found = self.searcher.search(&mut b, Limits::time(budget));
        let pv: Vec<(usize, usize)> = found.pv.iter().map(|&m| b.xy(m)).collect();
        Thought {
            best: b.xy(found.best),
            score: found.score,
            depth: found.depth,
            nodes: found.nodes,
            pv,
        }
    }
}

/// Where the game stands.
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

/// Work the engine must do, handed to a thinking thread.
#[derive(Clone, Debug)]
pub struct Job {
    /// The game it belongs to.
    pub game_id: u64,
    /// What to do.
    pub task: Task,
    /// The board now.
    pub board: Mnk,
    /// Time allowed.
    pub budget: Duration,
}

/// The engine's part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Place the three opening stones.
    Open,
    /// Answer the person's three stones.
    Answer,
    /// Choose a colour after the person's two extra stones.
    Colour,
    /// Play a move.
    Move,
}

/// The engine's finished work.
#[derive(Clone, Debug)]
pub enum Done {
    /// Opening stones.
    Opened([(usize, usize); 3]),
    /// The answer to the opening.
    Answered(Swap),
    /// The colour it takes.
    Chose(Player),
    /// A move.
    Moved(Thought),
}

/// Runs `job` on `brain` (blocking: call it off the request threads).
pub fn work(brain: &mut dyn Brain, job: &Job) -> Done {
    match job.task {
        Task::Open => Done::Opened(brain.open(job.budget)),
        Task::Answer => Done::Answered(brain.answer(&job.board, job.budget)),
        Task::Colour => Done::Chose(brain.colour(&job.board, job.budget)),
        Task::Move => Done::Moved(brain.think(&job.board, job.budget)),
    }
}

/// The shared gomoku game.
#[derive(Clone, Debug)]
pub struct Table {
    game_id: u64,
    board: Mnk,
    stones: Vec<(usize, usize, char)>,
    phase: Phase,
    person: Option<Player>,
    person_opens: bool,
    budget: Duration,
    thought: Option<Thought>,
    note: String,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            game_id: 0,
            board: Mnk::gomoku(),
            stones: Vec::new(),
            phase: Phase::Idle,
            person: None,
            person_opens: true,
            budget: Duration::from_millis(1000),
            thought: None,
            note: "Start a game.".into(),
        }
    }
}

fn colour_name(p: Player) -> &'static str {
    match p {
        Player::X => "black",
        Player::O => "white",
    }
}

impl Table {
    /// The game now being played (changes on every new game).
    pub fn game_id(&self) -> u64 {
        self.game_id
    }

    /// Starts a game; the engine's first job, if it moves first.
    pub fn new_game(&mut self, person_opens: bool, time_ms: u64) -> Result<Option<Job>, Refused> {
        if !TIME_MS.contains(&time_ms) {
            return Err(bad(format!(
                "time {time_ms} ms is out of range: use {} to {} ms per move",
                TIME_MS.start(),
                TIME_MS.end()
            )));
        }
        *self = Table {
            game_id: self.game_id + 1,
            budget: Duration::from_millis(time_ms),
            person_opens,
            ..Table::default()
        };
        if person_opens {
            self.phase = Phase::Opening;
            self.note = "Place two black stones, then one white stone.".into();
            Ok(None)
        } else {
            Ok(Some(
                self.job(Task::Open, "The engine places the opening stones…"),
            ))
        }
    }

    fn job(&mut self, task: Task, note: &str) -> Job {
        self.phase = Phase::Thinking;
        self.note = note.into();
        Job {
            game_id: self.game_id,
            task,
            board: self.board.clone(),
            budget: self.budget,
        }
    }

    fn point(&self, x: usize, y: usize) -> Result<Point, Refused> {
        if x >= SIZE || y >= SIZE {
            return Err(bad(format!(
                "({x},{y}) is off the board: x and y go from 0 to {}",
                SIZE - 1
            )));
        }
        let p = Point::at(y, x, SIZE);
        if self.board.stone(p).is_some() {
            return Err(bad(format!("({x},{y}) is taken: choose an empty point")));
        }
        Ok(p)
    }

    fn put(&mut self, x: usize, y: usize, colour: Player) {
        let p = Point::at(y, x, SIZE);
        self.board.place(p, colour).expect("checked point");
        self.stones
            .push((x, y, if colour == Player::X { 'B' } else { 'W' }));
    }

    /// The person clicks (x, y): an opening stone or a move.
    pub fn click(&mut self, x: usize, y: usize) -> Result<Option<Job>, Refused> {
        match self.phase {
            Phase::Opening => {
                self.point(x, y)?;
                let colour = if self.stones.len() < 2 {
                    Player::X
                } else {
                    Player::O
                };
                self.put(x, y, colour);
                if self.stones.len() == 3 {
                    return Ok(Some(
                        self.job(Task::Answer, "The engine weighs its answer…"),
                    ));
                }
                Ok(None)
            }
            Phase::Play => {
                if Some(self.board.turn_by_count()) != self.person {
                    return Err(conflict("it is the engine's turn"));
                }
                self.point(x, y)?;
                self.put(x, y, self.person.expect("colours chosen"));
                Ok(self.after_move())
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
    pub fn answer(&mut self, swap: Swap) -> Result<Option<Job>, Refused> {
        if self.phase != Phase::Answer {
            return Err(conflict("there is no opening to answer now"));
        }
        match swap {
            Swap::Black => {
                self.person = Some(Player::X);
                Ok(self.start_play())
            }
            Swap::White { x, y } => {
                self.point(x, y)?;
                self.put(x, y, Player::O);
                self.person = Some(Player::O);
                Ok(self.start_play())
            }
            Swap::Place { black, white } => {
                if black == white {
                    return Err(bad(
                        "the black and the white stone must be on different points",
                    ));
                }
                self.point(black.0, black.1)?;
                self.point(white.0, white.1)?;
                self.put(black.0, black.1, Player::X);
                self.put(white.0, white.1, Player::O);
                Ok(Some(
                    self.job(Task::Colour, "The engine chooses its colour…"),
                ))
            }
        }
    }

    /// The person chooses a colour after the engine placed two stones.
    pub fn choose(&mut self, colour: Player) -> Result<Option<Job>, Refused> {
        if self.phase != Phase::Colour {
            return Err(conflict("there is no colour to choose now"));
        }
        self.person = Some(colour);
        Ok(self.start_play())
    }

    fn start_play(&mut self) -> Option<Job> {
        self.phase = Phase::Play;
        self.turn()
    }

    fn after_move(&mut self) -> Option<Job> {
        if let Some(outcome) = self.board.outcome() {
            self.phase = Phase::Over;
            self.note = match outcome.winner() {
                Some(p) if Some(p) == self.person => "Five in a row: you win.".into(),
                Some(_) => "Five in a row: the engine wins.".into(),
                None => "The board is full: a draw.".into(),
            };
            return None;
        }
        self.phase = Phase::Play;
        self.turn()
    }

    fn turn(&mut self) -> Option<Job> {
        let person = self.person.expect("colours chosen");
        if self.board.turn_by_count() == person {
            self.note = format!("Your move ({}).", colour_name(person));
            None
        } else {
            Some(self.job(Task::Move, "The engine is thinking…"))
        }
    }

    /// Applies the engine's work for `game_id`; stale work is dropped.
    /// Returns the next job (the engine may have to move right away).
    pub fn done(&mut self, game_id: u64, done: Done) -> Option<Job> {
        if game_id != self.game_id || self.phase != Phase::Thinking {
            return None;
        }
        match done {
            Done::Opened(stones) => {
                for (k, &(x, y)) in stones.iter().enumerate() {
                    self.put(x, y, if k < 2 { Player::X } else { Player::O });
                }
                self.phase = Phase::Answer;
                self.note = "Answer: take black, place a white stone and take white, or place a black and a white stone and let the engine choose.".into();
                None
            }
            Done::Answered(swap) => match swap {
                Swap::Black => {
                    self.person = Some(Player::O);
                    self.start_play()
                }
                Swap::White { x, y } => {
                    self.put(x, y, Player::O);
                    self.person = Some(Player::X);
                    self.start_play()
                }
                Swap::Place { black, white } => {
                    self.put(black.0, black.1, Player::X);
                    self.put(white.0, white.1, Player::O);
                    self.phase = Phase::Colour;
                    self.note = "The engine placed two stones: choose your colour.".into();
                    None
                }
            },
            Done::Chose(colour) => {
                self.person = Some(colour.opponent());
                self.start_play()
            }
            Done::Moved(thought) => {
                let engine = self.person.expect("colours chosen").opponent();
                let (x, y) = thought.best;
                self.put(x, y, engine);
                self.thought = Some(thought);
                self.after_move()
            }
        }
    }

    /// Everything the page draws.
    pub fn view(&self) -> serde_json::Value {
        let stones: Vec<_> = self
            .stones
            .iter()
            .map(|&(x, y, c)| serde_json::json!({"x": x, "y": y, "colour": c.to_string()}))
            .collect();
        let to_move = match self.phase {
            Phase::Play | Phase::Thinking if self.person.is_some() => {
                Some(colour_name(self.board.turn_by_count()))
            }
            _ => None,
        };
        serde_json::json!({
            "game_id": self.game_id,
            "size": SIZE,
            "phase": self.phase,
            "person_opens": self.person_opens,
            "person": self.person.map(colour_name),
            "to_move": to_move,
            "time_ms": self.budget.as_millis() as u64,
            "stones": stones,
            "thought": self.thought,
            "note": self.note,
        })
    }
}
