//! The tournament: every pair of bots twice, in rounds where each bot plays
//! at most once, games of disjoint bots in parallel, standings.
//!
//! Everything random comes from the tournament seed through the index of the
//! pair, never through the order games happen to finish; and a bot plays its
//! games one at a time, in schedule order, each starting from the folder its
//! previous game left. So `-j N` gives the same results as `-j 1`, even for
//! bots that learn in their folders between games.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use inarow_contest::Fault;
use inarow_contest::shard::Shard;
use inarow_core::{Mnk, Player, Point, Rule};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::field::LeftOut;
use crate::meta::BotMeta;
use crate::process::{BotProcess, Listener, Start};
use crate::record::{Forfeit, GameRecord, Seat};
use crate::referee::{Contestant, play_game_watched};
use inarow_sandbox::Sandbox;

/// How a tournament is run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The tournament seed.
    pub seed: u64,
    /// Games played at once (at least 1).
    pub jobs: usize,
    /// Time limit per answer; `None` for none.
    pub timeout: Option<Duration>,
    /// Freestyle (five or more wins), exact five or renju.
    pub rule: Rule,
    /// How bots are started: contained (and within which limits) or not.
    pub sandbox: Sandbox,
    /// Hears the standard error of bots whose meta file asks to show it;
    /// `None` drops it.
    pub stderr: Option<Listener>,
    /// The bots of the bots folder left out of this tournament: named in
    /// its results, and their folders stay closed to the bots that play.
    pub left_out: Vec<LeftOut>,
}

/// One scheduled game: which bots, who opens, which seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// Position in the schedule.
    pub index: usize,
    /// Index of the opening bot in the bot list.
    pub a: usize,
    /// Index of the answering bot.
    pub b: usize,
    /// Seed for A.
    pub a_seed: u64,
    /// Seed for B.
    pub b_seed: u64,
}

/// Bot seeds stay below 2^53 so that every language reads them exactly
/// (JavaScript numbers included).
fn bot_seed(rng: &mut ChaCha8Rng) -> u64 {
    rng.random::<u64>() >> 11
}

/// The rounds of a round robin of `bots` bots by the circle method: every
/// pair (lower index first) meets in exactly one round, and in each round
/// every bot plays at most once (one sits out each round when the count is
/// odd). Bot 0 keeps its seat; the others turn one seat a round.
fn rounds(bots: usize) -> Vec<Vec<(usize, usize)>> {
    // An odd count gets a seat for nobody: its neighbour sits the round out.
    let seats = bots + bots % 2;
    if seats < 2 {
        return Vec::new();
    }
    let turning = seats - 1;
    (0..turning)
        .map(|round| {
            let at = |seat: usize| {
                if seat == 0 {
                    0
                } else {
                    1 + (seat - 1 + round) % turning
                }
            };
            (0..seats / 2)
                .map(|seat| (at(seat), at(seats - 1 - seat)))
                .filter(|&(x, y)| x < bots && y < bots)
                .map(|(x, y)| (x.min(y), x.max(y)))
                .collect()
        })
        .collect()
}

/// The schedule for `bots` bots: two games per pair, in rounds where each
/// bot plays at most once ([`rounds`]), so that games of disjoint bots can
/// be played at once. Pair k (the pairs i < j numbered in order: (0, 1),
/// (0, 2), ..., (1, 2), ...) draws from its own stream of the seed: a coin
/// for who opens its first game, then A's and B's seeds for each game.
///
/// The first game of every pair is played in the first leg, a whole round
/// robin; the second, openers swapped, in the second leg, the same rounds
/// again. A bot so meets every opponent once before it meets any again: a
/// bot that learns in its folder cannot turn what it learnt of an opponent
/// into the very next game against it, and the first half of the schedule
/// is already a fair tournament of its own.
pub fn schedule(bots: usize, seed: u64) -> Vec<Fixture> {
    let pair = |i: usize, j: usize| i * bots - i * (i + 1) / 2 + (j - i - 1);
    let games = |i: usize, j: usize| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(pair(i, j) as u64);
        let (first, second) = if rng.random::<bool>() { (i, j) } else { (j, i) };
        [(first, second), (second, first)].map(|(a, b)| {
            let (a_seed, b_seed) = (bot_seed(&mut rng), bot_seed(&mut rng));
            (a, b, a_seed, b_seed)
        })
    };
    let rounds = rounds(bots);
    let mut fixtures = Vec::with_capacity(bots * bots.saturating_sub(1));
    for leg in 0..2 {
        for &(i, j) in rounds.iter().flatten() {
            let (a, b, a_seed, b_seed) = games(i, j)[leg];
            fixtures.push(Fixture {
                index: fixtures.len(),
                a,
                b,
                a_seed,
                b_seed,
            });
        }
    }
    fixtures
}

