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

/// Most beads per colour a fresh box may start with, and most a result may
/// add per drawn bead, in [`Rules`].
pub const MAX_RULE_BEADS: u32 = 1000;

/// A preset's numbers, which may be changed: beads per colour in fresh
/// boxes and the net change in beads per drawn bead for each result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Beads per colour in a fresh box for the 1st, 2nd, 3rd and 4th move.
    pub start: [u32; 4],
    /// Net change per drawn bead after a win.
    pub win: i32,
    /// Net change per drawn bead after a draw.
    pub draw: i32,
    /// Net change per drawn bead after a loss.
    pub loss: i32,
}

impl Rules {
    /// The numbers of `preset`.
    pub fn of(preset: Preset) -> Rules {
        Rules {
            start: preset.start_beads(),
            win: preset.net_change(GameResult::Win),
            draw: preset.net_change(GameResult::Draw),
            loss: preset.net_change(GameResult::Loss),
        }
    }

    /// Net change in beads of each colour drawn in a game, per result.
    #[inline]
    pub fn net_change(&self, result: GameResult) -> i32 {
        match result {
            GameResult::Win => self.win,
            GameResult::Draw => self.draw,
            GameResult::Loss => self.loss,
        }
    }

    /// Beads put back per bead drawn at the end of a game with this result.
    #[inline]
    pub fn beads_returned(&self, result: GameResult) -> u32 {
        // `check` keeps every net change at -1 or more.
        (self.net_change(result) + 1).max(0) as u32
    }

    /// Whether the numbers can be used: start beads 1 to
    /// [`MAX_RULE_BEADS`], net changes -1 (the drawn bead stays out) to
    /// [`MAX_RULE_BEADS`]. The error is one line.
    pub fn check(&self) -> Result<(), BadRules> {
        let max = MAX_RULE_BEADS as i64;
        if let Some(s) = self
            .start
            .iter()
            .find(|&&s| !(1..=max).contains(&(s as i64)))
        {
            return Err(BadRules(format!(
                "start beads {s} is out of range: use 1 to {max} per colour"
            )));
        }
        for (name, n) in [("win", self.win), ("draw", self.draw), ("loss", self.loss)] {
            if !(-1..=max).contains(&(n as i64)) {
                return Err(BadRules(format!(
                    "{name} reward {n} is out of range: use -1 to {max} beads per drawn bead"
                )));
            }
        }
        Ok(())
    }
}

/// Numbers that [`Rules::check`] refuses, with the one-line reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadRules(pub String);

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

    #[test]
    fn rules_copy_their_preset_and_refuse_what_cannot_be_played() {
        for p in Preset::ALL {
            let rules = Rules::of(p);
            assert_eq!(rules.check(), Ok(()));
            for r in GameResult::ALL {
                assert_eq!(rules.beads_returned(r), p.beads_returned(r));
            }
        }
        let bad = |r: Rules| r.check().unwrap_err().to_string();
        let base = Rules::of(Preset::Michie);
        assert_eq!(
            bad(Rules { loss: -2, ..base }),
            "loss reward -2 is out of range: use -1 to 1000 beads per drawn bead"
        );
        assert_eq!(
            bad(Rules {
                start: [4, 0, 2, 1],
                ..base
            }),
            "start beads 0 is out of range: use 1 to 1000 per colour"
        );
        assert!(bad(Rules { win: 1001, ..base }).starts_with("win reward 1001"));
    }
}
