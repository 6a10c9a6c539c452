//! The full search: principal-variation alpha-beta with a transposition
//! table, move ordering (table move, killers, history, a [`MoveOrder`]) and
//! iterative deepening under a depth, node or time budget.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use inarow_core::{Game, Point};

use crate::order::{LinesThrough, MoveOrder};
use crate::score::{self, INFINITY, Score, WIN};
use crate::tt::{Bound, Table};

/// Gives the value of a position at the search horizon.
pub trait Evaluate<G: Game> {
    /// The value of an unfinished `game` for the side to move.
    fn evaluate(&mut self, game: &G) -> Score;
}

/// Calls every unfinished position a draw: right for games small enough to
/// search to the end, where the horizon is never reached.
#[derive(Clone, Copy, Debug, Default)]
pub struct DrawEval;

impl<G: Game> Evaluate<G> for DrawEval {
    fn evaluate(&mut self, _game: &G) -> Score {
        0
    }
}

/// How much a search may spend. Unset limits are unlimited; a search stops
/// at whichever limit comes first and answers from its last full iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Deepest iteration, in moves.
    pub depth: Option<u32>,
    /// Positions to visit at most.
    pub nodes: Option<u64>,
    /// Time to spend at most.
    pub time: Option<Duration>,
}

impl Budget {
    /// Search until the game's end is reached.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// Search `depth` moves deep.
    pub fn depth(depth: u32) -> Budget {
        Budget {
            depth: Some(depth),
            ..Budget::default()
        }
    }

    /// Visit at most `nodes` positions.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes: Some(nodes),
            ..Budget::default()
        }
    }

    /// Spend at most `time`.
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            ..Budget::default()
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, or `None` when the game is over.
    pub best: Option<Point>,
    /// Its score for the side to move.
    pub score: Score,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited, root included, over all iterations.
    pub nodes: u64,
    /// Whether the score is the game's true value (searched to the end or a
    /// forced win or loss), not an estimate.
    pub exact: bool,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Point>,
}

/// Switches for the search's own knowledge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// log2 of the transposition table's entries; 0 for no table.
    pub table_bits: u32,
    /// Key the table by the canonical image, so symmetric positions share entries.
    pub symmetric: bool,
    /// Before searching a position, look for a move that wins on the spot.
    pub win_check: bool,
    /// Killer-move and history ordering.
    pub killers: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            table_bits: 16,
            symmetric: false,
            win_check: true,
            killers: true,
        }
    }
}

/// A reusable searcher for one kind of game.
#[derive(Debug)]
pub struct Search<G: Game, O: MoveOrder<G> = LinesThrough, E: Evaluate<G> = DrawEval> {
    options: Options,
    table: Option<Table>,
    order: O,
    eval: E,
    killers: Vec<[Option<Point>; 2]>,
    history: Vec<i32>,
    buffers: Vec<Vec<(Point, i32)>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    _game: PhantomData<fn(&G)>,
}

impl<G: Game> Default for Search<G> {
    fn default() -> Self {
        Search::new(Options::default(), LinesThrough::default(), DrawEval)
    }
}

impl<G: Game, O: MoveOrder<G>, E: Evaluate<G>> Search<G, O, E> {
    /// A searcher with these options, move ordering and evaluation.
    pub fn new(options: Options, order: O, eval: E) -> Self {
        Search {
            table: (options.table_bits > 0).then(|| Table::new(options.table_bits)),
            options,
            order,
            eval,
            killers: Vec::new(),
            history: Vec::new(),
            buffers: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            _game: PhantomData,
        }
    }

    /// The move ordering, e.g. to inspect or retune it.
    pub fn order_mut(&mut self) -> &mut O {
        &mut self.order
    }

    /// The evaluation, e.g. to inspect or retune it.
    pub fn eval_mut(&mut self) -> &mut E {
        &mut self.eval
    }

