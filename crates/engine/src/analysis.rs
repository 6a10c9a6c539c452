//! Analysis of a position: the best few moves, each with its score and the
//! line of play expected after it, as an analysis board shows them.
//!
//! Line 1 is the searcher's best move; line `k` is its best move once the
//! moves of lines 1 to `k - 1` are left out at the root
//! (the request's excluded moves, [`Request::excluded`]). The time (or nodes) given is shared
//! equally between the lines asked for.

use inarow_core::{Player, Rule, Xy};

use crate::board::{Board, BoardError};
use crate::pos::Pos;
use crate::score::is_decided;
use crate::search::{Found, Request, Searcher};

/// Black 4..7 on row 7 with both ends empty, white far away, black to
/// move: the open four the tests of the analysis, the heat map and the
/// root share.
#[cfg(test)]
pub(crate) const OPEN_FOUR: [(usize, usize); 8] = [
    (4, 7),
    (4, 3),
    (5, 7),
    (5, 3),
    (6, 7),
    (12, 12),
    (7, 7),
    (12, 1),
];

/// Most lines one analysis may ask for.
pub const MAX_LINES: usize = 5;

/// Why a position cannot be searched, in one line: the one refusal of
/// the analysis board ([`position`]) and the player
/// ([`crate::player::board_of`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The size is not supported, or a stone is off the board or on a
    /// point already taken (the `n`th stone, counted from 1, when known).
    Board(Option<usize>, BoardError),
    /// A five is on the board: the game ended with the `n`th stone
    /// (counted from 1), and nothing is left to analyse.
    Finished(usize, Player),
    /// Every point holds a stone.
    Full,
    /// The game is over or the board full: the player has no move to make.
    Over,
    /// The Swap2 step needs a different number of stones.
    Stones {
        /// Stones the step needs.
        expected: usize,
        /// Stones on the board.
        found: usize,
    },
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Board(None, e) => write!(f, "{e}"),
            PositionError::Board(Some(n), e) => write!(f, "stone {n}: {e}"),
            PositionError::Finished(n, p) => write!(
                f,
                "the game is over: stone {n} made five for {}",
                colour_name(*p)
            ),
            PositionError::Full => write!(f, "the board is full: nothing to analyse"),
            PositionError::Over => write!(f, "the game is over: no move to make"),
            PositionError::Stones { expected, found } => {
                write!(f, "expected {expected} stones on the board, found {found}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// `black` or `white`: the side playing `p` (black is `X` and moves first).
pub fn colour_name(p: Player) -> &'static str {
    match p {
        Player::X => "black",
        Player::O => "white",
    }
}

/// The position with `stones` put down on an empty `size` board under
/// `rule`, black first and alternating, as [`Xy`] points (or anything
/// that reads as one, as a test's `(x, y)` pairs do); refused if a stone
/// is off the board or on a taken point, if a five stands on the board
/// (the game is over) or if the board is full.
pub fn position<P: Copy + Into<Xy>>(
    size: usize,
    rule: Rule,
    stones: &[P],
) -> Result<Board, PositionError> {
    let mut board = Board::with_rule(size, rule).map_err(|e| PositionError::Board(None, e))?;
    for (n, &stone) in stones.iter().enumerate() {
        let Xy { x, y } = stone.into();
        let mover = board.to_move();
        board
            .pos_at(x, y)
            .and_then(|p| board.play(p))
            .map_err(|e| PositionError::Board(Some(n + 1), e))?;
        if board.last_move_won() {
            return Err(PositionError::Finished(n + 1, mover));
        }
    }
    if board.empty_count() == 0 {
        return Err(PositionError::Full);
    }
    Ok(board)
}

/// The best lines of a position, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The side the scores are for.
    pub to_move: Player,
    /// As many lines as asked for (fewer only when fewer points are
    /// empty), best first, each a search's answer; when a four must be
    /// blocked, the block and then the moves that lose. A forced move's
    /// line carries the search after it: its score, depth and nodes, its
    /// line from the move on.
    pub lines: Vec<Found>,
    /// The deepest iteration any line completed.
    pub depth: u32,
    /// Nodes searched over all lines.
    pub nodes: u64,
}

