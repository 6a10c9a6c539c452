//! The prompt hook: watching a tournament sees every prompt of every game
//! and changes nothing about the games.

use std::fs;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

mod common;

use inarow_core::Rule;
use inarow_judge::tournament::{self, Config};
use inarow_judge::{BotMeta, GameRecord};
use inarow_protocol::koth::parse_board;

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
            common::give_to_bot(&folder);
            BotMeta::load(&folder).unwrap()
        })
        .collect()
}

#[test]
fn watching_sees_every_prompt_and_changes_no_game() {
    let dir = common::workspace();
    let bots = bots(dir.path());
    let config = Config {
        seed: 11,
        jobs: 2,
        timeout: Some(Duration::from_secs(10)),
        rule: Rule::Freestyle,
        sandbox: common::sandbox(),
    };
    let plain = tournament::play_all(&bots, &config, &|_| {});
    let prompts: Mutex<Vec<(usize, String, String)>> = Mutex::new(Vec::new());
    let watched = tournament::play_all_watched(&bots, &config, &|_| {}, &|i, name, prompt| {
        prompts
            .lock()
            .unwrap()
            .push((i, name.to_string(), prompt.to_string()));
    });
    assert_eq!(plain, watched);
    let prompts = prompts.into_inner().unwrap();
    for game in &watched {
        let seen: Vec<_> = prompts.iter().filter(|p| p.0 == game.index).collect();
        assert_eq!(seen[0].1, game.a);
        assert_eq!(seen[0].2, "A []");
        // Each move prompt's board is the record's stones so far.
        for (_, _, prompt) in seen.iter().skip(1) {
            let (_, board) = prompt.split_once(' ').unwrap();
            let stones = parse_board(board).unwrap();
            let mut placed: Vec<_> = game.stones[..stones.len()]
                .iter()
                .map(|s| (s.x, s.y))
                .collect();
            placed.sort();
            let mut got: Vec<_> = stones
                .iter()
                .map(|(p, _)| (p.col(15) as u8, p.row(15) as u8))
                .collect();
            got.sort();
            assert_eq!(got, placed, "game {}: {prompt}", game.index);
        }
        let last: &GameRecord = game;
        assert!(
            seen.len() >= 3,
            "game {} saw {} prompts",
            last.index,
            seen.len()
        );
    }
}
