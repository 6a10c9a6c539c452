//! The MENACE room: one machine shared by every viewer, a game a person
//! plays by clicking, and training against a chosen opponent.
//!
//! The learning itself is `inarow-menace`; this module only keeps what the
//! page needs to draw (which box was used, which bead came out, the
//! learning curve) and does no I/O.

use std::fmt;

use inarow_agents::{Perfect, RandomAgent};
use inarow_core::{Game, Player, Point, TicTacToe};
use inarow_menace::{AgentSeat, Choice, GameResult, Memory, Menace, Seat, Tally, play_game};
use serde::Serialize;

/// Seed offsets of docs/menace.md, so the page and `inarow menace train`
/// draw the same opponents from the same `--seed`.
const OPPONENT_SEED: u64 = 0x6f70_706f;
const SECOND_LEARNER_SEED: u64 = 0x4f4f_4f4f;

/// The chart keeps at most this many blocks; past it neighbours merge.
const CHART_BLOCKS: usize = 100;

/// Who plays O when MENACE trains on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// Uniformly random legal moves.
    Random,
    /// A perfect player (never loses; random among best moves).
    Perfect,
    /// A second learning MENACE playing O (saved in the state file).
    Menace,
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Opponent::Random => "random",
            Opponent::Perfect => "perfect",
            Opponent::Menace => "menace",
        })
    }
}

/// One move of the game on show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// `X` (MENACE) or `O`.
    pub player: char,
    /// The square played, 0 to 8 row-major on the real board.
    pub square: u8,
    /// MENACE's box for this move (0-based), when a bead was drawn.
    pub matchbox: Option<usize>,
    /// The bead drawn: a square of the box's image.
    pub bead: Option<u8>,
}

/// Why a move from the page was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No game is being played (finished, or never started).
    NoGame,
    /// MENACE is training: the board belongs to the trainer.
    Training,
    /// The square is not 0 to 8.
    OffBoard(u64),
    /// The square already holds a stone.
    Taken(u8),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NoGame => write!(f, "no game in progress: start a new game first"),
            MoveError::Training => write!(f, "MENACE is training: stop training to play"),
            MoveError::OffBoard(s) => write!(f, "square {s} is off the board: use 0 to 8"),
            MoveError::Taken(s) => write!(f, "square {s} is already taken: choose an empty square"),
        }
    }
}

/// The game on show: a person's game or the last training game.
#[derive(Clone, Debug)]
struct Shown {
    board: TicTacToe,
    steps: Vec<Step>,
    /// From MENACE's side, once the game is over.
    result: Option<GameResult>,
    resigned: bool,
    /// A person plays O (rather than a trainer).
    person: bool,
}

/// Win/draw/loss counts in blocks of equal size, merging pairs when there
/// are too many, so a chart of a million games stays small.
#[derive(Clone, Debug, Default)]
pub struct Chart {
    block: u64,
    blocks: Vec<Tally>,
}

impl Chart {
    fn add(&mut self, result: GameResult) {
        if self.block == 0 {
            self.block = 1;
        }
        match self.blocks.last_mut() {
            Some(last) if last.games() < self.block => last.add(result),
            _ => {
                if self.blocks.len() == CHART_BLOCKS {
                    self.blocks = self
                        .blocks
                        .chunks(2)
                        .map(|pair| {
                            pair.iter().fold(Tally::default(), |mut t, b| {
                                t.wins += b.wins;
                                t.draws += b.draws;
                                t.losses += b.losses;
                                t
                            })
                        })
                        .collect();
                    self.block *= 2;
                    return self.add(result);
                }
                let mut t = Tally::default();
                t.add(result);
                self.blocks.push(t);
            }
        }
    }
}

/// The shared MENACE: its boxes, the game on show and the trainer settings.
pub struct Room {
    memory: Memory,
    seed: u64,
    shown: Option<Shown>,
    opponent: Opponent,
    speed: u32,
    training: bool,
    random: AgentSeat<RandomAgent>,
    perfect: AgentSeat<Perfect<TicTacToe>>,
    tally: Tally,
    chart: Chart,
}

impl Room {
    /// A room around loaded (or fresh) machines; opponents follow `seed`.
    pub fn new(memory: Memory, seed: u64) -> Room {
        Room {
            memory,
            seed,
            shown: None,
            opponent: Opponent::Random,
            speed: 10,
            training: false,
            random: AgentSeat(RandomAgent::new(seed ^ OPPONENT_SEED)),
            perfect: AgentSeat(Perfect::new(seed ^ OPPONENT_SEED)),
            tally: Tally::default(),
            chart: Chart::default(),
        }
    }

