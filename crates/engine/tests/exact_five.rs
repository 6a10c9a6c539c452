//! Exact five by hand and against a referee: positions where filling a gap
//! makes six, which is no win for either side (the engine must neither
//! claim it nor block it), and whole games refereed by the core under
//! exact five in which every win the engine claims must be real.

use inarow_core::{Game, Mnk, Outcome, Player, Point, Rule};
use inarow_engine::movepick::{Answer, answer};
use inarow_engine::pattern::Threat;
use inarow_engine::player::board_of;
use inarow_engine::pos::Pos;
use inarow_engine::score::win_in;
use inarow_engine::search::{Limits, PV_LIMIT, Request};
use inarow_engine::vcf_solver::Vcf;

use crate::suite;
use suite::{
    Side, board, game, play_refereed, proves_vcf, searcher, three_near_the_centre, verify_win,
};

/// Black's `XXX.XX` on row 7 (x 3..8, the gap at 6): under exact five the
/// gap makes six. White's stones are far from it.
const BLACK_GAP_SIX: [(usize, usize); 5] = [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)];
const GAP: (usize, usize) = (6, 7);

#[test]
fn filling_a_gap_that_makes_six_is_no_win() {
    let white = [(0, 0), (14, 0), (0, 14), (14, 14), (12, 2)];
    for rule in [Rule::Freestyle, Rule::Exact] {
        let mut b = board(rule, &BLACK_GAP_SIX, &white, Player::X);
        let gap = Pos::at(GAP.0, GAP.1);
        let mut g = game(rule, &BLACK_GAP_SIX, &white, Player::X);
        let five = rule == Rule::Freestyle;
        assert_eq!(b.wins_now(gap), five, "{rule:?}");
        assert_eq!(g.wins_at(Point::at(GAP.0, GAP.1, 15), Player::X), five);
        assert_eq!(b.threat_count(Player::X, Threat::Five) > 0, five);
        // The threat search and the core's prover agree: freestyle wins
        // at once, exact five has no win by fours here at all.
        let line = Vcf::new(1_000_000).solve(&mut b);
        assert_eq!(line.is_some(), five, "{rule:?}: {line:?}");
        assert_eq!(proves_vcf(&mut g, 4), five, "{rule:?}");
        let found = searcher().search(&mut b, &mut Request::new(Limits::depth(4)));
        if five {
            assert_eq!(found.best.xy(), GAP);
            assert_eq!(found.score, win_in(1));
        } else {
            assert_ne!(found.best.xy(), GAP);
            assert!(!found.vcf && found.score < win_in(40), "{found:?}");
        }
        // Black's move to the gap ends the game only in freestyle.
        b.play_unchecked(gap);
        assert_eq!(b.last_move_won(), five);
    }
}

#[test]
fn a_four_whose_completion_makes_six_is_no_four() {
    // With XXX.XX a stone on 6,7 makes six, so under exact five 2,7 makes
    // four stones that only one point (1,7) completes, and 6,7 nothing.
    let black = BLACK_GAP_SIX;
    let white = [(0, 0), (14, 0), (0, 14), (14, 14), (12, 2)];
    let b = board(Rule::Exact, &black, &white, Player::X);
    assert_eq!(b.threat(Pos::at(2, 7), Player::X), Threat::Block4);
    assert_eq!(b.threat(Pos::at(6, 7), Player::X), Threat::None);
    let b = board(Rule::Freestyle, &black, &white, Player::X);
    assert_eq!(b.threat(Pos::at(2, 7), Player::X), Threat::Flex4);
    assert_eq!(b.threat(Pos::at(6, 7), Player::X), Threat::Five);
}

