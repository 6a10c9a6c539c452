//! A game's record replayed on the rules: what a merge checks of every game
//! a part file brings, so that a part edited by hand is refused.
//!
//! The stones are played from the empty board through the Swap2 machine
//! ([`inarow_core::swap2::Swap2`]) in the order recorded: the opener's two
//! black stones and one white, the answer the record's `swap` names (`black`,
//! `white` and its white stone, or `choose` and its black and white stones,
//! then the opener's colour as `black` and `white` say), then the moves,
//! each by the bot playing the colour to move (the colour with fewer stones,
//! black on equal counts), each on the board and on an empty point. The
//! result must be what the stones give: `five` where the last stone made a
//! five (exactly five under the exact rule, and for black under renju) and
//! its maker is the winner, `full board` where the board is full with no
//! five, `forbidden` where (under renju) the last stone is black's on a
//! point forbidden to black, for the reason the record gives (`double
//! three`, `double four`, `overline`), and the winner is the other bot,
//! and `forfeit` only
//! where the bot at fault is the one whose answer was awaited and the game
//! was not over on the board; only a limit (memory, processes, cpu, file
//! size, disk) may cost a bot a game already over on the board, since the
//! judge reads the limits again at the end. A fault's details must be the
//! tournament's (its time limit, its sandbox's limits) and fit the board (a
//! taken point is taken, an off-board point is off the board); that its
//! words are the fault's, and that it names bots of the game, is checked
//! when the record is read ([`crate::record`]).
//!
//! What a replay cannot see is why a bot forfeited: a timeout, a crash or
//! a bad answer at the point where its answer was awaited leaves the same
//! stones.
//!
//! A forbidden black stone of the opening would lose for its placer as in
//! the referee, but none can arise (the opening has three black stones at
//! most, and a forbidden point needs four besides its own), so a record
//! claiming one is refused like any record whose stones do not make it.

use inarow_contest::{Ending, Fault};
use inarow_core::swap2::{Phase, Role, Step, Swap, Swap2, Swap2Error};
use inarow_core::{Game, Outcome, Player, Point, Rule, Xy};
use inarow_protocol::koth::SIZE;

use crate::record::{Answer, Colour, Forfeit, GameRecord, Seat, Stone};
use crate::tournament;
use inarow_sandbox::{Limit, Limits};

/// The terms of the tournament a game is checked against.
#[derive(Clone, Copy, Debug)]
pub struct Terms<'a> {
    /// Freestyle (five or more wins), exact five or renju.
    pub rule: Rule,
    /// The time limit per answer in seconds; 0 for none.
    pub timeout_seconds: f64,
    /// The sandbox's limits, when the bots ran contained.
    pub limits: Option<&'a Limits>,
}

