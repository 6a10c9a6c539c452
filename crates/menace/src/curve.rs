//! The learning curve: how MENACE's games went, block by block.

use inarow_core::{GameResult, Tally};

/// MENACE's results in blocks of equal size, the last one filling up.
///
/// A curve made with [`Curve::new`] keeps every block: the trainer's table,
/// CSV and chart. One made with [`Curve::bounded`] starts with blocks of one
/// game and merges neighbours whenever it would pass its bound, so a chart
/// of a million games stays small: the web page's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Curve {
    /// Games per block; 0 for a bounded curve before its first game.
    block: u64,
    blocks: Vec<Tally>,
    games: u64,
    /// At most this many blocks, when bounded.
    bound: Option<usize>,
}

/// One block of a curve: which games it holds and how they went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Number of the block's first game (from 1).
    pub first: u64,
    /// Number of its last game: the games played at the end of the block.
    pub last: u64,
    /// Wins, draws and losses in the block.
    pub tally: Tally,
}

impl Curve {
    /// A curve of blocks of `block` games each (at least 1), all kept.
    pub fn new(block: u64) -> Curve {
        Curve {
            block: block.max(1),
            blocks: Vec::new(),
            games: 0,
            bound: None,
        }
    }

    /// A curve of at most `bound` blocks (an even number, at least 2) whose
    /// blocks double in size as games come in.
    pub fn bounded(bound: usize) -> Curve {
        assert!(bound >= 2 && bound % 2 == 0, "an even bound of at least 2");
        Curve {
            block: 0,
            blocks: Vec::new(),
            games: 0,
            bound: Some(bound),
        }
    }

    /// A bounded curve from stored blocks of `block` games each (the last
    /// may hold fewer, none may be empty), merged down to `bound` blocks if
    /// there are more; `None` if the blocks do not fit that shape.
    pub fn restore(bound: usize, block: u64, tallies: &[Tally]) -> Option<Curve> {
        let mut curve = Curve::bounded(bound);
        if tallies.is_empty() {
            return Some(curve);
        }
        let (last, full) = tallies.split_last()?;
        let fits = block >= 1
            && full.iter().all(|t| t.games() == block)
            && (1..=block).contains(&last.games());
        if !fits {
            return None;
        }
        curve.block = block;
        curve.blocks = tallies.to_vec();
        curve.games = tallies.iter().map(|t| t.games()).sum();
        while curve.blocks.len() > bound {
            curve.merge_neighbours();
        }
        Some(curve)
    }

    /// Counts one more game.
    #[inline]
    pub fn add(&mut self, result: GameResult) {
        self.block = self.block.max(1);
        match self.blocks.last_mut() {
            Some(last) if last.games() < self.block => last.add(result),
            _ => {
                if self.bound == Some(self.blocks.len()) {
                    self.merge_neighbours();
                    return self.add(result);
                }
                self.blocks.push([result].into_iter().collect());
            }
        }
        self.games += 1;
    }

    /// Merges the blocks two by two, doubling the block size.
    pub fn merge_neighbours(&mut self) {
        self.blocks = self
            .blocks
            .chunks(2)
            .map(|pair| pair.iter().copied().sum())
            .collect();
        self.block *= 2;
    }

    /// Games per block (the last block may hold fewer); 0 for a bounded
    /// curve before its first game.
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The tallies of the blocks, oldest first.
    pub fn tallies(&self) -> &[Tally] {
        &self.blocks
    }

    /// The blocks with the games each holds, oldest first.
    pub fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        self.blocks.iter().scan(0, |played, &tally| {
            let first = *played + 1;
            *played += tally.games();
            Some(Block {
                first,
                last: *played,
                tally,
            })
        })
    }

    /// The newest block, filled or filling.
    pub fn last_block(&self) -> Option<Block> {
        self.blocks.last().map(|&tally| Block {
            first: self.games - tally.games() + 1,
            last: self.games,
            tally,
        })
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// All games counted, in one tally.
    pub fn total(&self) -> Tally {
        self.blocks.iter().copied().sum()
    }
}

