//! What a game leaves: its record, in the words of the results file, the
//! part files and the SGF records (seats, colours, the answer to the
//! opening, how it ended, the fault a bot forfeited for). The referee
//! builds records, the replay checks them, the output writes them, the
//! web page builds its own games' records on the same builder.
//!
//! A record says who won, who played black and who forfeited by seat, so
//! that it cannot name a bot that did not play; the files name bots, and
//! a file naming one that did not play the game is refused when read.

use std::fmt;

use inarow_contest::{Ending, Fault};
use inarow_core::Xy;
use inarow_core::renju::Forbidden;
use inarow_core::swap2::{Role, Swap, Swap2};
use inarow_core::{Outcome, Player, Point};
use inarow_protocol::koth::SIZE;
use serde::{Deserialize, Serialize};

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

/// One stone as it was put on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "WrittenStone", from = "WrittenStone")]
pub struct Stone {
    /// Who put it there.
    pub by: Seat,
    /// `B` or `W`.
    pub colour: Colour,
    /// Where.
    pub at: Xy,
}

/// A stone as the files write it: its point as the fields `x` and `y`
/// (a byte each), as before points had one form ([`Xy`]), so that
/// records keep their bytes and refuse what they refused.
#[derive(Serialize, Deserialize)]
struct WrittenStone {
    by: Seat,
    colour: Colour,
    x: u8,
    y: u8,
}

impl From<Stone> for WrittenStone {
    fn from(s: Stone) -> WrittenStone {
        // A record's stones are laid on its board (20 points a side at
        // most), or read through this form: each coordinate fits a byte.
        WrittenStone {
            by: s.by,
            colour: s.colour,
            x: s.at.x as u8,
            y: s.at.y as u8,
        }
    }
}

impl From<WrittenStone> for Stone {
    fn from(s: WrittenStone) -> Stone {
        Stone {
            by: s.by,
            colour: s.colour,
            at: Xy::new(s.x.into(), s.y.into()),
        }
    }
}

/// Everything that happened in one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "Written", try_from = "Written")]
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
    /// The seat that played black, once colours were settled; the other
    /// played white.
    pub black: Option<Seat>,
    /// Every stone in the order it was placed, opening stones first.
    pub stones: Vec<Stone>,
    /// The winner's seat; `None` for a tie.
    pub winner: Option<Seat>,
    /// How the game ended: `five`, `full board`, `forbidden` or `forfeit`
    /// (`None` while it goes on).
    pub reason: Option<Ending>,
    /// With the ending `forbidden`, why the last stone's point was
    /// forbidden to black; written only then, so other records read and
    /// write as before.
    pub forbidden: Option<Forbidden>,
    /// The bot that forfeited and why.
    pub forfeit: Option<Forfeit>,
    /// The board's side: 15 in every judge game (and then not written, so
    /// records read and write as before); the web page plays 5 to 20.
    pub size: u8,
}

fn fifteen() -> u8 {
    SIZE as u8
}

fn is_fifteen(size: &u8) -> bool {
    *size == fifteen()
}

/// A lost game through a fault rather than on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Forfeit {
    /// The seat of the bot at fault.
    pub by: Seat,
    /// What it did.
    pub fault: Fault,
}

impl Forfeit {
    /// The fault in words, as the records write it beside the fault.
    pub fn reason(&self) -> String {
        self.fault.to_string()
    }
}

/// A record as the files write it: bots by name, a forfeit's fault beside
/// its words. Every record is written through it and read back through
/// it, so the files keep their form.
#[derive(Serialize, Deserialize)]
struct Written {
    index: usize,
    a: String,
    b: String,
    a_seed: u64,
    b_seed: u64,
    swap: Option<Answer>,
    black: Option<String>,
    white: Option<String>,
    stones: Vec<Stone>,
    winner: Option<String>,
    reason: Option<Ending>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forbidden: Option<String>,
    forfeit: Option<WrittenForfeit>,
    #[serde(default = "fifteen", skip_serializing_if = "is_fifteen")]
    size: u8,
}

/// A forfeit as the files write it.
#[derive(Serialize, Deserialize)]
struct WrittenForfeit {
    by: String,
    fault: Fault,
    reason: String,
}

impl From<GameRecord> for Written {
    fn from(record: GameRecord) -> Written {
        let name = |seat: Option<Seat>| seat.map(|s| record.name(s).to_string());
        Written {
            black: name(record.black),
            white: name(record.white()),
            winner: name(record.winner),
            forfeit: record.forfeit.as_ref().map(|f| WrittenForfeit {
                by: record.name(f.by).to_string(),
                reason: f.reason(),
                fault: f.fault.clone(),
            }),
            index: record.index,
            a: record.a,
            b: record.b,
            a_seed: record.a_seed,
            b_seed: record.b_seed,
            swap: record.swap,
            stones: record.stones,
            reason: record.reason,
            forbidden: record.forbidden.map(|why| why.to_string()),
            size: record.size,
        }
    }
}

