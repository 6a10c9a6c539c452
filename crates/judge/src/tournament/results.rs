//! The results file: the tournament's terms, every game and the standings.

use std::time::Duration;

use inarow_core::Rule;
use serde::{Deserialize, Serialize};

use crate::field::LeftOut;
use crate::meta::BotMeta;
use crate::record::GameRecord;

use super::Config;
use super::standings::{Standing, standings};

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
    use super::super::standings::tests::game;
    use super::*;

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
