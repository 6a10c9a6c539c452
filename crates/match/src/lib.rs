//! # inarow-match
//!
//! The match runner: two contenders (engine settings of this build, or
//! Gomocup brains) play each opening twice with the colours swapped; the
//! tally comes with an Elo estimate and an SPRT verdict, so that a change to
//! search or evaluation shows it gains before it lands.
//!
//! - [`openings`]: the openings file, seeded and balanced openings.
//! - [`game`]: one game from an opening, the [`Contender`] trait and the engine as one.
//! - [`brain`]: a Gomocup brain program as a contender.
//! - [`stats`]: Elo with error bars, the pairs and the SPRT over them.
//! - [`setup`]: a match as a front asks for it (board, rule, openings,
//!   limits, engines or brains), checked and made ready to play.
//! - [`part`]: a match played in shares on many machines: its part files and
//!   their merge (the shares themselves are [`inarow_contest::shard`]'s).
//! - [`sgf`]: a match c-gomoku-cli played, read back from its SGF file
//!   and scored by pairs (the gate against Rapfi, `scripts/gate.sh`).
//! - [`agree`]: positions of such a match with a reference brain's move,
//!   and how often a brain at a node budget picks it, paired by McNemar.
//!
//! The runner prints nothing: the front hears of each game and each pair.
//! Brains run in `inarow_sandbox`, as the judge's bots do. Of the judge,
//! the sandbox and the match runner, only this crate uses the engine.
#![deny(missing_docs)]

pub mod agree;
pub mod brain;
pub mod game;
pub mod openings;
pub mod part;
pub mod setup;
pub mod sgf;
pub mod stats;

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use inarow_contest::Ending;
use inarow_core::{Point, Rule, Tally};
use inarow_engine::search::Limits;

pub use game::{Contender, Lost, MatchGame, Thought, Unanswered, play_match_game};
pub use openings::Opening;
pub use stats::Verdict;

/// What a match is played over.
#[derive(Clone, Debug)]
pub struct Plan<'a> {
    /// The openings, used in turn (again from the first when there are
    /// fewer than pairs).
    pub openings: &'a [Opening],
    /// Pairs of games at most (each opening with A black, then white).
    pub pairs: usize,
    /// The board's side.
    pub size: usize,
    /// Freestyle (five or more wins) or exact five.
    pub rule: Rule,
    /// What each contender may spend on a move.
    pub limits: Limits,
    /// SPRT: A is `elo0` better (H0)...
    pub elo0: f64,
    /// ... or `elo1` better (H1); the match stops once one is accepted.
    pub elo1: f64,
    /// The pairs played here: pair `k` if the share owns it. A share of
    /// a match cut in several never stops on the SPRT (it sees only its
    /// own pairs); the merge does.
    pub share: inarow_contest::shard::Shard,
}

/// One game as the match played it.
#[derive(Clone, Copy, Debug)]
pub struct Played<'a> {
    /// The pair, from 0.
    pub pair: usize,
    /// Whether A played black.
    pub a_black: bool,
    /// The opening.
    pub opening: &'a [Point],
    /// The game from A's side.
    pub game: &'a MatchGame,
}

/// A pair of games ended: how the match stands.
#[derive(Clone, Copy, Debug)]
pub struct PairEnd<'a> {
    /// The pair, from 0.
    pub pair: usize,
    /// A's results of the pair, black first.
    pub results: &'a [inarow_core::GameResult],
    /// A's tally so far.
    pub tally: Tally,
    /// The SPRT's log-likelihood ratio so far.
    pub llr: f64,
}

/// The whole match from A's side.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    /// A's wins, draws and losses.
    pub tally: Tally,
    /// A's points by pair.
    pub by_pair: stats::Pairs,
    /// Games lost by an illegal or missing move.
    pub illegal: usize,
    /// Games black lost by a stone on a forbidden point (renju).
    pub forbidden: usize,
    /// The longest think of the match.
    pub longest: Duration,
    /// A's and B's wins by a five, and how early they were proven.
    pub proven: [ProvenWins; 2],
}

/// One side's wins by a five over a match, and how many plies before the
/// end it said it had proven them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProvenWins {
    /// Games won by a five.
    pub wins: usize,
    /// Of them, those it said it had proven before the end.
    pub proven: usize,
    /// The plies before the end at which those were proven, summed.
    pub plies: usize,
}

