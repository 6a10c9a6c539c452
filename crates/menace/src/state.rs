//! The saved form of trained machines: a versioned JSON document.
//!
//! ```json
//! {
//!   "format": "inarow-menace",
//!   "version": 1,
//!   "preset": "challenge",
//!   "machines": [
//!     { "player": "X", "games": 12, "boxes": [
//!         { "image": ".........", "beads": [4, 4, 4, 4, 4, 4, 4, 4, 4] }, ...
//!       ],
//!       "curve": { "block": 4, "blocks": [[2, 1, 1], [3, 0, 1], [4, 0, 0]] } }
//!   ]
//! }
//! ```
//!
//! Two fields were added within version 1, so older files still load:
//! `curve` (each machine's learning curve: games per block and each
//! block's wins, draws and losses; a machine without one starts its curve
//! when loaded) and `rules` (written only when the numbers differ from the
//! preset's: `{"start": [4, 3, 2, 1], "win": 3, "draw": 1, "loss": -1}`).
//!
//! `beads` counts the beads of each colour by square of the image. Boxes are
//! listed in box order; on reading, every image must be the one this program
//! enumerates at that place, and beads may lie only on the box's colours.
//! This module turns text into machines and back; reading and writing
//! files is the caller's business.

use inarow_core::{Player, Tally, TicTacToe};
use serde::{Deserialize, Serialize};

use crate::curve::Curve;
use crate::machine::{CURVE_BLOCKS, Menace};
use crate::preset::{Preset, Rules};
use crate::seeds::second_learner_seed;

/// The `format` tag of a state file.
pub const FORMAT: &str = "inarow-menace";
/// The state file version this program writes and reads.
pub const VERSION: u32 = 1;

/// A state file as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] when written by this program.
    pub version: u32,
    /// The preset all machines were built with.
    pub preset: Preset,
    /// The numbers, when they are not the preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// One machine per side: X always, O when a second learner was trained.
    pub machines: Vec<MachineRecord>,
}

/// One machine's boxes as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineRecord {
    /// `"X"` or `"O"`: the side the machine plays.
    pub player: String,
    /// Games it has learned from.
    pub games: u64,
    /// Its boxes in box order.
    pub boxes: Vec<BoxRecord>,
    /// Its learning curve; absent in files written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<CurveRecord>,
}

/// A learning curve as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveRecord {
    /// Games per block (the last block may hold fewer).
    pub block: u64,
    /// Wins, draws and losses of each block, oldest first.
    pub blocks: Vec<[u64; 3]>,
}

/// One box as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxRecord {
    /// The canonical image, nine cells of `X`, `O`, `.`.
    pub image: String,
    /// Beads of each colour, by square of the image.
    pub beads: [u32; 9],
}

/// Why a state file could not be read. Each message names what was wrong.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Not JSON, or JSON of the wrong shape.
    #[error("not a valid MENACE state file: {0}")]
    Syntax(String),
    /// JSON, but not one of ours.
    #[error("not a MENACE state file (its \"format\" is not \"{FORMAT}\")")]
    Format,
    /// Written by another version of the format.
    #[error("format version {0} is not supported: this program reads version {VERSION}")]
    Version(u64),
    /// The contents do not fit the boxes this program enumerates.
    #[error("state file does not match MENACE's boxes: {0}")]
    Contents(String),
}

/// The machines kept in a state file.
#[derive(Clone, Debug)]
pub struct Memory {
    /// The machine that plays X (MENACE proper).
    pub x: Menace,
    /// The second learner that plays O, if one was trained.
    pub o: Option<Menace>,
}

impl Memory {
    /// The preset of the machines.
    pub fn preset(&self) -> Preset {
        self.x.preset()
    }

    /// MENACE and the second learner (a MENACE playing O), which gets fresh
    /// boxes the first time it is asked for; its draws follow from `seed`
    /// as when it is loaded.
    pub fn with_second_learner(&mut self, seed: u64) -> (&mut Menace, &mut Menace) {
        let preset = self.preset();
        let rules = self.x.rules();
        let o = self.o.get_or_insert_with(|| {
            Menace::with_rules(preset, rules, Player::O, second_learner_seed(seed))
        });
        (&mut self.x, o)
    }

    /// The stored form.
    pub fn to_record(&self) -> StateFile {
        StateFile {
            format: FORMAT.to_string(),
            version: VERSION,
            preset: self.x.preset(),
            rules: Some(self.x.rules()).filter(|&r| r != Rules::of(self.x.preset())),
            machines: std::iter::once(&self.x)
                .chain(self.o.as_ref())
                .map(record_of)
                .collect(),
        }
    }