/// The best `lines` (1 to [`MAX_LINES`], clamped) moves of `board` for the
/// side to move, within `request`'s limits shared equally between the
/// lines; its watcher hears every line's search. The board must come from
/// [`position`] (an empty point, no five); it is unchanged afterwards, and
/// so is `request` (each line's search leaves out the lines before it,
/// in the request's excluded moves, which the caller leaves empty).
/// Stopped (the request's stop flag), it gives the lines found so far,
/// at least one (the line under way, with its best move so far).
pub fn analyse(
    searcher: &mut Searcher,
    board: &mut Board,
    lines: usize,
    request: &mut Request,
) -> Analysis {
    let wanted = lines.clamp(1, MAX_LINES).min(board.empty_count());
    request.shared(wanted as u32, |r| lines_of(searcher, board, wanted, r))
}

/// [`analyse`]'s `wanted` lines, each within `request`'s limits.
fn lines_of(
    searcher: &mut Searcher,
    board: &mut Board,
    wanted: usize,
    request: &mut Request,
) -> Analysis {
    let mut found: Vec<Found> = Vec::with_capacity(wanted);
    let asked = std::mem::replace(&mut request.excluded, Vec::with_capacity(wanted));
    let mut nodes = 0;
    let mut depth = 0;
    for k in 0..wanted {
        // Stopped: the lines so far are the answer; a search started now
        // would only give its first candidate, unsearched.
        if k > 0 && request.stop_asked() {
            break;
        }
        let f = searcher.search(board, request);
        nodes += f.nodes;
        // A search with every sensible move left out plays one of them
        // again: the lines worth showing are all there.
        if request.excluded.contains(&f.best) {
            break;
        }
        let mut line = f;
        if line.pv.first() != Some(&line.best) {
            line.pv = vec![line.best];
        }
        // A forced move (the only block of a four) comes back unsearched,
        // scored 0: its score is the answer's, searched after it.
        if line.depth == 0 && !line.vcf && !is_decided(line.score) && !request.stop_asked() {
            let after = board_after(board, line.best);
            if let Some(mut after) = after.filter(|b| !b.last_move_won() && b.empty_count() > 0) {
                let lines_so_far = std::mem::take(&mut request.excluded);
                let reply = searcher.search(&mut after, request);
                request.excluded = lines_so_far;
                nodes += reply.nodes;
                line.nodes += reply.nodes;
                line.elapsed += reply.elapsed;
                line.score = one_ply_earlier(reply.score);
                line.depth = reply.depth + 1;
                line.pv.truncate(1);
                line.pv.extend_from_slice(&reply.pv);
            }
        }
        depth = depth.max(line.depth);
        request.excluded.push(line.best);
        found.push(line);
    }
    request.excluded = asked;
    // Each line had its own search: a later one can score above an
    // earlier one. Best first; a stable sort keeps the search's order
    // between equal scores.
    found.sort_by_key(|l| std::cmp::Reverse(l.score));
    Analysis {
        to_move: board.to_move(),
        lines: found,
        depth,
        nodes,
    }
}

/// `board` with a stone of the side to move on `p`, if it is empty.
fn board_after(board: &Board, p: Pos) -> Option<Board> {
    let mut after = board.clone();
    if !after.is_empty(p) {
        return None;
    }
    after.play_unchecked(p);
    Some(after)
}

