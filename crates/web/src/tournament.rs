//! Judge tournaments started from the page: standings as games finish, the
//! games in progress drawn from the prompts the judge writes, and finished
//! games kept whole for replay. The tournament is `inarow-judge`'s; this
//! module only keeps what viewers see.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use inarow_core::{Player, Rule};
use inarow_judge::sandbox::Sandbox;
use inarow_judge::tournament::{self, Config, Fixture};
use inarow_judge::{BotMeta, GameRecord, discover};
use inarow_protocol::koth::parse_board;
use serde::Serialize;

/// Most games played at once.
pub const MAX_JOBS: usize = 8;
/// Time per answer a run may ask for, in milliseconds.
pub const TIMEOUT_MS: std::ops::RangeInclusive<u64> = 100..=60_000;

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

/// A game in progress, as its last prompt showed it.
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
    fixtures: Vec<Fixture>,
    running: bool,
    games: Vec<GameRecord>,
    live: BTreeMap<usize, Live>,
}

/// The last tournament started from the page.
#[derive(Debug, Default)]
pub struct Runs {
    run: Option<Run>,
    notified: Option<Instant>,
}

/// The bots of `dir`, or why no tournament can be played there.
pub fn bots_of(dir: &Path) -> Result<Vec<BotMeta>, String> {
    let bots = discover(dir).map_err(|e| format!("cannot start a tournament: {e}"))?;
    if bots.len() < 2 {
        return Err(format!(
            "cannot start a tournament: {} holds {} bot(s); it needs at least 2 folders with a meta file",
            dir.display(),
            bots.len()
        ));
    }
    Ok(bots)
}

/// The judge's settings for `request`, its bots started by `sandbox`.
pub fn config(request: &Request, sandbox: &Sandbox) -> Config {
    Config {
        seed: request.seed,
        jobs: request.jobs,
        timeout: Some(Duration::from_millis(request.timeout_ms)),
        rule: Rule::Freestyle,
        sandbox: sandbox.clone(),
    }
}

impl Runs {
    /// Whether a tournament is being played.
    pub fn running(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.running)
    }

    /// Records a new run over `bots` (the previous run's games are dropped).
    pub fn start(&mut self, request: Request, bots: &[BotMeta]) {
        self.run = Some(Run {
            request,
            bots: bots.iter().map(|b| b.name.clone()).collect(),
            fixtures: tournament::schedule(bots.len(), request.seed),
            running: true,
            games: Vec::new(),
            live: BTreeMap::new(),
        });
    }

    /// The judge wrote `prompt` in game `index`: its board is the game now.
    /// Returns true when viewers should hear of it (at most ten times a
    /// second, since fast bots answer thousands of prompts a second).
    pub fn prompt(&mut self, index: usize, name: &str, prompt: &str) -> bool {
        let Some(run) = self.run.as_mut() else {
            return false;
        };
        let Some(fixture) = run.fixtures.get(index) else {
            return false;
        };
        let board = prompt.split_once(' ').map_or("[]", |(_, b)| b);
        let stones = parse_board(board)
            .map(|s| {
                s.into_iter()
                    .map(|(at, p)| {
                        let (x, y) = (at.col(15) as u8, at.row(15) as u8);
                        (x, y, if p == Player::X { 'B' } else { 'W' })
                    })
                    .collect()
            })
            .unwrap_or_default();
        run.live.insert(
            index,
            Live {
                index,
                a: run.bots[fixture.a].clone(),
                b: run.bots[fixture.b].clone(),
                asking: name.to_string(),
                stones,
            },
        );
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
                    "black": g.black,
                    "white": g.white,
                    "winner": g.winner,
                    "reason": g.reason,
                    "forfeit": g.forfeit.as_ref().map(|f| f.reason.clone()),
                    "stones": g.stones.len(),
                })
            })
            .collect();
        serde_json::json!({
            "running": run.running,
            "run": {
                "seed": run.request.seed,
                "jobs": run.request.jobs,
                "timeout_ms": run.request.timeout_ms,
                "bots": run.bots,
                "total": run.fixtures.len(),
                "played": games.len(),
                "standings": standings,
                "games": summary,
                "live": run.live.values().collect::<Vec<_>>(),
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
    fn prompts_draw_the_live_game_until_it_finishes() {
        let mut runs = Runs::default();
        let request = Request {
            seed: 1,
            jobs: 1,
            timeout_ms: 1000,
        };
        runs.start(request, &[bot("alice"), bot("bob")]);
        assert!(runs.running());
        assert!(runs.prompt(0, "alice", "A []"));
        // A second prompt within 0.1 s updates the game but is not announced.
        assert!(!runs.prompt(1, "bob", r#"B [((7,7),"B"),((7,8),"B"),((8,8),"W")]"#));
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