impl Extend<GameResult> for Curve {
    fn extend<I: IntoIterator<Item = GameResult>>(&mut self, results: I) {
        results.into_iter().for_each(|r| self.add(r));
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn result() -> impl Strategy<Value = GameResult> {
        prop_oneof![
            Just(GameResult::Win),
            Just(GameResult::Draw),
            Just(GameResult::Loss)
        ]
    }

    #[test]
    fn fixed_blocks_end_with_a_short_one() {
        let mut curve = Curve::new(3);
        curve.extend([GameResult::Win; 7]);
        let blocks: Vec<_> = curve.blocks().map(|b| (b.first, b.last)).collect();
        assert_eq!(blocks, [(1, 3), (4, 6), (7, 7)]);
        assert_eq!(curve.last_block().unwrap().first, 7);
        assert_eq!(curve.total().wins, 7);
    }

    #[test]
    fn a_bounded_curve_starts_unsized_and_merges_neighbours() {
        let mut curve = Curve::bounded(4);
        assert_eq!((curve.block(), curve.tallies().len()), (0, 0));
        curve.extend([
            GameResult::Win,
            GameResult::Loss,
            GameResult::Draw,
            GameResult::Win,
        ]);
        assert_eq!((curve.block(), curve.tallies().len()), (1, 4));
        curve.add(GameResult::Loss);
        assert_eq!(curve.block(), 2);
        let wins: Vec<_> = curve.tallies().iter().map(|t| t.wins).collect();
        assert_eq!(wins, [1, 1, 0]);
        assert_eq!(curve.tallies()[2].losses, 1);
    }

    #[test]
    fn a_restored_curve_goes_on_as_before() {
        let results = [GameResult::Win, GameResult::Loss, GameResult::Draw];
        let mut curve = Curve::bounded(4);
        curve.extend(results.iter().cycle().take(11).copied());
        let mut back = Curve::restore(4, curve.block(), curve.tallies()).unwrap();
        assert_eq!(back, curve);
        curve.add(GameResult::Win);
        back.add(GameResult::Win);
        assert_eq!(back, curve);
        // More blocks than the bound merge down; bad shapes are refused.
        let ones: Vec<Tally> = (0..8)
            .map(|_| [GameResult::Win].into_iter().collect())
            .collect();
        let merged = Curve::restore(4, 1, &ones).unwrap();
        assert_eq!(
            (merged.block(), merged.tallies().len(), merged.games()),
            (2, 4, 8)
        );
        assert_eq!(Curve::restore(4, 2, &ones), None);
        assert_eq!(Curve::restore(4, 0, &ones[..1]), None);
        assert_eq!(Curve::restore(4, 3, &[]), Some(Curve::bounded(4)));
    }

    proptest! {
        #[test]
        fn blocks_hold_every_game_in_order(
            results in proptest::collection::vec(result(), 0..600),
            block in 1u64..40,
            bound in 1usize..20,
        ) {
            let all: Tally = results.iter().copied().collect();
            for mut curve in [Curve::new(block), Curve::bounded(2 * bound)] {
                curve.extend(results.iter().copied());
                prop_assert_eq!(curve.total(), all);
                prop_assert_eq!(curve.games(), all.games());
                prop_assert_eq!(curve.blocks().last(), curve.last_block());
                let mut next = 1;
                let n = curve.tallies().len();
                for (i, b) in curve.blocks().enumerate() {
                    prop_assert_eq!(b.first, next);
                    prop_assert_eq!(b.last - b.first + 1, b.tally.games());
                    // Every block but the newest is full.
                    prop_assert!(b.tally.games() == curve.block() || i + 1 == n);
                    next = b.last + 1;
                }
                if let Some(bound) = curve.bound {
                    prop_assert!(n <= bound);
                }
            }
        }
    }
}
