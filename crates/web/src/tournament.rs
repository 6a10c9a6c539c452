//! Judge tournaments started from the page: standings as games finish, the
//! games in progress drawn from the judge's events (stones as they are put
//! down, the bot asked), and finished games kept whole for replay. The tournament is `inarow-judge`'s; this
//! module only keeps what viewers see. A finished run writes its results
//! file and SGF records as `inarow judge` does ([`Records`]), never over an
//! earlier run's (it takes the next free name, `results-2.json` and
//! `sgf-2`, and the page says so), and the newest results file is read
//! back at start so its games replay after a restart.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use inarow_core::{Game, Player, Rule};
use inarow_judge::field::LeftOut;
use inarow_judge::name;
use inarow_judge::output::Unwritable;
use inarow_judge::process::Listener;
use inarow_judge::tournament::{self, Config, Event, Fixture};
use inarow_judge::{BotMeta, GameRecord, Results};
use inarow_sandbox::Sandbox;
use serde::Serialize;

/// Most games played at once.
pub const MAX_JOBS: usize = 8;
/// Time per answer a run may ask for, in milliseconds.
pub const TIMEOUT_MS: std::ops::RangeInclusive<u64> = 100..=60_000;

/// The rule of the page's tournaments: five or more wins.
const RULE: Rule = Rule::Freestyle;

/// Where runs leave their files: the results JSON and one SGF per game,
/// as `inarow judge --results FILE --sgf DIR` writes them, never over an
/// earlier run's (the judge's own rule, shared with `inarow judge`).
pub use inarow_judge::output::Records;

/// What a run was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Tournament seed.
    pub seed: u64,
    /// Games at once.
    pub jobs: usize,
    /// Time per answer.
    pub timeout_ms: u64,
}

/// A game in progress, as its events showed it.
#[derive(Clone, Debug, Serialize)]
struct Live {
    index: usize,
    a: String,
    b: String,
    /// The bot now answering.
    asking: String,
    /// Stones as (x, y, "B"/"W").
    stones: Vec<(u8, u8, char)>,
}

/// One tournament run.
#[derive(Debug)]
struct Run {
    request: Request,
    bots: Vec<String>,
    /// The bot folders left out, and why.
    left_out: Vec<LeftOut>,
    fixtures: Vec<Fixture>,
    running: bool,
    games: Vec<GameRecord>,
    live: BTreeMap<usize, Live>,
    /// Where its files went, or why they could not be written.
    saved: Option<Result<String, Unwritable>>,
    /// Read back from this results file at start.
    restored: Option<PathBuf>,
    /// Where this run writes its results and SGF records, and whether
    /// that is a numbered name because an earlier run's files are kept.
    writes: Option<(Records, bool)>,
}

/// Why a results file cannot be shown as a past run: one line naming it.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// The file cannot be read.
    #[error("cannot read {}: {error}", .path.display())]
    Unread {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The file is no results file.
    #[error("{} is not a results file: {error}", .path.display())]
    NotResults {
        /// The file.
        path: PathBuf,
        /// What JSON found.
        error: serde_json::Error,
    },
    /// A bot's name (from 0) breaks the one rule.
    #[error("{}: bot {}: the name {problem}", .path.display(), .bot + 1)]
    Name {
        /// The file.
        path: PathBuf,
        /// The bot, from 0.
        bot: usize,
        /// What is wrong with its name.
        problem: name::NameProblem,
    },
}

/// The last tournament started from the page.
#[derive(Debug, Default)]
pub struct Runs {
    run: Option<Run>,
    notified: Option<Instant>,
}

/// The judge's settings for `request`, its bots started by `sandbox`, the
/// bots `left_out` named in its results.
pub fn config(request: &Request, sandbox: &Sandbox, left_out: Vec<LeftOut>) -> Config {
    // Two bots a game, for their share of the host's file table.
    let mut sandbox = sandbox.clone();
    sandbox.set_live(2 * request.jobs);
    Config {
        seed: request.seed,
        jobs: request.jobs,
        timeout: Some(Duration::from_millis(request.timeout_ms)),
        rule: RULE,
        sandbox,
        // Bots whose meta file asks for it show their standard error on ours.
        stderr: Some(Listener::new(|bot, said| {
            let _ = writeln!(std::io::stderr().lock(), "{}", said.shown(bot));
        })),
        left_out,
    }
}

