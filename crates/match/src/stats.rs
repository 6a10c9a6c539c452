//! What a match's tally says: an Elo estimate with its 95% error bars, and
//! what its pairs say ([`Pairs`]): Elo from them, and the sequential
//! probability ratio test (SPRT) over them that stops a match once the
//! evidence is in, as fishtest's pentanomial test does.

use inarow_core::{GameResult, Tally};

/// Elo difference for an expected score in (0, 1).
pub fn elo_of(score: f64) -> f64 {
    // Plus zero: an even score is +0, never -0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// Expected score for an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Variance of one game's score.
fn variance(tally: &Tally) -> f64 {
    let (w, d, l) = (tally.wins as f64, tally.draws as f64, tally.losses as f64);
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
    let half = 1.96 * (variance(tally) / n).sqrt();
    (
        elo_of(clamp(s - half)),
        elo_of(clamp(s)),
        elo_of(clamp(s + half)),
    )
}

/// Log-likelihood ratio of "A is `elo1` better" against "`elo0` better"
/// over the pairs (normal approximation over the pairs' scores, as
/// fishtest's pentanomial test: the pairs, not the games, are the
/// independent trials of a match from paired openings).
pub fn llr(pairs: &Pairs, elo0: f64, elo1: f64) -> f64 {
    if pairs.count() == 0 {
        return 0.0;
    }
    let var = pair_variance(pairs, 0.5);
    let (s0, s1) = (score_of(elo0), score_of(elo1));
    f64::from(pairs.count()) * (s1 - s0) * (2.0 * pairs.score() - s0 - s1) / (2.0 * var)
}

/// Variance of one pair's score (a game's scale, 0 to 1) with `prior`
/// pairs of each outcome added: a run of identical pairs has no variance
/// of its own, yet it is evidence, so the test must not be cancelled by it.
fn pair_variance(pairs: &Pairs, prior: f64) -> f64 {
    let n = f64::from(pairs.count()) + 5.0 * prior;
    if n == 0.0 {
        return 0.0;
    }
    let with_prior = |c: f64| c + prior;
    let s = pairs.points().map(|(x, c)| x * with_prior(c)).sum::<f64>() / n;
    pairs
        .points()
        .map(|(x, c)| with_prior(c) * (x - s).powi(2))
        .sum::<f64>()
        / n
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

/// SPRT over the pairs with error rates `alpha` = `beta` = 0.05: the
/// log-likelihood ratio and what it decides.
pub fn sprt(pairs: &Pairs, elo0: f64, elo1: f64) -> (f64, Verdict) {
    let llr = llr(pairs, elo0, elo1);
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

/// A match's pairs by the points A took from each (an opening played
/// twice, colours swapped): how many pairs gave 0, ½, 1, 1½ and 2 points,
/// the pentanomial counts. Pairs are a paired match's independent trials:
/// an opening that hands the win to one colour gives each side one game,
/// which a game tally counts as two results and a pair as one split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs by A's points in half points: `counts[k]` pairs gave `k / 2`.
    pub counts: [u32; 5],
}

impl Pairs {
    /// Counts a pair from A's results of its two games.
    pub fn add(&mut self, results: [GameResult; 2]) {
        let halves = |r: GameResult| match r {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        };
        self.counts[halves(results[0]) + halves(results[1])] += 1;
    }

    /// Adds `other`'s pairs to these (as [`Tally::merge`]
    /// adds games).
    pub fn merge(&mut self, other: &Pairs) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }

    /// Pairs counted.
    pub fn count(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Pairs A won (more than one point), split (one point) and lost.
    pub fn won_split_lost(&self) -> (u32, u32, u32) {
        let c = self.counts;
        (c[3] + c[4], c[2], c[0] + c[1])
    }

    /// A's mean score a game, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.count().max(1) as f64;
        self.points().map(|(x, c)| x * c).sum::<f64>() / n
    }

    /// Each pair's score a game (0, ¼, ½, ¾, 1) with how many pairs had it.
    fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .map(|(k, &c)| (k as f64 / 4.0, f64::from(c)))
    }
}

/// Why a match gives no Elo figure yet: an interval measured from pairs
/// that do not tell the sides apart, or that do not differ, has no width
/// and would claim a certainty the match does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoElo {
    /// Fewer than two pairs went to one side: a pair that gave each side
    /// one point (split, or two draws) says nothing of which is stronger.
    FewInformative {
        /// Pairs that gave A other than one point.
        informative: u32,
        /// Pairs played.
        pairs: u32,
    },
    /// Every pair gave A the same points (in half points, 0 to 4): no
    /// spread between pairs to measure an interval by.
    SamePairs {
        /// Pairs played.
        pairs: u32,
        /// A's points of each, in half points.
        halves: usize,
    },
    /// Every game had the same result for A: no spread between games.
    SameGames {
        /// Games played.
        games: u32,
        /// Their one result for A.
        result: GameResult,
    },
}

/// Fewest pairs that must go to one side or the other before an Elo
/// interval is given.
pub const INFORMATIVE_PAIRS: u32 = 2;