/// What a replay found wrong with a record: one line, not naming the game.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The stones stop before a stone the game needs.
    #[error("the stones stop before {what}")]
    StonesStop {
        /// The stone awaited, in words.
        what: &'static str,
    },
    /// A stone off the board.
    #[error("stone {number} at ({x},{y}) is off the board")]
    OffBoard {
        /// The stone, from 1.
        number: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
    },
    /// A stone of the wrong bot or colour.
    #[error(
        "stone {number} at ({x},{y}) is {by:?}'s {}, but {what} is {seat:?}'s {}",
        colour.name(),
        wanted.name()
    )]
    WrongStone {
        /// The stone, from 1.
        number: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
        /// Who the record says put it.
        by: Seat,
        /// Its colour in the record.
        colour: Colour,
        /// The stone awaited, in words.
        what: &'static str,
        /// Whose stone it must be.
        seat: Seat,
        /// The colour it must be.
        wanted: Colour,
    },
    /// A stone on a point already taken.
    #[error("stone {number} at ({x},{y}) is on a point stone {first} already holds")]
    Taken {
        /// The stone, from 1.
        number: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
        /// The stone already there, from 1.
        first: usize,
    },
    /// A step the rules refuse.
    #[error("stone {number} breaks the rules: {why}")]
    BreaksRules {
        /// The stones played so far.
        number: usize,
        /// The rules' refusal.
        why: Swap2Error,
    },
    /// An answer or colours without stones.
    #[error("names an answer to the opening or colours, but has no stones")]
    NoStones,
    /// An opening of fewer than three stones.
    #[error("the opening stops after {count} stones (the opener places all three at once)")]
    ShortOpening {
        /// The stones recorded.
        count: usize,
    },
    /// A stone after the game was over.
    #[error("stone {number} comes after the game was over ({ending})")]
    AfterTheEnd {
        /// The stone, from 1.
        number: usize,
        /// How the game ended, in words.
        ending: String,
    },
    /// A move while something else was awaited.
    #[error("stone {number} comes while {awaited} was awaited")]
    OutOfTurn {
        /// The stone, from 1.
        number: usize,
        /// What was awaited, in words.
        awaited: String,
    },
    /// Colours the answer to the opening does not give.
    #[error("names {recorded}, but the answer to the opening ({answer}) gives {settled}")]
    Colours {
        /// The colours recorded, in words.
        recorded: String,
        /// The answer recorded.
        answer: &'static str,
        /// The colours the answer gives, in words.
        settled: String,
    },
    /// A five the stones do not make.
    #[error(
        "says five, but its {stones} stones make no five{}",
        match rule {
            Rule::Freestyle => "",
            Rule::Exact => " (exactly five under the exact rule)",
            Rule::Renju => " (exactly five for black under renju)",
        }
    )]
    NoFive {
        /// The stones recorded.
        stones: usize,
        /// The tournament's rule.
        rule: Rule,
    },
    /// Another ending than `forbidden` where a black stone stands on a
    /// forbidden point.
    #[error("says {ending}, but stone {number} at ({x},{y}) is black on a forbidden point ({why})")]
    Forbidden {
        /// The ending recorded.
        ending: Ending,
        /// The stone, from 1.
        number: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
        /// Why the point is forbidden.
        why: inarow_core::renju::Forbidden,
    },
    /// The ending `forbidden` where no black stone stands on a forbidden point.
    #[error(
        "says forbidden, but none of its {stones} stones is black on a point forbidden to black{}",
        if *rule == Rule::Renju { "" } else { " (only renju forbids points)" }
    )]
    NotForbidden {
        /// The stones recorded.
        stones: usize,
        /// The tournament's rule.
        rule: Rule,
    },
    /// A forbidden point's reason other than the stones give.
    #[error("says forbidden ({recorded}), but stone {number} at ({x},{y}) is forbidden as {why}")]
    OtherForbidden {
        /// The reason recorded.
        recorded: String,
        /// The stone, from 1.
        number: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
        /// Why the point is forbidden.
        why: inarow_core::renju::Forbidden,
    },
    /// A winner who put the forbidden stone.
    #[error(
        "names {named} the winner, but {fouler} put the stone on the forbidden point, so {other} wins"
    )]
    FoulerWon {
        /// The winner recorded, or `nobody`.
        named: String,
        /// The bot that put the stone.
        fouler: String,
        /// Its opponent.
        other: String,
    },
    /// A winner who did not make the five.
    #[error("names {named} the winner, but {maker} made the five ({colour})")]
    NotTheMaker {
        /// The winner recorded, or `nobody`.
        named: String,
        /// The bot that made the five.
        maker: String,
        /// Its colour in words.
        colour: &'static str,
    },
    /// A full board the stones do not fill.
    #[error("says full board, but its {stones} stones {how}")]
    NotFull {
        /// The stones recorded.
        stones: usize,
        /// What they do instead, in words.
        how: String,
    },
    /// A full board with a winner.
    #[error("a full board is a tie, but it names {winner} the winner")]
    TieWon {
        /// The winner recorded.
        winner: String,
    },
    /// A forfeit beside an ending on the board.
    #[error("ends by {ending}, but records a forfeit by {by}")]
    ForfeitBeside {
        /// The ending recorded.
        ending: Ending,
        /// The bot that forfeited.
        by: String,
    },
    /// An ending by forfeit without one.
    #[error("ends by forfeit, but names no forfeit")]
    NoForfeit,
    /// An ending no judge game has.
    #[error("ends by {ending:?}, not five, full board, forbidden or forfeit")]
    OtherEnding {
        /// The ending recorded (empty for none).
        ending: &'static str,
    },
    /// A forfeit won by the bot at fault.
    #[error("{by} forfeited, so {other} wins, not {winner}")]
    ForfeitLost {
        /// The bot that forfeited.
        by: String,
        /// Its opponent.
        other: String,
        /// The winner recorded, or `nobody`.
        winner: String,
    },
    /// A forfeit, not for a limit, after the game was over on the board.
    #[error("{by} forfeits for {fault} after the game was over ({ending})")]
    ForfeitAfterTheEnd {
        /// The bot that forfeited.
        by: String,
        /// Its fault.
        fault: Fault,
        /// How the game ended, in words.
        ending: String,
    },
    /// A forfeit by a bot whose answer was not awaited.
    #[error("{who} forfeits for {fault}, but {awaited} was awaited, not {by}'s")]
    NotAwaited {
        /// The seat and bot that forfeited, in words.
        who: String,
        /// Its fault.
        fault: Fault,
        /// What was awaited, in words.
        awaited: String,
        /// The bot that forfeited.
        by: String,
    },
    /// Half an answer stopped by something else than a taken point.
    #[error(
        "the answerer laid one stone of two and forfeits for {fault}: only a taken point stops an answer half way"
    )]
    HalfAnswer {
        /// The fault recorded.
        fault: Fault,
    },
    /// A timeout in a tournament without a time limit.
    #[error("a forfeit for {fault}, but the tournament has no time limit")]
    Untimed {
        /// The fault recorded.
        fault: Fault,
    },
    /// A timeout of another limit than the tournament's.
    #[error("a forfeit for {fault}, but the time limit is {seconds} s")]
    OtherTimeout {
        /// The fault recorded.
        fault: Fault,
        /// The tournament's limit in seconds.
        seconds: f64,
    },
    /// A taken point that was not taken.
    #[error("a forfeit for {fault}, but no stone stood there when it was named")]
    NotTaken {
        /// The fault recorded.
        fault: Fault,
    },
    /// A point named twice where a single point was awaited.
    #[error("a forfeit for {fault}, but {awaited} names a single point on the board")]
    NotRepeated {
        /// The fault recorded.
        fault: Fault,
        /// What was awaited, in words.
        awaited: String,
    },
    /// An off-board point on the board.
    #[error("a forfeit for {fault}, but ({x},{y}) is on the board")]
    OnBoard {
        /// The fault recorded.
        fault: Fault,
        /// The column.
        x: i64,
        /// The row.
        y: i64,
    },
    /// A limit other than the tournament's.
    #[error("a forfeit for {fault}, but under the tournament's limits it reads {expected}")]
    OtherLimit {
        /// The fault recorded.
        fault: Fault,
        /// The fault under the tournament's limits.
        expected: Fault,
    },
}

/// Replays `record` on `terms` and checks that its colours and result are
/// what its stones give.
pub fn replay(record: &GameRecord, terms: &Terms<'_>) -> Result<(), ReplayError> {
    let mut replay = Replay {
        record,
        game: Swap2::new(&tournament::board(terms.rule)),
        taken: vec![0; SIZE * SIZE],
        next: 0,
        ended_at: 0,
        half_answer: false,
    };
    replay.stones()?;
    replay.result(terms)
}

/// A colour in words.
fn colour_name(colour: Player) -> &'static str {
    match colour {
        Player::X => "black",
        Player::O => "white",
    }
}

/// The limit a fault is for going over, if it is one.
fn limit_of(fault: &Fault) -> Option<Limit> {
    Some(match fault {
        Fault::Memory { .. } => Limit::Memory,
        Fault::Processes { .. } => Limit::Processes,
        Fault::Cpu { .. } => Limit::Cpu,
        Fault::FileSize { .. } => Limit::FileSize,
        Fault::Disk { .. } => Limit::Disk,
        _ => return None,
    })
}

/// The seat acting in `role`.
fn seat(role: Role) -> Seat {
    Seat::from(role)
}

/// A replay under way.
struct Replay<'r> {
    record: &'r GameRecord,
    game: Swap2,
    /// For each point of the board, the number (from 1) of the stone on it; 0 when empty.
    taken: Vec<usize>,
    /// The index of the next stone of the record to play.
    next: usize,
    /// The number of the stone that ended the game on the board, once it did.
    ended_at: usize,
    /// The answerer laid the black stone of a `choose` answer and its white
    /// one was found taken: the record keeps the black stone, the answer is
    /// not given, and the answerer forfeits.
    half_answer: bool,
}

