//! The shared MENACE: its boxes, the game on show and the trainer settings.

use std::collections::VecDeque;

use inarow_agents::{Perfect, RandomAgent};
use inarow_core::{Player, Point, TicTacToe};
use inarow_menace::{
    AgentSeat, BadRules, GameResult, Memory, Menace, Preset, Rules, Seat, Session, Tally,
    opponent_seed,
};

use super::{MoveError, Opponent};

/// The recent chart keeps at most this many blocks, dropping the oldest.
const RECENT_BLOCKS: usize = 100;
/// The chart keeps at most this many marks of a change of opponent.
const MARKS: usize = 50;

/// The newest games in blocks whose size follows the trainer's speed, so
/// the chart moves about twice a second however fast MENACE trains.
#[derive(Clone, Debug)]
pub(super) struct Recent {
    /// Games per block.
    pub(super) block: u64,
    /// Number of the first game of the oldest block kept (from 1).
    pub(super) first: u64,
    pub(super) blocks: VecDeque<Tally>,
}

impl Recent {
    /// Empty, with blocks for `speed` games per second, starting after game `games`.
    fn new(speed: u32, games: u64) -> Recent {
        Recent {
            block: (u64::from(speed) / 2).max(1).next_power_of_two(),
            first: games + 1,
            blocks: VecDeque::new(),
        }
    }

    fn add(&mut self, result: GameResult) {
        match self.blocks.back_mut() {
            Some(last) if last.games() < self.block => last.add(result),
            _ => {
                if self.blocks.len() == RECENT_BLOCKS {
                    self.blocks.pop_front();
                    self.first += self.block;
                }
                self.blocks.push_back([result].into_iter().collect());
            }
        }
    }
}

/// Where the games MENACE learns from changed hands: from game `game` on
/// (counted from 1), `who` played O.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Mark {
    pub(super) game: u64,
    pub(super) who: String,
}

/// The game on show: a person's game or the last training game.
#[derive(Clone, Debug)]
pub(super) struct Shown {
    pub(super) session: Session,
    /// A person plays O (rather than a trainer).
    pub(super) person: bool,
}

/// The shared MENACE: its boxes, the game on show and the trainer settings.
pub struct Room {
    pub(super) memory: Memory,
    pub(super) seed: u64,
    pub(super) shown: Option<Shown>,
    pub(super) opponent: Opponent,
    pub(super) speed: u32,
    pub(super) training: bool,
    random: AgentSeat<RandomAgent>,
    perfect: AgentSeat<Perfect<TicTacToe>>,
    /// The newest games, blocks sized by speed.
    pub(super) recent: Recent,
    /// Where the opponent changed, oldest first.
    pub(super) marks: VecDeque<Mark>,
}

impl Room {
    /// A room around loaded (or fresh) machines; opponents follow `seed`
    /// as in `inarow menace train`.
    pub fn new(memory: Memory, seed: u64) -> Room {
        Room {
            seed,
            shown: None,
            opponent: Opponent::Random,
            speed: 10,
            training: false,
            random: AgentSeat(RandomAgent::new(opponent_seed(seed))),
            perfect: AgentSeat(Perfect::new(opponent_seed(seed))),
            recent: Recent::new(10, memory.x.games()),
            marks: VecDeque::new(),
            memory,
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

    /// The trainer's opponent.
    pub fn opponent(&self) -> Opponent {
        self.opponent
    }

    /// Games per second the trainer aims at.
    pub fn speed(&self) -> u32 {
        self.speed
    }

    /// Whether a person's game is waiting for a move.
    pub fn in_game(&self) -> bool {
        self.shown
            .as_ref()
            .is_some_and(|s| s.person && !s.session.is_over())
    }

    /// Starts a person's game: MENACE (X) draws its first bead at once.
    /// An unfinished game is abandoned (its beads go back).
    pub fn new_game(&mut self) -> Result<(), MoveError> {
        if self.training {
            return Err(MoveError::Training);
        }
        self.note_opponent("you");
        let menace = &mut self.memory.x;
        menace.abandon();
        let mut session = Session::new(menace);
        session.menace_move(menace);
        self.show(session, true);
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
        let session = &mut self.shown.as_mut().expect("in a game").session;
        let menace = &mut self.memory.x;
        session.play(menace, Point(square as u16))?;
        session.menace_move(menace);
        let result = session.result();
        result.inspect(|&r| self.recent.add(r));
        Ok(result.is_some())
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
        if opponent == Opponent::Menace {
            self.memory.with_second_learner(self.seed);
        }
        self.opponent = opponent;
        if speed != self.speed {
            self.recent = Recent::new(speed, self.memory.x.games());
        }
        self.speed = speed;
        if self.training {
            self.note_opponent(&opponent.to_string());
        }
    }

    /// Starts or stops training; starting abandons a person's game.
    pub fn set_training(&mut self, on: bool) {
        if on && !self.training {
            self.abandon();
            self.note_opponent(&self.opponent.to_string());
        }
        self.training = on;
    }

    /// Changes what each result pays back, from the next game learned on
    /// (both machines, when there are two).
    pub fn set_rewards(&mut self, win: i32, draw: i32, loss: i32) -> Result<(), BadRules> {
        self.memory.x.set_rewards(win, draw, loss)?;
        if let Some(o) = &mut self.memory.o {
            o.set_rewards(win, draw, loss)?;
        }
        Ok(())
    }

    /// Throws the boxes away: fresh machines of `preset` with `rules`, no
    /// games, an empty curve. Refused while training.
    pub fn reset(&mut self, preset: Preset, rules: Rules) -> Result<(), MoveError> {
        if self.training {
            return Err(MoveError::Training);
        }
        self.memory = Memory {
            x: Menace::with_rules(preset, rules, Player::X, self.seed),
            o: None,
        };
        self.shown = None;
        self.recent = Recent::new(self.speed, 0);
        self.marks.clear();
        Ok(())
    }

    /// Marks the chart where `who` starts playing MENACE's games, unless
    /// it was already the one playing them.
    fn note_opponent(&mut self, who: &str) {
        if self.marks.back().is_some_and(|m| m.who == who) {
            return;
        }
        if self.marks.len() == MARKS {
            self.marks.pop_front();
        }
        self.marks.push_back(Mark {
            game: self.memory.x.games() + 1,
            who: who.to_string(),
        });
    }

    /// Plays one training game and shows it.
    pub fn train_one(&mut self) -> GameResult {
        let (menace, opponent): (&mut Menace, &mut dyn Seat) = match self.opponent {
            Opponent::Random => (&mut self.memory.x, &mut self.random),
            Opponent::Perfect => (&mut self.memory.x, &mut self.perfect),
            Opponent::Menace => {
                let (menace, second) = self.memory.with_second_learner(self.seed);
                (menace, second)
            }
        };
        let mut session = Session::new(menace);
        let result = session
            .play_out(menace, opponent)
            .result_for(menace.player());
        self.show(session, false);
        result
    }

    /// Puts `session` on show, counting it if it is over.
    fn show(&mut self, session: Session, person: bool) {
        if let Some(result) = session.result() {
            self.recent.add(result);
        }
        self.shown = Some(Shown { session, person });
    }
}
