//! Scores: centi-stones for the evaluation, and win/loss scores that say
//! how many plies away the end is (a quicker win scores higher); and what
//! a score means as a win rate ([`win_rate`]), by the logistic scale the
//! evaluation was fitted with ([`crate::eval::Eval::logistic_scale`]).

/// The score of a win on the spot; wins `n` plies away score `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores at least this far from zero are proven wins or losses.
pub const DECIDED: i32 = WIN - 1000;

/// The score of winning `ply` plies from the root.
#[inline]
pub const fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// The score of losing `ply` plies from the root.
#[inline]
pub const fn loss_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

/// A score found `ply` plies from the root as a table stores it: a decided
/// score counted from the node, so the same position met at another ply
/// reads right.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score + ply as i32
    } else if score <= -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back `ply` plies from the root ([`to_tt`]'s inverse).
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score - ply as i32
    } else if score <= -DECIDED {
        score + ply as i32
    } else {
        score
    }
}

/// True if the score is a proven win or loss.
#[inline]
pub const fn is_decided(score: i32) -> bool {
    score >= DECIDED || score <= -DECIDED
}

/// The side to move's expected result (1 a win, 0 a loss) that `score`
/// means at logistic scale `scale` ([`crate::eval::Eval::logistic_scale`]): 1 and 0 for
/// proven wins and losses, else `1 / (1 + e^(-scale * score))`.
pub fn win_rate(score: i32, scale: f64) -> f64 {
    if score >= DECIDED {
        1.0
    } else if score <= -DECIDED {
        0.0
    } else {
        1.0 / (1.0 + (-scale * f64::from(score)).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::learned::Learned;
    use crate::search::Options;
    use inarow_core::Rule;

    #[test]
    fn decided_scores_are_certain_and_others_follow_the_fitted_scale() {
        let eval = Options::default().eval;
        for rule in Rule::ALL {
            let k = eval.logistic_scale(rule);
            // The scale the embedded tables were fitted with (eval.bin's header).
            assert_eq!(k, Learned::embedded().scale(rule));
            assert!(k > 0.001 && k < 0.01, "{rule:?}: {k}");
            assert_eq!(win_rate(win_in(1), k), 1.0);
            assert_eq!(win_rate(win_in(40), k), 1.0);
            assert_eq!(win_rate(loss_in(2), k), 0.0);
            assert_eq!(win_rate(0, k), 0.5);
            // A score of 1/k is one logit: e / (1 + e).
            let one_logit = (1.0 / k).round() as i32;
            let p = win_rate(one_logit, k);
            assert!((p - 0.731).abs() < 0.002, "{rule:?}: {p}");
            assert!((win_rate(-one_logit, k) + p - 1.0).abs() < 1e-12);
            // Higher scores, higher win rates, short of certainty.
            let rates: Vec<f64> = [-5000, -300, -10, 10, 300, 5000]
                .iter()
                .map(|&s| win_rate(s, k))
                .collect();
            assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
            assert!(rates[0] > 0.0 && rates[5] < 1.0, "{rates:?}");
        }
        // Freestyle's fitted scale, as docs/engine.md gives it.
        assert_eq!(eval.logistic_scale(Rule::Freestyle), 0.003532);
        // Another evaluation's units are the embedded tables'.
        let tuned = crate::options::eval_named("tuned").unwrap();
        assert_eq!(tuned.logistic_scale(Rule::Renju), 0.003065);
    }
}
