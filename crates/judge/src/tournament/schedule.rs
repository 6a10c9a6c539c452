//! The schedule: every pair of bots twice, in rounds where each bot plays
//! at most once; seeds drawn from the tournament seed through the index of
//! the pair; a machine's share of it.

use inarow_contest::shard::Shard;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One scheduled game: which bots, who opens, which seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// Position in the schedule.
    pub index: usize,
    /// Index of the opening bot in the bot list.
    pub a: usize,
    /// Index of the answering bot.
    pub b: usize,
    /// Seed for A.
    pub a_seed: u64,
    /// Seed for B.
    pub b_seed: u64,
}

/// Bot seeds stay below 2^53 so that every language reads them exactly
/// (JavaScript numbers included).
fn bot_seed(rng: &mut ChaCha8Rng) -> u64 {
    rng.random::<u64>() >> 11
}

/// The rounds of a round robin of `bots` bots by the circle method: every
/// pair (lower index first) meets in exactly one round, and in each round
/// every bot plays at most once (one sits out each round when the count is
/// odd). Bot 0 keeps its seat; the others turn one seat a round.
fn rounds(bots: usize) -> Vec<Vec<(usize, usize)>> {
    // An odd count gets a seat for nobody: its neighbour sits the round out.
    let seats = bots + bots % 2;
    if seats < 2 {
        return Vec::new();
    }
    let turning = seats - 1;
    (0..turning)
        .map(|round| {
            let at = |seat: usize| {
                if seat == 0 {
                    0
                } else {
                    1 + (seat - 1 + round) % turning
                }
            };
            (0..seats / 2)
                .map(|seat| (at(seat), at(seats - 1 - seat)))
                .filter(|&(x, y)| x < bots && y < bots)
                .map(|(x, y)| (x.min(y), x.max(y)))
                .collect()
        })
        .collect()
}

/// The schedule for `bots` bots: two games per pair, in rounds where each
/// bot plays at most once ([`rounds`]), so that games of disjoint bots can
/// be played at once. Pair k (the pairs i < j numbered in order: (0, 1),
/// (0, 2), ..., (1, 2), ...) draws from its own stream of the seed: a coin
/// for who opens its first game, then A's and B's seeds for each game.
///
/// The first game of every pair is played in the first leg, a whole round
/// robin; the second, openers swapped, in the second leg, the same rounds
/// again. A bot so meets every opponent once before it meets any again: a
/// bot that learns in its folder cannot turn what it learnt of an opponent
/// into the very next game against it, and the first half of the schedule
/// is already a fair tournament of its own.
pub fn schedule(bots: usize, seed: u64) -> Vec<Fixture> {
    let pair = |i: usize, j: usize| i * bots - i * (i + 1) / 2 + (j - i - 1);
    let games = |i: usize, j: usize| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(pair(i, j) as u64);
        let (first, second) = if rng.random::<bool>() { (i, j) } else { (j, i) };
        [(first, second), (second, first)].map(|(a, b)| {
            let (a_seed, b_seed) = (bot_seed(&mut rng), bot_seed(&mut rng));
            (a, b, a_seed, b_seed)
        })
    };
    let rounds = rounds(bots);
    let mut fixtures = Vec::with_capacity(bots * bots.saturating_sub(1));
    for leg in 0..2 {
        for &(i, j) in rounds.iter().flatten() {
            let (a, b, a_seed, b_seed) = games(i, j)[leg];
            fixtures.push(Fixture {
                index: fixtures.len(),
                a,
                b,
                a_seed,
                b_seed,
            });
        }
    }
    fixtures
}

/// The games of the schedule that are `shard`'s, in schedule order.
pub fn share(bots: usize, seed: u64, shard: Shard) -> Vec<Fixture> {
    schedule(bots, seed)
        .into_iter()
        .filter(|f| shard.owns(f.index))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedule as it was before it was ordered in rounds: pairs in
    /// order, each pair's two games one after the other.
    fn pairs_in_order(bots: usize, seed: u64) -> Vec<Fixture> {
        let mut fixtures = Vec::new();
        let mut pair = 0u64;
        for i in 0..bots {
            for j in i + 1..bots {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(pair);
                pair += 1;
                let (first, second) = if rng.random::<bool>() { (i, j) } else { (j, i) };
                for (a, b) in [(first, second), (second, first)] {
                    let (a_seed, b_seed) = (bot_seed(&mut rng), bot_seed(&mut rng));
                    fixtures.push(Fixture {
                        index: fixtures.len(),
                        a,
                        b,
                        a_seed,
                        b_seed,
                    });
                }
            }
        }
        fixtures
    }

    #[test]
    fn every_pair_plays_twice_with_openers_swapped() {
        let fixtures = schedule(4, 99);
        assert_eq!(fixtures.len(), 12);
        let (first_leg, second_leg) = fixtures.split_at(6);
        for (first, second) in first_leg.iter().zip(second_leg) {
            assert_eq!((first.a, first.b), (second.b, second.a));
        }
        assert_eq!(schedule(4, 99), fixtures, "same seed, same schedule");
        assert_ne!(schedule(4, 100), fixtures);
        // Over many seeds both bots of a pair open the first game sometimes.
        let first_opens: usize = (0..64).filter(|&s| schedule(2, s)[0].a == 0).count();
        assert!((10..54).contains(&first_opens), "{first_opens}");
        assert!(fixtures.iter().all(|f| f.a_seed < 1 << 53));
        assert!(fixtures.iter().enumerate().all(|(i, f)| f.index == i));
    }

    #[test]
    fn rounds_let_each_bot_play_once_and_only_the_order_of_games_changed() {
        for bots in 0..12 {
            let fixtures = schedule(bots, 7);
            assert_eq!(fixtures.len(), bots * bots.saturating_sub(1), "{bots}");
            // A round is bots / 2 games (one bot sits out when odd), and in
            // each a bot plays at most once.
            let per_round = (bots / 2).max(1);
            for round in fixtures.chunks(per_round) {
                let mut playing: Vec<usize> = round.iter().flat_map(|f| [f.a, f.b]).collect();
                playing.sort();
                playing.dedup();
                assert_eq!(playing.len(), 2 * round.len(), "{bots} bots: {round:?}");
            }
            // The same games, each with the seeds its pair's stream gave
            // before: only the order (the index) is new.
            let key = |f: &Fixture| (f.a, f.b, f.a_seed, f.b_seed);
            let mut now: Vec<_> = fixtures.iter().map(key).collect();
            let mut before: Vec<_> = pairs_in_order(bots, 7).iter().map(key).collect();
            now.sort();
            before.sort();
            assert_eq!(now, before, "{bots} bots");
            // Each leg is a whole round robin.
            for leg in fixtures.chunks(fixtures.len().max(2) / 2) {
                let mut pairs: Vec<_> = leg.iter().map(|f| (f.a.min(f.b), f.a.max(f.b))).collect();
                pairs.sort();
                pairs.dedup();
                assert_eq!(pairs.len(), bots * bots.saturating_sub(1) / 2);
            }
        }
    }
}