/// Why a record read from a file cannot be one: one line naming the game.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RecordError {
    /// A bot named that did not play the game.
    #[error("game {index} names {name:?} as {what}, a bot that did not play it")]
    NotPlayed {
        /// The game.
        index: usize,
        /// The name.
        name: String,
        /// What the record names it as.
        what: &'static str,
    },
    /// Colours that are not one bot each.
    #[error("game {index} names black {black:?} and white {white:?}, not one bot each")]
    Colours {
        /// The game.
        index: usize,
        /// Black as written, or `nobody`.
        black: String,
        /// White as written, or `nobody`.
        white: String,
    },
    /// A forfeit whose words are not its fault's.
    #[error("game {index}: the forfeit's reason {reason:?} is not its fault's ({fault})")]
    Reason {
        /// The game.
        index: usize,
        /// The words written.
        reason: String,
        /// The fault written.
        fault: Fault,
    },
    /// A forbidden point's reason the rules do not know.
    #[error(
        "game {index}: the forbidden point's reason {why:?} is not double three, double four or overline"
    )]
    UnknownForbidden {
        /// The game.
        index: usize,
        /// The words written.
        why: String,
    },
    /// The ending `forbidden` without its reason.
    #[error(
        "game {index} ends by forbidden, but says not why (double three, double four or overline)"
    )]
    NoForbidden {
        /// The game.
        index: usize,
    },
    /// A forbidden point's reason beside another ending.
    #[error("game {index} gives a forbidden point's reason ({why}), but ends by {ending}")]
    ForbiddenBeside {
        /// The game.
        index: usize,
        /// The reason written.
        why: Forbidden,
        /// The ending written, or `nothing`.
        ending: &'static str,
    },
}

impl TryFrom<Written> for GameRecord {
    type Error = RecordError;

    /// The record of a file, refused where it names a bot that did not
    /// play it, colours that are not one bot each, a forfeit whose words
    /// are not its fault's, or a forbidden point's reason that is not the
    /// rules' or not beside the ending `forbidden`.
    fn try_from(written: Written) -> Result<GameRecord, RecordError> {
        let index = written.index;
        let seat = |name: Option<&String>, what| match name {
            None => Ok(None),
            Some(n) if *n == written.a => Ok(Some(Seat::A)),
            Some(n) if *n == written.b => Ok(Some(Seat::B)),
            Some(n) => Err(RecordError::NotPlayed {
                index,
                name: n.clone(),
                what,
            }),
        };
        let black = seat(written.black.as_ref(), "black")?;
        // White is the seat black is not, even where both bots give one
        // name (a tournament the merge refuses for it, naming the bots).
        let other = black.map(|b| if b == Seat::A { &written.b } else { &written.a });
        let white = match (&written.white, other) {
            (Some(w), Some(other)) if w == other => black.map(Seat::other),
            (white, _) => seat(white.as_ref(), "white")?,
        };
        if white != black.map(Seat::other) {
            return Err(RecordError::Colours {
                index,
                black: written.black.as_deref().unwrap_or("nobody").to_string(),
                white: written.white.as_deref().unwrap_or("nobody").to_string(),
            });
        }
        let winner = seat(written.winner.as_ref(), "the winner")?;
        let forfeit = match written.forfeit {
            None => None,
            Some(f) => {
                let by = seat(Some(&f.by), "the bot that forfeited")?.expect("a name given");
                if f.reason != f.fault.to_string() {
                    return Err(RecordError::Reason {
                        index,
                        reason: f.reason,
                        fault: f.fault,
                    });
                }
                Some(Forfeit { by, fault: f.fault })
            }
        };
        let forbidden = match written.forbidden {
            None => None,
            Some(why) => Some(
                why.parse::<Forbidden>()
                    .map_err(|_| RecordError::UnknownForbidden { index, why })?,
            ),
        };
        match (written.reason, forbidden) {
            (Some(Ending::Forbidden), None) => return Err(RecordError::NoForbidden { index }),
            (ending, Some(why)) if ending != Some(Ending::Forbidden) => {
                return Err(RecordError::ForbiddenBeside {
                    index,
                    why,
                    ending: ending.map_or("nothing", Ending::name),
                });
            }
            _ => {}
        }
        Ok(GameRecord {
            index,
            a: written.a,
            b: written.b,
            a_seed: written.a_seed,
            b_seed: written.b_seed,
            swap: written.swap,
            black,
            stones: written.stones,
            winner,
            reason: written.reason,
            forbidden,
            forfeit,
            size: written.size,
        })
    }
}