/// Every bot's folder: each bot is kept out of the others'.
pub fn folders(bots: &[BotMeta]) -> Vec<std::path::PathBuf> {
    bots.iter().map(|b| b.folder.clone()).collect()
}

/// A bot that could not even start: it forfeits every prompt.
struct Absent {
    name: String,
    error: String,
}

impl Contestant for Absent {
    fn name(&self) -> &str {
        &self.name
    }
    fn ask(&mut self, _prompt: &str) -> Result<String, Fault> {
        Err(Fault::NoStart {
            error: self.error.clone(),
        })
    }
    fn exit(&mut self, _line: &str) {}
    fn finish(&mut self) {}
}

fn start(
    bots: &[BotMeta],
    bot: &BotMeta,
    opponent: &str,
    seed: u64,
    config: &Config,
) -> Box<dyn Contestant> {
    let folders = crate::field::closed(bots, &config.left_out);
    let start = Start {
        sandbox: &config.sandbox,
        timeout: config.timeout,
        echo: None,
        stderr: config.stderr.as_ref(),
        folders: &folders,
    };
    match BotProcess::start(bot, opponent, seed, start) {
        Ok(process) => Box::new(process),
        Err(e) => Box::new(Absent {
            name: bot.name.clone(),
            error: e.to_string(),
        }),
    }
}

/// The empty board of a rule.
pub fn board(rule: Rule) -> Mnk {
    match rule {
        Rule::Freestyle => Mnk::gomoku(),
        Rule::Exact => Mnk::gomoku_exact(),
        Rule::Renju => Mnk::renju(),
    }
}

/// Plays one scheduled game between bot processes.
pub fn play_fixture(bots: &[BotMeta], fixture: &Fixture, config: &Config) -> GameRecord {
    play_fixture_watched(bots, fixture, config, &|_| {})
}

/// What happens in the games of a tournament, as a watcher sees it (from
/// the game's thread, as it happens), in the game's own terms.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// Game `game` starts between `a`, who opens, and `b`.
    Start {
        /// The game's place in the schedule.
        game: usize,
        /// The bot that opens.
        a: &'a str,
        /// The bot that answers the opening.
        b: &'a str,
    },
    /// The judge asks `bot` for its next answer.
    Asking {
        /// The game.
        game: usize,
        /// The bot asked.
        bot: &'a str,
    },
    /// A stone was put on the board (an opening stone or a move).
    Stone {
        /// The game.
        game: usize,
        /// The bot that put it there.
        by: Seat,
        /// Where, on the game's board.
        point: Point,
        /// Its colour: `X` black, `O` white.
        colour: Player,
    },
    /// A bot lost the game through a fault (the record says which).
    Forfeit {
        /// The finished game.
        record: &'a GameRecord,
        /// Its forfeit.
        forfeit: &'a Forfeit,
    },
    /// The game is over.
    End {
        /// Everything that happened in it.
        record: &'a GameRecord,
    },
}

/// Hears every [`Event`] of every game.
pub type OnEvent<'a> = &'a (dyn Fn(&Event<'_>) + Sync);

/// A contestant whose questions are announced to a watcher first.
struct Watched<'a> {
    inner: Box<dyn Contestant>,
    index: usize,
    on_event: OnEvent<'a>,
}

impl Contestant for Watched<'_> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
        (self.on_event)(&Event::Asking {
            game: self.index,
            bot: self.inner.name(),
        });
        self.inner.ask(prompt)
    }
    fn exit(&mut self, line: &str) {
        self.inner.exit(line);
    }
    fn finish(&mut self) {
        self.inner.finish();
    }
    fn went_over(&mut self) -> Option<Fault> {
        self.inner.went_over()
    }
}