impl Replay<'_> {
    /// The name of the bot in `seat`.
    fn name(&self, seat: Seat) -> &str {
        self.record.name(seat)
    }

    /// A seat and its bot, in words: `A (amy)`.
    fn who(&self, seat: Seat) -> String {
        format!("{seat:?} ({})", self.name(seat))
    }

    /// Takes the next stone of the record, which must be `seat`'s, of
    /// `colour`, on the board and on an empty point (`what` says what it
    /// is, for the error).
    fn take(
        &mut self,
        seat: Seat,
        colour: Player,
        what: &'static str,
    ) -> Result<Point, ReplayError> {
        let number = self.next + 1;
        let Some(stone) = self.record.stones.get(self.next) else {
            return Err(ReplayError::StonesStop { what });
        };
        let Stone {
            by,
            colour: c,
            at: Xy { x, y },
        } = *stone;
        if x >= SIZE || y >= SIZE {
            return Err(ReplayError::OffBoard { number, x, y });
        }
        if (by, c) != (seat, Colour::from(colour)) {
            return Err(ReplayError::WrongStone {
                number,
                x,
                y,
                by,
                colour: c,
                what,
                seat,
                wanted: colour.into(),
            });
        }
        let point = Point::at(x, y, SIZE);
        match self.taken[point.index()] {
            0 => self.taken[point.index()] = number,
            first => {
                return Err(ReplayError::Taken {
                    number,
                    x,
                    y,
                    first,
                });
            }
        }
        self.next += 1;
        Ok(point)
    }

    /// Applies a step the record's stones make; the stones were checked,
    /// so a refusal means the record's steps are out of order.
    fn apply(&mut self, role: Role, step: Step) -> Result<(), ReplayError> {
        self.game
            .apply(role, step)
            .map_err(|why| ReplayError::BreaksRules {
                number: self.next,
                why,
            })?;
        if self.game.outcome().is_some() && self.ended_at == 0 {
            self.ended_at = self.next;
        }
        Ok(())
    }

    /// Plays the record's stones: the opening, the answer its `swap` names,
    /// the opener's colour, the moves.
    fn stones(&mut self) -> Result<(), ReplayError> {
        let record = self.record;
        let count = record.stones.len();
        if count == 0 {
            return match (&record.swap, &record.black) {
                (None, None) => Ok(()),
                _ => Err(ReplayError::NoStones),
            };
        }
        if count < 3 {
            return Err(ReplayError::ShortOpening { count });
        }
        let b1 = self.take(Seat::A, Player::X, "the opener's first stone")?;
        let b2 = self.take(Seat::A, Player::X, "the opener's second stone")?;
        let w = self.take(Seat::A, Player::O, "the opener's third stone")?;
        self.apply(Role::Opener, Step::Open([b1, b2, w]))?;
        self.answer()?;
        self.colours()?;
        while self.next < count {
            let number = self.next + 1;
            if let Some(outcome) = self.game.outcome() {
                return Err(ReplayError::AfterTheEnd {
                    number,
                    ending: self.ending(outcome),
                });
            }
            let Some(role) = self
                .game
                .to_act()
                .filter(|_| self.game.phase() == Phase::Play)
            else {
                return Err(ReplayError::OutOfTurn {
                    number,
                    awaited: self.awaited(),
                });
            };
            let colour = self.game.game().to_move();
            let point = self.take(seat(role), colour, "the move")?;
            self.apply(role, Step::Play(point))?;
        }
        Ok(())
    }

    /// Plays the answer to the opening that the record's `swap` names.
    fn answer(&mut self) -> Result<(), ReplayError> {
        let stones = &self.record.stones;
        match self.record.swap {
            None => {
                // No answer given: the answerer forfeited, after laying at
                // most the black stone of two.
                if self.next < stones.len() {
                    let what = "the black stone of the answerer's two";
                    self.take(Seat::B, Player::X, what)?;
                    self.half_answer = true;
                }
                Ok(())
            }
            Some(Answer::Black) => self.apply(Role::Answerer, Step::Answer(Swap::Black)),
            Some(Answer::White) => {
                let white = self.take(Seat::B, Player::O, "the answer `white`'s stone")?;
                self.apply(Role::Answerer, Step::Answer(Swap::White(white)))
            }
            Some(Answer::Choose) => {
                let black = self.take(Seat::B, Player::X, "the answer `choose`'s first stone")?;
                let white = self.take(Seat::B, Player::O, "the answer `choose`'s second stone")?;
                self.apply(Role::Answerer, Step::Answer(Swap::Place { black, white }))?;
                // The opener's choice, as the colours recorded say.
                match self.record.black {
                    None => Ok(()),
                    Some(seat) => {
                        let colour = if seat == Seat::A {
                            Player::X
                        } else {
                            Player::O
                        };
                        self.apply(Role::Opener, Step::Colour(colour))
                    }
                }
            }
        }
    }

    /// Checks the colours recorded against those the answer settled.
    fn colours(&self) -> Result<(), ReplayError> {
        let record = self.record;
        let settled = Player::BOTH.map(|colour| self.game.role(colour).map(seat));
        let recorded = [record.black, record.white()];
        if settled == recorded {
            return Ok(());
        }
        let say = |seats: &[Option<Seat>; 2]| match seats.map(|s| record.named(s)) {
            [Some(black), Some(white)] => format!("black {black} and white {white}"),
            [None, None] => "no colours".to_string(),
            [black, white] => format!(
                "black {} and white {}",
                black.unwrap_or("nobody"),
                white.unwrap_or("nobody")
            ),
        };
        Err(ReplayError::Colours {
            recorded: say(&recorded),
            answer: record.swap.map_or("none", Answer::name),
            settled: say(&settled),
        })
    }

    /// How the game ended on the board, in words.
    fn ending(&self, outcome: Outcome) -> String {
        if let Some(foul) = self.game.foul() {
            return format!(
                "black on a forbidden point ({}) by {} at stone {}",
                foul.why,
                self.name(seat(foul.role)),
                self.ended_at
            );
        }
        match outcome {
            Outcome::Win(colour) => format!(
                "a five by {} ({}) at stone {}",
                colour_name(colour),
                self.maker(colour),
                self.ended_at
            ),
            Outcome::Draw => format!("the board full at stone {}", self.ended_at),
        }
    }

    /// The bot playing `colour`, once colours are settled.
    fn maker(&self, colour: Player) -> String {
        self.game
            .role(colour)
            .map_or_else(|| "nobody".into(), |role| self.name(seat(role)).into())
    }

    /// The seat whose answer was awaited when the stones stop; `None` once
    /// the game is over on the board.
    fn to_act(&self) -> Option<Seat> {
        if self.half_answer {
            return Some(Seat::B);
        }
        self.game.to_act().map(seat)
    }

    /// What was awaited when the stones stop, in words.
    fn awaited(&self) -> String {
        let Some(seat) = self.to_act() else {
            return "nothing (the game was over)".into();
        };
        let what = match self.game.phase() {
            _ if self.half_answer => "answer to the opening",
            Phase::Open => "opening",
            Phase::Answer => "answer to the opening",
            Phase::Colour => "choice of a colour",
            Phase::Play | Phase::Over => "move",
        };
        format!("{}'s {what}", self.who(seat))
    }

    /// Checks the result recorded against what the stones give.
    fn result(&self, terms: &Terms<'_>) -> Result<(), ReplayError> {
        let record = self.record;
        let outcome = self.game.outcome();
        let winner = record.named(record.winner);
        let foul = self.game.foul();
        match (record.reason, &record.forfeit) {
            (Some(ending @ (Ending::Five | Ending::FullBoard)), None) if foul.is_some() => {
                let foul = foul.expect("matched");
                let (x, y) = foul.point.xy(SIZE);
                Err(ReplayError::Forbidden {
                    ending,
                    number: self.ended_at,
                    x,
                    y,
                    why: foul.why,
                })
            }
            (Some(Ending::Forbidden), None) => {
                let Some(foul) = foul else {
                    return Err(ReplayError::NotForbidden {
                        stones: record.stones.len(),
                        rule: terms.rule,
                    });
                };
                if record.forbidden != Some(foul.why) {
                    let (x, y) = foul.point.xy(SIZE);
                    return Err(ReplayError::OtherForbidden {
                        recorded: record
                            .forbidden
                            .map_or_else(|| "no reason".into(), |why| why.to_string()),
                        number: self.ended_at,
                        x,
                        y,
                        why: foul.why,
                    });
                }
                let fouler = seat(foul.role);
                if record.winner != Some(fouler.other()) {
                    return Err(ReplayError::FoulerWon {
                        named: winner.unwrap_or("nobody").to_string(),
                        fouler: self.name(fouler).to_string(),
                        other: self.name(fouler.other()).to_string(),
                    });
                }
                Ok(())
            }
            (Some(Ending::Five), None) => {
                let Some(Outcome::Win(colour)) = outcome else {
                    return Err(ReplayError::NoFive {
                        stones: record.stones.len(),
                        rule: terms.rule,
                    });
                };
                let maker = self.maker(colour);
                if winner != Some(maker.as_str()) {
                    return Err(ReplayError::NotTheMaker {
                        named: winner.unwrap_or("nobody").to_string(),
                        maker,
                        colour: colour_name(colour),
                    });
                }
                Ok(())
            }
            (Some(Ending::FullBoard), None) => {
                if outcome != Some(Outcome::Draw) {
                    return Err(ReplayError::NotFull {
                        stones: record.stones.len(),
                        how: match outcome {
                            Some(won) => format!("end in {}", self.ending(won)),
                            None => format!("leave {} points empty", SIZE * SIZE - self.next),
                        },
                    });
                }
                match winner {
                    None => Ok(()),
                    Some(w) => Err(ReplayError::TieWon {
                        winner: w.to_string(),
                    }),
                }
            }
            (Some(Ending::Forfeit), Some(forfeit)) => self.forfeit(forfeit, terms),
            (
                Some(ending @ (Ending::Five | Ending::FullBoard | Ending::Forbidden)),
                Some(forfeit),
            ) => Err(ReplayError::ForfeitBeside {
                ending,
                by: record.name(forfeit.by).to_string(),
            }),
            (Some(Ending::Forfeit), None) => Err(ReplayError::NoForfeit),
            (other, _) => Err(ReplayError::OtherEnding {
                ending: other.map_or("", Ending::name),
            }),
        }
    }

    /// Checks a forfeit: by a bot of the game, the other one the winner, its
    /// fault in its own words, the tournament's, fitting the board, and
    /// where that bot's answer was awaited.
    fn forfeit(&self, forfeit: &Forfeit, terms: &Terms<'_>) -> Result<(), ReplayError> {
        let record = self.record;
        let by = forfeit.by;
        let other = by.other();
        if record.winner != Some(other) {
            return Err(ReplayError::ForfeitLost {
                by: self.name(by).to_string(),
                other: self.name(other).to_string(),
                winner: record.named(record.winner).unwrap_or("nobody").to_string(),
            });
        }
        let fault = &forfeit.fault;
        self.fault_fits(fault, terms)?;
        let limit = limit_of(fault).is_some();
        if let Some(outcome) = self.game.outcome() {
            // The judge reads the limits again when the game is over: a bot
            // over one loses even a game it won on the board.
            if limit {
                return Ok(());
            }
            return Err(ReplayError::ForfeitAfterTheEnd {
                by: self.name(by).to_string(),
                fault: fault.clone(),
                ending: self.ending(outcome),
            });
        }
        let awaited = self.to_act().expect("a game not over has a bot to act");
        if by != awaited {
            return Err(ReplayError::NotAwaited {
                who: self.who(by),
                fault: fault.clone(),
                awaited: self.awaited(),
                by: self.name(by).to_string(),
            });
        }
        if self.half_answer && !matches!(fault, Fault::Occupied { .. }) {
            return Err(ReplayError::HalfAnswer {
                fault: fault.clone(),
            });
        }
        Ok(())
    }

    /// Checks that a fault's details are the tournament's and fit the board.
    fn fault_fits(&self, fault: &Fault, terms: &Terms<'_>) -> Result<(), ReplayError> {
        match *fault {
            Fault::Timeout { seconds } => {
                if terms.timeout_seconds == 0.0 {
                    return Err(ReplayError::Untimed {
                        fault: fault.clone(),
                    });
                }
                if seconds.to_bits() != terms.timeout_seconds.to_bits() {
                    return Err(ReplayError::OtherTimeout {
                        fault: fault.clone(),
                        seconds: terms.timeout_seconds,
                    });
                }
            }
            Fault::Occupied { point } => {
                let taken = point.point(SIZE).map_or(0, |p| self.taken[p.index()]);
                // Half an answer: its white point was taken before its black stone was laid.
                let before = if self.half_answer {
                    self.next
                } else {
                    self.next + 1
                };
                if taken == 0 || taken >= before {
                    return Err(ReplayError::NotTaken {
                        fault: fault.clone(),
                    });
                }
            }
            Fault::Repeated { point } => {
                // Only the opening (three points) and an answer (two) name more than one.
                let many =
                    matches!(self.game.phase(), Phase::Open | Phase::Answer) && !self.half_answer;
                if point.point(SIZE).is_none() || !many {
                    return Err(ReplayError::NotRepeated {
                        fault: fault.clone(),
                        awaited: self.awaited(),
                    });
                }
            }
            Fault::OffBoard { x, y } => {
                let size = SIZE as i64;
                if (0..size).contains(&x) && (0..size).contains(&y) {
                    return Err(ReplayError::OnBoard {
                        fault: fault.clone(),
                        x,
                        y,
                    });
                }
            }
            Fault::Memory { .. }
            | Fault::Processes { .. }
            | Fault::Cpu { .. }
            | Fault::FileSize { .. }
            | Fault::Disk { .. } => {
                let expected = limit_of(fault)
                    .zip(terms.limits)
                    .map(|(limit, limits)| Fault::over(limit, limits));
                if let Some(expected) = expected.filter(|e| e != fault) {
                    return Err(ReplayError::OtherLimit {
                        fault: fault.clone(),
                        expected,
                    });
                }
            }
            Fault::Syntax { .. }
            | Fault::Crash { .. }
            | Fault::Eof
            | Fault::EndlessLine { .. }
            | Fault::NoStart { .. }
            | Fault::Sandbox { .. } => {}
        }
        Ok(())
    }
}