impl GameRecord {
    /// The record of a game about to start between `a`, who opens, and
    /// `b`: the one builder of records, which the referee and the web
    /// page's game both fill through [`lay`](GameRecord::lay),
    /// [`answer`](GameRecord::answer), [`colours`](GameRecord::colours) and
    /// the endings ([`end`](GameRecord::end), [`foul`](GameRecord::foul),
    /// [`forfeit`](GameRecord::forfeit), [`resign`](GameRecord::resign)).
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
            stones: Vec::new(),
            winner: None,
            reason: None,
            forbidden: None,
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

    /// The name of the bot in `seat`, if there is one: `named(record.winner)`.
    pub fn named(&self, seat: Option<Seat>) -> Option<&str> {
        seat.map(|s| self.name(s))
    }

    /// The seat that played white, once colours were settled.
    pub fn white(&self) -> Option<Seat> {
        self.black.map(Seat::other)
    }

    /// The loser's seat, if someone won.
    pub fn loser(&self) -> Option<Seat> {
        self.winner.map(Seat::other)
    }

    /// Notes a stone of `colour` put at `point` by the bot in `seat`.
    pub fn lay(&mut self, seat: Seat, point: Point, colour: Player) {
        self.stones.push(Stone {
            by: seat,
            colour: colour.into(),
            at: point.to_xy(self.size as usize),
        });
    }

    /// Notes B's answer to the opening.
    pub fn answer(&mut self, swap: Swap) {
        self.swap = Some(swap.into());
    }

    /// Notes who plays black and white, once `swap2` has settled it.
    pub fn colours(&mut self, swap2: &Swap2) {
        if let Some(role) = swap2.role(Player::X) {
            self.black = Some(role.into());
        }
    }

    /// Notes how the game ended on the board: a five, or the board full.
    pub fn end(&mut self, outcome: Outcome) {
        if let Outcome::Win(colour) = outcome {
            self.winner = match colour {
                Player::X => self.black,
                Player::O => self.white(),
            };
        }
        self.reason = Some(Ending::of(outcome));
    }

    /// A game lost on a forbidden point, in words: `ann plays a forbidden
    /// point: double three`, as the SGF comment and the judge's lines say.
    pub fn foul_reason(&self) -> Option<String> {
        let why = self
            .forbidden
            .filter(|_| self.reason == Some(Ending::Forbidden))?;
        let by = self.named(self.loser()).unwrap_or("nobody");
        Some(format!("{by} plays a forbidden point: {why}"))
    }

    /// Notes that the bot in `seat` put a black stone on a point
    /// forbidden to black (renju), for reason `why`: the other one wins.
    pub fn foul(&mut self, seat: Seat, why: Forbidden) {
        self.winner = Some(seat.other());
        self.reason = Some(Ending::Forbidden);
        self.forbidden = Some(why);
    }

    /// Notes that the bot in `seat` lost the game through `fault`, its
    /// text escaped ([`Fault::escaped`]): every fault of a record passes
    /// here, whoever built it, even after a game over on the board (a
    /// limit read again at the end), whose ending it replaces.
    pub fn forfeit(&mut self, seat: Seat, fault: Fault) {
        self.forfeit = Some(Forfeit {
            by: seat,
            fault: fault.escaped(),
        });
        self.winner = Some(seat.other());
        self.reason = Some(Ending::Forfeit);
        self.forbidden = None;
    }

