//! How a game ended, in the one word the records of every contest write:
//! a tournament's results and part files, a match's part files, the SGF
//! records and the web page's games.

use std::fmt;

use inarow_core::Outcome;
use serde::{Deserialize, Serialize};

/// How a game ended, as the records name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// `five`: a five on the board.
    #[serde(rename = "five")]
    Five,
    /// `full board`: the board full with no five.
    #[serde(rename = "full board")]
    FullBoard,
    /// `forfeit`: a bot lost through a fault.
    #[serde(rename = "forfeit")]
    Forfeit,
    /// `resigned`: a player gave up (the web page's games only; a
    /// tournament's bots cannot resign).
    #[serde(rename = "resigned")]
    Resigned,
    /// `forbidden`: under renju, a black stone on a forbidden point (a
    /// double three, a double four or an overline), which loses at once
    /// for the bot that put it.
    #[serde(rename = "forbidden")]
    Forbidden,
}

impl Ending {
    /// The ending as the records write it.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Five => "five",
            Ending::FullBoard => "full board",
            Ending::Forfeit => "forfeit",
            Ending::Resigned => "resigned",
            Ending::Forbidden => "forbidden",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Ending {
    /// How a game over on the board ended: a five, or the board full.
    pub fn of(outcome: Outcome) -> Ending {
        match outcome {
            Outcome::Win(_) => Ending::Five,
            Outcome::Draw => Ending::FullBoard,
        }
    }
}

#[cfg(test)]
mod tests {
    use inarow_core::Player;

    use super::*;

    /// The records write an ending through serde and through its name:
    /// both must be the same word, or a merged part would not read back.
    #[test]
    fn the_serde_word_is_the_name() {
        let all = [
            Ending::Five,
            Ending::FullBoard,
            Ending::Forfeit,
            Ending::Resigned,
            Ending::Forbidden,
        ];
        for ending in all {
            let json = serde_json::to_string(&ending).unwrap();
            assert_eq!(json, format!("\"{}\"", ending.name()));
            assert_eq!(ending.to_string(), ending.name());
            assert_eq!(serde_json::from_str::<Ending>(&json).unwrap(), ending);
        }
        assert_eq!(Ending::of(Outcome::Win(Player::X)), Ending::Five);
        assert_eq!(Ending::of(Outcome::Draw), Ending::FullBoard);
    }
}
