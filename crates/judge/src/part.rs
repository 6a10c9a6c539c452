//! A tournament played in shares on many machines: the part file each
//! share writes, and the merge of the parts into the results a one-machine
//! run writes, byte for byte (for bots that depend only on their seed).
//!
//! A part says which tournament it belongs to (seed, rule, time limit,
//! sandbox limits, every bot with its meta and a digest of its folder, and
//! the bot folders left out, with why) and holds its share's games. The merge trusts no part: each must be of
//! the same tournament as the others, every share must be there once,
//! every game must be the scheduled game of its share (the bots, who
//! opens and the seeds the tournament seed gives), and every game must
//! replay on the rules to its recorded colours and result
//! ([`crate::replay`]).

use inarow_contest::shard::{self, PartError, Shard};
use serde::{Deserialize, Serialize};

use crate::field::LeftOut;
use crate::meta::BotMeta;
use inarow_core::{Rule, Xy};

use crate::name;
use crate::record::GameRecord;
use crate::replay::{self, ReplayError, Terms};
use crate::shown::{escape, quoted};
use crate::tournament::{self, Config, Fixture, Results};
use inarow_sandbox::Limits;

/// What a part file says it is, so that a results file or a match's part
/// given by mistake is named as such.
pub const FORMAT: &str = "inarow judge part, version 1";

/// One bot of the tournament as every share must have seen it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bot {
    /// Its name (meta line 1).
    pub name: String,
    /// Its program (meta line 2).
    pub command: String,
    /// Its arguments (meta line 3).
    pub args: Vec<String>,
    /// The SHA-256 of its folder ([`inarow_contest::digest::folder_digest`]) when the share started.
    pub folder_sha256: String,
}

/// Which tournament a part belongs to: everything that decides its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tournament {
    /// The tournament seed.
    pub seed: u64,
    /// `freestyle`, `exact` or `renju`.
    pub rule: Rule,
    /// The time limit per answer in seconds; 0 for none.
    pub timeout_seconds: f64,
    /// The sandbox's limits for every bot; `None` when bots ran uncontained.
    pub limits: Option<Limits>,
    /// The bots in folder order.
    pub bots: Vec<Bot>,
    /// The bot folders left out, in folder order (missing in parts that
    /// left none out, and in parts written before bots could be left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
}