impl Runs {
    /// Whether a tournament is being played.
    pub fn running(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.running)
    }

    /// Records a new run over `bots`, with the bots `left_out` (the
    /// previous run's games are dropped), writing its files to `writes`
    /// (`true` beside it when an earlier run's files made it a numbered
    /// name).
    pub fn start(
        &mut self,
        request: Request,
        bots: &[BotMeta],
        left_out: &[LeftOut],
        writes: Option<(Records, bool)>,
    ) {
        self.run = Some(Run {
            request,
            bots: bots.iter().map(|b| b.name.clone()).collect(),
            left_out: left_out.to_vec(),
            fixtures: tournament::schedule(bots.len(), request.seed),
            running: true,
            games: Vec::new(),
            live: BTreeMap::new(),
            saved: None,
            restored: None,
            writes,
        });
    }

    /// The run of the results file at `path` (written by `inarow judge` or
    /// by the page), its games ready to replay; `Ok(None)` if there is no
    /// such file, or only a run's claim of it (empty).
    pub fn restore(path: &Path) -> Result<Option<Runs>, RestoreError> {
        let path_buf = || path.to_path_buf();
        let text = match std::fs::read_to_string(path) {
            // A run's claim, written at its end: a run that did not end.
            Ok(text) if text.is_empty() => return Ok(None),
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(RestoreError::Unread {
                    path: path_buf(),
                    error,
                });
            }
        };
        let results: Results =
            serde_json::from_str(&text).map_err(|error| RestoreError::NotResults {
                path: path_buf(),
                error,
            })?;
        // A file is outside text: its names pass the one rule, as a bot
        // folder's and a part file's do, before the page shows them.
        if let Some((i, problem)) = results
            .bots
            .iter()
            .enumerate()
            .find_map(|(i, name)| name::check(name).err().map(|p| (i, p)))
        {
            return Err(RestoreError::Name {
                path: path_buf(),
                bot: i,
                problem,
            });
        }
        let request = Request {
            seed: results.seed,
            jobs: 0,
            timeout_ms: (results.timeout_seconds * 1000.0).round() as u64,
        };
        Ok(Some(Runs {
            run: Some(Run {
                request,
                fixtures: tournament::schedule(results.bots.len(), results.seed),
                bots: results.bots,
                left_out: results.left_out,
                running: false,
                games: results.games,
                live: BTreeMap::new(),
                saved: None,
                restored: Some(path.to_path_buf()),
                writes: None,
            }),
            notified: None,
        }))
    }

    /// The files of the finished run were written (the paths kept), or why
    /// not.
    pub fn saved(&mut self, saved: Result<String, Unwritable>) {
        if let Some(run) = self.run.as_mut() {
            run.saved = Some(saved);
        }
    }

    /// Something happened in a game: the game in progress changes with it,
    /// and a finished game is kept. Returns true when viewers should hear of
    /// it (at most ten times a second while games go on, since fast bots
    /// answer thousands of prompts a second; always when a game ends).
    pub fn heard(&mut self, event: &Event) -> bool {
        let Some(run) = self.run.as_mut() else {
            return false;
        };
        match *event {
            Event::Start { game, a, b } => {
                run.live.insert(
                    game,
                    Live {
                        index: game,
                        a: a.to_string(),
                        b: b.to_string(),
                        asking: String::new(),
                        stones: Vec::new(),
                    },
                );
            }
            Event::Asking { game, bot } => {
                if let Some(live) = run.live.get_mut(&game) {
                    live.asking = bot.to_string();
                }
            }
            Event::Stone {
                game,
                point,
                colour,
                ..
            } => {
                if let Some(live) = run.live.get_mut(&game) {
                    let size = tournament::board(RULE).cols();
                    let letter = if colour == Player::X { 'B' } else { 'W' };
                    let (x, y) = (point.col(size) as u8, point.row(size) as u8);
                    live.stones.push((x, y, letter));
                }
            }
            Event::Forfeit { .. } => {}
            Event::End { record } => {
                self.finished(record);
                return true;
            }
        }
        self.due()
    }

    fn due(&mut self) -> bool {
        let now = Instant::now();
        if self
            .notified
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(100))
        {
            return false;
        }
        self.notified = Some(now);
        true
    }

    /// Game `record` finished.
    pub fn finished(&mut self, record: &GameRecord) {
        if let Some(run) = self.run.as_mut() {
            run.live.remove(&record.index);
            run.games.push(record.clone());
        }
    }

    /// Every game was played.
    pub fn ended(&mut self) {
        if let Some(run) = self.run.as_mut() {
            run.running = false;
            run.live.clear();
        }
    }

    /// A finished game's whole record.
    pub fn game(&self, index: usize) -> Option<&GameRecord> {
        self.run.as_ref()?.games.iter().find(|g| g.index == index)
    }

    /// Everything the page draws.
    pub fn view(&self) -> serde_json::Value {
        let Some(run) = &self.run else {
            return serde_json::json!({ "running": false, "run": null });
        };
        let mut games = run.games.clone();
        games.sort_by_key(|g| g.index);
        let standings = tournament::standings(&run.bots, &games);
        let summary: Vec<_> = games
            .iter()
            .map(|g| {
                serde_json::json!({
                    "index": g.index,
                    "a": g.a,
                    "b": g.b,
                    "black": g.named(g.black),
                    "white": g.named(g.white()),
                    "winner": g.named(g.winner),
                    "reason": g.reason,
                    "forfeit": g.forfeit.as_ref().map(|f| f.reason()),
                    // Who forfeited: a game lost before its colours were
                    // chosen has no black or white to name.
                    "forfeit_by": g.forfeit.as_ref().map(|f| g.name(f.by)),
                    "stones": g.stones.len(),
                })
            })
            .collect();
        serde_json::json!({
            "running": run.running,
            "run": {
                // A string: a browser's numbers hold integers only up to 2^53.
                "seed": run.request.seed.to_string(),
                "jobs": run.request.jobs,
                "timeout_ms": run.request.timeout_ms,
                "bots": run.bots,
                "left_out": run.left_out,
                "total": run.fixtures.len(),
                "played": games.len(),
                "standings": standings,
                "games": summary,
                "live": run.live.values().collect::<Vec<_>>(),
                "saved": run.saved.as_ref().and_then(|s| s.as_ref().ok()),
                "save_error": run.saved.as_ref().and_then(|s| s.as_ref().err()).map(|e| e.to_string()),
                "restored": run.restored.as_ref().map(|p| p.display().to_string()),
                // Where this run's files go; `numbered` when earlier
                // results are kept and this run takes the next free name.
                "writes": run.writes.as_ref().map(|(records, numbered)| serde_json::json!({
                    "results": records.results.display().to_string(),
                    "sgf": records.sgf.display().to_string(),
                    "numbered": numbered,
                })),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn bot(name: &str) -> BotMeta {
        BotMeta {
            folder: PathBuf::from(name),
            name: name.into(),
            command: "true".into(),
            args: Vec::new(),
            show_stderr: false,
            grants: Vec::new(),
        }
    }

    #[test]
    fn a_results_file_whose_names_break_the_rule_is_not_restored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.json");
        let write = |names: [&str; 2]| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            let results = Results::of_games(1, RULE, 1.0, names, Vec::new());
            std::fs::write(&path, inarow_judge::output::results_json(&results)).unwrap();
        };
        write(["ann", "ben"]);
        assert!(Runs::restore(&path).unwrap().is_some());
        write(["ann", "b\x1b]0;t\x07\u{202e}"]);
        let err = Runs::restore(&path).err().unwrap();
        assert!(matches!(err, RestoreError::Name { bot: 1, .. }));
        let err = err.to_string();
        assert!(
            err.ends_with(r#"results.json: bot 2: the name "b\x1b]0;t\x07\u{202e}" holds U+001B; use ASCII letters, digits, '-', '_' and '.'"#),
            "{err}"
        );
        write(["ann", "TIE"]);
        assert!(
            Runs::restore(&path)
                .err()
                .unwrap()
                .to_string()
                .contains("looks like TIE")
        );
    }

    #[test]
    fn a_tournament_counts_two_bots_a_game_against_the_file_table() {
        let request = Request {
            seed: 1,
            jobs: 3,
            timeout_ms: 1000,
        };
        let config = config(&request, &Sandbox::off(), Vec::new());
        assert_eq!(config.sandbox.file_table().live, 6);
    }

    #[test]
    fn events_draw_the_live_game_until_it_finishes() {
        let mut runs = Runs::default();
        let request = Request {
            seed: 1,
            jobs: 1,
            timeout_ms: 1000,
        };
        runs.start(request, &[bot("alice"), bot("bob")], &[], None);
        assert!(runs.running());
        let names = ["alice", "bob"];
        let fixtures = runs.run.as_ref().unwrap().fixtures.clone();
        let start = |game: usize| Event::Start {
            game,
            a: names[fixtures[game].a],
            b: names[fixtures[game].b],
        };
        assert!(runs.heard(&start(0)));
        // Events within 0.1 s update the game but are not announced.
        assert!(!runs.heard(&Event::Asking {
            game: 0,
            bot: "alice"
        }));
        assert!(!runs.heard(&start(1)));
        for (x, y, colour) in [(7, 7, Player::X), (7, 8, Player::X), (8, 8, Player::O)] {
            let stone = Event::Stone {
                game: 1,
                by: inarow_judge::record::Seat::A,
                point: inarow_core::Point::at(x, y, 15),
                colour,
            };
            assert!(!runs.heard(&stone));
        }
        assert!(!runs.heard(&Event::Asking {
            game: 1,
            bot: "bob"
        }));
        let v = runs.view();
        let live = &v["run"]["live"];
        assert_eq!(live[0]["stones"], serde_json::json!([]));
        assert_eq!(live[1]["asking"], "bob");
        assert_eq!(
            live[1]["stones"],
            serde_json::json!([[7, 7, "B"], [7, 8, "B"], [8, 8, "W"]])
        );
        let fixture = &runs.run.as_ref().unwrap().fixtures[1];
        assert_eq!(live[1]["a"], ["alice", "bob"][fixture.a]);
        runs.ended();
        assert!(!runs.running());
        assert!(runs.view()["run"]["live"].as_array().unwrap().is_empty());
    }
}
