//! The threaded runner: games of disjoint bots at once, each bot's games
//! one at a time in schedule order, a panic in one game stopping the others.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::schedule::Fixture;

/// How many bots (by index) `fixtures` name.
fn bots_in(fixtures: &[Fixture]) -> usize {
    fixtures.iter().map(|f| f.a.max(f.b) + 1).max().unwrap_or(0)
}

/// The most games of `fixtures` played at once with `jobs`: never more than
/// disjoint pairs of their bots (a bot plays one game at a time), nor than
/// there are games; at least 1.
pub fn at_once(fixtures: &[Fixture], jobs: usize) -> usize {
    jobs.min(bots_in(fixtures) / 2).min(fixtures.len()).max(1)
}

/// Which games may start: each bot's games not yet ended, in order.
struct Turns<T> {
    /// For each bot, the games (places in the fixtures) of it that have not
    /// ended, in order: only a game at the front of both its bots' queues
    /// may start.
    queues: Vec<VecDeque<usize>>,
    /// Whether each game has started.
    started: Vec<bool>,
    /// Games not started yet.
    waiting: usize,
    /// What each game gave, once it ended.
    done: Vec<Option<T>>,
    /// A game's thread panicked: the others stop taking games.
    broken: bool,
}

impl<T> Turns<T> {
    /// The first game (in order) whose bots are both free and have ended
    /// every earlier game of theirs.
    fn ready(&self, fixtures: &[Fixture]) -> Option<usize> {
        self.queues
            .iter()
            .filter_map(|queue| queue.front().copied())
            .filter(|&game| {
                let fixture = &fixtures[game];
                !self.started[game]
                    && self.queues[fixture.a].front() == Some(&game)
                    && self.queues[fixture.b].front() == Some(&game)
            })
            .min()
    }
}

/// Marks the turns broken if a game's thread unwinds, so that the other
/// threads stop waiting for a game that will never end.
struct Unwinding<'a, T> {
    turns: &'a (Mutex<Turns<T>>, Condvar),
    armed: bool,
}

