//! The selective search prunes hard because of one promise of move picking:
//! when the opponent threatens, every move it leaves out loses by force.
//! Checked here against an exhaustive search written on the game core
//! (independent of the engine's pattern tables), on thousands of random
//! crowded positions under freestyle and exact five.

use inarow_core::{Game, Mnk, Point, Rule};
use inarow_engine::board::Board;
use inarow_engine::movepick::MoveList;
use inarow_engine::movepick::{Answer, answer, generate};
use inarow_engine::pattern::Threat;
use inarow_engine::player::board_of;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::suite;
use suite::{five_points, proves_vcf};

/// Crowded random play near the centre, where threats are common; `None`
/// if the game ended on the way.
fn crowded(rule: Rule, rng: &mut ChaCha8Rng) -> Option<Mnk> {
    let mut game = Mnk::new(15, 15, 5, rule).expect("15x15 fits");
    for _ in 0..rng.random_range(8..34) {
        let p = Point::at(rng.random_range(3..12), rng.random_range(3..12), 15);
        if game.stone(p).is_none() {
            game.play_unchecked(p);
            if game.outcome().is_some() {
                return None;
            }
        }
    }
    Some(game)
}

/// The opponent (to move in `game`) wins by force: at once, by continuous
/// fours within `attacks`, or, where `forks` is given, by playing one of
/// those points and winning by fours against every reply.
fn opponent_wins(game: &mut Mnk, attacks: usize, forks: &[Point]) -> bool {
    if proves_vcf(game, attacks) {
        return true;
    }
    forks.iter().any(|&x| {
        if game.stone(x).is_some() {
            return false;
        }
        game.play_unchecked(x);
        let replies: Vec<Point> = game.empty_points().collect();
        let wins = replies.into_iter().all(|y| {
            game.play_unchecked(y);
            let won = proves_vcf(game, 2);
            game.undo(y);
            won
        });
        game.undo(x);
        wins
    })
}

fn left_out_moves_lose(rule: Rule, seed: u64, positions: usize) -> (usize, usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::default();
    let (mut seen, mut threes, mut forks) = (0, 0, 0);
    while seen < positions {
        let Some(mut game) = crowded(rule, &mut rng) else {
            continue;
        };
        let b: Board = board_of(&game, None).unwrap();
        let me = b.to_move();
        // Positions where the outcome is already decided are the search's
        // outcome check's, not move picking's.
        if !five_points(&game, game.to_move()).is_empty()
            || five_points(&game, game.to_move().opponent()).len() >= 2
            || b.threat_count(me, Threat::Flex4) > 0
        {
            continue;
        }
        seen += 1;
        let a = answer(&b, true);
        if !matches!(a, Answer::Three | Answer::Fork) {
            continue;
        }
        generate(&b, a, &mut list);
        let kept: Vec<Point> = list.iter().map(|m| b.point(m)).collect();
        let opp = me.opponent();
        let attacks = match a {
            Answer::Three => {
                threes += 1;
                2
            }
            _ => {
                forks += 1;
                3
            }
        };
        let four3: Vec<Point> = b
            .empty_points()
            .filter(|&i| b.threat(i, opp) >= Threat::Four3)
            .map(|i| b.point(i))
            .collect();
        let mut left_out: Vec<Point> = game.empty_points().filter(|p| !kept.contains(p)).collect();
        // A seeded sample of the moves left out keeps the proofs' cost
        // down; the three-three proof tries every reply, so fewer there.
        let sample = if a == Answer::Fork && b.threat_count(opp, Threat::Three3) > 0 {
            2
        } else {
            24
        };
        for k in 0..sample.min(left_out.len()) {
            let pick = rng.random_range(k..left_out.len());
            left_out.swap(k, pick);
        }
        left_out.truncate(sample);
        for m in left_out {
            game.play_unchecked(m);
            // The opponent's three-three points now (a four-three the move
            // broke may still be one).
            let after = board_of(&game, None).unwrap();
            let forks_now: Vec<Point> = after
                .empty_points()
                .filter(|&i| after.threat(i, opp) == Threat::Three3)
                .map(|i| after.point(i))
                .collect();
            assert!(
                opponent_wins(&mut game, attacks, &forks_now),
                "{rule:?}: {a:?} left out {m:?}, which does not lose by force (forks {forks_now:?}, four-threes {four3:?})\n{game}"
            );
            game.undo(m);
        }
    }
    (seen, threes, forks)
}

#[test]
fn freestyle_moves_left_out_against_a_threat_lose_by_force() {
    let (seen, threes, forks) = left_out_moves_lose(Rule::Freestyle, 3, 2000);
    assert!(
        threes >= 30 && forks >= 5,
        "{seen} positions, {threes} threes, {forks} forks"
    );
}

#[test]
fn exact_five_moves_left_out_against_a_threat_lose_by_force() {
    let (seen, threes, forks) = left_out_moves_lose(Rule::Exact, 5, 2000);
    assert!(
        threes >= 30 && forks >= 5,
        "{seen} positions, {threes} threes, {forks} forks"
    );
}
