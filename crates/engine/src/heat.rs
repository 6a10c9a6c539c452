//! A heat map of a position: for the points a move is worth thinking of,
//! the side to move's win rate after playing there, each found by a short
//! search of the answer, within one node budget shared equally between the
//! points. The analysis board draws it as a colour under the stones.
//!
//! The map agrees with the analysis it comes with: the analysis's own
//! moves take their (deeper) scores, no other point is valued above its
//! best line, and a position the analysis has decided shows only its moves
//! that matter (the proven ones), not a board of equal certainties. The
//! points valued are those the search itself would consider: the fives
//! where the side to move has one, the answers to a threat where it must
//! answer one ([`movepick::generate`]), else every point near the stones.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::movepick::{self, Answer, MoveList};
use crate::pattern::Threat;
use crate::pos::Pos;
use crate::score::{is_decided, win_in, win_rate};
use crate::search::{Limits, Request, Searcher};

/// Most points one heat map values: the nearest to the stones first.
pub const MAX_POINTS: usize = 120;

/// Deepest search of the answer to each point: enough to see a four
/// blocked or a threat answered, no more, so the budget spreads over
/// every point.
pub const DEPTH: u32 = 2;

/// One point of the heat map.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatPoint {
    /// The point.
    pub point: Pos,
    /// The side to move's score after playing here (see [`crate::score`]).
    pub score: i32,
    /// The side to move's win rate after playing here
    /// ([`crate::score::win_rate`]).
    pub win_rate: f64,
}

/// The heat map of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Heat {
    /// The points valued, in the order of the board (row by row).
    pub points: Vec<HeatPoint>,
    /// Nodes searched over all points.
    pub nodes: u64,
}

/// The points a heat map values: the empty points within two steps of a
/// stone (on an empty board, within two of the centre), black's forbidden
/// points under renju left out; at most [`MAX_POINTS`], the nearest to the
/// stones first.
pub fn candidates(board: &Board) -> Vec<Pos> {
    let me = board.to_move();
    let n = board.size();
    let c = n / 2;
    let stones: Vec<(usize, usize)> = board.history().iter().map(|&p| p.xy()).collect();
    let mut points: Vec<(usize, Pos)> = board
        .empty_points()
        .filter(|&i| !board.is_forbidden_to(i, me))
        .filter_map(|i| {
            let (x, y) = i.xy();
            let step = |(a, b): (usize, usize)| x.abs_diff(a).max(y.abs_diff(b));
            let near = if stones.is_empty() {
                step((c, c))
            } else {
                stones.iter().map(|&s| step(s)).min().unwrap_or(usize::MAX)
            };
            (near <= 2).then_some((near, i))
        })
        .collect();
    // A stable sort keeps the board's order between points as near.
    points.sort_by_key(|&(near, _)| near);
    points.truncate(MAX_POINTS);
    let mut chosen: Vec<Pos> = points.into_iter().map(|(_, i)| i).collect();
    chosen.sort_unstable();
    chosen
}

/// The points the map values on `board`, in the board's order: where the
/// side to move makes five, those points alone (nothing else matters);
/// where it must answer a threat, the answers the search would consider
/// (`three_three`: whether a three-three counts as one, as the search's
/// [`crate::search::Params::defends_three_three`]); else [`candidates`].
pub fn points_that_matter(board: &Board, three_three: bool) -> Vec<Pos> {
    let me = board.to_move();
    let fives: Vec<Pos> = board
        .empty_points()
        .filter(|&p| board.threat(p, me) == Threat::Five && !board.is_forbidden_to(p, me))
        .collect();
    if !fives.is_empty() {
        return fives;
    }
    let answer = movepick::answer(board, three_three);
    if answer == Answer::Free {
        return candidates(board);
    }
    let mut list = MoveList::default();
    movepick::generate(board, answer, &mut list);
    let mut points: Vec<Pos> = list.iter().collect();
    points.sort_unstable();
    points
}