    /// Searches `game` within `budget` by iterative deepening.
    pub fn run(&mut self, game: &G, budget: Budget) -> SearchResult {
        let start = Instant::now();
        self.prepare(game, budget, start);
        let mut game = game.clone();
        let empties = game.points() - game.stones();
        let max_depth = budget.depth.unwrap_or(u32::MAX).min(empties as u32).max(1);
        if let Some(done) = finished(&game) {
            return done;
        }
        let mut result: Option<SearchResult> = None;
        for depth in 1..=max_depth {
            let (best, score) = self.root(&mut game, depth, result.as_ref().and_then(|r| r.best));
            if self.stopped && result.is_some() {
                break;
            }
            let exact = depth as usize >= empties || score::is_decisive(score);
            let pv = self.principal_variation(&game, best, depth);
            result = Some(SearchResult {
                best,
                score,
                depth,
                nodes: self.nodes,
                exact: exact && !self.stopped,
                pv,
            });
            if self.stopped || exact {
                break;
            }
        }
        let mut result = result.expect("at least one iteration");
        result.nodes = self.nodes;
        result
    }

    /// Searches `game` to the end in one pass, without iterative deepening:
    /// the fastest way to the exact value of a small game.
    pub fn solve(&mut self, game: &G) -> SearchResult {
        let empties = game.points() - game.stones();
        self.prepare(game, Budget::unlimited(), Instant::now());
        let mut game = game.clone();
        if let Some(done) = finished(&game) {
            return done;
        }
        let (best, score) = self.root(&mut game, empties as u32, None);
        let pv = self.principal_variation(&game, best, empties as u32);
        SearchResult {
            best,
            score,
            depth: empties as u32,
            nodes: self.nodes,
            exact: true,
            pv,
        }
    }

    /// The exact value of `game` for the side to move, searched to the end.
    pub fn value(&mut self, game: &G) -> Score {
        self.solve(game).score
    }

    fn prepare(&mut self, game: &G, budget: Budget, start: Instant) {
        self.order.prepare(game);
        if let Some(t) = &mut self.table {
            t.new_search();
        }
        let plies = game.points() + 2;
        if self.buffers.len() < plies {
            self.buffers
                .resize_with(plies, || Vec::with_capacity(game.points()));
            self.killers.resize(plies, [None; 2]);
        }
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.clear();
        self.history.resize(game.points(), 0);
        self.nodes = 0;
        self.node_limit = budget.nodes.unwrap_or(u64::MAX);
        self.deadline = budget.time.map(|t| start + t);
        self.stopped = false;
    }

    fn root(
        &mut self,
        game: &mut G,
        depth: u32,
        previous_best: Option<Point>,
    ) -> (Option<Point>, Score) {
        self.nodes += 1;
        let mut moves = std::mem::take(&mut self.buffers[0]);
        self.order_moves(game, 0, previous_best, &mut moves);
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best = moves.first().map(|&(m, _)| m);
        for (i, &(m, _)) in moves.iter().enumerate() {
            game.play_unchecked(m);
            let v = if i == 0 {
                -self.pvs(game, depth as i32 - 1, 1, -beta, -alpha)
            } else {
                let v = -self.pvs(game, depth as i32 - 1, 1, -alpha - 1, -alpha);
                if v > alpha && !self.stopped {
                    -self.pvs(game, depth as i32 - 1, 1, -beta, -alpha)
                } else {
                    v
                }
            };
            game.undo(m);
            if self.stopped {
                break;
            }
            if v > alpha {
                alpha = v;
                best = Some(m);
            }
        }
        self.buffers[0] = moves;
        if let (Some(t), false) = (&mut self.table, self.options.symmetric || self.stopped) {
            t.store(
                game.hash(),
                0,
                depth.min(255) as i16,
                alpha,
                Bound::Exact,
                best,
            );
        }
        (best, alpha)
    }