impl ProvenWins {
    /// Counts a game this side won by a five, proven `plies` before the
    /// end if it said so.
    pub fn add(&mut self, plies: Option<usize>) {
        self.wins += 1;
        if let Some(n) = plies {
            self.proven += 1;
            self.plies += n;
        }
    }

    /// The mean plies before the end of the proven wins.
    pub fn mean_plies(&self) -> Option<f64> {
        (self.proven > 0).then(|| self.plies as f64 / self.proven as f64)
    }
}

/// Does `work` on every item on as many threads as there are `workers`
/// (each thread owns one), and hands the results to `heard` in the items'
/// order, whichever thread finished first, until it says to stop or the
/// items run out. Work under way when it stops is finished and dropped;
/// no new item starts.
pub fn in_order<W: Send, T: Sync, R: Send>(
    workers: &mut [W],
    items: &[T],
    work: impl Fn(&mut W, &T) -> R + Sync,
    mut heard: impl FnMut(usize, R) -> ControlFlow<()>,
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sent, results) = mpsc::channel::<(usize, R)>();
        for worker in workers.iter_mut() {
            let (sent, next, work) = (sent.clone(), &next, &work);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        break;
                    };
                    // Nobody listens once the caller has stopped.
                    if sent.send((i, work(worker, item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sent);
        let mut early = BTreeMap::new();
        let mut due = 0;
        'heard: for (i, r) in results.iter() {
            early.insert(i, r);
            while let Some(r) = early.remove(&due) {
                due += 1;
                if heard(due - 1, r).is_break() {
                    break 'heard;
                }
            }
        }
        // No new item starts, and dropping the receiver tells the threads
        // to stop after the item they work on; the scope waits for them.
        next.store(items.len(), Ordering::Relaxed);
        drop(results);
    });
}

/// One worker's contenders: A, then B.
pub type Sides = (Box<dyn Contender + Send>, Box<dyn Contender + Send>);

/// Plays A against B over `plan`, pair by pair, until the pairs are played
/// or the SPRT decides, on as many threads as `sides` has pairs of
/// contenders (a game per core). `on_game` hears of every game and
/// `on_pair` of every pair in the order of the pairs, whichever thread
/// played them, so that the figures and the files are those of one thread
/// (an error from `on_game` stops the match). Pairs played past the one
/// where the SPRT stopped are not counted, as one thread would not have
/// played them.
pub fn play_match<E>(
    sides: &mut [Sides],
    plan: &Plan,
    mut on_game: impl FnMut(&Played) -> Result<(), E>,
    mut on_pair: impl FnMut(&PairEnd),
) -> Result<Summary, E> {
    let owned: Vec<(usize, &Opening)> = plan
        .openings
        .iter()
        .cycle()
        .take(plan.pairs)
        .enumerate()
        .filter(|(k, _)| plan.share.owns(*k))
        .collect();
    let mut summary = Summary::default();
    let mut failed = None;
    in_order(
        sides,
        &owned,
        |(a, b), &(_, opening)| {
            [true, false].map(|a_black| {
                play_match_game(
                    a.as_mut(),
                    b.as_mut(),
                    a_black,
                    opening,
                    plan.size,
                    plan.rule,
                    plan.limits,
                )
            })
        },
        |due, games| {
            let (k, opening) = owned[due];
            let results = [&games[0], &games[1]].map(|g| g.result);
            for (g, a_black) in games.iter().zip([true, false]) {
                summary.tally.add(g.result);
                let forfeit = g.ending == Ending::Forfeit;
                summary.illegal += usize::from(forfeit);
                summary.forbidden += usize::from(g.forbidden.is_some());
                summary.longest = summary.longest.max(g.longest);
                let won_by_five = !forfeit && g.forbidden.is_none();
                match g.result {
                    inarow_core::GameResult::Win if won_by_five => {
                        summary.proven[0].add(g.proven[0])
                    }
                    inarow_core::GameResult::Loss if won_by_five => {
                        summary.proven[1].add(g.proven[1])
                    }
                    _ => {}
                }
                let played = Played {
                    pair: k,
                    a_black,
                    opening,
                    game: g,
                };
                if let Err(e) = on_game(&played) {
                    failed = Some(e);
                    return ControlFlow::Break(());
                }
            }
            summary.by_pair.add(results);
            let (llr, verdict) = stats::sprt(&summary.by_pair, plan.elo0, plan.elo1);
            on_pair(&PairEnd {
                pair: k,
                results: &results,
                tally: summary.tally,
                llr,
            });
            if verdict != Verdict::Continue && plan.share.is_whole() {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        },
    );
    match failed {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}