/// [`play_fixture`], telling `on_event` what happens as it happens.
pub fn play_fixture_watched(
    bots: &[BotMeta],
    fixture: &Fixture,
    config: &Config,
    on_event: OnEvent<'_>,
) -> GameRecord {
    let (bot_a, bot_b) = (&bots[fixture.a], &bots[fixture.b]);
    let game = fixture.index;
    on_event(&Event::Start {
        game,
        a: &bot_a.name,
        b: &bot_b.name,
    });
    let mut a = Watched {
        inner: start(bots, bot_a, &bot_b.name, fixture.a_seed, config),
        index: game,
        on_event,
    };
    let mut b = Watched {
        inner: start(bots, bot_b, &bot_a.name, fixture.b_seed, config),
        index: game,
        on_event,
    };
    let mut on_stone = |by, point, colour| {
        on_event(&Event::Stone {
            game,
            by,
            point,
            colour,
        })
    };
    let mut record = play_game_watched(&board(config.rule), &mut a, &mut b, &mut on_stone);
    record.index = game;
    record.a_seed = fixture.a_seed;
    record.b_seed = fixture.b_seed;
    if let Some(forfeit) = &record.forfeit {
        on_event(&Event::Forfeit {
            record: &record,
            forfeit,
        });
    }
    on_event(&Event::End { record: &record });
    record
}

/// Plays every fixture on `config.jobs` threads and returns the records in
/// schedule order. `on_game` sees each record as its game ends.
pub fn play_all(
    bots: &[BotMeta],
    config: &Config,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    play_share(bots, config, Shard::WHOLE, on_game)
}

/// The games of the schedule that are `shard`'s, in schedule order.
pub fn share(bots: usize, seed: u64, shard: Shard) -> Vec<Fixture> {
    schedule(bots, seed)
        .into_iter()
        .filter(|f| shard.owns(f.index))
        .collect()
}

/// [`play_all`] for one machine's `shard` of the schedule: its records in
/// schedule order.
pub fn play_share(
    bots: &[BotMeta],
    config: &Config,
    shard: Shard,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    let fixtures = share(bots.len(), config.seed, shard);
    play_fixtures_watched(bots, &fixtures, config, &|event| {
        if let Event::End { record } = event {
            on_game(record);
        }
    })
}

/// [`play_all`], telling `on_event` everything that happens in every game
/// (from the game's thread, as it happens).
pub fn play_all_watched(
    bots: &[BotMeta],
    config: &Config,
    on_event: OnEvent<'_>,
) -> Vec<GameRecord> {
    play_fixtures_watched(bots, &schedule(bots.len(), config.seed), config, on_event)
}

/// Plays `fixtures` (the whole schedule, or a machine's share of it) on
/// `config.jobs` threads and returns the records in the order given. A bot
/// plays one game at a time, in that order ([`in_turn`]).
pub fn play_fixtures_watched(
    bots: &[BotMeta],
    fixtures: &[Fixture],
    config: &Config,
    on_event: OnEvent<'_>,
) -> Vec<GameRecord> {
    // A game's record comes back only once both its bots are finished: each
    // bot's processes ended and, contained, its launcher gone, which it is
    // only once it has committed what the bot wrote to its folder. So the
    // next game of either bot starts from the folder this game left.
    in_turn(fixtures, config.jobs, |fixture| {
        play_fixture_watched(bots, fixture, config, on_event)
    })
}

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
fn in_turn<T: Send>(
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

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the best; bots level on points share a rank.
    pub rank: usize,
    /// The bot.
    pub name: String,
    /// 2 per win, 1 per tie.
    pub points: u32,
    /// Games won.
    pub wins: u32,
    /// Games tied.
    pub ties: u32,
    /// Games lost, forfeits included.
    pub losses: u32,
    /// Games lost by a fault.
    pub forfeits: u32,
}