impl Tournament {
    /// The tournament `config` plays among `bots`, digesting each bot's folder.
    pub fn new(
        bots: &[BotMeta],
        config: &Config,
    ) -> Result<Tournament, inarow_contest::digest::Unread> {
        let bots = bots
            .iter()
            .map(|bot| {
                Ok(Bot {
                    name: bot.name.clone(),
                    command: bot.command.clone(),
                    args: bot.args.clone(),
                    folder_sha256: inarow_contest::digest::folder_digest(&bot.folder)?,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Tournament {
            seed: config.seed,
            rule: config.rule,
            timeout_seconds: tournament::timeout_seconds(config.timeout),
            limits: config.sandbox.is_on().then(|| *config.sandbox.limits()),
            bots,
            left_out: config.left_out.clone(),
        })
    }

    /// The first thing in which `other` is another tournament, in words.
    fn difference(&self, other: &Tournament) -> Option<String> {
        if self.seed != other.seed {
            return Some(format!("seed {}, not {}", other.seed, self.seed));
        }
        if self.rule != other.rule {
            return Some(format!("rule {}, not {}", other.rule, self.rule));
        }
        if self.timeout_seconds.to_bits() != other.timeout_seconds.to_bits() {
            return Some(format!(
                "time limit {} s, not {} s",
                other.timeout_seconds, self.timeout_seconds
            ));
        }
        if self.limits != other.limits {
            let say = |l: &Option<Limits>| match l {
                Some(l) => format!("{l:?}"),
                None => "no sandbox".into(),
            };
            return Some(format!(
                "sandbox limits {}, not {}",
                say(&other.limits),
                say(&self.limits)
            ));
        }
        let names = |t: &Tournament| t.bots.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        if names(self) != names(other) {
            return Some(format!(
                "bots {}, not {}",
                names(other).join(" "),
                names(self).join(" ")
            ));
        }
        if self.left_out != other.left_out {
            let say = |t: &Tournament| {
                if t.left_out.is_empty() {
                    return "none".to_string();
                }
                t.left_out
                    .iter()
                    .map(|l| format!("{} ({})", l.folder, l.reason))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Some(format!("left out {}, not {}", say(other), say(self)));
        }
        let (mine, theirs) = self
            .bots
            .iter()
            .zip(&other.bots)
            .find(|(mine, theirs)| mine != theirs)?;
        Some(
            if (&mine.command, &mine.args) != (&theirs.command, &theirs.args) {
                format!(
                    "bot {} runs `{} {}`, not `{} {}`",
                    mine.name,
                    theirs.command,
                    theirs.args.join(" "),
                    mine.command,
                    mine.args.join(" ")
                )
            } else {
                format!(
                    "bot {}'s folder has other files (SHA-256 {}, not {})",
                    mine.name, theirs.folder_sha256, mine.folder_sha256
                )
            },
        )
    }
}

/// One share's part of a tournament, as written to its part file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Always [`FORMAT`].
    pub format: String,
    /// The share this part played.
    pub shard: Shard,
    /// The tournament it is a share of.
    pub tournament: Tournament,
    /// The share's games in schedule order.
    pub games: Vec<GameRecord>,
}

impl Part {
    /// The part of `shard` that played `games` of `tournament`.
    pub fn new(shard: Shard, tournament: Tournament, games: Vec<GameRecord>) -> Part {
        Part {
            format: FORMAT.into(),
            shard,
            tournament,
            games,
        }
    }

    /// The part as pretty JSON, for its file.
    pub fn to_json(&self) -> String {
        shard::part_json(self)
    }
}

/// Why a part's game is not its share's scheduled game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unscheduled {
    /// Another game in the place of the share's next one.
    #[error("holds game {index} where its share's game {belongs} belongs")]
    Misplaced {
        /// The game it holds.
        index: usize,
        /// The game that belongs there.
        belongs: usize,
    },
    /// Other bots or seeds than the schedule's.
    #[error(
        "game {index} is not the scheduled one ({a} opens against {b} with seeds {a_seed} and {b_seed})"
    )]
    Other {
        /// The game.
        index: usize,
        /// The bot that opens it.
        a: String,
        /// The bot that answers.
        b: String,
        /// A's seed.
        a_seed: u64,
        /// B's seed.
        b_seed: u64,
    },
    /// A stone off the board.
    #[error("game {index} has a stone off the board ({colour:?} at {at})")]
    OffBoard {
        /// The game.
        index: usize,
        /// The stone's colour letter.
        colour: char,
        /// Its point.
        at: Xy,
    },
}

/// Why the parts of a tournament cannot be merged: one line naming the
/// part (and the game).
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// The parts given are not the shares of one tournament.
    #[error(transparent)]
    Parts(#[from] PartError),
    /// A share no part played.
    #[error(
        "share {share} is missing: no part file given played it (parts are written by `inarow judge --shard {share}`)"
    )]
    Missing {
        /// The share.
        share: Shard,
    },
    /// A tournament of fewer than two bots.
    #[error("{part}: a tournament needs at least 2 bots")]
    TooFewBots {
        /// The part naming it.
        part: String,
    },
    /// A share holding too many or too few games.
    #[error(
        "{part}: share {shard} holds {games} games, but its share of the schedule is {scheduled}"
    )]
    GameCount {
        /// The part.
        part: String,
        /// Its share.
        shard: Shard,
        /// The games it holds.
        games: usize,
        /// The games its share of the schedule has.
        scheduled: usize,
    },
    /// A game that is not the share's scheduled one.
    #[error("{part}: {why}")]
    Unscheduled {
        /// The part.
        part: String,
        /// What is wrong.
        why: Unscheduled,
    },
    /// A game whose stones do not bear out its record.
    #[error("{part}: game {index}: {why}")]
    Replay {
        /// The part.
        part: String,
        /// The game.
        index: usize,
        /// What the replay found.
        why: Box<ReplayError>,
    },
}