impl std::fmt::Display for NoElo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |n: u32| if n == 1 { "" } else { "s" };
        match *self {
            NoElo::FewInformative { informative, pairs } => write!(
                f,
                "{informative} of {pairs} pair{} went to one side, and an interval needs at least {INFORMATIVE_PAIRS} (a pair that gives each side one point says nothing of which is stronger)",
                s(pairs)
            ),
            NoElo::SamePairs { pairs, halves } => write!(
                f,
                "all {pairs} pairs gave A {} point{}: no spread between pairs to measure an interval by",
                halves as f64 / 2.0,
                if halves == 2 { "" } else { "s" }
            ),
            NoElo::SameGames { games, result } => write!(
                f,
                "all {games} games were {} for A: no spread between games to measure an interval by",
                match result {
                    GameResult::Win => "wins",
                    GameResult::Draw => "draws",
                    GameResult::Loss => "losses",
                }
            ),
        }
    }
}

impl Pairs {
    /// Pairs that gave A other than one point: those that say which side
    /// is stronger.
    pub fn informative(&self) -> u32 {
        self.count() - self.counts[2]
    }

    /// Why the pairs give no Elo interval ([`elo_of_pairs`]), if they give
    /// none.
    pub fn no_elo(&self) -> Option<NoElo> {
        let pairs = self.count();
        self.few_informative().or_else(|| {
            self.counts
                .iter()
                .position(|&c| c == pairs)
                .map(|halves| NoElo::SamePairs { pairs, halves })
        })
    }

    /// [`NoElo::FewInformative`], where fewer than [`INFORMATIVE_PAIRS`]
    /// pairs went to one side: no interval from pairs or from their games.
    fn few_informative(&self) -> Option<NoElo> {
        (self.informative() < INFORMATIVE_PAIRS).then(|| NoElo::FewInformative {
            informative: self.informative(),
            pairs: self.count(),
        })
    }

    /// Why the games of these pairs, tallied in `tally`, give no Elo
    /// interval ([`elo`]), if they give none: the games of a paired match
    /// are told apart by its pairs, so too few informative pairs withhold
    /// it too.
    pub fn no_elo_of_games(&self, tally: &Tally) -> Option<NoElo> {
        let games = tally.games() as u32;
        self.few_informative().or_else(|| {
            GameResult::ALL
                .into_iter()
                .find(|&r| tally.count(r) as u32 == games)
                .map(|result| NoElo::SameGames { games, result })
        })
    }
}