/// The heat map of `board` for the side to move, agreeing with `lines`
/// (the analysis's moves and their scores, best first; none for a map
/// alone). Each of [`points_that_matter`] not among the lines is played,
/// and the answer searched to [`DEPTH`] within an equal share of `budget`
/// nodes (a search stops within a clock check, 1,024 nodes, of its share,
/// its threat probes apart); a point that makes five is a certain win.
/// Then, by [`agree`], the lines' moves take their scores and no other
/// point is valued above the best line; a decided position keeps only its
/// proven points. The board must come from [`crate::analysis::position`]
/// (an empty point, no five); it is unchanged afterwards. Stopped by
/// `stop`, it gives the points valued so far.
pub fn heat(
    searcher: &mut Searcher,
    board: &Board,
    budget: u64,
    stop: Option<Arc<AtomicBool>>,
    lines: &[(Pos, i32)],
) -> Heat {
    let options = searcher.options();
    let scale = options.eval.logistic_scale(board.rule());
    let points: Vec<Pos> = points_that_matter(board, options.params.defends_three_three())
        .into_iter()
        .filter(|p| !lines.iter().any(|(l, _)| l == p))
        .collect();
    let share = (budget / points.len().max(1) as u64).max(1);
    let mut request = Request::new(Limits {
        time: None,
        depth: DEPTH,
        nodes: share,
    })
    .stopped_by(stop);
    let mut nodes = 0;
    let mut valued = Vec::with_capacity(points.len() + lines.len());
    // One copy, each point played on it and taken back: the candidates are
    // empty points of the board, and a search leaves its board as it was.
    let mut after = board.clone();
    for p in points {
        if request.stop_asked() {
            break;
        }
        after.play_unchecked(p);
        let score = if after.last_move_won() {
            win_in(1)
        } else if after.empty_count() == 0 {
            0
        } else {
            let reply = searcher.search(&mut after, &mut request);
            nodes += reply.nodes;
            one_ply_earlier(reply.score)
        };
        after.undo();
        valued.push((p, score));
    }
    let mut points: Vec<HeatPoint> = agree(valued, lines)
        .into_iter()
        .map(|(point, score)| HeatPoint {
            point,
            score,
            win_rate: win_rate(score, scale),
        })
        .collect();
    points.sort_unstable_by_key(|p| p.point);
    Heat { points, nodes }
}

/// The map's values made to agree with the analysis's `lines` (best first):
/// each line's move takes its line's score, none above the best's (a later
/// line searched apart may come out higher); every other point stays below
/// the best line (a short search's hope is no better than the deeper
/// search's best), so that the best line's move is the hottest point. Where
/// the best line is decided, a point the short search did not prove is left
/// out: in a won or lost position only the proven moves tell anything.
pub fn agree(valued: Vec<(Pos, i32)>, lines: &[(Pos, i32)]) -> Vec<(Pos, i32)> {
    let Some(&(_, best)) = lines.first() else {
        return valued;
    };
    let decided = is_decided(best);
    let lines = lines.iter().map(|&(p, score)| (p, score.min(best)));
    let others = valued
        .into_iter()
        .filter(|&(_, score)| !decided || (is_decided(score) && (score > 0) == (best > 0)))
        .map(|(p, score)| (p, score.min(best - 1)));
    lines.chain(others).collect()
}