/// Checks that `game` is the scheduled `fixture` played among `names`: the
/// same bots and seeds, stones on the board (a winner and a forfeiter who
/// did not play it are refused when the part is read).
fn check_game(game: &GameRecord, fixture: &Fixture, names: &[String]) -> Result<(), Unscheduled> {
    let (a, b) = (&names[fixture.a], &names[fixture.b]);
    if game.index != fixture.index {
        return Err(Unscheduled::Misplaced {
            index: game.index,
            belongs: fixture.index,
        });
    }
    let index = fixture.index;
    if (&game.a, &game.b) != (a, b)
        || (game.a_seed, game.b_seed) != (fixture.a_seed, fixture.b_seed)
    {
        return Err(Unscheduled::Other {
            index,
            a: a.clone(),
            b: b.clone(),
            a_seed: fixture.a_seed,
            b_seed: fixture.b_seed,
        });
    }
    let size = inarow_protocol::koth::SIZE;
    if let Some(stone) = game.stones.iter().find(|s| s.at.point(size).is_none()) {
        return Err(Unscheduled::OffBoard {
            index,
            colour: stone.colour.letter(),
            at: stone.at,
        });
    }
    Ok(())
}

impl shard::PartFile for Part {
    const COMMAND: &'static str = "inarow judge --shard";
    const FORMAT: &'static str = FORMAT;
    const WHOLE: &'static str = "tournament";

    fn format(&self) -> &str {
        &self.format
    }

    fn shard(&self) -> Shard {
        self.shard
    }

    fn difference(&self, other: &Part) -> Option<String> {
        self.tournament.difference(&other.tournament)
    }

    /// A bot's name under the one rule ([`crate::name`]), and two bots of
    /// one name (the same, or look-alikes): a part is a file, and its names
    /// become the merged standings, file names and `EXIT` lines.
    fn refused(&self) -> Option<String> {
        let bots = &self.tournament.bots;
        if let Some((i, problem)) = bots
            .iter()
            .enumerate()
            .find_map(|(i, bot)| name::check(&bot.name).err().map(|p| (i, p)))
        {
            return Some(format!("bot {}: the name {problem}", i + 1));
        }
        let (i, j) = name::first_twins(&bots.iter().map(|b| &b.name).collect::<Vec<_>>())?;
        let (earlier, later) = (&bots[i].name, &bots[j].name);
        Some(if earlier == later {
            format!(
                "bot {} is named {}, as bot {} is",
                j + 1,
                quoted(later),
                i + 1
            )
        } else {
            format!(
                "bot {} is named {}, which looks like bot {}'s name {}",
                j + 1,
                quoted(later),
                i + 1,
                quoted(earlier)
            )
        })
    }
}

