//! A heat map of a position: for the points a move is worth thinking of
//! (the empty points near the stones), the side to move's win rate after
//! playing there, each found by a short search of the answer, within one
//! node budget shared equally between the points. The analysis board
//! draws it as a colour under the stones.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::board::Board;
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

/// The heat map of `board` for the side to move: each of [`candidates`]
/// played, and the answer searched to [`DEPTH`] within an equal share of
/// `budget` nodes (a search stops within a clock check, 1,024 nodes, of its
/// share, its threat probes apart). A point that makes five is a certain
/// win. The board must come from [`crate::analysis::position`] (an empty
/// point, no five); it is unchanged afterwards. Stopped by `stop`, it
/// gives the points valued so far.
pub fn heat(
    searcher: &mut Searcher,
    board: &Board,
    budget: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Heat {
    let scale = searcher.options().eval.logistic_scale(board.rule());
    let points = candidates(board);
    let share = (budget / points.len().max(1) as u64).max(1);
    let mut request = Request::new(Limits {
        time: None,
        depth: DEPTH,
        nodes: share,
    })
    .stopped_by(stop);
    let mut nodes = 0;
    let mut valued = Vec::with_capacity(points.len());
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
        valued.push(HeatPoint {
            point: p,
            score,
            win_rate: win_rate(score, scale),
        });
    }
    Heat {
        points: valued,
        nodes,
    }
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
    use inarow_core::Rule;

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
    fn the_winning_points_of_an_open_four_are_the_hottest() {
        // Black 4..7 on row 7, both ends empty; black to move.
        let stones = crate::analysis::OPEN_FOUR;
        let board = position(15, Rule::Freestyle, &stones).unwrap();
        let mut s = Searcher::new(Options::default());
        let h = heat(&mut s, &board, 20_000, None);
        assert_eq!(h.points.len(), candidates(&board).len());
        let best = h.points.iter().map(|p| p.score).max().unwrap();
        let mut fives: Vec<_> = h
            .points
            .iter()
            .filter(|p| p.score == best)
            .map(|p| p.point)
            .collect();
        fives.sort();
        assert_eq!(fives, vec![Pos::at(3, 7), Pos::at(8, 7)], "{h:?}");
        assert_eq!(best, crate::score::win_in(1));
        assert!([Pos::at(3, 7), Pos::at(8, 7)].contains(&hottest(&h).point));
        assert_eq!(hottest(&h).win_rate, 1.0);
        // White to move: every point but the two blocks loses at once, and
        // even a block loses to the other five.
        let board = position(15, Rule::Freestyle, &stones[..7]).unwrap();
        let h = heat(&mut s, &board, 20_000, None);
        assert!(h.points.iter().all(|p| p.win_rate < 0.5), "{h:?}");
        assert!(h.points.iter().all(|p| p.win_rate == 0.0), "{h:?}");
        assert_eq!(board.stones(), 7);
    }

    #[test]
    fn a_quiet_position_has_values_between_the_certainties_within_the_budget() {
        let stones = [(7, 7), (8, 8), (8, 6)];
        let board = position(15, Rule::Freestyle, &stones).unwrap();
        let mut s = Searcher::new(Options::default());
        let budget = 10_000;
        let h = heat(&mut s, &board, budget, None);
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
        let small = heat(&mut s, &board, 1, None);
        assert!(small.nodes <= points.len() as u64 * 1025, "{}", small.nodes);
        assert_eq!(small.points.len(), points.len());
    }

    #[test]
    fn the_points_are_those_near_the_stones_and_bounded() {
        let empty = position(15, Rule::Freestyle, &[]).unwrap();
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