impl<T> Drop for Unwinding<'_, T> {
    fn drop(&mut self) {
        if self.armed {
            lock(&self.turns.0).broken = true;
            self.turns.1.notify_all();
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Plays `fixtures` with `play` on up to `jobs` threads and returns what
/// each gave, in the order given. A game starts only once every earlier
/// game (in that order) of each of its bots has ended: so no bot is ever in
/// two games at once, each of its games starts from where its previous one
/// left it, and what a bot sees never depends on `jobs`; games of disjoint
/// bots are played at once.
pub(super) fn in_turn<T: Send>(
    fixtures: &[Fixture],
    jobs: usize,
    play: impl Fn(&Fixture) -> T + Sync,
) -> Vec<T> {
    let bots = bots_in(fixtures);
    let mut queues = vec![VecDeque::new(); bots];
    for (game, fixture) in fixtures.iter().enumerate() {
        queues[fixture.a].push_back(game);
        queues[fixture.b].push_back(game);
    }
    let turns = (
        Mutex::new(Turns {
            queues,
            started: vec![false; fixtures.len()],
            waiting: fixtures.len(),
            done: (0..fixtures.len()).map(|_| None).collect(),
            broken: false,
        }),
        Condvar::new(),
    );
    let threads = at_once(fixtures, jobs);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let mut state = lock(&turns.0);
                    let game = loop {
                        if state.broken {
                            return;
                        }
                        if let Some(game) = state.ready(fixtures) {
                            break game;
                        }
                        if state.waiting == 0 {
                            return;
                        }
                        state = turns.1.wait(state).unwrap_or_else(|e| e.into_inner());
                    };
                    state.started[game] = true;
                    state.waiting -= 1;
                    drop(state);
                    let mut unwinding = Unwinding {
                        turns: &turns,
                        armed: true,
                    };
                    let given = play(&fixtures[game]);
                    unwinding.armed = false;
                    let mut state = lock(&turns.0);
                    let fixture = &fixtures[game];
                    for bot in [fixture.a, fixture.b] {
                        state.queues[bot].pop_front();
                    }
                    state.done[game] = Some(given);
                    drop(state);
                    turns.1.notify_all();
                }
            });
        }
    });
    let turns = turns.0.into_inner().unwrap_or_else(|e| e.into_inner());
    turns
        .done
        .into_iter()
        .map(|given| given.expect("every fixture was played"))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::schedule::schedule;
    use super::*;

    /// What happened while [`in_turn`] played: which game started or ended.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Happened {
        Started(usize),
        Ended(usize),
    }

    /// Checks a log of [`in_turn`]: every game once, no bot in two games at
    /// once, and no game started before every earlier game of its bots had
    /// ended. Returns the most games that were in play at once.
    fn check_turns(fixtures: &[Fixture], log: &[Happened]) -> usize {
        let mut ended = vec![false; fixtures.len()];
        let mut in_play: Vec<usize> = Vec::new();
        let mut most = 0;
        for &happened in log {
            match happened {
                Happened::Started(game) => {
                    let f = &fixtures[game];
                    for earlier in &fixtures[..game] {
                        let shared = [earlier.a, earlier.b]
                            .iter()
                            .any(|bot| *bot == f.a || *bot == f.b);
                        assert!(
                            !shared || ended[earlier.index],
                            "game {game} started before game {} of one of its bots ended",
                            earlier.index
                        );
                    }
                    for &other in &in_play {
                        let o = &fixtures[other];
                        assert!(
                            ![o.a, o.b].iter().any(|bot| *bot == f.a || *bot == f.b),
                            "games {other} and {game} of one bot at once"
                        );
                    }
                    in_play.push(game);
                    most = most.max(in_play.len());
                }
                Happened::Ended(game) => {
                    in_play.retain(|&g| g != game);
                    ended[game] = true;
                }
            }
        }
        assert!(ended.iter().all(|&e| e), "every game was played");
        most
    }

    #[test]
    fn a_bot_plays_one_game_at_a_time_in_schedule_order() {
        for (bots, jobs) in [(3, 3), (4, 2), (6, 3), (7, 8), (10, 4)] {
            let fixtures = schedule(bots, 3);
            let log = Mutex::new(Vec::new());
            let given = in_turn(&fixtures, jobs, |f| {
                lock(&log).push(Happened::Started(f.index));
                std::thread::yield_now();
                lock(&log).push(Happened::Ended(f.index));
                f.index
            });
            assert_eq!(given, (0..fixtures.len()).collect::<Vec<_>>());
            let most = check_turns(&fixtures, &lock(&log));
            assert!(most <= jobs.min(bots / 2), "{bots} bots, -j {jobs}: {most}");
        }
        // A share of the schedule keeps the order among its own games.
        let share: Vec<Fixture> = schedule(6, 3).into_iter().step_by(2).collect();
        let log = Mutex::new(Vec::new());
        in_turn(&share, 3, |f| {
            let at = share.iter().position(|s| s.index == f.index).unwrap();
            lock(&log).push(Happened::Started(at));
            lock(&log).push(Happened::Ended(at));
        });
        let renumbered: Vec<Fixture> = share
            .iter()
            .enumerate()
            .map(|(index, f)| Fixture { index, ..*f })
            .collect();
        check_turns(&renumbered, &lock(&log));
    }

    #[test]
    fn games_of_disjoint_bots_are_played_at_once() {
        // Round 1 of four bots is two games of disjoint bots: the first
        // does not end until the second has started, which only a runner
        // that plays them at once lets happen. (The wait is bounded so that
        // a runner that does not cannot hang the tests: it fails instead.)
        let fixtures = schedule(4, 1);
        let (a, b) = (&fixtures[0], &fixtures[1]);
        assert!(![a.a, a.b].contains(&b.a) && ![a.a, a.b].contains(&b.b));
        let second_started = (Mutex::new(false), Condvar::new());
        let log = Mutex::new(Vec::new());
        in_turn(&fixtures, 2, |f| {
            lock(&log).push(Happened::Started(f.index));
            if f.index == 1 {
                *lock(&second_started.0) = true;
                second_started.1.notify_all();
            }
            if f.index == 0 {
                let started = lock(&second_started.0);
                let (started, _) = second_started
                    .1
                    .wait_timeout_while(started, Duration::from_secs(300), |s| !*s)
                    .unwrap();
                assert!(*started, "game 1 never started while game 0 was played");
            }
            lock(&log).push(Happened::Ended(f.index));
        });
        assert_eq!(check_turns(&fixtures, &lock(&log)), 2);
    }

    #[test]
    fn a_game_that_panics_stops_the_others_instead_of_hanging_them() {
        let fixtures = schedule(4, 1);
        let played = std::panic::catch_unwind(|| {
            in_turn(&fixtures, 2, |f| {
                assert_ne!(f.index, 2, "the judge's own fault");
            })
        });
        assert!(played.is_err());
    }
}
