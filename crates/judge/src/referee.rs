//! The referee of one game: the Swap2 opening, the game phase and the close,
//! on the rules of the game core. Under renju a black stone on a forbidden
//! point loses at once for the bot that put it, as the core's [`Swap2`]
//! finds it ([`Swap2::foul`]).

use inarow_contest::fault::Fault;
use inarow_core::swap2::{Foul, Phase, Role, Step, Swap, Swap2, Swap2Error};
use inarow_core::{Mnk, Outcome, Player, Point};
use inarow_protocol::koth::{self, AnswerError, SIZE};

use crate::record::{GameRecord, Seat};

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
            Some(Swap2Error::Occupied(p)) => Err(Fault::Occupied {
                point: p.to_xy(SIZE),
            }),
            Some(Swap2Error::Repeated(p)) => Err(Fault::Repeated {
                point: p.to_xy(SIZE),
            }),
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
            let step = koth::parse_step(phase, &answer).map_err(|e| (seat, answer_fault(e)))?;
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

/// Referees one game on `rules` (an empty board: gomoku, exact-five gomoku or renju)
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
    let foul = referee.swap2.foul();
    let mut record = referee.record;
    settle(&mut record, result, foul);
    let line = koth::exit_line(record.named(record.winner));
    for seat in referee.seats.iter_mut() {
        seat.exit(&line);
    }
    for seat in referee.seats.iter_mut() {
        seat.finish();
    }
    // The grace period after `EXIT` is still the game's.
    if record.forfeit.is_none() {
        if let Some(over) = over_limit(&mut referee.seats) {
            settle(&mut record, Err(over), None);
        }
    }
    record
}

/// The fault of an answer the judge's line protocol refused: a point off
/// the board keeps its coordinates, anything else is bad syntax quoting
/// the parser's complaint. Here, not beside [`Fault`], because only the
/// judge's protocol answers this way.
pub(crate) fn answer_fault(refused: AnswerError) -> Fault {
    match refused {
        AnswerError::OffBoard { x, y } => Fault::OffBoard { x, y },
        syntax => Fault::Syntax {
            detail: syntax.to_string(),
        },
    }
}

/// The first seat (A before B) that went over a limit, and its fault.
fn over_limit(seats: &mut [&mut dyn Contestant; 2]) -> Option<(Seat, Fault)> {
    [Seat::A, Seat::B]
        .into_iter()
        .find_map(|seat| Some((seat, seats[seat as usize].went_over()?)))
}

/// Writes the outcome of the game into its record: a `foul` (a black stone
/// on a forbidden point) loses for the bot that put it, whatever colour it
/// played, rather than being white's five.
fn settle(
    record: &mut GameRecord,
    result: Result<Option<Outcome>, (Seat, Fault)>,
    foul: Option<Foul>,
) {
    match (result, foul) {
        (Ok(_), Some(foul)) => record.foul(foul.role.into(), foul.why),
        (Ok(Some(outcome)), None) => record.end(outcome),
        (Ok(None), None) => record.end(Outcome::Draw),
        (Err((seat, fault)), _) => record.forfeit(seat, fault),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use inarow_agents::house::HouseBot;

    use inarow_core::renju::Forbidden;

    use super::*;
    use crate::local::Local;
    use inarow_contest::Ending;

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
        assert_eq!(record.named(record.winner), Some("bee"));
        assert_eq!(record.reason, Some(Ending::Five));
        assert_eq!(record.named(record.black), Some("bee"));
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
        let (a_script, b_script) = crate::replay::examples::OVERLINE;
        let mut a = scripted("ay", &a_script);
        let mut b = scripted("bee", &b_script);
        let record = play_game(&Mnk::gomoku(), &mut a, &mut b);
        assert_eq!(
            (record.named(record.winner), record.stones.len()),
            (Some("bee"), 11)
        );
        let mut a = scripted("ay", &a_script);
        let mut b = scripted("bee", &b_script);
        let record = play_game(&Mnk::gomoku_exact(), &mut a, &mut b);
        // No five: the game goes on until the scripts run dry and A forfeits.
        assert_eq!(record.forfeit.map(|f| f.by), Some(Seat::A));
        // Under renju black's six is an overline: black (B) loses at once.
        let mut a = scripted("ay", &a_script);
        let mut b = scripted("bee", &b_script);
        let record = play_game(&Mnk::renju(), &mut a, &mut b);
        assert_eq!(
            (record.named(record.winner), record.stones.len()),
            (Some("ay"), 11)
        );
        assert_eq!(
            (record.reason, record.forbidden),
            (Some(Ending::Forbidden), Some(Forbidden::Overline))
        );
    }

    #[test]
    fn under_renju_black_on_a_forbidden_point_loses_for_the_bot_that_put_it() {
        // B answers `W`, so A plays black; A's (7,7) makes two open threes,
        // down from (7,5) and across from (5,7).
        let a_script = ["(7,5) (7,6) (0,14)", "(5,7)", "(6,7)", "(7,7)"];
        let b_script = ["W (0,0)", "(0,1)", "(0,2)"];
        let mut a = scripted("ay", &a_script);
        let mut b = scripted("bee", &b_script);
        let record = play_game(&Mnk::renju(), &mut a, &mut b);
        assert_eq!(record.named(record.black), Some("ay"));
        assert_eq!(record.named(record.winner), Some("bee"));
        assert_eq!(record.reason, Some(Ending::Forbidden));
        assert_eq!(record.forbidden, Some(Forbidden::DoubleThree));
        assert!(record.forfeit.is_none());
        let last = record.stones.last().unwrap();
        assert_eq!(
            (record.stones.len(), last.by, last.at.x, last.at.y),
            (9, Seat::A, 7, 7)
        );
        assert_eq!(a.heard.last().unwrap(), "EXIT bee");
        assert_eq!(b.heard.last().unwrap(), "EXIT bee");
        let json = serde_json::to_string(&record).unwrap();
        assert!(
            json.contains(
                r#""winner":"bee","reason":"forbidden","forbidden":"double three","forfeit":null"#
            ),
            "{json}"
        );
        // Under freestyle it is just a move: B is asked for the next one,
        // and its script has run dry.
        let mut a = scripted("ay", &a_script);
        let mut b = scripted("bee", &b_script);
        let record = play_game(&Mnk::gomoku(), &mut a, &mut b);
        assert_eq!(
            record.forfeit.map(|f| (f.by, f.fault)),
            Some((Seat::B, Fault::Eof))
        );
        assert_eq!((record.stones.len(), record.forbidden), (9, None));
        assert!(b.heard[3].starts_with("6 ["), "{:?}", b.heard);
    }

    #[test]
    fn a_forfeit_keeps_no_control_character_of_the_bot() {
        let mut a = scripted("ay", &["\x1b]52;c;cHduZWQ=\x07 \u{202e}"]);
        let mut b = scripted("bee", &[]);
        let record = play_game(&Mnk::gomoku(), &mut a, &mut b);
        let forfeit = record.forfeit.unwrap();
        assert_eq!(forfeit.by, Seat::A);
        let Fault::Syntax { detail } = &forfeit.fault else {
            panic!("{:?}", forfeit.fault)
        };
        for text in [detail, &forfeit.reason()] {
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
            let json = serde_json::to_string(&record).unwrap();
            assert!(!kept.reason().contains(|c: char| c.is_control()), "{json}");
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