/// Games played by the referee itself from scripts, for the tests of the
/// replay and of the merge: every record here is one the judge writes.
#[cfg(test)]
pub(crate) mod examples {
    use std::collections::VecDeque;

    use inarow_core::swap2::{Phase, Role, Step, Swap, Swap2};
    use inarow_core::{Game, Player, Point, Rule};
    use inarow_protocol::koth;

    use crate::record::GameRecord;
    use crate::referee::{Contestant, play_game};
    use crate::tournament;
    use inarow_contest::Fault;

    /// Answers from a script; once it runs dry, forfeits for `then`.
    struct Script {
        name: String,
        answers: VecDeque<String>,
        then: Fault,
    }

    impl Contestant for Script {
        fn name(&self) -> &str {
            &self.name
        }
        fn ask(&mut self, _prompt: &str) -> Result<String, Fault> {
            self.answers.pop_front().ok_or_else(|| self.then.clone())
        }
        fn exit(&mut self, _line: &str) {}
        fn finish(&mut self) {}
    }

    /// Black (the answerer, who takes black) closes a gap to make six in
    /// a row on row 0: a win under the freestyle rule only. The opener's
    /// answers, then the answerer's (the referee's test game and the
    /// replay's).
    pub(crate) const OVERLINE: ([&str; 6], [&str; 6]) = (
        [
            "(0,0) (1,0) (0,9)",
            "(10,10)",
            "(12,12)",
            "(10,12)",
            "(12,10)",
            "(14,14)",
        ],
        ["B", "(3,0)", "(4,0)", "(5,0)", "(2,0)", "(9,9)"],
    );