#[test]
fn an_opponent_six_is_not_blocked() {
    // White to move with an open three on row 11 (x 5..7); black threatens
    // the gap of XXX.XX, a five only in freestyle. Freestyle white must
    // block it; exact-five white ignores it and makes its flex four.
    let white = [(5, 11), (6, 11), (7, 11), (0, 0), (14, 0)];
    let black: Vec<_> = BLACK_GAP_SIX.iter().copied().chain([(14, 14)]).collect();
    for rule in [Rule::Freestyle, Rule::Exact] {
        let mut b = board(rule, &black, &white, Player::O);
        let must = answer(&b, true);
        let found = searcher().search(&mut b, &mut Request::new(Limits::depth(4)));
        let g = game(rule, &black, &white, Player::O);
        match rule {
            Rule::Freestyle => {
                assert_eq!(must, Answer::Five(Pos::at(GAP.0, GAP.1)));
                assert_eq!(found.best.xy(), GAP);
            }
            Rule::Exact => {
                assert_eq!(must, Answer::Free);
                assert!(found.vcf, "{found:?}");
                assert_eq!(b.threat(found.best, Player::O), Threat::Flex4);
                let pv: Vec<Point> = found.pv.iter().map(|&m| b.point(m)).collect();
                verify_win(&g, &pv).unwrap();
            }
            Rule::Renju => unreachable!("not in the loop"),
        }
    }
}

/// Empty points where `player` would make six or more in a row.
fn overline_points(game: &Mnk, player: Player) -> usize {
    let n = game.cols() as isize;
    game.empty_points()
        .filter(|&p| {
            let (r, c) = (p.row(15) as isize, p.col(15) as isize);
            [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
                let mut run = 1;
                for s in [-1, 1] {
                    let (mut rr, mut cc) = (r + s * dr, c + s * dc);
                    while (0..n).contains(&rr)
                        && (0..n).contains(&cc)
                        && game.stone(Point::at(cc as usize, rr as usize, 15)) == Some(player)
                    {
                        run += 1;
                        rr += s * dr;
                        cc += s * dc;
                    }
                }
                run >= 6
            })
        })
        .count()
}

#[test]
fn refereed_games_never_see_a_false_win_claimed() {
    // Exact five against itself and against the freestyle engine (which
    // plays overlines believing they win), refereed by the core under
    // exact five. Every move of the exact side is checked: a five on
    // offer is taken, a lone opponent five is blocked, and a claimed win
    // (a five, a flex four or a threat line) beats every defence under the
    // core's rule, so an overline is never taken for a five.
    let limits = Limits::nodes(2_000);
    let (mut claims, mut overlines, mut decided) = (0, 0, 0);
    // 80 games: with the policy-based reduction (issue 36) the first 64
    // offered no overline at all, and the test means nothing without them.
    for k in 0..80u64 {
        let opponent = if k % 2 == 0 {
            Rule::Exact
        } else {
            Rule::Freestyle
        };
        let mut sides = [Side::new(Rule::Exact), Side::new(opponent)];
        if k % 4 >= 2 {
            sides.swap(0, 1);
        }
        let mut start = Mnk::gomoku_exact();
        for p in three_near_the_centre(40 + k) {
            start.play_unchecked(p);
        }
        let end = play_refereed(start, &mut sides, limits, |game, b, found| {
            if b.rule() != Rule::Exact {
                return;
            }
            let me = game.to_move();
            let best = b.point(found.best);
            let mine = suite::five_points(game, me);
            let theirs = suite::five_points(game, me.opponent());
            overlines += overline_points(game, me) + overline_points(game, me.opponent());
            if !mine.is_empty() {
                assert!(mine.contains(&best), "missed a five\n{game}");
            } else if theirs.len() == 1 {
                assert_eq!(best, theirs[0], "did not block\n{game}");
            }
            if found.vcf && found.pv.len() < PV_LIMIT {
                claims += 1;
                let pv: Vec<Point> = found.pv.iter().map(|&m| b.point(m)).collect();
                verify_win(game, &pv).unwrap_or_else(|e| panic!("{e}: {pv:?}\n{game}"));
            }
        });
        decided += usize::from(matches!(end.outcome(), Some(Outcome::Win(_))));
    }
    // The games must hold claims and overline chances to mean anything.
    assert!(
        claims >= 5 && overlines >= 5 && decided >= 4,
        "claims {claims}, overlines {overlines}, decided games {decided}"
    );
    // A game refereed under exact five hands the engine exact-five boards.
    let g = Mnk::gomoku_exact();
    assert_eq!(board_of(&g, None).unwrap().rule(), Rule::Exact);
}
