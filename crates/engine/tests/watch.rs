//! Watching a search as it runs (live thinking, the brain's realtime
//! messages) and stopping it from outside (the brain's `YXSTOP`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use inarow_core::Rule;
use inarow_engine::analysis::position;
use inarow_engine::pos::Pos;
use inarow_engine::search::{Limits, Options, Request, Searcher};

/// What a watcher saw: (depth, best, score, pv, nodes, iteration).
type Seen = Arc<Mutex<Vec<(u32, Pos, i32, Vec<Pos>, u64, bool)>>>;

/// A request within `limits` whose watcher logs what it is told, at least
/// every `every`.
fn watched(limits: Limits, every: Duration) -> (Request, Seen) {
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let request = Request::new(limits).watched(
        Some(Box::new(move |p| {
            log.lock().unwrap().push((
                p.depth,
                p.best,
                p.score,
                p.pv.to_vec(),
                p.nodes,
                p.iteration,
            ));
        })),
        every,
    );
    (request, seen)
}

#[test]
fn every_iteration_is_reported_and_the_last_report_is_the_answer() {
    let mut board = position(15, Rule::Freestyle, &[(7, 7), (8, 8), (8, 6)]).unwrap();
    let mut s = Searcher::new(Options::default());
    let (mut request, seen) = watched(Limits::depth(6), Duration::MAX);
    let found = s.search(&mut board, &mut request);
    let seen = seen.lock().unwrap();
    let depths: Vec<u32> = seen.iter().filter(|r| r.5).map(|r| r.0).collect();
    // Depths 1 to 6 one by one, then the search's end (depth 6 again).
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6, 6], "{seen:?}");
    let last = seen.last().unwrap();
    assert_eq!(
        (last.0, last.1, last.2),
        (found.depth, found.best, found.score)
    );
    assert_eq!(last.3, found.pv);
    assert_eq!(last.4, found.nodes);
    assert!(seen.windows(2).all(|w| w[0].4 <= w[1].4), "nodes only grow");
    for r in seen.iter() {
        assert_eq!(r.3.first(), Some(&r.1), "each line starts with its move");
    }
}

#[test]
fn reports_between_iterations_bring_nodes_up_to_date() {
    let mut board = position(15, Rule::Freestyle, &[(7, 7), (8, 8), (8, 6)]).unwrap();
    let mut s = Searcher::new(Options::default());
    // A report at every look at the clock.
    let (mut request, seen) = watched(Limits::nodes(50_000), Duration::ZERO);
    let found = s.search(&mut board, &mut request);
    let seen = seen.lock().unwrap();
    let between = seen.iter().filter(|r| !r.5).count() as u64;
    assert!(
        between >= found.nodes / 1024 / 2,
        "{between} reports for {} nodes",
        found.nodes
    );
    // Nothing is told of a search that has not begun: without a watcher
    // the searcher is silent and searches the same.
    let mut quiet = Searcher::new(Options::default());
    let again = quiet.search(&mut board, &mut Request::new(Limits::nodes(50_000)));
    assert_eq!(
        (again.best, again.score, again.nodes),
        (found.best, found.score, found.nodes)
    );
}

#[test]
fn a_stop_from_outside_ends_the_search_with_a_move() {
    let mut board = position(15, Rule::Freestyle, &[(7, 7), (8, 8), (8, 6)]).unwrap();
    let mut s = Searcher::new(Options::default());
    let flag = Arc::new(AtomicBool::new(false));
    let hour = Limits::time(Duration::from_secs(3600));
    // The watcher stands for the other thread: it asks for a stop once
    // depth 4 is done, in a search that would otherwise think for an hour.
    let asks = flag.clone();
    let mut request = Request::new(hour).stopped_by(Some(flag.clone())).watched(
        Some(Box::new(move |p| {
            if p.depth >= 4 {
                asks.store(true, Ordering::Relaxed);
            }
        })),
        Duration::MAX,
    );
    let found = s.search(&mut board, &mut request);
    assert!((4..=5).contains(&found.depth), "{found:?}");
    assert!(board.is_empty(found.best));
    assert!(
        request.stop_asked() && request.watcher.is_some(),
        "given back"
    );
    // A flag still set stops the next search at once, with a legal move.
    let mut again = Request::new(hour).stopped_by(Some(flag.clone()));
    let found = s.search(&mut board, &mut again);
    assert!(found.depth <= 1, "{found:?}");
    assert!(board.is_empty(found.best));
    // Cleared, the searcher thinks to its limits again.
    flag.store(false, Ordering::Relaxed);
    let mut deeper = Request::new(Limits::depth(5)).stopped_by(Some(flag.clone()));
    let found = s.search(&mut board, &mut deeper);
    assert_eq!(found.depth, 5);
    // The flag set again stops only the requests that carry it: the
    // searcher keeps nothing of the last request.
    flag.store(true, Ordering::Relaxed);
    let found = s.search(&mut board, &mut Request::new(Limits::depth(5)));
    assert_eq!(found.depth, 5);
}
