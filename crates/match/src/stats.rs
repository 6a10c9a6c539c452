//! What a match's tally says: an Elo estimate with its 95% error bars, and
//! a sequential probability ratio test (SPRT) that stops a match once the
//! evidence is in, as fishtest does.

use inarow_core::Tally;

/// Elo difference for an expected score in (0, 1).
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Variance of one game's score with `prior` games of each result added: a
/// run of identical results has no variance of its own, yet it is evidence,
/// so the test statistic must not be cancelled by it.
fn variance(tally: &Tally, prior: f64) -> f64 {
    let (w, d, l) = (
        tally.wins as f64 + prior,
        tally.draws as f64 + prior,
        tally.losses as f64 + prior,
    );
    let n = (w + d + l).max(1.0);
    let s = (w + d / 2.0) / n;
    (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n
}

/// Elo estimate of the tallied side with its 95% interval `(low, estimate,
/// high)`; scores of 0 or 1 are clamped so that the numbers stay finite.
pub fn elo(tally: &Tally) -> (f64, f64, f64) {
    let n = tally.games().max(1) as f64;
    let clamp = |s: f64| s.clamp(0.5 / n, 1.0 - 0.5 / n);
    let s = tally.score();
    let half = 1.96 * (variance(tally, 0.0) / n).sqrt();
    (
        elo_of(clamp(s - half)),
        elo_of(clamp(s)),
        elo_of(clamp(s + half)),
    )
}

/// Log-likelihood ratio of "the tallied side is `elo1` better" against
/// "`elo0` better" (normal approximation, as in fishtest).
pub fn llr(tally: &Tally, elo0: f64, elo1: f64) -> f64 {
    let var = variance(tally, 0.5);
    if tally.games() == 0 {
        return 0.0;
    }
    let (s0, s1) = (score_of(elo0), score_of(elo1));
    let s = tally.score();
    tally.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// The SPRT verdict so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Evidence for `elo1`: accept the change.
    Accept,
    /// Evidence for `elo0`: reject the change.
    Reject,
    /// Not enough evidence yet.
    Continue,
}

/// SPRT with error rates `alpha` = `beta` = 0.05: the log-likelihood ratio
/// and what it decides.
pub fn sprt(tally: &Tally, elo0: f64, elo1: f64) -> (f64, Verdict) {
    let llr = llr(tally, elo0, elo1);
    let (lower, upper) = ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln());
    let verdict = if llr >= upper {
        Verdict::Accept
    } else if llr <= lower {
        Verdict::Reject
    } else {
        Verdict::Continue
    };
    (llr, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_sprt_figures() {
        let even = Tally {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        let (lo, e, hi) = elo(&even);
        assert!(e.abs() < 1e-9 && lo < -60.0 && hi > 60.0);
        let strong = Tally {
            wins: 150,
            draws: 0,
            losses: 50,
        };
        assert!((elo(&strong).1 - 190.85).abs() < 0.1);
        assert_eq!(sprt(&strong, 0.0, 10.0).1, Verdict::Accept);
        let weak = Tally {
            wins: 50,
            draws: 0,
            losses: 150,
        };
        assert_eq!(sprt(&weak, 0.0, 10.0).1, Verdict::Reject);
        assert_eq!(
            sprt(
                &Tally {
                    wins: 3,
                    draws: 1,
                    losses: 2
                },
                0.0,
                10.0
            )
            .1,
            Verdict::Continue
        );
        assert!((score_of(elo_of(0.3)) - 0.3).abs() < 1e-12);
        let perfect = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert!(elo(&perfect).1.is_finite());
    }

    #[test]
    fn a_run_of_one_result_is_evidence() {
        let run = |wins, losses| Tally {
            wins,
            draws: 0,
            losses,
        };
        let (llr_10, verdict) = sprt(&run(10, 0), 0.0, 10.0);
        assert!(llr_10 > 0.5 && verdict == Verdict::Continue, "{llr_10}");
        assert!(llr(&run(4, 0), 0.0, 10.0) > 0.0);
        assert_eq!(sprt(&run(40, 0), 0.0, 10.0).1, Verdict::Accept);
        assert_eq!(sprt(&run(0, 40), 0.0, 10.0).1, Verdict::Reject);
        assert_eq!(llr(&Tally::default(), 0.0, 10.0), 0.0);
    }
}