    /// The machines, for saving.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Whether the trainer is running.
    pub fn training(&self) -> bool {
        self.training
    }

    /// Games per second the trainer aims at.
    pub fn speed(&self) -> u32 {
        self.speed
    }

    /// Whether a person's game is waiting for a move.
    pub fn in_game(&self) -> bool {
        self.shown
            .as_ref()
            .is_some_and(|s| s.person && s.result.is_none())
    }

    /// Starts a person's game: MENACE (X) draws its first bead at once.
    /// An unfinished game is abandoned (its beads go back).
    pub fn new_game(&mut self) -> Result<(), MoveError> {
        if self.training {
            return Err(MoveError::Training);
        }
        self.memory.x.abandon();
        self.shown = Some(Shown {
            board: TicTacToe::new(),
            steps: Vec::new(),
            result: None,
            resigned: false,
            person: true,
        });
        self.menace_turn();
        Ok(())
    }

    /// The person (O) plays `square`; MENACE answers. Returns true when the
    /// game ended (and was learned from), so the caller saves.
    pub fn play(&mut self, square: u64) -> Result<bool, MoveError> {
        if self.training {
            return Err(MoveError::Training);
        }
        if !self.in_game() {
            return Err(MoveError::NoGame);
        }
        if square > 8 {
            return Err(MoveError::OffBoard(square));
        }
        let point = Point(square as u16);
        let shown = self.shown.as_mut().expect("in a game");
        if shown.board.stone(point).is_some() {
            return Err(MoveError::Taken(square as u8));
        }
        shown.board.play_unchecked(point);
        shown.steps.push(Step {
            player: 'O',
            square: square as u8,
            matchbox: None,
            bead: None,
        });
        if !self.finish_if_over() {
            self.menace_turn();
        }
        Ok(self.shown.as_ref().is_some_and(|s| s.result.is_some()))
    }

    /// MENACE moves in the person's game, then the game may be over.
    fn menace_turn(&mut self) {
        let shown = self.shown.as_mut().expect("in a game");
        let before = self.memory.x.drawn().count();
        match self.memory.x.choose(&shown.board) {
            Some(Choice::Play(p)) => {
                let drawn = self.memory.x.drawn().collect::<Vec<_>>();
                let (matchbox, bead) = match drawn.last() {
                    Some(&(b, s)) if drawn.len() > before => (Some(b), Some(s)),
                    _ => (None, None),
                };
                shown.board.play_unchecked(p);
                shown.steps.push(Step {
                    player: 'X',
                    square: p.0 as u8,
                    matchbox,
                    bead,
                });
                self.finish_if_over();
            }
            Some(Choice::Resign) => {
                shown.resigned = true;
                self.learn(GameResult::Loss);
            }
            None => {}
        }
    }

    fn finish_if_over(&mut self) -> bool {
        let shown = self.shown.as_ref().expect("in a game");
        let Some(outcome) = shown.board.outcome() else {
            return false;
        };
        let result = match outcome.winner() {
            Some(Player::X) => GameResult::Win,
            Some(Player::O) => GameResult::Loss,
            None => GameResult::Draw,
        };
        self.learn(result);
        true
    }

    fn learn(&mut self, result: GameResult) {
        self.memory.x.learn(result);
        self.count(result);
        if let Some(shown) = self.shown.as_mut() {
            shown.result = Some(result);
        }
    }

    fn count(&mut self, result: GameResult) {
        self.tally.add(result);
        self.chart.add(result);
    }

    /// Ends a person's unfinished game unlearned: its beads go back, as
    /// when the command line's input ends mid-game.
    pub fn abandon(&mut self) {
        self.memory.x.abandon();
        if self.in_game() {
            self.shown = None;
        }
    }

    /// Sets the trainer's opponent and speed (games per second).
    pub fn set_trainer(&mut self, opponent: Opponent, speed: u32) {
        if opponent == Opponent::Menace && self.memory.o.is_none() {
            self.memory.o = Some(Menace::new(
                self.memory.preset(),
                Player::O,
                self.seed ^ SECOND_LEARNER_SEED,
            ));
        }
        self.opponent = opponent;
        self.speed = speed;
    }

    /// Starts or stops training; starting abandons a person's game.
    pub fn set_training(&mut self, on: bool) {
        if on && !self.training {
            self.abandon();
        }
        self.training = on;
    }

