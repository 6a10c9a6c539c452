//! Who plays O when MENACE trains on its own.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The trainer's opponent, as the page names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