    /// Notes that the player in `seat` resigned: the other one wins.
    pub fn resign(&mut self, seat: Seat) {
        self.winner = Some(seat.other());
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

impl From<Role> for Seat {
    fn from(role: Role) -> Seat {
        match role {
            Role::Opener => Seat::A,
            Role::Answerer => Seat::B,
        }
    }
}

#[cfg(test)]
mod tests {
    use inarow_core::Mnk;
    use inarow_core::swap2::Step;

    use super::*;

    /// A game of `ay` (A) and `bee` (B): B takes black, then A times out.
    fn forfeited() -> GameRecord {
        let mut swap2 = Swap2::new(&Mnk::gomoku());
        let mut record = GameRecord::new("ay", "bee");
        let at = |x, y| Point::at(x, y, SIZE);
        let open = [at(0, 0), at(1, 0), at(0, 9)];
        swap2.apply(Role::Opener, Step::Open(open)).unwrap();
        for (p, colour) in [
            (open[0], Player::X),
            (open[1], Player::X),
            (open[2], Player::O),
        ] {
            record.lay(Seat::A, p, colour);
        }
        swap2
            .apply(Role::Answerer, Step::Answer(Swap::Black))
            .unwrap();
        record.answer(Swap::Black);
        record.colours(&swap2);
        record.forfeit(Seat::A, Fault::Timeout { seconds: 1.0 });
        record
    }

    #[test]
    fn a_record_names_its_bots_in_its_files_and_reads_back_by_seat() {
        let record = forfeited();
        assert_eq!(
            (record.black, record.white()),
            (Some(Seat::B), Some(Seat::A))
        );
        assert_eq!(
            (record.winner, record.loser()),
            (Some(Seat::B), Some(Seat::A))
        );
        let json = serde_json::to_string(&record).unwrap();
        assert!(
            json.contains(r#""black":"bee","white":"ay""#)
                && json.contains(r#""winner":"bee","reason":"forfeit""#)
                && json.contains(
                    r#""forfeit":{"by":"ay","fault":{"kind":"timeout","seconds":1.0},"reason":"timeout: no answer within 1 s"}"#
                )
                && !json.contains("size"),
            "{json}"
        );
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, record);
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }

    #[test]
    fn a_forbidden_point_is_written_beside_its_ending_and_read_back_only_there() {
        use crate::replay::examples::{double_three, refereed};
        let record = refereed(
            inarow_core::Rule::Renju,
            "ay",
            "bee",
            &double_three(),
            Fault::Eof,
        );
        let json = serde_json::to_string(&record).unwrap();
        assert!(
            json.contains(
                r#""winner":"bee","reason":"forbidden","forbidden":"double three","forfeit":null"#
            ),
            "{json}"
        );
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, record);
        assert_eq!(
            back.foul_reason().as_deref(),
            Some("ay plays a forbidden point: double three")
        );
        // Other records carry no such field.
        assert!(
            !serde_json::to_string(&forfeited())
                .unwrap()
                .contains("forbidden")
        );
        let value = serde_json::to_value(&record).unwrap();
        let edited = |change: &dyn Fn(&mut serde_json::Value), says: &str| {
            let mut edited = value.clone();
            change(&mut edited);
            let err = serde_json::from_value::<GameRecord>(edited).unwrap_err();
            assert!(err.to_string().contains(says), "{err}\nnot: {says}");
        };
        edited(
            &|v| v["forbidden"] = "triple three".into(),
            r#"game 0: the forbidden point's reason "triple three" is not double three, double four or overline"#,
        );
        edited(
            &|v| {
                v.as_object_mut().unwrap().remove("forbidden");
            },
            "game 0 ends by forbidden, but says not why (double three, double four or overline)",
        );
        edited(
            &|v| v["reason"] = "five".into(),
            "game 0 gives a forbidden point's reason (double three), but ends by five",
        );
        // A forfeit after the foul (a limit read at the end) replaces it.
        let mut over = record;
        over.forfeit(Seat::A, Fault::Eof);
        assert_eq!((over.reason, over.forbidden), (Some(Ending::Forfeit), None));
    }

    #[test]
    fn a_file_naming_a_bot_that_did_not_play_or_other_words_is_refused() {
        let json = serde_json::to_value(forfeited()).unwrap();
        for (field, value, says) in [
            (
                "winner",
                "mallory",
                r#"game 0 names "mallory" as the winner, a bot that did not play it"#,
            ),
            (
                "black",
                "ay",
                r#"game 0 names black "ay" and white "ay", not one bot each"#,
            ),
            ("white", "mallory", r#"names "mallory" as white"#),
        ] {
            let mut edited = json.clone();
            edited[field] = value.into();
            let err = serde_json::from_value::<GameRecord>(edited).unwrap_err();
            assert!(err.to_string().contains(says), "{field}: {err}");
        }
        let mut edited = json.clone();
        edited["forfeit"]["by"] = "mallory".into();
        let err = serde_json::from_value::<GameRecord>(edited).unwrap_err();
        assert!(
            err.to_string().contains("as the bot that forfeited"),
            "{err}"
        );
        let mut edited = json;
        edited["forfeit"]["reason"] = "crash: signal 9".into();
        let err = serde_json::from_value::<GameRecord>(edited).unwrap_err();
        assert!(
            err.to_string().contains(
                r#"the forfeit's reason "crash: signal 9" is not its fault's (timeout: no answer within 1 s)"#
            ),
            "{err}"
        );
    }
}
