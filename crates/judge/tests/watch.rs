//! The event hook: watching a tournament sees every game start, every
//! question, every stone and every end, and changes nothing about the games.

use std::fs;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use crate::common;

use inarow_core::{Player, Point, Rule};
use inarow_judge::tournament::{self, Config, Event};
use inarow_judge::{BotMeta, GameRecord};

/// Two copies of the random Python example bot under different names.
fn bots(dir: &Path) -> Vec<BotMeta> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots/random-python/bot.py");
    ["alice", "bob"]
        .iter()
        .map(|name| {
            let folder = dir.join(name);
            fs::create_dir_all(&folder).unwrap();
            fs::copy(&script, folder.join("bot.py")).unwrap();
            fs::write(folder.join("meta"), format!("{name}\npython3\nbot.py\n0\n")).unwrap();
            BotMeta::load(&folder).unwrap()
        })
        .collect()
}

/// What a watcher keeps of one event: the game, and the bot asked or the
/// stone put down.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Start(String),
    Asking(String),
    Stone(Point, Player),
    End(Box<GameRecord>),
}

#[test]
fn watching_sees_every_event_and_changes_no_game() {
    let dir = common::workspace();
    let bots = bots(dir.path());
    let config = Config {
        seed: 11,
        jobs: 2,
        timeout: Some(Duration::from_secs(10)),
        rule: Rule::Freestyle,
        sandbox: common::sandbox(),
        stderr: None,
        left_out: Vec::new(),
    };
    let plain = tournament::play_all(&bots, &config, &|_| {});
    let events: Mutex<Vec<(usize, Seen)>> = Mutex::new(Vec::new());
    let watched = tournament::play_all_watched(&bots, &config, &|event| {
        let seen = match *event {
            Event::Start { game, a, .. } => (game, Seen::Start(a.to_string())),
            Event::Asking { game, bot } => (game, Seen::Asking(bot.to_string())),
            Event::Stone {
                game,
                point,
                colour,
                ..
            } => (game, Seen::Stone(point, colour)),
            Event::Forfeit { .. } => return,
            Event::End { record } => (record.index, Seen::End(Box::new(record.clone()))),
        };
        events.lock().unwrap().push(seen);
    });
    assert_eq!(plain, watched);
    let events = events.into_inner().unwrap();
    for game in &watched {
        let seen: Vec<&Seen> = events
            .iter()
            .filter(|e| e.0 == game.index)
            .map(|e| &e.1)
            .collect();
        assert_eq!(seen[0], &Seen::Start(game.a.clone()));
        assert_eq!(seen[1], &Seen::Asking(game.a.clone()));
        assert_eq!(seen.last(), Some(&&Seen::End(Box::new(game.clone()))));
        // The stones seen are the record's, in order, with their colours.
        let stones: Vec<_> = seen
            .iter()
            .filter_map(|e| match e {
                Seen::Stone(p, colour) => {
                    Some((p.to_xy(15), if *colour == Player::X { 'B' } else { 'W' }))
                }
                _ => None,
            })
            .collect();
        let placed: Vec<_> = game
            .stones
            .iter()
            .map(|s| (s.at, s.colour.letter()))
            .collect();
        assert_eq!(stones, placed, "game {}", game.index);
        let asked = seen.iter().filter(|e| matches!(e, Seen::Asking(_))).count();
        let last: &GameRecord = game;
        assert!(asked >= 3, "game {} saw {} questions", last.index, asked);
    }
}
