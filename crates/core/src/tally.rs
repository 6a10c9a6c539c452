//! How games ended, seen from one side: one result and a running count.
//!
//! MENACE's learning curve and an engine match both count games with
//! [`Tally`], so that merging counts (blocks of a curve, several runs) is
//! written once.

use crate::{Outcome, Player};

/// How one game ended for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// This side won.
    Win,
    /// Nobody won.
    Draw,
    /// The other side won.
    Loss,
}

impl GameResult {
    /// The three results in the order tables print them.
    pub const ALL: [GameResult; 3] = [GameResult::Win, GameResult::Draw, GameResult::Loss];

    /// The result for `side` of a game that ended in `outcome`.
    pub fn for_side(outcome: Outcome, side: Player) -> GameResult {
        match outcome {
            Outcome::Draw => GameResult::Draw,
            Outcome::Win(winner) if winner == side => GameResult::Win,
            Outcome::Win(_) => GameResult::Loss,
        }
    }
}

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Tally {
    /// Counts one more game.
    #[inline]
    pub fn add(&mut self, result: GameResult) {
        *self.count_mut(result) += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Games that ended in `result`.
    pub fn count(&self, result: GameResult) -> u64 {
        match result {
            GameResult::Win => self.wins,
            GameResult::Draw => self.draws,
            GameResult::Loss => self.losses,
        }
    }

    fn count_mut(&mut self, result: GameResult) -> &mut u64 {
        match result {
            GameResult::Win => &mut self.wins,
            GameResult::Draw => &mut self.draws,
            GameResult::Loss => &mut self.losses,
        }
    }

    /// Share of games that ended in `result`, 0 when no game was counted.
    pub fn rate(&self, result: GameResult) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.count(result) as f64 / n as f64,
        }
    }

    /// Mean points per game (win 1, draw 1/2), 0 when no game was counted.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// Adds the games of `other` (another run, another shard).
    pub fn merge(&mut self, other: &Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

impl std::iter::Sum for Tally {
    fn sum<I: Iterator<Item = Tally>>(iter: I) -> Tally {
        iter.fold(Tally::default(), |mut all, t| {
            all.merge(&t);
            all
        })
    }
}

impl FromIterator<GameResult> for Tally {
    fn from_iter<I: IntoIterator<Item = GameResult>>(iter: I) -> Tally {
        let mut tally = Tally::default();
        iter.into_iter().for_each(|r| tally.add(r));
        tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_count_from_one_side_and_merge() {
        let a: Tally = [GameResult::Win, GameResult::Win, GameResult::Draw]
            .into_iter()
            .collect();
        let b: Tally = [GameResult::Loss].into_iter().collect();
        assert_eq!((a.wins, a.draws, a.losses), (2, 1, 0));
        let mut both = a;
        both.merge(&b);
        assert_eq!(both.games(), 4);
        assert_eq!([a, b].into_iter().sum::<Tally>(), both);
        assert_eq!(both.score(), 2.5 / 4.0);
        assert_eq!(Tally::default().rate(GameResult::Win), 0.0);
        assert_eq!(b.rate(GameResult::Loss), 1.0);
    }

    #[test]
    fn a_result_is_read_from_the_outcome_for_each_side() {
        let won = Outcome::Win(Player::X);
        assert_eq!(GameResult::for_side(won, Player::X), GameResult::Win);
        assert_eq!(GameResult::for_side(won, Player::O), GameResult::Loss);
        assert_eq!(
            GameResult::for_side(Outcome::Draw, Player::O),
            GameResult::Draw
        );
    }
}