    /// Plays one training game and shows it.
    pub fn train_one(&mut self) -> GameResult {
        let mut x_steps = Vec::new();
        let mut x = Watched {
            menace: &mut self.memory.x,
            steps: &mut x_steps,
        };
        let mut o = Recorded {
            seat: match self.opponent {
                Opponent::Random => &mut self.random,
                Opponent::Perfect => &mut self.perfect,
                Opponent::Menace => self.memory.o.as_mut().expect("made by set_trainer"),
            },
            squares: Vec::new(),
        };
        let ending = play_game(&mut x, &mut o);
        let result = ending.result_for(Player::X);
        // X moves first and the two alternate, so the lists interleave.
        let mut o_steps = o.squares.into_iter().map(|square| Step {
            player: 'O',
            square,
            matchbox: None,
            bead: None,
        });
        let mut steps = Vec::new();
        for s in x_steps {
            steps.push(s);
            steps.extend(o_steps.next());
        }
        let mut board = TicTacToe::new();
        for s in &steps {
            board.play_unchecked(Point(s.square as u16));
        }
        self.shown = Some(Shown {
            board,
            steps,
            result: Some(result),
            resigned: matches!(ending, inarow_menace::Ending::Resigned(_)),
            person: false,
        });
        self.count(result);
        result
    }

    /// Everything the page draws.
    pub fn view(&self) -> serde_json::Value {
        let x = &self.memory.x;
        let layout = x.layout();
        let boxes: Vec<_> = x
            .boxes()
            .iter()
            .enumerate()
            .map(|(i, b)| {
                serde_json::json!({
                    "number": i + 1,
                    "move": layout.move_number(i) + 1,
                    "image": layout.images()[i].compact(),
                    "beads": b.beads(),
                })
            })
            .collect();
        let game = self.shown.as_ref().map(|s| {
            serde_json::json!({
                "board": s.board.compact(),
                "steps": s.steps,
                "over": s.result.is_some(),
                "result": s.result.map(|r| result_line(r, s.resigned)),
                "outcome": s.result.map(outcome_name),
                "person": s.person,
            })
        });
        let chart: Vec<_> = self
            .chart
            .blocks
            .iter()
            .map(|t| serde_json::json!({"wins": t.wins, "draws": t.draws, "losses": t.losses}))
            .collect();
        serde_json::json!({
            "preset": self.memory.preset().name(),
            "seed": self.seed,
            "games": x.games(),
            "beads": x.total_beads(),
            "opponent": self.opponent,
            "speed": self.speed,
            "training": self.training,
            "game": game,
            "tally": {"wins": self.tally.wins, "draws": self.tally.draws, "losses": self.tally.losses},
            "chart": {"block": self.chart.block, "blocks": chart},
            "boxes": boxes,
        })
    }
}

/// The result from MENACE's side as one word.
fn outcome_name(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}

/// The result as the person at the board reads it.
fn result_line(result: GameResult, resigned: bool) -> &'static str {
    match (result, resigned) {
        (GameResult::Loss, true) => "MENACE resigns: O wins",
        (GameResult::Win, _) => "MENACE wins",
        (GameResult::Loss, _) => "O wins",
        (GameResult::Draw, _) => "draw",
    }
}

/// MENACE at the board, noting the box and bead of each move.
struct Watched<'a> {
    menace: &'a mut Menace,
    steps: &'a mut Vec<Step>,
}

impl Seat for Watched<'_> {
    fn pick(&mut self, game: &TicTacToe) -> Option<Point> {
        let before = self.menace.drawn().count();
        let p = self.menace.pick(game)?;
        let drawn: Vec<_> = self.menace.drawn().collect();
        let (matchbox, bead) = match drawn.last() {
            Some(&(b, s)) if drawn.len() > before => (Some(b), Some(s)),
            _ => (None, None),
        };
        self.steps.push(Step {
            player: 'X',
            square: p.0 as u8,
            matchbox,
            bead,
        });
        Some(p)
    }

    fn finish(&mut self, result: GameResult) {
        self.menace.finish(result);
    }
}

/// The opponent at the board, noting its moves in the same list.
struct Recorded<'a> {
    seat: &'a mut dyn Seat,
    squares: Vec<u8>,
}

impl Seat for Recorded<'_> {
    fn pick(&mut self, game: &TicTacToe) -> Option<Point> {
        let p = self.seat.pick(game)?;
        self.squares.push(p.0 as u8);
        Some(p)
    }

    fn finish(&mut self, result: GameResult) {
        self.seat.finish(result);
    }
}
