//! The presets: how many beads a box starts with, how a game's result is
//! paid back, and what MENACE does when a box runs out of beads.

use std::fmt;
use std::str::FromStr;

use inarow_core::GameResult;
use serde::{Deserialize, Serialize};

/// One of the rule sets MENACE can be built with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// The challenge's rules: 4/3/2/1 beads, +1/0/-1, refill an empty box.
    #[default]
    Challenge,
    /// Michie's 1961 machine: 4/3/2/1 beads, +3/+1/-1, resign on an empty box.
    Michie,
    /// Matthew Scroggs's rebuild: 8/4/2/1 beads with symmetric moves merged
    /// into one colour, +3/+1/-1, resign on an empty box.
    Scroggs,
}

/// What MENACE does when it must draw from an empty box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyBox {
    /// Put this many random legal beads in first, then draw.
    Refill(u32),
    /// Give up the game; it counts as a loss.
    Resign,
}

impl Preset {
    /// All presets, the default first.
    pub const ALL: [Preset; 3] = [Preset::Challenge, Preset::Michie, Preset::Scroggs];

    /// The preset's name as typed on the command line and stored in state files.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Challenge => "challenge",
            Preset::Michie => "michie",
            Preset::Scroggs => "scroggs",
        }
    }

    /// Beads per colour in a fresh box for the machine's 1st, 2nd, 3rd and 4th move.
    pub fn start_beads(self) -> [u32; 4] {
        match self {
            Preset::Challenge | Preset::Michie => [4, 3, 2, 1],
            Preset::Scroggs => [8, 4, 2, 1],
        }
    }

    /// Net change in beads of each colour drawn in a game, per result.
    ///
    /// The drawn bead has already left its box, so a net change of `n` puts
    /// `n + 1` beads back: a loss (-1) puts none back.
    pub fn net_change(self, result: GameResult) -> i32 {
        match (self, result) {
            (Preset::Challenge, GameResult::Win) => 1,
            (Preset::Challenge, GameResult::Draw) => 0,
            (Preset::Michie | Preset::Scroggs, GameResult::Win) => 3,
            (Preset::Michie | Preset::Scroggs, GameResult::Draw) => 1,
            (_, GameResult::Loss) => -1,
        }
    }

    /// Beads put back per bead drawn at the end of a game with this result.
    #[inline]
    pub fn beads_returned(self, result: GameResult) -> u32 {
        // Every preset's worst net change is -1, so this never goes negative.
        (self.net_change(result) + 1) as u32
    }

    /// What happens when the machine meets an empty box.
    pub fn empty_box(self) -> EmptyBox {
        match self {
            Preset::Challenge => EmptyBox::Refill(3),
            Preset::Michie | Preset::Scroggs => EmptyBox::Resign,
        }
    }

    /// Whether squares that a box's image maps onto each other by one of its
    /// own symmetries share one colour of bead.
    pub fn merges_symmetric_moves(self) -> bool {
        self == Preset::Scroggs
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A preset name that is not one of `challenge`, `michie`, `scroggs`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown preset {0:?}: use challenge, michie or scroggs")]
pub struct UnknownPreset(pub String);

impl FromStr for Preset {
    type Err = UnknownPreset;

    fn from_str(text: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownPreset(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
            assert_eq!(p.name().to_uppercase().parse::<Preset>(), Ok(p));
        }
        let err = "fast".parse::<Preset>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown preset \"fast\": use challenge, michie or scroggs"
        );
    }

    #[test]
    fn reinforcement_table_matches_the_spec() {
        let nets = |p: Preset| GameResult::ALL.map(|r| p.net_change(r));
        assert_eq!(nets(Preset::Challenge), [1, 0, -1]);
        assert_eq!(nets(Preset::Michie), [3, 1, -1]);
        assert_eq!(nets(Preset::Scroggs), [3, 1, -1]);
        assert_eq!(Preset::Challenge.beads_returned(GameResult::Loss), 0);
        assert_eq!(Preset::Michie.beads_returned(GameResult::Win), 4);
        assert_eq!(Preset::Challenge.empty_box(), EmptyBox::Refill(3));
        assert_eq!(Preset::Scroggs.empty_box(), EmptyBox::Resign);
    }
}