/// The standings after `games`: by points, then wins, then name.
pub fn standings(names: &[String], games: &[GameRecord]) -> Vec<Standing> {
    let mut table: Vec<Standing> = names
        .iter()
        .map(|name| Standing {
            rank: 0,
            name: name.clone(),
            points: 0,
            wins: 0,
            ties: 0,
            losses: 0,
            forfeits: 0,
        })
        .collect();
    let row = |table: &mut Vec<Standing>, name: &str| table.iter().position(|s| s.name == name);
    for game in games {
        match (game.named(game.winner), game.named(game.loser())) {
            (Some(winner), Some(loser)) => {
                if let Some(i) = row(&mut table, winner) {
                    table[i].wins += 1;
                    table[i].points += 2;
                }
                if let Some(i) = row(&mut table, loser) {
                    table[i].losses += 1;
                    if game.forfeit.is_some() {
                        table[i].forfeits += 1;
                    }
                }
            }
            _ => {
                for name in [&game.a, &game.b] {
                    if let Some(i) = row(&mut table, name) {
                        table[i].ties += 1;
                        table[i].points += 1;
                    }
                }
            }
        }
    }
    table.sort_by(|x, y| {
        (y.points, y.wins)
            .cmp(&(x.points, x.wins))
            .then_with(|| x.name.cmp(&y.name))
    });
    for i in 0..table.len() {
        table[i].rank = if i > 0 && table[i].points == table[i - 1].points {
            table[i - 1].rank
        } else {
            i + 1
        };
    }
    table
}

/// The standings as a text table.
pub fn format_standings(table: &[Standing]) -> String {
    let width = table.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>6}  {:>8}\n",
        "rank", "name", "points", "wins", "ties", "losses", "forfeits"
    );
    for s in table {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>6}  {:>8}\n",
            s.rank, s.name, s.points, s.wins, s.ties, s.losses, s.forfeits
        ));
    }
    out
}

/// The time limit per answer as the results file keeps it: seconds, 0 for none.
pub fn timeout_seconds(timeout: Option<Duration>) -> f64 {
    timeout.map_or(0.0, |t| t.as_secs_f64())
}

/// The whole tournament as written to the results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// The tournament seed; `--seed` with it replays the tournament.
    pub seed: u64,
    /// `freestyle` (five or more wins), `exact` (exactly five) or `renju`.
    pub rule: Rule,
    /// The time limit per answer in seconds; 0 for none.
    pub timeout_seconds: f64,
    /// The bots by name, in folder order.
    pub bots: Vec<String>,
    /// The bot folders left out, and why (written only when there are some,
    /// so results without them read as before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    /// Every game in schedule order.
    pub games: Vec<GameRecord>,
    /// The final standings.
    pub standings: Vec<Standing>,
}

impl Results {
    /// Gathers the results of a finished tournament.
    pub fn new(bots: &[BotMeta], config: &Config, games: Vec<GameRecord>) -> Results {
        let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
        Results {
            left_out: config.left_out.clone(),
            ..Results::of_games(
                config.seed,
                config.rule,
                timeout_seconds(config.timeout),
                names,
                games,
            )
        }
    }