/// The score one ply before a position scored `score` for the other side.
fn one_ply_earlier(score: i32) -> i32 {
    match -score {
        s if !is_decided(s) => s,
        s if s > 0 => s - 1,
        s => s + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::position;
    use crate::search::Options;
    use inarow_core::{Rule, Xy};

    /// The hottest point: the highest win rate, and of those the highest
    /// score (the quickest win).
    fn hottest(h: &Heat) -> &HeatPoint {
        h.points
            .iter()
            .max_by(|a, b| {
                a.win_rate
                    .total_cmp(&b.win_rate)
                    .then(a.score.cmp(&b.score))
            })
            .expect("some point")
    }

    #[test]
    fn beside_an_open_four_only_the_moves_that_matter_are_valued() {
        // Black 4..7 on row 7, both ends empty; black to move: its two
        // fives, each a certain win, are the map (not a board of points
        // that all win a move later).
        let stones = crate::analysis::OPEN_FOUR;
        let board = position(15, Rule::Freestyle, &stones).unwrap();
        let mut s = Searcher::new(Options::default());
        let h = heat(&mut s, &board, 20_000, None, &[]);
        let points: Vec<Pos> = h.points.iter().map(|p| p.point).collect();
        assert_eq!(points, vec![Pos::at(3, 7), Pos::at(8, 7)], "{h:?}");
        assert!(
            h.points
                .iter()
                .all(|p| p.score == win_in(1) && p.win_rate == 1.0)
        );
        // White to move: the one block is the map, and it loses to the
        // other five.
        let board = position(15, Rule::Freestyle, &stones[..7]).unwrap();
        let h = heat(&mut s, &board, 20_000, None, &[]);
        assert_eq!(h.points.len(), 1, "{h:?}");
        assert!([Pos::at(3, 7), Pos::at(8, 7)].contains(&h.points[0].point));
        assert_eq!(h.points[0].win_rate, 0.0);
        assert_eq!(board.stones(), 7);
    }

    #[test]
    fn the_best_line_s_move_is_the_hottest_point() {
        // A quiet position: the map's own best and worst points.
        let stones = [(7, 7), (8, 8), (8, 6)];
        let board = position(15, Rule::Freestyle, &stones).unwrap();
        let mut s = Searcher::new(Options::default());
        let alone = heat(&mut s, &board, 10_000, None, &[]);
        let coldest = alone
            .points
            .iter()
            .min_by(|a, b| a.win_rate.total_cmp(&b.win_rate))
            .unwrap();
        // An analysis whose best line is the map's coldest point, and whose
        // second line claims more than the best: the best line's move is
        // the hottest, strictly above every other point; the second is
        // held to the best.
        let hottest_alone = hottest(&alone).clone();
        let lines = [
            (coldest.point, coldest.score),
            (hottest_alone.point, coldest.score + 500),
        ];
        let h = heat(&mut s, &board, 10_000, None, &lines);
        assert_eq!(h.points.len(), alone.points.len(), "{h:?}");
        let best = h.points.iter().find(|p| p.point == coldest.point).unwrap();
        assert_eq!(best.score, coldest.score);
        assert!(h.points.iter().all(|p| p.score <= best.score), "{h:?}");
        assert!(
            h.points
                .iter()
                .filter(|p| p.point != coldest.point && p.point != hottest_alone.point)
                .all(|p| p.score < best.score)
        );
        let second = h
            .points
            .iter()
            .find(|p| p.point == hottest_alone.point)
            .unwrap();
        assert_eq!(second.score, best.score);
        // A line's move the map would not value is valued all the same.
        let far = Pos::at(0, 0);
        let h = heat(&mut s, &board, 10_000, None, &[(far, 90)]);
        assert_eq!(hottest(&h).point, far);
    }

    #[test]
    fn a_decided_position_keeps_only_its_proven_moves() {
        let (a, b, c, d) = (Pos::at(1, 1), Pos::at(2, 2), Pos::at(3, 3), Pos::at(4, 4));
        let won = win_in(5);
        // Won: the unproven points go, a proven win stays (never above the
        // best), a proven loss goes.
        let valued = vec![(a, 300), (b, win_in(7)), (c, -win_in(2))];
        let mut kept = agree(valued.clone(), &[(d, won)]);
        kept.sort_unstable();
        assert_eq!(kept, vec![(b, win_in(7)), (d, won)]);
        // Lost: only the proven losses, none above the best line.
        let lost = -win_in(8);
        let mut kept = agree(valued.clone(), &[(d, lost)]);
        kept.sort_unstable();
        assert_eq!(kept, vec![(c, -win_in(2)), (d, lost)]);
        // Undecided: every point, held below the best line.
        let mut kept = agree(valued.clone(), &[(d, 100)]);
        kept.sort_unstable();
        assert_eq!(kept, vec![(a, 99), (b, 99), (c, -win_in(2)), (d, 100)]);
        // No lines: the map as the short searches found it.
        assert_eq!(agree(valued.clone(), &[]), valued);
    }

    #[test]
    fn a_quiet_position_has_values_between_the_certainties_within_the_budget() {
        let stones = [(7, 7), (8, 8), (8, 6)];
        let board = position(15, Rule::Freestyle, &stones).unwrap();
        let mut s = Searcher::new(Options::default());
        let budget = 10_000;
        let h = heat(&mut s, &board, budget, None, &[]);
        let points = candidates(&board);
        // Every empty point within two of a stone, each once: columns 5
        // to 10, rows 4 to 10, less the stones and the two corner points
        // further away.
        let within = |x: usize, y: usize| {
            stones
                .iter()
                .any(|&(a, b)| x.abs_diff(a) <= 2 && y.abs_diff(b) <= 2)
        };
        let mut expected: Vec<Pos> = (0..15 * 15)
            .map(|i| (i % 15, i / 15))
            .filter(|&(x, y)| within(x, y) && !stones.contains(&(x, y)))
            .map(|(x, y)| Pos::at(x, y))
            .collect();
        expected.sort_unstable();
        assert_eq!(points, expected);
        assert_eq!(points.len(), 6 * 7 - 3 - 2, "{points:?}");
        assert_eq!(h.points.len(), points.len());
        assert!(
            h.points
                .iter()
                .all(|p| p.win_rate > 0.0 && p.win_rate < 1.0),
            "{h:?}"
        );
        assert!(h.points.iter().any(|p| p.win_rate != h.points[0].win_rate));
        // Each search keeps to its share but for the last clock check.
        assert!(h.nodes > 0);
        assert!(
            h.nodes <= budget + points.len() as u64 * 1024,
            "{}",
            h.nodes
        );
        // A budget of one node a point: one clock check each at most.
        let small = heat(&mut s, &board, 1, None, &[]);
        assert!(small.nodes <= points.len() as u64 * 1025, "{}", small.nodes);
        assert_eq!(small.points.len(), points.len());
    }

    #[test]
    fn the_points_are_those_near_the_stones_and_bounded() {
        let empty = position::<Xy>(15, Rule::Freestyle, &[]).unwrap();
        let points = candidates(&empty);
        assert_eq!(points.len(), 25);
        assert!(points.iter().all(|&i| {
            let (x, y) = i.xy();
            x.abs_diff(7) <= 2 && y.abs_diff(7) <= 2
        }));
        // Stones spread over the board: no more than MAX_POINTS, the
        // nearest kept.
        let mut spread = Vec::new();
        for y in (0..15).step_by(4) {
            for x in (0..15).step_by(4) {
                spread.push((x, y));
            }
        }
        let board = position(15, Rule::Freestyle, &spread).unwrap();
        let points = candidates(&board);
        assert_eq!(points.len(), MAX_POINTS);
        let near = |i: Pos| {
            let (x, y) = i.xy();
            spread
                .iter()
                .map(|&(a, b)| x.abs_diff(a).max(y.abs_diff(b)))
                .min()
                .unwrap()
        };
        // Every point one step from a stone is in.
        let ones = board.empty_points().filter(|&i| near(i) == 1).count();
        assert_eq!(points.iter().filter(|&&i| near(i) == 1).count(), ones);
    }

    #[test]
    fn black_s_forbidden_points_are_left_out_under_renju() {
        // Black's twos (6..7, 7) and (8, 5..6) cross at (8, 7): a stone
        // there makes two open threes.
        let stones = [
            (6, 7),
            (0, 0),
            (7, 7),
            (0, 14),
            (8, 5),
            (14, 0),
            (8, 6),
            (14, 14),
        ];
        let board = position(15, Rule::Renju, &stones).unwrap();
        assert!(board.forbidden(Pos::at(8, 7)).is_some());
        let points = candidates(&board);
        assert!(!points.contains(&Pos::at(8, 7)));
        assert!(points.contains(&Pos::at(9, 7)));
        // Freestyle has no forbidden point.
        let free = position(15, Rule::Freestyle, &stones).unwrap();
        assert!(candidates(&free).contains(&Pos::at(8, 7)));
    }
}