    /// [`OVERLINE`] as the answers of each role in turn, for [`refereed`].
    pub(crate) fn overline() -> Vec<(Role, String)> {
        let (a, b) = OVERLINE;
        a.iter()
            .zip(&b)
            .flat_map(|(x, y)| {
                [
                    (Role::Opener, x.to_string()),
                    (Role::Answerer, y.to_string()),
                ]
            })
            .collect()
    }

    /// The game the referee records between `a` (who opens) and `b` when
    /// each answers as `answers` says, in turn (each answer with the role
    /// that gives it); the first bot asked past its script forfeits for
    /// `then`.
    pub(crate) fn refereed(
        rule: Rule,
        a: &str,
        b: &str,
        answers: &[(Role, String)],
        then: Fault,
    ) -> GameRecord {
        let script = |name: &str, role: Role| Script {
            name: name.into(),
            answers: answers
                .iter()
                .filter(|(r, _)| *r == role)
                .map(|(_, answer)| answer.clone())
                .collect(),
            then: then.clone(),
        };
        let (mut a, mut b) = (script(a, Role::Opener), script(b, Role::Answerer));
        play_game(&tournament::board(rule), &mut a, &mut b)
    }

    /// How a planned game goes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Plan {
        /// The answer to the opening: 0 take black, 1 a white stone, 2 two
        /// stones and the opener takes black, 3 two stones and the opener
        /// takes white.
        pub answer: u8,
        /// Who makes a five (on row 12, after `delay` other stones of its
        /// own); `None` fills the board with no five.
        pub five: Option<Player>,
        /// Stones of the maker of the five before it starts its line.
        pub delay: usize,
        /// The answers stop once this many stones are down (or, with 0
        /// to 3, before the opening, the answer or the choice).
        pub stop: Option<usize>,
        /// Varies where the stones go.
        pub shift: usize,
    }

    /// The points of the board that a colouring without five in a row
    /// gives `colour` ((x + 2y) mod 4 below 2 is black: runs of at most
    /// two along rows and both diagonals, one along columns), in rows
    /// `0..rows`, turned by `shift`.
    fn pattern(colour: Player, rows: usize, shift: usize) -> VecDeque<Point> {
        let mut cells: VecDeque<Point> = (0..rows)
            .flat_map(|y| (0..15).map(move |x| (x, y)))
            .filter(|&(x, y)| ((x + 2 * y) % 4 < 2) == (colour == Player::X))
            .map(|(x, y)| Point::at(x, y, 15))
            .collect();
        cells.rotate_left(shift % cells.len());
        cells
    }

    /// The answers of a game played as `plan` says, each with its role.
    pub(crate) fn answers(plan: Plan) -> Vec<(Role, String)> {
        let rows = if plan.five.is_some() { 9 } else { 15 };
        let mut cells = Player::BOTH.map(|c| pattern(c, rows, plan.shift));
        let mut line: VecDeque<Point> = (0..5)
            .map(|i| Point::at(plan.shift % 11 + i, 12, 15))
            .collect();
        let mut own = 0;
        let mut next = |colour: Player, cells: &mut [VecDeque<Point>; 2]| {
            if Some(colour) == plan.five {
                own += 1;
                if own > plan.delay {
                    return line.pop_front().expect("five stones make the five");
                }
            }
            cells[colour.index()].pop_front().expect("enough cells")
        };
        let mut g = Swap2::new(&inarow_core::Mnk::gomoku());
        let mut out = Vec::new();
        while let Some(role) = g.to_act() {
            let phase = g.phase();
            let down = g.stones().len();
            if plan.stop.is_some_and(|stop| down >= stop) {
                break;
            }
            let step = match phase {
                Phase::Open => Step::Open([
                    next(Player::X, &mut cells),
                    next(Player::X, &mut cells),
                    next(Player::O, &mut cells),
                ]),
                Phase::Answer => Step::Answer(match plan.answer {
                    0 => Swap::Black,
                    1 => Swap::White(next(Player::O, &mut cells)),
                    _ => Swap::Place {
                        black: next(Player::X, &mut cells),
                        white: next(Player::O, &mut cells),
                    },
                }),
                Phase::Colour if plan.stop == Some(5) && plan.answer >= 2 => break,
                Phase::Colour => Step::Colour(if plan.answer == 2 {
                    Player::X
                } else {
                    Player::O
                }),
                Phase::Play => Step::Play(next(g.game().to_move(), &mut cells)),
                Phase::Over => unreachable!("the game is over"),
            };
            let answer = match step {
                Step::Open(stones) => koth::format_opening(stones),
                Step::Answer(swap) => koth::format_swap(swap),
                Step::Colour(colour) => koth::format_colour(colour),
                Step::Play(p) => koth::format_point(p),
                Step::OpenStone(_) => unreachable!(),
            };
            g.apply(role, step).expect("the plan is legal");
            out.push((role, answer));
        }
        out
    }

    /// The game the referee records of `plan` between `a` and `b`.
    pub(crate) fn planned(rule: Rule, a: &str, b: &str, plan: Plan, then: Fault) -> GameRecord {
        refereed(rule, a, b, &answers(plan), then)
    }

    /// The answerer takes white (`W (0,0)`), so the opener plays black,
    /// and its ninth stone, (7,7), makes two open threes (down from (7,5),
    /// across from (5,7)): forbidden under renju, a move like any other
    /// under the other rules.
    pub(crate) fn double_three() -> Vec<(Role, String)> {
        [
            (Role::Opener, "(7,5) (7,6) (0,14)"),
            (Role::Answerer, "W (0,0)"),
            (Role::Opener, "(5,7)"),
            (Role::Answerer, "(0,1)"),
            (Role::Opener, "(6,7)"),
            (Role::Answerer, "(0,2)"),
            (Role::Opener, "(7,7)"),
        ]
        .map(|(role, answer)| (role, answer.to_string()))
        .to_vec()
    }
}