    /// The JSON text of a state file.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.to_record())
            .expect("a state record always serializes");
        text.push('\n');
        text
    }

    /// Reads a state file; the machines' draws follow from `seed`.
    pub fn from_json(text: &str, seed: u64) -> Result<Memory, StateError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| StateError::Syntax(e.to_string()))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(StateError::Format);
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == VERSION as u64 => {}
            Some(v) => return Err(StateError::Version(v)),
            None => {
                return Err(StateError::Syntax(
                    "\"version\" is missing or not a number".into(),
                ));
            }
        }
        let file: StateFile =
            serde_json::from_value(value).map_err(|e| StateError::Syntax(e.to_string()))?;
        Memory::from_record(&file, seed)
    }

    /// Checks a stored form against the enumerated boxes and builds the machines.
    pub fn from_record(file: &StateFile, seed: u64) -> Result<Memory, StateError> {
        let rules = file.rules.unwrap_or(Rules::of(file.preset));
        rules
            .check()
            .map_err(|e| StateError::Contents(format!("rules: {e}")))?;
        let mut x = None;
        let mut o = None;
        for record in &file.machines {
            let player = match record.player.as_str() {
                "X" => Player::X,
                "O" => Player::O,
                other => {
                    return Err(StateError::Contents(format!(
                        "machine plays {other:?}, not \"X\" or \"O\""
                    )));
                }
            };
            let slot = if player == Player::X { &mut x } else { &mut o };
            if slot.is_some() {
                return Err(StateError::Contents(format!("two machines play {player}")));
            }
            let seed = if player == Player::X {
                seed
            } else {
                second_learner_seed(seed)
            };
            *slot = Some(machine_of(record, player, file.preset, rules, seed)?);
        }
        let x = x.ok_or_else(|| StateError::Contents("no machine plays X".into()))?;
        Ok(Memory { x, o })
    }
}

fn record_of(menace: &Menace) -> MachineRecord {
    MachineRecord {
        player: menace.player().symbol().to_string(),
        games: menace.games(),
        boxes: menace
            .layout()
            .images()
            .iter()
            .zip(menace.boxes())
            .map(|(image, b)| BoxRecord {
                image: image.compact(),
                beads: b.beads(),
            })
            .collect(),
        curve: Some(CurveRecord {
            block: menace.curve().block(),
            blocks: menace
                .curve()
                .tallies()
                .iter()
                .map(|t| [t.wins, t.draws, t.losses])
                .collect(),
        }),
    }
}

fn machine_of(
    record: &MachineRecord,
    player: Player,
    preset: Preset,
    rules: Rules,
    seed: u64,
) -> Result<Menace, StateError> {
    let mut menace = Menace::with_rules(preset, rules, player, seed);
    let want = menace.boxes().len();
    if record.boxes.len() != want {
        return Err(StateError::Contents(format!(
            "the {player} machine has {} boxes, but it should have {want}",
            record.boxes.len()
        )));
    }
    for (i, stored) in record.boxes.iter().enumerate() {
        let image: &TicTacToe = &menace.layout().images()[i];
        if stored.image != image.compact() {
            return Err(StateError::Contents(format!(
                "box {} of the {player} machine has image {:?}, expected {:?}",
                i + 1,
                stored.image,
                image.compact()
            )));
        }
        let fresh = menace.boxes()[i];
        menace.boxes_mut()[i] = fresh.with_beads(stored.beads).ok_or_else(|| {
            StateError::Contents(format!(
                "box {} of the {player} machine ({}) holds beads on a square that is not one of its colours, or too many beads",
                i + 1,
                stored.image
            ))
        })?;
    }
    menace.set_games(record.games);
    if let Some(stored) = &record.curve {
        let tallies: Vec<Tally> = stored
            .blocks
            .iter()
            .map(|&[wins, draws, losses]| Tally {
                wins,
                draws,
                losses,
            })
            .collect();
        let curve = Curve::restore(CURVE_BLOCKS, stored.block, &tallies)
            .filter(|c| c.games() <= record.games)
            .ok_or_else(|| {
                StateError::Contents(format!(
                    "the {player} machine's curve is not blocks of {} games, or counts more games than it learned",
                    stored.block
                ))
            })?;
        menace.set_curve(curve);
    }
    Ok(menace)
}

#[cfg(test)]
mod tests {
    use inarow_agents::RandomAgent;

