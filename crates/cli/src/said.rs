//! What the engine's score says, in the words each reader of it expects:
//! a person (`win in 5`, `win rate 63%`) and Rapfi-style info lines
//! (`+M5`, `-M4`, `37`), which Yixin-Board and managers parse. Both
//! binaries (`inarow`, `pbrain-inarow`) include this file.

use std::fmt;

use inarow_engine::score::{WIN, is_decided, win_rate};

/// A score as a person reads it, from the side whose score it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Evaluation {
    /// A win proven this many plies (stones of both sides) to the end.
    Win(i32),
    /// A loss proven this many plies to the end.
    Loss(i32),
    /// Not proven: the expected result, 0 to 1, by the evaluation's
    /// fitted logistic scale.
    Rate(f64),
}

impl Evaluation {
    /// What `score` says at logistic scale `scale`
    /// ([`inarow_engine::eval::Eval::logistic_scale`]).
    pub fn of(score: i32, scale: f64) -> Evaluation {
        if !is_decided(score) {
            Evaluation::Rate(win_rate(score, scale))
        } else if score > 0 {
            Evaluation::Win(WIN - score)
        } else {
            Evaluation::Loss(WIN + score)
        }
    }
}

impl fmt::Display for Evaluation {
    /// `win in 5`, `loss in 4`, `win rate 63%`; a rate that is not
    /// proven never reads 0% or 100%, which only a proof may say.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Evaluation::Win(plies) => write!(f, "win in {plies}"),
            Evaluation::Loss(plies) => write!(f, "loss in {plies}"),
            Evaluation::Rate(rate) => {
                let percent = (rate * 100.0).round().clamp(1.0, 99.0);
                write!(f, "win rate {percent:.0}%")
            }
        }
    }
}

/// A score as Rapfi's info lines write it, which Yixin-Board and
/// c-gomoku-cli read: a win in `n` plies `+Mn`, a loss `-Mn`, otherwise
/// the number.
pub fn ev(score: i32) -> String {
    match Evaluation::of(score, 1.0) {
        Evaluation::Win(plies) => format!("+M{plies}"),
        Evaluation::Loss(plies) => format!("-M{plies}"),
        Evaluation::Rate(_) => score.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inarow_engine::score::{loss_in, win_in};

    #[test]
    fn proofs_say_their_plies_and_rates_never_claim_one() {
        let k = 0.0035;
        assert_eq!(Evaluation::of(win_in(5), k).to_string(), "win in 5");
        assert_eq!(Evaluation::of(loss_in(4), k).to_string(), "loss in 4");
        assert_eq!(Evaluation::of(0, k).to_string(), "win rate 50%");
        // Far from zero but unproven: 99% and 1%, not 100% and 0%.
        assert_eq!(Evaluation::of(20_000, k).to_string(), "win rate 99%");
        assert_eq!(Evaluation::of(-20_000, k).to_string(), "win rate 1%");
        assert_eq!(ev(win_in(3)), "+M3");
        assert_eq!(ev(loss_in(6)), "-M6");
        assert_eq!(ev(-37), "-37");
    }
}