#[cfg(test)]
mod tests {
    use inarow_core::swap2::Role;
    use inarow_core::{Player, Rule, Xy};

    use inarow_core::renju::Forbidden;

    use super::examples::{Plan, double_three, overline, planned, refereed};
    use super::*;
    use crate::record::{Forfeit, Seat, Stone};

    const TIMEOUT: Fault = Fault::Timeout { seconds: 10.0 };

    fn terms(rule: Rule) -> Terms<'static> {
        static LIMITS: std::sync::LazyLock<Limits> = std::sync::LazyLock::new(Limits::default);
        Terms {
            rule,
            timeout_seconds: 10.0,
            limits: Some(&LIMITS),
        }
    }

    fn plan(answer: u8, five: Option<Player>) -> Plan {
        Plan {
            answer,
            five,
            delay: 2,
            stop: None,
            shift: 3,
        }
    }

    /// The refusal of `record`, which must hold `says`.
    fn refused(record: &GameRecord, rule: Rule, says: &str) {
        let err = replay(record, &terms(rule)).expect_err(says).to_string();
        assert!(!err.contains('\n'), "{err}");
        assert!(err.contains(says), "{err}\nnot: {says}");
    }

    fn accepted(record: &GameRecord, rule: Rule) {
        if let Err(e) = replay(record, &terms(rule)) {
            panic!("{e}: {record:?}");
        }
    }

    #[test]
    fn legal_games_with_a_five_replay_under_both_rules() {
        for rule in [Rule::Freestyle, Rule::Exact] {
            for answer in 0..4 {
                for five in Player::BOTH {
                    let record = planned(rule, "amy", "bob", plan(answer, Some(five)), TIMEOUT);
                    assert_eq!(record.reason, Some(Ending::Five), "{record:?}");
                    accepted(&record, rule);
                }
            }
        }
    }

    #[test]
    fn a_black_stone_on_a_forbidden_point_replays_only_as_its_players_loss_under_renju() {
        let record = refereed(Rule::Renju, "amy", "bob", &double_three(), TIMEOUT);
        assert_eq!(
            (record.reason, record.forbidden, record.named(record.winner)),
            (
                Some(Ending::Forbidden),
                Some(Forbidden::DoubleThree),
                Some("bob")
            )
        );
        accepted(&record, Rule::Renju);
        // Under the other rules (7,7) is a move like any other.
        for rule in [Rule::Freestyle, Rule::Exact] {
            refused(
                &record,
                rule,
                "says forbidden, but none of its 9 stones is black on a point forbidden to black (only renju forbids points)",
            );
        }
        let forged = |change: &dyn Fn(&mut GameRecord), says: &str| {
            let mut forged = record.clone();
            change(&mut forged);
            refused(&forged, Rule::Renju, says);
        };
        forged(
            &|r| r.forbidden = Some(Forbidden::DoubleFour),
            "says forbidden (double four), but stone 9 at (7,7) is forbidden as double three",
        );
        forged(
            &|r| r.winner = Some(Seat::A),
            "names amy the winner, but amy put the stone on the forbidden point, so bob wins",
        );
        forged(
            &|r| {
                r.reason = Some(Ending::Five);
                r.forbidden = None;
            },
            "says five, but stone 9 at (7,7) is black on a forbidden point (double three)",
        );
        forged(
            &|r| {
                r.stones.pop();
            },
            "says forbidden, but none of its 8 stones is black on a point forbidden to black",
        );
        forged(
            &|r| {
                r.stones.push(Stone {
                    by: Seat::B,
                    colour: Colour::White,
                    at: Xy::new(0, 3),
                })
            },
            "stone 10 comes after the game was over (black on a forbidden point (double three) by amy at stone 9)",
        );
        forged(
            &|r| r.forfeit(Seat::A, Fault::Eof),
            "amy forfeits for EOF: closed its output without answering after the game was over (black on a forbidden point (double three) by amy at stone 9)",
        );
        // A limit read again at the end may still cost the game.
        let mut over = record.clone();
        over.forfeit(Seat::B, Fault::over(Limit::Memory, &Limits::default()));
        accepted(&over, Rule::Renju);
        // Under freestyle the game goes on: bob is asked for a move, and
        // that record replays there but not under renju.
        let free = refereed(Rule::Freestyle, "amy", "bob", &double_three(), TIMEOUT);
        assert_eq!(free.forfeit.as_ref().map(|f| f.by), Some(Seat::B));
        accepted(&free, Rule::Freestyle);
        refused(
            &free,
            Rule::Renju,
            "after the game was over (black on a forbidden point (double three) by amy at stone 9)",
        );
    }

    #[test]
    fn a_full_board_replays_as_a_tie() {
        for answer in 0..4 {
            let record = planned(Rule::Freestyle, "amy", "bob", plan(answer, None), TIMEOUT);
            assert_eq!(
                (record.reason, record.stones.len()),
                (Some(Ending::FullBoard), 225)
            );
            accepted(&record, Rule::Freestyle);
            accepted(&record, Rule::Exact);
            let mut cut = record.clone();
            cut.stones.pop();
            refused(
                &cut,
                Rule::Freestyle,
                "says full board, but its 224 stones leave 1 points empty",
            );
            let mut won = record;
            won.winner = Some(Seat::A);
            refused(
                &won,
                Rule::Freestyle,
                "a full board is a tie, but it names amy the winner",
            );
        }
    }

    #[test]
    fn under_the_exact_rule_a_six_is_not_a_win() {
        let free = refereed(Rule::Freestyle, "ay", "bee", &overline(), TIMEOUT);
        assert_eq!(
            (free.reason, free.named(free.winner)),
            (Some(Ending::Five), Some("bee"))
        );
        accepted(&free, Rule::Freestyle);
        refused(
            &free,
            Rule::Exact,
            "says five, but its 11 stones make no five (exactly five under the exact rule)",
        );
        // Under the exact rule the game goes on past the six; A forfeits
        // when its script runs dry, with its move awaited.
        let exact = refereed(Rule::Exact, "ay", "bee", &overline(), TIMEOUT);
        assert_eq!(exact.forfeit.as_ref().map(|f| f.by), Some(Seat::A));
        accepted(&exact, Rule::Exact);
        // Under the freestyle rule the six ended the game: the stones after it are not the game's.
        refused(
            &exact,
            Rule::Freestyle,
            "comes after the game was over (a five by black (bee) at stone 11)",
        );
    }

    #[test]
    fn a_forfeit_by_the_bot_whose_answer_was_awaited_is_accepted() {
        // Stopped before the opening (A), the answer (B), the colour
        // choice (A), and in play at each side's move.
        for (answer, stop, by) in [
            (0, 0, "amy"),
            (1, 3, "bob"),
            (2, 3, "bob"),
            (2, 5, "amy"),
            (0, 9, "amy"),
            (0, 10, "bob"),
            (1, 9, "bob"),
            (3, 12, "bob"),
            (1, 10, "amy"),
        ] {
            let plan = Plan {
                stop: Some(stop),
                ..plan(answer, Some(Player::X))
            };
            let record = planned(Rule::Freestyle, "amy", "bob", plan, TIMEOUT);
            let forfeit = record.forfeit.clone().expect("a forfeit");
            assert_eq!(
                (record.name(forfeit.by), record.stones.len()),
                (by, stop),
                "{record:?}"
            );
            accepted(&record, Rule::Freestyle);
            // The same forfeit by the other bot is refused.
            let mut other = record.clone();
            other.forfeit = Some(Forfeit {
                by: forfeit.by.other(),
                ..forfeit
            });
            other.winner = Some(forfeit.by);
            refused(
                &other,
                Rule::Freestyle,
                &format!(
                    "forfeits for timeout: no answer within 10 s, but {} ",
                    if by == "amy" {
                        "A (amy)'s"
                    } else {
                        "B (bob)'s"
                    }
                ),
            );
        }
    }

    #[test]
    fn an_answer_stopped_by_a_taken_point_keeps_its_black_stone() {
        // B's two stones: black on (5,5), white on A's first stone.
        let answers = [
            (Role::Opener, "(7,7) (8,8) (7,8)".to_string()),
            (Role::Answerer, "(5,5) (7,7)".to_string()),
        ];
        let record = refereed(Rule::Freestyle, "amy", "bob", &answers, TIMEOUT);
        assert_eq!(record.stones.len(), 4);
        assert_eq!(
            record.forfeit.as_ref().unwrap().fault,
            Fault::Occupied {
                point: Xy::new(7, 7)
            }
        );
        accepted(&record, Rule::Freestyle);
        // A taken point that was not taken, or another fault, is refused.
        let mut elsewhere = record.clone();
        let point = Xy::new(5, 5);
        let fault = Fault::Occupied { point };
        elsewhere.forfeit = Some(Forfeit { by: Seat::B, fault });
        refused(
            &elsewhere,
            Rule::Freestyle,
            "no stone stood there when it was named",
        );
        let mut timeout = record;
        timeout.forfeit = Some(Forfeit {
            by: Seat::B,
            fault: TIMEOUT,
        });
        refused(
            &timeout,
            Rule::Freestyle,
            "only a taken point stops an answer half way",
        );
    }

    #[test]
    fn a_limit_may_cost_a_game_already_won_on_the_board_but_nothing_else_may() {
        let record = planned(
            Rule::Freestyle,
            "amy",
            "bob",
            plan(0, Some(Player::X)),
            TIMEOUT,
        );
        // Black is bob (B took black).
        assert_eq!(record.named(record.winner), Some("bob"));
        let limits = Limits::default();
        for (by, winner) in [(Seat::B, Seat::A), (Seat::A, Seat::B)] {
            let fault = Fault::over(Limit::Memory, &limits);
            let mut over = record.clone();
            over.reason = Some(Ending::Forfeit);
            over.winner = Some(winner);
            over.forfeit = Some(Forfeit { by, fault });
            accepted(&over, Rule::Freestyle);
            let mut other_limit = over.clone();
            let fault = Fault::Memory { limit: 1 << 20 };
            other_limit.forfeit = Some(Forfeit { by, fault });
            refused(
                &other_limit,
                Rule::Freestyle,
                "but under the tournament's limits it reads memory: over its 1 GiB",
            );
        }
        // A five turned into a timeout forfeit by the real winner's opponent, or by the winner.
        for (by, winner) in [(Seat::A, Seat::B), (Seat::B, Seat::A)] {
            let mut forged = record.clone();
            forged.reason = Some(Ending::Forfeit);
            forged.winner = Some(winner);
            forged.forfeit = Some(Forfeit { by, fault: TIMEOUT });
            refused(
                &forged,
                Rule::Freestyle,
                "after the game was over (a five by black (bob) at stone",
            );
        }
    }

    #[test]
    fn forged_results_and_stones_are_refused() {
        let record = planned(
            Rule::Freestyle,
            "amy",
            "bob",
            plan(1, Some(Player::O)),
            TIMEOUT,
        );
        // B answered with a white stone: B is white and made the five.
        assert_eq!(
            (record.named(record.white()), record.named(record.winner)),
            (Some("bob"), Some("bob"))
        );
        accepted(&record, Rule::Freestyle);
        let forge = |change: &dyn Fn(&mut GameRecord), says: &str| {
            let mut forged = record.clone();
            change(&mut forged);
            refused(&forged, Rule::Freestyle, says);
        };
        forge(
            &|r| r.winner = Some(Seat::A),
            "names amy the winner, but bob made the five (white)",
        );
        forge(&|r| r.winner = None, "names nobody the winner");
        forge(
            &|r| {
                r.reason = Some(Ending::FullBoard);
                r.winner = None;
            },
            "says full board, but its",
        );
        forge(
            &|r| r.stones.truncate(6),
            "says five, but its 6 stones make no five",
        );
        forge(
            &|r| {
                let last = r.stones.len() - 1;
                r.stones[last].at.x = 0;
                r.stones[last].at.y = 14;
            },
            "make no five",
        );
        forge(
            &|r| {
                let (x, y) = (r.stones[4].at.x, r.stones[4].at.y);
                r.stones[6].at.x = x;
                r.stones[6].at.y = y;
            },
            "on a point stone 5 already holds",
        );
        forge(
            &|r| {
                let last = r.stones.len() - 1;
                let stone = r.stones[last - 2].clone();
                r.stones[last] = stone;
            },
            "already holds",
        );
        forge(&|r| r.stones.swap(4, 5), "but the move is");
        forge(&|r| r.stones[1].colour = Colour::White, "stone 2 at");
        forge(&|r| r.stones[3].by = Seat::A, "stone 4 at");
        forge(
            &|r| r.swap = Some(Answer::Black),
            "but the answer to the opening (black) gives black bob and white amy",
        );
        forge(
            &|r| r.black = r.black.map(Seat::other),
            "names black bob and white amy, but the answer to the opening (white) gives black amy and white bob",
        );
        forge(
            &|r| r.reason = Some(Ending::Resigned),
            "ends by \"resigned\"",
        );
        forge(
            &|r| {
                r.stones.push(Stone {
                    by: Seat::A,
                    colour: Colour::Black,
                    at: Xy::new(14, 14),
                });
            },
            "comes after the game was over",
        );
        forge(
            &|r| r.stones.truncate(2),
            "the opening stops after 2 stones",
        );
    }

    #[test]
    fn a_fault_must_be_the_tournaments_and_fit_the_board() {
        let plan = Plan {
            stop: Some(9),
            ..plan(0, Some(Player::X))
        };
        let record = planned(Rule::Freestyle, "amy", "bob", plan, TIMEOUT);
        accepted(&record, Rule::Freestyle);
        let with = |fault: Fault, says: &str| {
            let mut forged = record.clone();
            let by = forged.forfeit.as_ref().unwrap().by;
            forged.forfeit = Some(Forfeit { by, fault });
            match says {
                "" => accepted(&forged, Rule::Freestyle),
                says => refused(&forged, Rule::Freestyle, says),
            }
        };
        with(
            Fault::Timeout { seconds: 2.0 },
            "but the time limit is 10 s",
        );
        with(Fault::OffBoard { x: 3, y: 4 }, "(3,4) is on the board");
        with(Fault::OffBoard { x: 15, y: 4 }, "");
        let first = &record.stones[0];
        with(Fault::Occupied { point: first.at }, "");
        with(
            Fault::Occupied {
                point: Xy::new(14, 14),
            },
            "no stone stood there",
        );
        with(
            Fault::Repeated {
                point: Xy::new(1, 1),
            },
            "names a single point",
        );
        with(Fault::Eof, "");
        with(
            Fault::Crash {
                status: "exit status 1".into(),
            },
            "",
        );
        // The words beside the fault are the fault's, or the file is refused.
        let mut words = serde_json::to_value(&record).unwrap();
        words["forfeit"]["reason"] = "timeout: no answer within 1 s".into();
        let err = serde_json::from_value::<GameRecord>(words).unwrap_err();
        assert!(err.to_string().contains("is not its fault's"), "{err}");
        let mut winner = record.clone();
        winner.winner = winner.forfeit.as_ref().map(|f| f.by);
        refused(&winner, Rule::Freestyle, "forfeited, so");
        let untimed = Terms {
            timeout_seconds: 0.0,
            ..terms(Rule::Freestyle)
        };
        assert!(matches!(
            replay(&record, &untimed),
            Err(ReplayError::Untimed { .. })
        ));
        let err = replay(&record, &untimed).unwrap_err().to_string();
        assert!(err.contains("the tournament has no time limit"), "{err}");
    }

    #[test]
    fn games_of_the_house_bot_replay() {
        use inarow_agents::house::HouseBot;

        use crate::local::Local;
        for rule in Rule::ALL {
            for seed in 0..4 {
                let mut a = Local::new("one", HouseBot::new(seed));
                let mut b = Local::new("two", HouseBot::new(seed + 100));
                let record = crate::referee::play_game(&tournament::board(rule), &mut a, &mut b);
                accepted(&record, rule);
            }
        }
    }
}
