//! Playing games to the end and training over many of them.

use inarow_agents::Agent;
use inarow_core::{Game, Outcome, Player, TicTacToe};

use crate::machine::{Choice, Menace};
use crate::preset::GameResult;

/// Someone who sits at the board: a learning machine or any agent.
pub trait Seat {
    /// The move for `game`, or `None` to resign.
    fn pick(&mut self, game: &TicTacToe) -> Option<inarow_core::Point>;

    /// Told how the game ended for this seat, once it has ended.
    fn finish(&mut self, result: GameResult);
}

impl Seat for Menace {
    #[inline]
    fn pick(&mut self, game: &TicTacToe) -> Option<inarow_core::Point> {
        match self.choose(game)? {
            Choice::Play(p) => Some(p),
            Choice::Resign => None,
        }
    }

    #[inline]
    fn finish(&mut self, result: GameResult) {
        self.learn(result);
    }
}

/// An agent that does not learn, seated at the board.
#[derive(Clone, Debug)]
pub struct AgentSeat<A>(pub A);

impl<A: Agent<TicTacToe>> Seat for AgentSeat<A> {
    #[inline]
    fn pick(&mut self, game: &TicTacToe) -> Option<inarow_core::Point> {
        self.0.choose(game)
    }

    #[inline]
    fn finish(&mut self, _result: GameResult) {}
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A line or a full board.
    Board(Outcome),
    /// This player resigned.
    Resigned(Player),
}

impl Ending {
    /// The result for `player`.
    #[inline]
    pub fn result_for(self, player: Player) -> GameResult {
        match self {
            Ending::Board(Outcome::Draw) => GameResult::Draw,
            Ending::Board(Outcome::Win(p)) if p == player => GameResult::Win,
            Ending::Resigned(p) if p != player => GameResult::Win,
            _ => GameResult::Loss,
        }
    }
}

/// Plays one game from the empty board, `x` first, and tells both seats the result.
#[inline]
pub fn play_game<X: Seat + ?Sized, O: Seat + ?Sized>(x: &mut X, o: &mut O) -> Ending {
    let mut game = TicTacToe::new();
    let ending = loop {
        if let Some(outcome) = game.outcome() {
            break Ending::Board(outcome);
        }
        let mover = game.to_move();
        let pick = match mover {
            Player::X => x.pick(&game),
            Player::O => o.pick(&game),
        };
        match pick {
            Some(p) if game.stone(p).is_none() => game.play_unchecked(p),
            _ => break Ending::Resigned(mover),
        }
    };
    x.finish(ending.result_for(Player::X));
    o.finish(ending.result_for(Player::O));
    ending
}

/// Wins, draws and losses of one side over some games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost (resignations included).
    pub losses: u64,
}

impl Tally {
    /// Counts one more game.
    #[inline]
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Share of games with `result`, 0 when no game was counted.
    pub fn rate(&self, result: GameResult) -> f64 {
        let n = match result {
            GameResult::Win => self.wins,
            GameResult::Draw => self.draws,
            GameResult::Loss => self.losses,
        };
        if self.games() == 0 {
            0.0
        } else {
            n as f64 / self.games() as f64
        }
    }
}

/// Plays `games` games of `menace` (as X) against `opponent` (as O) and
/// counts them from the machine's side.
pub fn train<O: Seat + ?Sized>(menace: &mut Menace, opponent: &mut O, games: u64) -> Tally {
    let mut tally = Tally::default();
    for _ in 0..games {
        tally.add(play_game(menace, opponent).result_for(Player::X));
    }
    tally
}

#[cfg(test)]
mod tests {
    use inarow_agents::RandomAgent;

    use super::*;
    use crate::preset::Preset;

    #[test]
    fn endings_from_both_sides() {
        let win = Ending::Board(Outcome::Win(Player::X));
        assert_eq!(win.result_for(Player::X), GameResult::Win);
        assert_eq!(win.result_for(Player::O), GameResult::Loss);
        let resign = Ending::Resigned(Player::X);
        assert_eq!(resign.result_for(Player::X), GameResult::Loss);
        assert_eq!(resign.result_for(Player::O), GameResult::Win);
        assert_eq!(
            Ending::Board(Outcome::Draw).result_for(Player::O),
            GameResult::Draw
        );
    }

    #[test]
    fn training_is_reproducible_and_learns_against_random() {
        let run = |seed| {
            let mut m = Menace::new(Preset::Challenge, Player::X, seed);
            let mut opp = AgentSeat(RandomAgent::new(seed + 1));
            let first = train(&mut m, &mut opp, 200);
            let later = train(&mut m, &mut opp, 2000);
            let last = train(&mut m, &mut opp, 1000);
            (first, later, last, m.total_beads())
        };
        let a = run(11);
        assert_eq!(a, run(11));
        assert_ne!(a, run(12));
        assert_eq!(a.0.games(), 200);
        // After 2,200 games it wins clearly more often than at the start.
        assert!(
            a.2.rate(GameResult::Win) > a.0.rate(GameResult::Win),
            "{a:?}"
        );
        assert!(a.2.rate(GameResult::Win) > 0.7, "{a:?}");
    }

    #[test]
    fn two_machines_learn_from_each_other() {
        let mut x = Menace::new(Preset::Michie, Player::X, 1);
        let mut o = Menace::new(Preset::Michie, Player::O, 2);
        assert_eq!(o.boxes().len(), 289);
        let tally = train(&mut x, &mut o, 500);
        assert_eq!(tally.games(), 500);
        assert_eq!(x.games(), 500);
        assert_eq!(o.games(), 500);
    }
}