    /// The results of the tournament that played `games` (every game of
    /// the schedule, in its order), as a one-machine run or a merge of
    /// its shares writes them (no bot left out; set [`Results::left_out`]
    /// for those).
    pub fn of_games(
        seed: u64,
        rule: Rule,
        timeout_seconds: f64,
        bots: Vec<String>,
        games: Vec<GameRecord>,
    ) -> Results {
        Results {
            seed,
            rule,
            timeout_seconds,
            standings: standings(&bots, &games),
            bots,
            left_out: Vec::new(),
            games,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedule as it was before it was ordered in rounds: pairs in
    /// order, each pair's two games one after the other.
    fn pairs_in_order(bots: usize, seed: u64) -> Vec<Fixture> {
        let mut fixtures = Vec::new();
        let mut pair = 0u64;
        for i in 0..bots {
            for j in i + 1..bots {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(pair);
                pair += 1;
                let (first, second) = if rng.random::<bool>() { (i, j) } else { (j, i) };
                for (a, b) in [(first, second), (second, first)] {
                    let (a_seed, b_seed) = (bot_seed(&mut rng), bot_seed(&mut rng));
                    fixtures.push(Fixture {
                        index: fixtures.len(),
                        a,
                        b,
                        a_seed,
                        b_seed,
                    });
                }
            }
        }
        fixtures
    }

    #[test]
    fn every_pair_plays_twice_with_openers_swapped() {
        let fixtures = schedule(4, 99);
        assert_eq!(fixtures.len(), 12);
        let (first_leg, second_leg) = fixtures.split_at(6);
        for (first, second) in first_leg.iter().zip(second_leg) {
            assert_eq!((first.a, first.b), (second.b, second.a));
        }
        assert_eq!(schedule(4, 99), fixtures, "same seed, same schedule");
        assert_ne!(schedule(4, 100), fixtures);
        // Over many seeds both bots of a pair open the first game sometimes.
        let first_opens: usize = (0..64).filter(|&s| schedule(2, s)[0].a == 0).count();
        assert!((10..54).contains(&first_opens), "{first_opens}");
        assert!(fixtures.iter().all(|f| f.a_seed < 1 << 53));
        assert!(fixtures.iter().enumerate().all(|(i, f)| f.index == i));
    }

    #[test]
    fn rounds_let_each_bot_play_once_and_only_the_order_of_games_changed() {
        for bots in 0..12 {
            let fixtures = schedule(bots, 7);
            assert_eq!(fixtures.len(), bots * bots.saturating_sub(1), "{bots}");
            // A round is bots / 2 games (one bot sits out when odd), and in
            // each a bot plays at most once.
            let per_round = (bots / 2).max(1);
            for round in fixtures.chunks(per_round) {
                let mut playing: Vec<usize> = round.iter().flat_map(|f| [f.a, f.b]).collect();
                playing.sort();
                playing.dedup();
                assert_eq!(playing.len(), 2 * round.len(), "{bots} bots: {round:?}");
            }
            // The same games, each with the seeds its pair's stream gave
            // before: only the order (the index) is new.
            let key = |f: &Fixture| (f.a, f.b, f.a_seed, f.b_seed);
            let mut now: Vec<_> = fixtures.iter().map(key).collect();
            let mut before: Vec<_> = pairs_in_order(bots, 7).iter().map(key).collect();
            now.sort();
            before.sort();
            assert_eq!(now, before, "{bots} bots");
            // Each leg is a whole round robin.
            for leg in fixtures.chunks(fixtures.len().max(2) / 2) {
                let mut pairs: Vec<_> = leg.iter().map(|f| (f.a.min(f.b), f.a.max(f.b))).collect();
                pairs.sort();
                pairs.dedup();
                assert_eq!(pairs.len(), bots * bots.saturating_sub(1) / 2);
            }
        }
    }

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

    fn game(a: &str, b: &str, winner: Option<&str>, forfeit: bool) -> GameRecord {
        GameRecord {
            index: 0,
            a: a.into(),
            b: b.into(),
            a_seed: 0,
            b_seed: 0,
            swap: None,
            black: None,
            stones: vec![],
            winner: winner.map(|w| if w == a { Seat::A } else { Seat::B }),
            reason: None,
            forbidden: None,
            forfeit: forfeit.then(|| Forfeit {
                by: if winner == Some(a) { Seat::B } else { Seat::A },
                fault: Fault::Eof,
            }),
            size: 15,
        }
    }

    #[test]
    fn points_are_two_one_zero_and_equal_points_share_a_rank() {
        let names: Vec<String> = ["p", "q", "r"].map(String::from).to_vec();
        let games = [
            game("p", "q", Some("p"), false),
            game("q", "p", None, false),
            game("p", "r", Some("r"), true),
            game("r", "q", Some("q"), false),
        ];
        let table = standings(&names, &games);
        let row = |n: &str| table.iter().find(|s| s.name == n).unwrap().clone();
        assert_eq!(
            (
                row("p").points,
                row("p").wins,
                row("p").ties,
                row("p").losses,
                row("p").forfeits
            ),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(row("q").points, 3);
        assert_eq!(row("r").points, 2);
        assert_eq!((row("p").rank, row("q").rank, row("r").rank), (1, 1, 3));
        assert!(format_standings(&table).contains("forfeits"));
    }

    #[test]
    fn results_name_the_bots_left_out_only_when_there_are_some() {
        let names: Vec<String> = ["p", "q"].map(String::from).to_vec();
        let games = vec![game("p", "q", Some("p"), false)];
        let plain = Results::of_games(1, Rule::Freestyle, 1.0, names, games);
        let text = crate::output::results_json(&plain);
        assert!(!text.contains("left_out"), "{text}");
        let read: Results = serde_json::from_str(&text).unwrap();
        assert!(read.left_out.is_empty());
        let with = Results {
            left_out: vec![LeftOut {
                folder: "evil".into(),
                reason: "meta: line 2: refused".into(),
                path: "/bots/evil".into(),
            }],
            ..plain
        };
        let text = crate::output::results_json(&with);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            json["left_out"],
            serde_json::json!([{"folder": "evil", "reason": "meta: line 2: refused"}]),
            "the folder by name, never its path on this machine"
        );
    }
}
