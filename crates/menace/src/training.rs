//! Training: many games in a row against any [`Seat`].

use inarow_core::{GameResult, Tally};

use crate::machine::Menace;
use crate::seat::Seat;
use crate::session::{Ending, Session};

/// Plays one game from the empty board between `menace` and `opponent`
/// and tells both the result.
#[inline]
pub fn play_game<O: Seat + ?Sized>(menace: &mut Menace, opponent: &mut O) -> Ending {
    Session::new(menace).play_out(menace, opponent)
}

/// Plays `games` games of `menace` against `opponent`, one as each result
/// is asked for, and gives the results from the machine's side.
pub fn results<O: Seat + ?Sized>(
    menace: &mut Menace,
    opponent: &mut O,
    games: u64,
) -> impl Iterator<Item = GameResult> {
    let side = menace.player();
    (0..games).map(move |_| play_game(menace, opponent).result_for(side))
}

/// Plays `games` games of `menace` against `opponent` and counts them from
/// the machine's side (resignations are losses).
pub fn train<O: Seat + ?Sized>(menace: &mut Menace, opponent: &mut O, games: u64) -> Tally {
    results(menace, opponent, games).collect()
}

#[cfg(test)]
mod tests {
    use inarow_agents::RandomAgent;
    use inarow_core::Player;

    use super::*;
    use crate::preset::Preset;
    use crate::seat::AgentSeat;

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