    use super::*;
    use crate::seat::AgentSeat;
    use crate::training::train;

    fn trained() -> Memory {
        let mut x = Menace::new(Preset::Challenge, Player::X, 4);
        let mut o = Menace::new(Preset::Challenge, Player::O, 5);
        train(&mut x, &mut AgentSeat(RandomAgent::new(1)), 300);
        train(&mut x, &mut o, 300);
        Memory { x, o: Some(o) }
    }

    #[test]
    fn round_trip() {
        let memory = trained();
        let text = memory.to_json();
        let back = Memory::from_json(&text, 0).unwrap();
        assert_eq!(back.x.boxes(), memory.x.boxes());
        assert_eq!(
            back.o.as_ref().unwrap().boxes(),
            memory.o.as_ref().unwrap().boxes()
        );
        assert_eq!(back.x.games(), 600);
        assert_eq!(back.x.curve(), memory.x.curve());
        assert_eq!(back.x.curve().games(), 600);
        assert_eq!(back.to_json(), text);
        assert!(
            !text.contains("\"rules\""),
            "the preset's own numbers are not written"
        );
    }

    #[test]
    fn old_files_without_a_curve_still_load_and_start_one() {
        let memory = trained();
        let mut file = memory.to_record();
        for m in &mut file.machines {
            m.curve = None;
        }
        let old = serde_json::to_string_pretty(&file).unwrap();
        assert!(!old.contains("curve"));
        let mut back = Memory::from_json(&old, 0).unwrap();
        assert_eq!(back.x.boxes(), memory.x.boxes());
        assert_eq!((back.x.games(), back.x.curve().games()), (600, 0));
        train(&mut back.x, &mut AgentSeat(RandomAgent::new(1)), 10);
        assert_eq!((back.x.games(), back.x.curve().games()), (610, 10));
        // A curve that counts more games than were learned is refused.
        let mut file = memory.to_record();
        file.machines[0].games = 5;
        let err = Memory::from_record(&file, 0).unwrap_err().to_string();
        assert!(err.contains("the X machine's curve"), "{err}");
    }

    #[test]
    fn changed_rules_are_kept_and_checked() {
        let mut memory = trained();
        memory.x.set_rewards(5, 2, 0).unwrap();
        assert!(memory.x.set_rewards(5, 2, -3).is_err());
        let text = memory.to_json();
        let back = Memory::from_json(&text, 0).unwrap();
        assert_eq!((back.x.rules().win, back.x.rules().loss), (5, 0));
        let bad = text.replace("\"loss\": 0", "\"loss\": -4");
        let err = Memory::from_json(&bad, 0).unwrap_err().to_string();
        assert_eq!(
            err,
            "state file does not match MENACE's boxes: rules: loss reward -4 is out of range: use -1 to 1000 beads per drawn bead"
        );
    }

    #[test]
    fn bad_files_name_what_is_wrong() {
        let text = trained().to_json();
        let err = |t: &str| Memory::from_json(t, 0).unwrap_err().to_string();
        assert!(err("{ not json").starts_with("not a valid MENACE state file"));
        assert!(err("[1, 2]").starts_with("not a MENACE state file"));
        assert_eq!(
            err(&text.replace("\"version\": 1", "\"version\": 2")),
            "format version 2 is not supported: this program reads version 1"
        );
        assert!(err(&text.replace("\"challenge\"", "\"fast\"")).contains("unknown variant"));
        let moved = text.replacen("\".........\"", "\"X........\"", 1);
        assert!(
            err(&moved).contains("box 1 of the X machine has image \"X........\""),
            "{}",
            err(&moved)
        );
        // A bead on the taken square 4 of box 2 (X in the centre... or wherever it is).
        let mut file: StateFile = serde_json::from_str(&text).unwrap();
        let image = file.machines[0].boxes[1].image.clone();
        let taken = image.find(['X', 'O']).unwrap();
        file.machines[0].boxes[1].beads[taken] = 1;
        let stray = serde_json::to_string(&file).unwrap();
        assert!(
            err(&stray).contains("box 2 of the X machine"),
            "{}",
            err(&stray)
        );
        file.machines[0].boxes.pop();
        let short = serde_json::to_string(&file).unwrap();
        assert_eq!(
            err(&short),
            "state file does not match MENACE's boxes: the X machine has 303 boxes, but it should have 304"
        );
        assert!(err(&text[..text.len() / 2]).starts_with("not a valid MENACE state file"));
    }
}
