//! The shared MENACE: its boxes, the game on show and the trainer settings.

use inarow_agents::{Perfect, RandomAgent};
use inarow_core::{Point, TicTacToe};
use inarow_menace::{AgentSeat, Curve, GameResult, Memory, Menace, Seat, Session, opponent_seed};

use super::{MoveError, Opponent};

/// The chart keeps at most this many blocks; past it neighbours merge.
const CHART_BLOCKS: usize = 100;

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
    /// Every game counted since the room opened, person's or trainer's.
    pub(super) curve: Curve,
}

impl Room {
    /// A room around loaded (or fresh) machines; opponents follow `seed`
    /// as in `inarow menace train`.
    pub fn new(memory: Memory, seed: u64) -> Room {
        Room {
            memory,
            seed,
            shown: None,
            opponent: Opponent::Random,
            speed: 10,
            training: false,
            random: AgentSeat(RandomAgent::new(opponent_seed(seed))),
            perfect: AgentSeat(Perfect::new(opponent_seed(seed))),
            curve: Curve::bounded(CHART_BLOCKS),
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
            .is_some_and(|s| s.person && !s.session.is_over())
    }

    /// Starts a person's game: MENACE (X) draws its first bead at once.
    /// An unfinished game is abandoned (its beads go back).
    pub fn new_game(&mut self) -> Result<(), MoveError> {
        if self.training {
            return Err(MoveError::Training);
        }
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
        result.inspect(|&r| self.curve.add(r));
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
            self.curve.add(result);
        }
        self.shown = Some(Shown { session, person });
    }
}