/// Merges the parts of a tournament (`(name, text)` of each part file) into
/// its results, as one machine would have written them. A missing,
/// duplicated or foreign part, a game that is not its share's, or one whose
/// stones do not give its colours and result, is a one-line error naming
/// the part (and the game).
pub fn merge(parts: &[(&str, &str)]) -> Result<Results, MergeError> {
    let (parsed, missing) = shard::parse_parts::<Part>(parts)?;
    let (first_name, first) = &parsed[0];
    let tournament = first.tournament.clone();
    if let Some(&share) = missing.first() {
        return Err(MergeError::Missing { share });
    }
    let names: Vec<String> = tournament.bots.iter().map(|b| b.name.clone()).collect();
    if names.len() < 2 {
        return Err(MergeError::TooFewBots {
            part: first_name.to_string(),
        });
    }
    let terms = Terms {
        rule: tournament.rule,
        timeout_seconds: tournament.timeout_seconds,
        limits: tournament.limits.as_ref(),
    };
    let schedule = tournament::schedule(names.len(), tournament.seed);
    let mut games: Vec<Option<GameRecord>> = vec![None; schedule.len()];
    for (name, part) in parsed {
        let fixtures = schedule.iter().filter(|f| part.shard.owns(f.index));
        if part.games.len() != fixtures.clone().count() {
            return Err(MergeError::GameCount {
                part: name.to_string(),
                shard: part.shard,
                games: part.games.len(),
                scheduled: fixtures.count(),
            });
        }
        for (mut game, fixture) in part.games.into_iter().zip(fixtures) {
            check_game(&game, fixture, &names).map_err(|why| MergeError::Unscheduled {
                part: name.to_string(),
                why,
            })?;
            replay::replay(&game, &terms).map_err(|why| MergeError::Replay {
                part: name.to_string(),
                index: fixture.index,
                why: Box::new(why),
            })?;
            // A part is a file from another machine: its faults reach the
            // results file and the terminal through the gate, as the
            // referee's own records do.
            if let Some(forfeit) = game.forfeit.as_mut() {
                forfeit.fault = forfeit.fault.clone().escaped();
            }
            games[fixture.index] = Some(game);
        }
    }
    let games = games
        .into_iter()
        .map(|g| g.expect("every share is there, and each gave its games"))
        .collect();
    let left_out = tournament
        .left_out
        .into_iter()
        .map(|left| LeftOut {
            folder: escape(&left.folder).into_owned(),
            reason: escape(&left.reason).into_owned(),
            ..left
        })
        .collect();
    Ok(Results {
        left_out,
        ..Results::of_games(
            tournament.seed,
            tournament.rule,
            tournament.timeout_seconds,
            names,
            games,
        )
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use inarow_core::Player;

    use super::*;
    use crate::replay::examples::{Plan, planned};
    use inarow_contest::Fault;

    /// A record of `fixture` as the referee writes it: its outcome a pure
    /// function of the fixture, as with bots that depend only on their
    /// seed (a five by either colour after each answer to the opening, a
    /// timeout at some point of the game, now and then a full board).
    fn record(fixture: &Fixture, names: &[String]) -> GameRecord {
        let (a, b) = (&names[fixture.a], &names[fixture.b]);
        let k = fixture.a_seed ^ fixture.b_seed;
        let plan = Plan {
            answer: (k % 4) as u8,
            five: match (k / 4) % 16 {
                0 => None,
                n if n % 2 == 0 => Some(Player::X),
                _ => Some(Player::O),
            },
            delay: ((k / 64) % 4) as usize,
            stop: ((k / 256) % 3 == 0).then_some(((k / 1024) % 12) as usize),
            shift: (k / 4096 % 64) as usize,
        };
        let timeout = Fault::Timeout { seconds: 0.1 };
        GameRecord {
            index: fixture.index,
            a_seed: fixture.a_seed,
            b_seed: fixture.b_seed,
            ..planned(Rule::Freestyle, a, b, plan, timeout)
        }
    }

    fn tournament(seed: u64, bots: usize) -> Tournament {
        Tournament {
            seed,
            rule: Rule::Freestyle,
            timeout_seconds: 0.1,
            limits: Some(Limits::default()),
            bots: (0..bots)
                .map(|i| Bot {
                    name: format!("bot{i:02}"),
                    command: "./run".into(),
                    args: vec![],
                    folder_sha256: format!("{i:064}"),
                })
                .collect(),
            left_out: Vec::new(),
        }
    }

    fn whole(t: &Tournament) -> Results {
        let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
        let games = tournament::schedule(names.len(), t.seed)
            .iter()
            .map(|f| record(f, &names))
            .collect();
        Results {
            left_out: t.left_out.clone(),
            ..Results::of_games(t.seed, t.rule, t.timeout_seconds, names, games)
        }
    }

    /// The part files of `t` cut into `count` shares, named `part-I`.
    fn parts(t: &Tournament, count: usize) -> Vec<(String, String)> {
        let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
        (0..count)
            .map(|index| {
                let shard = Shard::new(index, count).unwrap();
                let games = tournament::share(names.len(), t.seed, shard)
                    .iter()
                    .map(|f| record(f, &names))
                    .collect();
                let part = Part::new(shard, t.clone(), games);
                (format!("part-{index}"), part.to_json())
            })
            .collect()
    }

    fn merged(parts: &[(String, String)]) -> Result<Results, MergeError> {
        let refs: Vec<(&str, &str)> = parts.iter().map(|(n, t)| (&n[..], &t[..])).collect();
        merge(&refs)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn the_shares_are_the_whole_schedule_with_no_game_twice(
            bots in 2usize..24, count in 1usize..40, seed in any::<u64>()
        ) {
            let schedule = tournament::schedule(bots, seed);
            let mut seen = vec![0u32; schedule.len()];
            for index in 0..count {
                for fixture in tournament::share(bots, seed, Shard::new(index, count).unwrap()) {
                    prop_assert_eq!(fixture, schedule[fixture.index]);
                    seen[fixture.index] += 1;
                }
            }
            prop_assert!(seen.iter().all(|&n| n == 1), "{:?}", seen);
        }

        #[test]
        fn a_merge_of_the_parts_is_the_one_machine_results_file_byte_for_byte(
            bots in 2usize..12, count in 1usize..20, seed in any::<u64>(), shuffle in any::<u64>()
        ) {
            let t = tournament(seed, bots);
            let mut given = parts(&t, count);
            // The order parts are given in does not matter.
            let turn = (shuffle as usize) % given.len();
            given.rotate_left(turn);
            let results = merged(&given).unwrap();
            prop_assert_eq!(
                crate::output::results_json(&results),
                crate::output::results_json(&whole(&t))
            );
        }
    }

    /// The one-line error of merging `parts`, which must start with `start`.
    fn refused(parts: &[(String, String)], start: &str) -> String {
        let err = merged(parts).unwrap_err().to_string();
        assert!(!err.contains('\n'), "{err}");
        assert!(err.starts_with(start), "{err}");
        err
    }

    #[test]
    fn a_missing_duplicated_or_foreign_part_is_named() {
        let t = tournament(5, 6);
        let good = parts(&t, 4);
        assert!(merged(&good).is_ok());
        refused(&good[..3], "share 3/4 is missing");
        let refs: Vec<(&str, &str)> = good[..3].iter().map(|(n, t)| (&n[..], &t[..])).collect();
        assert!(matches!(
            merge(&refs),
            Err(MergeError::Missing {
                share: Shard { index: 3, count: 4 }
            })
        ));
        let mut twice = good.clone();
        twice.push(("again".into(), good[1].1.clone()));
        refused(&twice, "again: share 1/4 is given twice (also part-1)");
        refused(&[], "no part files");
        let mut other_count = good[..3].to_vec();
        other_count.push(parts(&t, 5).remove(3));
        refused(&other_count, "part-3: share 3/5");

        // A share of another tournament, each way it can differ.
        let foreign = |change: &dyn Fn(&mut Tournament), says: &str| {
            let mut other = t.clone();
            change(&mut other);
            let mut mixed = good[..3].to_vec();
            mixed.push(parts(&other, 4).remove(3));
            let err = refused(&mixed, "part-3: a part of another tournament than part-0");
            assert!(err.contains(says), "{err}");
        };
        foreign(&|t| t.seed = 6, "seed 6, not 5");
        foreign(&|t| t.rule = Rule::Exact, "rule exact");
        foreign(&|t| t.timeout_seconds = 10.0, "time limit 10 s");
        foreign(&|t| t.limits = None, "no sandbox");
        foreign(&|t| t.bots[2].name = "eve".into(), "bots bot00 bot01 eve");
        foreign(&|t| t.bots.pop().map(drop).unwrap_or(()), "bots");
        foreign(
            &|t| t.bots[1].args = vec!["--fast".into()],
            "bot bot01 runs `./run --fast`",
        );
        foreign(
            &|t| t.bots[4].folder_sha256 = "f".repeat(64),
            "bot bot04's folder has other files",
        );
        foreign(
            &|t| t.left_out = vec![left_out("evil")],
            "left out evil (meta: line 2: refused), not none",
        );
    }

    fn left_out(folder: &str) -> LeftOut {
        LeftOut {
            folder: folder.into(),
            reason: "meta: line 2: refused".into(),
            path: std::path::PathBuf::new(),
        }
    }

    #[test]
    fn the_bots_left_out_are_carried_and_must_be_the_same_in_every_part() {
        let mut t = tournament(3, 4);
        t.left_out = vec![left_out("evil"), left_out("twin")];
        let given = parts(&t, 3);
        assert!(given[0].1.contains("\"left_out\""), "{}", given[0].1);
        let results = merged(&given).unwrap();
        assert_eq!(results.left_out, t.left_out);
        let json = crate::output::results_json(&results);
        assert_eq!(json, crate::output::results_json(&whole(&t)));
        assert!(json.contains("\"folder\": \"evil\""), "{json}");
        // One part that left out another set, or none.
        let mut other = t.clone();
        other.left_out.pop();
        let mut mixed = given[..2].to_vec();
        mixed.push(parts(&other, 3).remove(2));
        let err = refused(&mixed, "part-2: a part of another tournament than part-0");
        assert!(
            err.contains("left out evil (meta: line 2: refused), not evil"),
            "{err}"
        );
        // Without bots left out, parts and results hold no such field,
        // and parts written before there was one read as none left out.
        let plain = tournament(3, 4);
        let plain_parts = parts(&plain, 2);
        assert!(!plain_parts[0].1.contains("left_out"));
        let merged_plain = merged(&plain_parts).unwrap();
        assert!(merged_plain.left_out.is_empty());
        assert!(!crate::output::results_json(&merged_plain).contains("left_out"));
    }

    #[test]
    fn a_part_whose_games_do_not_replay_is_refused_naming_the_game() {
        let t = tournament(9, 5);
        let good = parts(&t, 3);
        // The first game won by a five, in the part that holds it.
        let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        let (part, place) = (0..3)
            .find_map(|p| {
                let games = json(&good[p].1)["games"].as_array().unwrap().clone();
                let i = games.iter().position(|g| g["reason"] == "five")?;
                Some((p, i))
            })
            .expect("a five among the games");
        let game = json(&good[part].1)["games"][place].clone();
        let index = game["index"].as_u64().unwrap();
        let winner = game["winner"].as_str().unwrap().to_string();
        let loser = if game["a"] == *winner {
            &game["b"]
        } else {
            &game["a"]
        };
        let loser = loser.as_str().unwrap().to_string();
        let edit = |change: &dyn Fn(&mut serde_json::Value), says: &str| {
            let mut given = good.clone();
            let mut part_json = json(&given[part].1);
            change(&mut part_json["games"][place]);
            given[part].1 = part_json.to_string();
            let err = refused(&given, &format!("part-{part}: game {index}: "));
            assert!(err.contains(says), "{err}\nnot: {says}");
        };
        edit(
            &|g| g["winner"] = loser.clone().into(),
            &format!("names {loser} the winner, but {winner} made the five"),
        );
        let timeout = |by: &str| {
            serde_json::json!({"by": by, "fault": {"kind": "timeout", "seconds": 0.1},
                               "reason": "timeout: no answer within 0.1 s"})
        };
        edit(
            &|g| {
                g["reason"] = "forfeit".into();
                g["forfeit"] = timeout(&loser);
            },
            "after the game was over (a five by",
        );
        edit(
            &|g| {
                g["reason"] = "forfeit".into();
                g["winner"] = loser.clone().into();
                g["forfeit"] = timeout(&winner);
            },
            "after the game was over (a five by",
        );
        edit(
            &|g| {
                g["reason"] = "full board".into();
                g["winner"] = serde_json::Value::Null;
            },
            "says full board, but its",
        );
        edit(
            &|g| g["stones"].as_array_mut().unwrap().truncate(6),
            "says five, but its 6 stones make no five",
        );
        edit(
            &|g| {
                let stones = g["stones"].as_array_mut().unwrap();
                let last = stones.len() - 1;
                stones[last]["x"] = stones[last - 2]["x"].clone();
                stones[last]["y"] = stones[last - 2]["y"].clone();
            },
            "already holds",
        );
        // The winning stone moved to an empty point away from the five.
        edit(
            &|g| {
                let stones = g["stones"].as_array_mut().unwrap();
                let taken: Vec<(u64, u64)> = stones
                    .iter()
                    .map(|s| (s["x"].as_u64().unwrap(), s["y"].as_u64().unwrap()))
                    .collect();
                let (x, y) = [(0, 0), (14, 0), (0, 14), (14, 14), (0, 7), (7, 0)]
                    .into_iter()
                    .find(|p| !taken.contains(p))
                    .unwrap();
                let last = stones.len() - 1;
                stones[last]["x"] = x.into();
                stones[last]["y"] = y.into();
            },
            "make no five",
        );
    }

    #[test]
    fn a_tournament_with_a_name_twice_or_an_unknown_rule_is_refused() {
        let mut t = tournament(2, 3);
        t.bots[2].name = "bot00".into();
        refused(
            &parts(&t, 2),
            "part-0: bot 3 is named \"bot00\", as bot 1 is",
        );
        t.bots[2].name = "B0T01".into();
        refused(
            &parts(&t, 2),
            "part-0: bot 3 is named \"B0T01\", which looks like bot 2's name \"bot01\"",
        );
        let caro: Vec<(String, String)> = parts(&tournament(2, 3), 2)
            .into_iter()
            .map(|(name, text)| (name, text.replace("\"freestyle\"", "\"caro\"")))
            .collect();
        let err = refused(&caro, "part-0: not a part file");
        assert!(
            err.contains("unknown variant `caro`, expected one of `freestyle`, `exact`, `renju`"),
            "{err}"
        );
    }

    #[test]
    fn a_part_whose_bot_names_break_the_rule_is_refused_in_one_escaped_line() {
        let long = "a".repeat(250);
        for (bad, says) in [
            (
                "ann\x1b]0;t\x07\u{202e}",
                r#"part-0: bot 2: the name "ann\x1b]0;t\x07\u{202e}" holds U+001B; use ASCII letters"#,
            ),
            (
                "h\u{43e}nest",
                "part-0: bot 2: the name \"h\u{43e}nest\" holds U+043E",
            ),
            ("TIE", "part-0: bot 2: the name \"TIE\" looks like TIE"),
            ("", "part-0: bot 2: the name is empty"),
            (
                long.as_str(),
                "part-0: bot 2: the name \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"... has 250 characters",
            ),
        ] {
            let mut t = tournament(2, 3);
            t.bots[1].name = bad.into();
            let err = refused(&parts(&t, 2), says);
            assert!(!err.contains(['\x1b', '\x07', '\u{202e}']), "{err:?}");
            // Whichever part comes first is the one named.
            let mut reversed = parts(&t, 2);
            reversed.reverse();
            refused(&reversed, "part-1: bot 2: the name");
        }
    }

    #[test]
    fn what_a_merge_keeps_from_a_part_passes_the_gate() {
        let mut t = tournament(3, 4);
        t.left_out = vec![LeftOut {
            folder: "evil\u{202e}".into(),
            reason: "meta: \x1b[2J".into(),
            path: std::path::PathBuf::new(),
        }];
        let results = merged(&parts(&t, 2)).unwrap();
        assert_eq!(results.left_out[0].folder, r"evil\u{202e}");
        assert_eq!(results.left_out[0].reason, r"meta: \x1b[2J");
        // A fault forged raw into a part is kept escaped.
        let mut given = parts(&t, 1);
        let mut part: Part = serde_json::from_str(&given[0].1).unwrap();
        let forfeited = part
            .games
            .iter_mut()
            .find_map(|g| g.forfeit.as_mut())
            .expect("a planned game is forfeited");
        forfeited.fault = Fault::Crash {
            status: "died \x1b]0;t\x07\u{202e}".into(),
        };
        given[0].1 = part.to_json();
        let results = merged(&given).unwrap();
        let json = crate::output::results_json(&results);
        assert!(json.contains(r"died \\x1b]0;t\\x07\\u{202e}"), "{json}");
        assert!(!json.contains('\u{202e}'));
    }

    #[test]
    fn a_renju_tournament_merges_a_game_lost_on_a_forbidden_point_and_refuses_a_forged_one() {
        use crate::replay::examples::{double_three, refereed};
        let t = Tournament {
            rule: Rule::Renju,
            ..tournament(4, 2)
        };
        let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
        let shard = Shard::new(0, 1).unwrap();
        // The first game is the double three, the other a planned one.
        let games: Vec<GameRecord> = tournament::share(names.len(), t.seed, shard)
            .iter()
            .map(|f| match f.index {
                0 => GameRecord {
                    index: f.index,
                    a_seed: f.a_seed,
                    b_seed: f.b_seed,
                    ..refereed(
                        Rule::Renju,
                        &names[f.a],
                        &names[f.b],
                        &double_three(),
                        Fault::Eof,
                    )
                },
                _ => record(f, &names),
            })
            .collect();
        let good = vec![("part-0".to_string(), Part::new(shard, t, games).to_json())];
        let results = merged(&good).unwrap();
        let fouler = results.games[0].a.clone();
        assert_eq!(
            results.games[0].foul_reason(),
            Some(format!("{fouler} plays a forbidden point: double three"))
        );
        let json = crate::output::results_json(&results);
        assert!(
            json.contains("\"reason\": \"forbidden\",\n      \"forbidden\": \"double three\""),
            "{json}"
        );
        let edit = |change: &dyn Fn(&mut serde_json::Value), says: &str| {
            let mut part: serde_json::Value = serde_json::from_str(&good[0].1).unwrap();
            change(&mut part["games"][0]);
            let given = [("part-0".to_string(), part.to_string())];
            let err = refused(&given, "part-0: game 0: ");
            assert!(err.contains(says), "{err}\nnot: {says}");
        };
        edit(
            &|g| g["forbidden"] = "overline".into(),
            "says forbidden (overline), but stone 9 at (7,7) is forbidden as double three",
        );
        edit(
            &|g| g["winner"] = fouler.clone().into(),
            &format!(
                "names {fouler} the winner, but {fouler} put the stone on the forbidden point"
            ),
        );
        // The same game in a freestyle tournament: (7,7) was a move.
        let mut part: serde_json::Value = serde_json::from_str(&good[0].1).unwrap();
        part["tournament"]["rule"] = "freestyle".into();
        let err = refused(
            &[("part-0".to_string(), part.to_string())],
            "part-0: game 0: ",
        );
        assert!(
            err.contains("says forbidden, but none of its 9 stones is black on a point forbidden to black (only renju forbids points)"),
            "{err}"
        );
    }

    #[test]
    fn a_part_whose_games_are_not_its_share_is_refused() {
        let t = tournament(9, 5);
        let good = parts(&t, 3);
        // Edits one game of part 1 (its first) and merges.
        let edit = |change: &dyn Fn(&mut serde_json::Value), says: &str| {
            let mut given = good.clone();
            let mut json: serde_json::Value = serde_json::from_str(&given[1].1).unwrap();
            change(&mut json["games"][0]);
            given[1].1 = json.to_string();
            let err = refused(&given, "part-1: ");
            assert!(err.contains(says), "{err}");
        };
        edit(
            &|g| g["index"] = 0.into(),
            "holds game 0 where its share's game 1",
        );
        edit(
            &|g| g["a_seed"] = 7.into(),
            "game 1 is not the scheduled one",
        );
        // Another bot in A's seat, named so wherever the record names A.
        edit(
            &|g| {
                let a = g["a"].clone();
                for field in ["a", "black", "white", "winner"] {
                    if g[field] == a {
                        g[field] = "bot04".into();
                    }
                }
            },
            "not the scheduled one",
        );
        edit(&|g| g["winner"] = "mallory".into(), "did not play it");
        edit(&|g| g["black"] = "mallory".into(), "did not play it");
        edit(
            &|g| g["stones"] = serde_json::json!([{"by": "A", "colour": "B", "x": 15, "y": 0}]),
            "off the board",
        );
        edit(
            &|g| g["stones"] = serde_json::json!([{"by": "A", "colour": "R", "x": 1, "y": 0}]),
            "unknown variant `R`, expected `B` or `W`",
        );
        edit(&|g| g["winner"] = 1.into(), "not a part file");

        // A game too few or too many.
        let mut short = good.clone();
        let mut json: serde_json::Value = serde_json::from_str(&short[2].1).unwrap();
        json["games"].as_array_mut().unwrap().pop();
        short[2].1 = json.to_string();
        refused(&short, "part-2: share 2/3 holds");

        // Not a part at all: truncated, empty, a results file, another kind.
        let mut cut = good.clone();
        let half = cut[0].1.len() / 2;
        cut[0].1.truncate(half);
        refused(&cut, "part-0: not a part file");
        let mut empty = good.clone();
        empty[0].1 = String::new();
        refused(&empty, "part-0: not a part file");
        let mut results = good.clone();
        results[0].1 = crate::output::results_json(&whole(&t));
        refused(&results, "part-0: not a part file");
        let mut kind = good.clone();
        kind[0].1 = kind[0].1.replace(FORMAT, "inarow selfplay part, version 1");
        refused(&kind, "part-0: a part file of another kind");
        let mut hostile_count = good.clone();
        let mut json: serde_json::Value = serde_json::from_str(&hostile_count[0].1).unwrap();
        json["shard"]["count"] = (1u64 << 62).into();
        hostile_count[0].1 = json.to_string();
        refused(&hostile_count, "part-0: the number of shards must be");
    }
}