    fn pvs(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: u32,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        if let Some(o) = game.outcome() {
            return score::terminal(game, o, ply);
        }
        if depth <= 0 {
            return self.eval.evaluate(game);
        }
        // No line from here can beat a win on the next move or lose sooner
        // than the move after: narrow the window to what is still possible.
        alpha = alpha.max(-(WIN - ply as Score - 1));
        beta = beta.min(WIN - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }
        if self.options.win_check {
            for m in game.moves() {
                game.play_unchecked(m);
                let won = game.outcome().is_some_and(|o| o.winner().is_some());
                game.undo(m);
                if won {
                    self.nodes += 1;
                    return WIN - ply as Score - 1;
                }
            }
        }
        let key = if self.options.symmetric {
            game.canonical_hash()
        } else {
            game.hash()
        };
        let mut table_move = None;
        if let Some(entry) = self.table.as_ref().and_then(|t| t.probe(key, ply)) {
            if let Some(s) = entry.settles(depth, alpha, beta) {
                return s;
            }
            if !self.options.symmetric {
                table_move = entry.best;
            }
        }
        let alpha_in = alpha;
        let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
        self.order_moves(game, ply, table_move, &mut moves);
        let mut best = (None, -INFINITY);
        for (i, &(m, _)) in moves.iter().enumerate() {
            game.play_unchecked(m);
            let v = if i == 0 {
                -self.pvs(game, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let v = -self.pvs(game, depth - 1, ply + 1, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.stopped {
                    -self.pvs(game, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    v
                }
            };
            game.undo(m);
            if self.stopped {
                break;
            }
            if v > best.1 {
                best = (Some(m), v);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.reward(m, ply, depth);
                        break;
                    }
                }
            }
        }
        self.buffers[ply as usize] = moves;
        if self.stopped {
            return 0;
        }
        if best.0.is_none() {
            // Only reachable when a move order offers no candidates: treat
            // the position as one to evaluate.
            return self.eval.evaluate(game);
        }
        if let Some(t) = &mut self.table {
            let bound = Bound::of(best.1, alpha_in, beta);
            let stored_move = if self.options.symmetric { None } else { best.0 };
            t.store(key, ply, depth.min(255) as i16, best.1, bound, stored_move);
        }
        best.1
    }

    fn order_moves(
        &mut self,
        game: &G,
        ply: u32,
        first: Option<Point>,
        moves: &mut Vec<(Point, i32)>,
    ) {
        moves.clear();
        self.order.candidates(game, moves);
        let killers = self.killers[ply as usize];
        for (m, s) in moves.iter_mut() {
            *s = if Some(*m) == first {
                i32::MAX
            } else {
                let mut v = self.order.score(game, *m);
                if self.options.killers {
                    if killers[0] == Some(*m) {
                        v += 1 << 24;
                    } else if killers[1] == Some(*m) {
                        v += 1 << 23;
                    }
                    v += self.history[m.index()].min(1 << 22);
                }
                v
            };
        }
        // A stable sort keeps row-major order among equals, so searches
        // are reproducible move for move.
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    fn reward(&mut self, m: Point, ply: u32, depth: i32) {
        if !self.options.killers {
            return;
        }
        let k = &mut self.killers[ply as usize];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.history[m.index()] += depth * depth;
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
    }

    fn principal_variation(&self, game: &G, best: Option<Point>, depth: u32) -> Vec<Point> {
        let mut pv: Vec<Point> = best.into_iter().collect();
        let (Some(table), false) = (&self.table, self.options.symmetric) else {
            return pv;
        };
        let mut game = game.clone();
        if let Some(m) = best {
            game.play_unchecked(m);
        }
        while (pv.len() as u32) < depth {
            let Some(m) = table.probe(game.hash(), 0).and_then(|e| e.best) else {
                break;
            };
            if game.play(m).is_err() {
                break;
            }
            pv.push(m);
        }
        pv
    }
}

/// The answer for a game that is already over, if it is.
fn finished<G: Game>(game: &G) -> Option<SearchResult> {
    game.outcome().map(|o| SearchResult {
        best: None,
        score: score::terminal(game, o, 0),
        depth: 0,
        nodes: 1,
        exact: true,
        pv: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minimax;
    use inarow_core::{Player, TicTacToe};

    #[test]
    fn solves_the_empty_board() {
        let mut s = Search::<TicTacToe>::default();
        let r = s.solve(&TicTacToe::new());
        assert_eq!(r.score, 0);
        assert!(r.exact);
        let r = s.run(&TicTacToe::new(), Budget::unlimited());
        assert_eq!(r.score, 0);
        assert!(r.exact);
    }

    #[test]
    fn symmetric_table_solves_too() {
        let options = Options {
            symmetric: true,
            ..Options::default()
        };
        let mut s: Search<TicTacToe> = Search::new(options, LinesThrough::default(), DrawEval);
        assert_eq!(s.solve(&TicTacToe::new()).score, 0);
    }

    #[test]
    fn agrees_with_minimax_on_every_reachable_position() {
        // Walk every position reachable in play and compare values.
        fn walk(
            game: &mut TicTacToe,
            searches: &mut [Search<TicTacToe>],
            seen: &mut std::collections::HashSet<u64>,
        ) {
            if !seen.insert(game.hash()) || game.is_over() {
                return;
            }
            let want = minimax::minimax(game).score;
            for s in searches.iter_mut() {
                assert_eq!(s.solve(game).score, want, "{game:?}");
            }
            for m in game.moves() {
                game.play_unchecked(m);
                walk(game, searches, seen);
                game.undo(m);
            }
        }
        let symmetric = Options {
            symmetric: true,
            ..Options::default()
        };
        let plain = Options {
            table_bits: 0,
            win_check: false,
            killers: false,
            symmetric: false,
        };
        let mut searches = [
            Search::default(),
            Search::new(symmetric, LinesThrough::default(), DrawEval),
            Search::new(plain, LinesThrough::default(), DrawEval),
        ];
        let mut seen = Default::default();
        walk(&mut TicTacToe::new(), &mut searches, &mut seen);
        assert_eq!(
            seen.len(),
            5478,
            "tic-tac-toe has 5,478 reachable positions"
        );
    }

    #[test]
    fn takes_the_fastest_win() {
        // X can win at once on the left column, or later elsewhere.
        let game = TicTacToe::parse_with_turn("XOX.O.X..", Player::X).unwrap();
        let r = Search::<TicTacToe>::default().run(&game, Budget::unlimited());
        assert_eq!(r.best, Some(Point::at(0, 1, 3)));
        assert_eq!(r.score, WIN - 1);
    }

    #[test]
    fn time_budget_stops_a_search_that_cannot_finish() {
        // Gomoku cannot be searched to the end: the search must stop on
        // the clock and still answer with a legal move.
        let game = inarow_core::Mnk::gomoku();
        let mut s = Search::<inarow_core::Mnk>::default();
        let r = s.run(&game, Budget::time(Duration::from_millis(50)));
        let best = r.best.expect("a move");
        assert!(game.stone(best).is_none());
        assert!(!r.exact);
        assert!(r.depth >= 1);
    }

    #[test]
    fn depth_budget_limits_the_iterations() {
        let game = TicTacToe::new();
        let r = Search::<TicTacToe>::default().run(&game, Budget::depth(3));
        assert_eq!(r.depth, 3);
        assert!(!r.exact);
        assert_eq!(r.pv.first().copied(), r.best);
    }

    #[test]
    fn node_budget_is_respected() {
        let game = inarow_core::Mnk::new(4, 4, 4, inarow_core::Rule::Freestyle).unwrap();
        let mut s = Search::<inarow_core::Mnk>::default();
        let r = s.run(&game, Budget::nodes(5_000));
        assert!(r.best.is_some());
        assert!(r.nodes < 5_000 + 1024, "{}", r.nodes);
        assert!(!r.exact);
    }
}