/// The score one ply before a position scored `score` for the other side.
fn one_ply_earlier(score: i32) -> i32 {
    let s = -score;
    if !is_decided(s) {
        s
    } else if s > 0 {
        s - 1
    } else {
        s + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use crate::search::Options;

    #[test]
    fn a_winning_four_puts_the_five_first_with_a_winning_score() {
        // Black: (3..7, 7) four; white elsewhere; black to move.
        let stones = [
            (3, 7),
            (3, 3),
            (4, 7),
            (4, 3),
            (5, 7),
            (10, 10),
            (6, 7),
            (12, 1),
        ];
        let mut board = position(15, Rule::Freestyle, &stones).unwrap();
        let mut s = Searcher::new(Options::default());
        let a = analyse(
            &mut s,
            &mut board,
            3,
            &mut Request::new(Limits::nodes(20_000)),
        );
        assert_eq!(a.to_move, Player::X);
        let first = &a.lines[0];
        assert!([(2, 7), (7, 7)].contains(&first.best.xy()), "{a:?}");
        assert!(is_decided(first.score) && first.score > 0, "{a:?}");
        assert_eq!(first.pv[0], first.best);
        // Lines differ from each other.
        let mut moves: Vec<_> = a.lines.iter().map(|l| l.best).collect();
        moves.sort();
        moves.dedup();
        assert_eq!(moves.len(), a.lines.len());
        assert_eq!(board.stones(), stones.len());
    }

    #[test]
    fn a_forced_block_is_scored_by_the_search_after_it() {
        // Black's four (7..10, 7) is closed on the left: white must take (11,7).
        let stones = [(7, 7), (6, 7), (8, 7), (8, 8), (9, 7), (10, 10), (10, 7)];
        let mut board = position(15, Rule::Freestyle, &stones).unwrap();
        let mut s = Searcher::new(Options::default());
        let a = analyse(
            &mut s,
            &mut board,
            2,
            &mut Request::new(Limits::nodes(5_000)),
        );
        let first = &a.lines[0];
        assert_eq!(first.best.xy(), (11, 7), "{a:?}");
        assert!(first.depth >= 2, "{a:?}");
        assert!(first.pv.len() >= 2, "{a:?}");
        assert_ne!(first.score, 0, "{a:?}");
        assert!(first.nodes > 0, "{a:?}");
        assert_eq!(
            one_ply_earlier(-crate::score::win_in(3)),
            crate::score::win_in(4)
        );
        assert_eq!(
            one_ply_earlier(crate::score::win_in(3)),
            crate::score::loss_in(4)
        );
        assert_eq!(one_ply_earlier(120), -120);
    }

    #[test]
    fn a_stopped_analysis_gives_the_lines_it_found() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let mut board = position(15, Rule::Freestyle, &[(7, 7), (8, 8)]).unwrap();
        let mut s = Searcher::new(Options::default());
        let stop = Arc::new(AtomicBool::new(false));
        // Stopped at the first line's third iteration: that line, and no
        // unsearched others.
        let flag = Arc::clone(&stop);
        let mut request = Request::new(Limits::nodes(1_000_000))
            .stopped_by(Some(Arc::clone(&stop)))
            .watched(
                Some(Box::new(move |p: &crate::search::Progress<'_>| {
                    if p.iteration && p.depth >= 3 {
                        flag.store(true, Ordering::SeqCst);
                    }
                })),
                std::time::Duration::MAX,
            );
        let a = analyse(&mut s, &mut board, 4, &mut request);
        assert_eq!(a.lines.len(), 1, "{a:?}");
        assert!(a.lines[0].depth >= 3, "{a:?}");
        assert!(
            request.excluded.is_empty(),
            "the request comes back as it was"
        );
        // Stopped before it starts: one line, the first candidate.
        request.watcher = None;
        let a = analyse(&mut s, &mut board, 4, &mut request);
        assert_eq!(a.lines.len(), 1, "{a:?}");
        assert!(board.is_empty(a.lines[0].best));
        // Let go, it gives every line again.
        stop.store(false, Ordering::SeqCst);
        request.limits = Limits::nodes(8_000);
        let a = analyse(&mut s, &mut board, 4, &mut request);
        assert_eq!(a.lines.len(), 4, "{a:?}");
        assert_eq!(request.limits, Limits::nodes(8_000), "its limits too");
    }

    #[test]
    fn several_lines_in_a_quiet_position() {
        let mut board = position(15, Rule::Exact, &[(7, 7), (8, 8)]).unwrap();
        let mut s = Searcher::new(Options::default());
        let a = analyse(
            &mut s,
            &mut board,
            5,
            &mut Request::new(Limits::nodes(20_000)),
        );
        assert_eq!(a.lines.len(), 5);
        assert!(a.nodes >= a.lines.iter().map(|l| l.nodes).sum::<u64>());
        for l in &a.lines {
            assert!(board.is_empty(l.best));
        }
    }

    #[test]
    fn every_line_asked_for_is_given_best_first() {
        let sorted = |a: &Analysis| a.lines.windows(2).all(|w| w[0].score >= w[1].score);
        let distinct = |a: &Analysis| {
            let mut m: Vec<_> = a.lines.iter().map(|l| l.best).collect();
            m.sort();
            m.dedup();
            m.len() == a.lines.len()
        };
        let mut s = Searcher::new(Options::default());
        // An empty board: the centre and the points around it.
        let mut empty = position::<Xy>(15, Rule::Freestyle, &[]).unwrap();
        let a = analyse(
            &mut s,
            &mut empty,
            3,
            &mut Request::new(Limits::nodes(6_000)),
        );
        assert_eq!(a.lines.len(), 3, "{a:?}");
        assert!(a.lines.iter().any(|l| l.best.xy() == (7, 7)), "{a:?}");
        assert!(
            a.lines
                .iter()
                .all(|l| l.best.xy().0.abs_diff(7) <= 2 && l.best.xy().1.abs_diff(7) <= 2)
        );
        assert!(sorted(&a) && distinct(&a), "{a:?}");
        // An open four (black 4..7 on row 7, both ends empty): two fives,
        // both listed as wins in one, then a third line.
        let stones = crate::analysis::OPEN_FOUR;
        let mut four = position(15, Rule::Freestyle, &stones).unwrap();
        let a = analyse(
            &mut s,
            &mut four,
            3,
            &mut Request::new(Limits::nodes(6_000)),
        );
        assert_eq!(a.lines.len(), 3, "{a:?}");
        let mut wins: Vec<_> = a.lines[..2].iter().map(|l| l.best.xy()).collect();
        wins.sort();
        assert_eq!(wins, vec![(3, 7), (8, 7)], "{a:?}");
        assert!(
            a.lines[..2]
                .iter()
                .all(|l| l.score == crate::score::win_in(1))
        );
        assert!(sorted(&a) && distinct(&a), "{a:?}");
        // A four to block: the block first, then moves that lose.
        let stones = [(7, 7), (6, 7), (8, 7), (8, 8), (9, 7), (10, 10), (10, 7)];
        let mut block = position(15, Rule::Freestyle, &stones).unwrap();
        let a = analyse(
            &mut s,
            &mut block,
            3,
            &mut Request::new(Limits::nodes(6_000)),
        );
        assert_eq!(a.lines.len(), 3, "{a:?}");
        assert_eq!(a.lines[0].best.xy(), (11, 7), "{a:?}");
        assert!(
            a.lines[1..]
                .iter()
                .all(|l| l.score < 0 && is_decided(l.score)),
            "{a:?}"
        );
        assert!(sorted(&a) && distinct(&a), "{a:?}");
        // In a quiet position, five lines sorted though each had its own search.
        let mut quiet = position(15, Rule::Freestyle, &[(7, 7), (8, 8), (8, 6)]).unwrap();
        let a = analyse(
            &mut s,
            &mut quiet,
            5,
            &mut Request::new(Limits::nodes(20_000)),
        );
        assert_eq!(a.lines.len(), 5, "{a:?}");
        assert!(sorted(&a) && distinct(&a), "{a:?}");
        // A small board gives as many lines as asked for.
        let mut small = position::<Xy>(5, Rule::Freestyle, &[]).unwrap();
        let a = analyse(
            &mut s,
            &mut small,
            5,
            &mut Request::new(Limits::nodes(2_000)),
        );
        assert_eq!(a.lines.len(), 5, "{a:?}");
    }

    #[test]
    fn bad_positions_are_refused_in_one_line() {
        let e = position(15, Rule::Freestyle, &[(7, 7), (7, 7)]).unwrap_err();
        assert_eq!(e.to_string(), "stone 2: point 7,7 is already taken");
        let e = position(15, Rule::Freestyle, &[(15, 0)]).unwrap_err();
        assert_eq!(e.to_string(), "stone 1: point 15,0 is off the board");
        let e = position::<Xy>(21, Rule::Freestyle, &[]).unwrap_err();
        assert!(
            e.to_string().starts_with("unsupported board size 21"),
            "{e}"
        );
        let five = [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (3, 0),
            (3, 1),
            (4, 0),
        ];
        let e = position(15, Rule::Freestyle, &five).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the game is over: stone 9 made five for black"
        );
        // A six is no win under exact five.
        let six = [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (4, 0),
            (4, 1),
            (5, 0),
            (5, 1),
            (3, 0),
        ];
        assert!(position(15, Rule::Exact, &six).is_ok());
        assert!(position(15, Rule::Freestyle, &six).is_err());
    }

    #[test]
    fn a_full_board_is_refused() {
        // 5x5 with no five: rows BBWWB and WWBBW in turn (13 black, 12 white).
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for y in 0..5 {
            for x in 0..5 {
                if (x + 2 * y) % 4 < 2 {
                    black.push((x, y));
                } else {
                    white.push((x, y));
                }
            }
        }
        let mut stones = Vec::new();
        for (i, &b) in black.iter().enumerate() {
            stones.push(b);
            stones.extend(white.get(i));
        }
        assert_eq!(
            position(5, Rule::Freestyle, &stones).unwrap_err(),
            PositionError::Full
        );
        assert!(position(5, Rule::Freestyle, &stones[..24]).is_ok());
    }
}