/// Elo estimate of A with its 95% interval `(low, estimate, high)` from
/// the variance between pairs (pentanomial), as fishtest gives it for
/// paired openings; scores of 0 or 1 are clamped so the numbers stay finite,
/// and no pairs say 0.
pub fn elo_of_pairs(pairs: &Pairs) -> (f64, f64, f64) {
    if pairs.count() == 0 {
        return (0.0, 0.0, 0.0);
    }
    let n = f64::from(pairs.count());
    let s = pairs.score();
    let half = 1.96 * (pair_variance(pairs, 0.0) / n).sqrt();
    // Half a game of a pair from either end: finite, as `elo` clamps.
    let clamp = |s: f64| s.clamp(0.25 / n, 1.0 - 0.25 / n);
    (
        elo_of(clamp(s - half)),
        elo_of(clamp(s)),
        elo_of(clamp(s + half)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs by A's points, from 0 to 2.
    fn pairs(counts: [u32; 5]) -> Pairs {
        Pairs { counts }
    }

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
        // A winning half its pairs and splitting the rest: accepted; the
        // mirror: rejected; a few mixed pairs: undecided.
        assert_eq!(
            sprt(&pairs([0, 0, 50, 0, 50]), 0.0, 10.0).1,
            Verdict::Accept
        );
        assert_eq!(
            sprt(&pairs([50, 0, 50, 0, 0]), 0.0, 10.0).1,
            Verdict::Reject
        );
        assert_eq!(
            sprt(&pairs([1, 1, 1, 0, 2]), 0.0, 10.0).1,
            Verdict::Continue
        );
        assert!((score_of(elo_of(0.3)) - 0.3).abs() < 1e-12);
        let perfect = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert!(elo(&perfect).1.is_finite());
        assert_eq!(elo_of(0.5).to_string(), "0", "even is +0, not -0");
    }

    #[test]
    fn split_pairs_are_no_evidence_and_a_pair_is_one_trial() {
        // Every pair split: even, whatever the games were.
        assert!(llr(&pairs([0, 0, 40, 0, 0]), 0.0, 10.0) < 0.0);
        // The same score from pairs that split or were won, against pairs
        // won or lost whole: the pairs that vary more say less.
        let mixed = llr(&pairs([0, 0, 30, 0, 20]), 0.0, 10.0);
        let whole = llr(&pairs([15, 0, 0, 0, 35]), 0.0, 10.0);
        assert!(mixed > whole && whole > 0.0, "{mixed} {whole}");
    }

    #[test]
    fn pairs_count_by_points_and_their_interval_is_the_pairs_variance() {
        use GameResult::{Draw, Loss, Win};
        let mut p = Pairs::default();
        for results in [
            [Win, Win],
            [Win, Loss],
            [Loss, Win],
            [Draw, Win],
            [Loss, Loss],
        ] {
            p.add(results);
        }
        assert_eq!(p.counts, [1, 0, 2, 1, 1]);
        assert_eq!((p.count(), p.won_split_lost()), (5, (2, 2, 1)));
        assert!((p.score() - 0.55).abs() < 1e-12);
        // Every pair split: even, and nothing varies between pairs, so the
        // interval closes where a game tally (50 wins, 50 losses) stays wide.
        let split = Pairs {
            counts: [0, 0, 50, 0, 0],
        };
        let (lo, e, hi) = elo_of_pairs(&split);
        assert!(e.abs() < 1e-9 && lo.abs() < 1e-9 && hi.abs() < 1e-9);
        let games = Tally {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        assert!(elo(&games).2 > 60.0);
        // The same games, pairs won and lost whole: wider than the tally's.
        let whole = Pairs {
            counts: [25, 0, 0, 0, 25],
        };
        assert!(elo_of_pairs(&whole).2 > elo(&games).2);
        // One colour's wins, A winning the rest: the score of the tally,
        // a narrower interval.
        let mixed = Pairs {
            counts: [0, 0, 30, 0, 20],
        };
        let tally = Tally {
            wins: 70,
            draws: 0,
            losses: 30,
        };
        let (plo, pe, phi) = elo_of_pairs(&mixed);
        let (tlo, te, thi) = elo(&tally);
        assert!((pe - te).abs() < 1e-9 && phi - plo < thi - tlo);
        assert!(
            elo_of_pairs(&Pairs {
                counts: [0, 0, 0, 0, 9]
            })
            .1
            .is_finite()
        );
        assert_eq!(elo_of_pairs(&Pairs::default()).1, 0.0);
    }

    #[test]
    fn a_run_of_one_result_is_evidence() {
        let (llr_10, verdict) = sprt(&pairs([0, 0, 0, 0, 10]), 0.0, 10.0);
        assert!(llr_10 > 0.5 && verdict == Verdict::Continue, "{llr_10}");
        assert!(llr(&pairs([0, 0, 0, 0, 2]), 0.0, 10.0) > 0.0);
        assert_eq!(sprt(&pairs([0, 0, 0, 0, 40]), 0.0, 10.0).1, Verdict::Accept);
        assert_eq!(sprt(&pairs([40, 0, 0, 0, 0]), 0.0, 10.0).1, Verdict::Reject);
        assert_eq!(llr(&Pairs::default(), 0.0, 10.0), 0.0);
    }

    #[test]
    fn no_elo_from_fewer_than_two_pairs_that_went_to_one_side_or_from_no_spread() {
        let tally = |wins, draws, losses| Tally {
            wins,
            draws,
            losses,
        };
        // Four split pairs: the "+0 [+0, +0]".
        let split = pairs([0, 0, 4, 0, 0]);
        let (lo, _, hi) = elo_of_pairs(&split);
        assert_eq!(lo, hi, "an interval of no width, which must not be shown");
        let few = NoElo::FewInformative {
            informative: 0,
            pairs: 4,
        };
        assert_eq!(split.no_elo(), Some(few));
        assert_eq!(split.no_elo_of_games(&tally(4, 0, 4)), Some(few));
        assert!(few.to_string().starts_with("0 of 4 pairs went to one side"));
        // One pair won among splits: still too few.
        let one = pairs([0, 0, 5, 0, 1]);
        assert_eq!(one.informative(), 1);
        assert!(matches!(
            one.no_elo(),
            Some(NoElo::FewInformative {
                informative: 1,
                pairs: 6
            })
        ));
        // Two that went to one side, and pairs that differ: an interval.
        for given in [
            pairs([0, 1, 3, 1, 0]),
            pairs([1, 0, 0, 0, 1]),
            pairs([0, 0, 1, 2, 0]),
        ] {
            assert_eq!(given.no_elo(), None, "{given:?}");
            let (lo, e, hi) = elo_of_pairs(&given);
            assert!(lo < e && e < hi, "{given:?}");
        }
        // Every pair the same: no spread between pairs.
        let same = pairs([0, 0, 0, 3, 0]);
        assert_eq!(
            same.no_elo(),
            Some(NoElo::SamePairs {
                pairs: 3,
                halves: 3
            })
        );
        assert_eq!(
            same.no_elo().unwrap().to_string(),
            "all 3 pairs gave A 1.5 points: no spread between pairs to measure an interval by"
        );
        assert_eq!(same.no_elo_of_games(&tally(3, 3, 0)), None);
        // Every game won: no spread between games either.
        let all = pairs([0, 0, 0, 0, 3]);
        assert_eq!(
            all.no_elo_of_games(&tally(6, 0, 0)),
            Some(NoElo::SameGames {
                games: 6,
                result: GameResult::Win
            })
        );
        assert_eq!(all.no_elo_of_games(&tally(5, 1, 0)), None);
    }
}
