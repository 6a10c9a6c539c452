//! A match played in shares on many machines: the part file each share
//! writes (after every pair, so that a merge can look in while shares
//! still play), and the merge that replays the SPRT over the pairs in
//! order, as one machine would have played them.
//!
//! Pair `k` is share `k mod N`'s. A share plays all its pairs: it cannot
//! see the others' results, so only the merge knows when the SPRT stops.
//! The merge counts the pairs one machine would have played (up to the one
//! where the SPRT decides) and says so; the score, Elo and verdict are then
//! the one-machine run's for games on a node budget.

use inarow_core::{Game, GameResult, Mnk, Player, Point, Rule, Tally, Xy};
use serde::{Deserialize, Serialize};

use crate::stats::{self, Verdict};
use inarow_contest::shard::{self, Shard};

/// What a match's part file says it is.
pub const FORMAT: &str = "inarow selfplay part, version 1";

/// Which match a part belongs to: everything that decides its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Engine A's settings, or its brain's path and folder digest.
    pub a: String,
    /// Engine B's settings, or its brain's path and folder digest.
    pub b: String,
    /// The openings as `[x, y]` points, in turn.
    pub openings: Vec<Vec<Xy>>,
    /// Pairs of games at most.
    pub pairs: usize,
    /// The board's side.
    pub size: usize,
    /// The rule; written only when it is not freestyle, so that freestyle
    /// parts read and write as before the rule was kept.
    #[serde(default, skip_serializing_if = "is_freestyle")]
    pub rule: Rule,
    /// Nodes per move, or `None` on the clock.
    pub nodes: Option<u64>,
    /// Milliseconds per move on the clock.
    pub ms: u64,
    /// SPRT: H0's Elo.
    pub elo0: f64,
    /// SPRT: H1's Elo.
    pub elo1: f64,
}

/// One game of a pair from A's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRow {
    /// Whether A played black.
    pub a_black: bool,
    /// A's result: `1`, `=` or `0`.
    pub result: char,
    /// The moves after the opening, `[x, y]`.
    pub moves: Vec<Xy>,
    /// Whether the loser gave an illegal or no move.
    pub illegal: bool,
    /// Why the loser gave no move, if it could not answer.
    pub failure: Option<String>,
    /// The longest think of the game, in milliseconds.
    pub longest_ms: u64,
}

/// One pair of games: the opening with A black, then white.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairRecord {
    /// The pair, from 0.
    pub pair: usize,
    /// Its two games, A black first.
    pub games: Vec<GameRow>,
}

/// One share's part of a match, as written to its part file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Always [`FORMAT`].
    pub format: String,
    /// The share this part plays.
    pub shard: Shard,
    /// The match it is a share of.
    #[serde(rename = "match")]
    pub of: Match,
    /// Whether the share has played all its pairs.
    pub finished: bool,
    /// The pairs played so far, in order.
    pub pairs: Vec<PairRecord>,
}

/// A's result as the part files, the pair lines and the games file write it.
pub fn mark(result: GameResult) -> char {
    match result {
        GameResult::Win => '1',
        GameResult::Draw => '=',
        GameResult::Loss => '0',
    }
}

fn result_of(mark: char) -> Option<GameResult> {
    match mark {
        '1' => Some(GameResult::Win),
        '=' => Some(GameResult::Draw),
        '0' => Some(GameResult::Loss),
        _ => None,
    }
}

fn is_freestyle(rule: &Rule) -> bool {
    *rule == Rule::Freestyle
}

impl Part {
    /// An empty part of `shard` of `of`.
    pub fn new(shard: Shard, of: Match) -> Part {
        Part {
            format: FORMAT.into(),
            shard,
            of,
            finished: false,
            pairs: Vec::new(),
        }
    }

    /// The part as pretty JSON, for its file.
    pub fn to_json(&self) -> String {
        shard::part_json(self)
    }
}

impl Match {
    /// The first setting in which `other` is another match, in words:
    /// a setting short enough to show gives both values, a long one
    /// (the openings, the SPRT bounds) only that it differs.
    fn difference(&self, other: &Match) -> Option<String> {
        /// How a setting's difference is told.
        enum Told {
            /// Its values, `theirs, not mine`.
            Values(String, String),
            /// Only that it differs.
            Other,
        }
        let shown =
            |mine: String, theirs: String| (mine != theirs).then_some(Told::Values(mine, theirs));
        let other_if = |differs: bool| differs.then_some(Told::Other);
        let fields: [(&str, Option<Told>); 9] = [
            ("rule", shown(self.rule.to_string(), other.rule.to_string())),
            ("A", shown(self.a.clone(), other.a.clone())),
            ("B", shown(self.b.clone(), other.b.clone())),
            ("openings", other_if(self.openings != other.openings)),
            (
                "pairs",
                shown(self.pairs.to_string(), other.pairs.to_string()),
            ),
            (
                "board size",
                shown(self.size.to_string(), other.size.to_string()),
            ),
            (
                "nodes",
                shown(format!("{:?}", self.nodes), format!("{:?}", other.nodes)),
            ),
            ("ms", shown(self.ms.to_string(), other.ms.to_string())),
            (
                "SPRT bounds",
                other_if(
                    (self.elo0.to_bits(), self.elo1.to_bits())
                        != (other.elo0.to_bits(), other.elo1.to_bits()),
                ),
            ),
        ];
        fields.into_iter().find_map(|(what, told)| {
            Some(match told? {
                Told::Values(mine, theirs) => format!("{what} {theirs}, not {mine}"),
                Told::Other => format!("other {what}"),
            })
        })
    }

    /// The opening of pair `k`, as core points; `None` if off the board.
    fn opening(&self, k: usize) -> Option<Vec<Point>> {
        let opening = self.openings.get(k % self.openings.len().max(1))?;
        points(opening, self.size)
    }
}

fn points(xys: &[Xy], size: usize) -> Option<Vec<Point>> {
    xys.iter().map(|p| p.point(size)).collect()
}

/// Replays `row` from `opening`: every move legal, and the result the
/// board's (or, after an illegal move, a loss for the side to move).
fn check_game(
    row: &GameRow,
    opening: &[Point],
    size: usize,
    rule: Rule,
) -> Result<GameResult, GameError> {
    let result = result_of(row.result).ok_or(GameError::Result(row.result))?;
    let mut game = Mnk::new(size, size, 5, rule).map_err(GameError::Board)?;
    for &p in opening {
        game.play(p).map_err(|_| GameError::Opening)?;
    }
    let moves = points(&row.moves, size).ok_or(GameError::OffBoard)?;
    for (i, &p) in moves.iter().enumerate() {
        if game.outcome().is_some() || game.play(p).is_err() {
            return Err(GameError::Illegal(i));
        }
    }
    let a = if row.a_black { Player::X } else { Player::O };
    let consistent = match (game.outcome(), row.illegal) {
        (Some(outcome), false) => GameResult::for_side(outcome, a) == result,
        (None, true) => {
            let a_to_move = game.to_move() == a;
            result
                == if a_to_move {
                    GameResult::Loss
                } else {
                    GameResult::Win
                }
        }
        _ => false,
    };
    if !consistent {
        return Err(GameError::NotTheBoards(row.result));
    }
    Ok(result)
}

/// Why a match's parts cannot be merged: one line naming the part, the
/// pair and the game at fault, or the share the merge waits for.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A part file that cannot be read, or that does not go with the others.
    #[error("{0}")]
    Part(#[from] shard::PartError),
    /// A match without openings or pairs.
    #[error("{name}: a match needs openings and pairs")]
    Empty {
        /// The part file.
        name: String,
    },
    /// A part holding more pairs than its share, or, finished, fewer.
    #[error("{name}: share {share} holds {holds} pairs, but its share of the match is {owns}")]
    ShareSize {
        /// The part file.
        name: String,
        /// Its share.
        share: Shard,
        /// The pairs it holds.
        holds: usize,
        /// The pairs of its share.
        owns: usize,
    },
    /// An opening of the match off its board.
    #[error("{name}: an opening is off the board")]
    Opening {
        /// The part file.
        name: String,
    },
    /// A pair the board does not bear out.
    #[error("{name}: pair {}: {why}", .pair + 1)]
    Pair {
        /// The part file.
        name: String,
        /// The pair, from 0.
        pair: usize,
        /// What is wrong with it.
        why: PairError,
    },
    /// A pair the SPRT still needs that no part holds.
    #[error(
        "the SPRT has not stopped after the first {pairs} pairs (LLR {llr:.2}); pair {} is share {owner}'s, {state}",
        .pairs + 1
    )]
    Undecided {
        /// The pairs counted.
        pairs: usize,
        /// The SPRT's log-likelihood ratio after them.
        llr: f64,
        /// The share the next pair is.
        owner: Shard,
        /// Where that share's part stands.
        state: Unplayed,
    },
}

/// What is wrong with a pair of a part.
#[derive(Debug, thiserror::Error)]
pub enum PairError {
    /// It holds another pair (from 0) in this one's place.
    #[error("holds pair {} in its place", .0 + 1)]
    Misplaced(usize),
    /// Its games are not A black then white.
    #[error("a pair is two games, A black then white")]
    Colours,
    /// One of its games (from 0) is not borne out.
    #[error("game {}: {why}", .game + 1)]
    Game {
        /// The game, from 0.
        game: usize,
        /// What is wrong with it.
        why: GameError,
    },
}

/// What is wrong with a game of a part, replayed on the board.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// A result mark that is no result.
    #[error("result {0:?} is none of 1, = and 0")]
    Result(char),
    /// A board the rules do not have.
    #[error("{0}")]
    Board(inarow_core::ParseError),
    /// Its opening cannot be played.
    #[error("its opening is not legal")]
    Opening,
    /// A move off the board.
    #[error("a move is off the board")]
    OffBoard,
    /// A move (from 0) the board refuses.
    #[error("move {} is not legal", .0 + 1)]
    Illegal(usize),
    /// A result the board does not give.
    #[error("the result {0} is not the board's")]
    NotTheBoards(char),
}

/// Where the part of a share the merge waits for stands.
#[derive(Debug, thiserror::Error)]
pub enum Unplayed {
    /// Its part is still playing.
    #[error("whose part {0} is still playing")]
    Playing(String),
    /// No part of it was given.
    #[error("which is missing")]
    Missing,
    /// Its part, finished, lacks the pair.
    #[error("whose part lacks it")]
    Lacking,
}

/// A merged match: the pairs one machine would have played, and how the
/// SPRT stands after them.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The match.
    pub of: Match,
    /// The pairs counted, in order from pair 0.
    pub pairs: Vec<PairRecord>,
    /// A's tally over them.
    pub tally: Tally,
    /// A's points by pair over them.
    pub by_pair: stats::Pairs,
    /// Games lost by an illegal or missing move.
    pub illegal: usize,
    /// The longest think, in milliseconds.
    pub longest_ms: u64,
    /// The SPRT's verdict after the last pair counted.
    pub verdict: Verdict,
    /// Pairs the shares played beyond the one where the SPRT stopped: a
    /// one-machine run never played them, so they are not counted.
    pub beyond: usize,
}

impl shard::PartFile for Part {
    const COMMAND: &'static str = "inarow selfplay --shard";
    const FORMAT: &'static str = FORMAT;
    const WHOLE: &'static str = "match";

    fn format(&self) -> &str {
        &self.format
    }

    fn shard(&self) -> Shard {
        self.shard
    }

    fn difference(&self, other: &Part) -> Option<String> {
        self.of.difference(&other.of)
    }
}

/// Merges a match's parts (`(name, text)` of each part file). Every part
/// must be of the same match and hold its share's pairs in order; shares
/// may be missing or still playing only if the SPRT has already stopped
/// within the pairs that are in. Otherwise a one-line error says which
/// share is missing or still playing and how the SPRT stands.
pub fn merge(parts: &[(&str, &str)]) -> Result<Merged, MergeError> {
    let (parsed, missing) = shard::parse_parts::<Part>(parts)?;
    let (first_name, first) = &parsed[0];
    let of = first.of.clone();
    if of.openings.is_empty() || of.pairs == 0 {
        return Err(MergeError::Empty {
            name: first_name.to_string(),
        });
    }
    let count = first.shard.count;
    let mut slots: Vec<Option<PairRecord>> = vec![None; of.pairs];
    let mut playing: Vec<Option<&str>> = vec![None; count];
    for (name, part) in &parsed {
        let share = (0..of.pairs).filter(|&k| part.shard.owns(k));
        if part.pairs.len() > share.clone().count()
            || part.finished && part.pairs.len() != share.clone().count()
        {
            return Err(MergeError::ShareSize {
                name: name.to_string(),
                share: part.shard,
                holds: part.pairs.len(),
                owns: share.count(),
            });
        }
        for (record, k) in part.pairs.iter().zip(share) {
            let opening = of.opening(k).ok_or_else(|| MergeError::Opening {
                name: name.to_string(),
            })?;
            let bad = |why| MergeError::Pair {
                name: name.to_string(),
                pair: k,
                why,
            };
            if record.pair != k {
                return Err(bad(PairError::Misplaced(record.pair)));
            }
            let colours: Vec<bool> = record.games.iter().map(|g| g.a_black).collect();
            if colours != [true, false] {
                return Err(bad(PairError::Colours));
            }
            for (i, game) in record.games.iter().enumerate() {
                check_game(game, &opening, of.size, of.rule)
                    .map_err(|why| bad(PairError::Game { game: i, why }))?;
            }
            slots[k] = Some(record.clone());
        }
        if !part.finished {
            playing[part.shard.index] = Some(name);
        }
    }
    let mut merged = Merged {
        of: of.clone(),
        pairs: Vec::new(),
        tally: Tally::default(),
        by_pair: stats::Pairs::default(),
        illegal: 0,
        longest_ms: 0,
        verdict: Verdict::Continue,
        beyond: 0,
    };
    for (k, slot) in slots.iter().enumerate() {
        let Some(record) = slot else {
            let owner = Shard::owner(k, count);
            let (llr, _) = stats::sprt(&merged.by_pair, of.elo0, of.elo1);
            let state = match playing[owner.index] {
                Some(name) => Unplayed::Playing(name.to_string()),
                None if missing.contains(&owner) => Unplayed::Missing,
                None => Unplayed::Lacking,
            };
            return Err(MergeError::Undecided {
                pairs: k,
                llr,
                owner,
                state,
            });
        };
        for game in &record.games {
            merged
                .tally
                .add(result_of(game.result).expect("checked above"));
            merged.illegal += usize::from(game.illegal);
            merged.longest_ms = merged.longest_ms.max(game.longest_ms);
        }
        if let [first, second] = &record.games[..] {
            merged
                .by_pair
                .add([first, second].map(|g| result_of(g.result).expect("checked above")));
        }
        merged.pairs.push(record.clone());
        merged.verdict = stats::sprt(&merged.by_pair, of.elo0, of.elo1).1;
        if merged.verdict != Verdict::Continue {
            merged.beyond = slots[k + 1..].iter().flatten().count();
            break;
        }
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A game from `opening` (black to move after it) that black wins with
    /// a five on row `row`, white answering on row `row + 2`.
    fn row_game(a_black: bool, black_wins: bool) -> GameRow {
        let mut moves = Vec::new();
        for i in 0..5 {
            moves.push(Xy::new(i, 10));
            if i < 4 {
                moves.push(Xy::new(i, 12));
            }
        }
        let a_wins = a_black == black_wins;
        if !black_wins {
            // Black wastes its fifth stone; white completes its row.
            moves[8] = Xy::new(14, 0);
            moves.push(Xy::new(4, 12));
        }
        GameRow {
            a_black,
            result: if a_wins { '1' } else { '0' },
            moves,
            illegal: false,
            failure: None,
            longest_ms: 3,
        }
    }

    fn the_match(pairs: usize, elo0: f64, elo1: f64) -> Match {
        Match {
            a: "lmr_base=40".into(),
            b: String::new(),
            openings: vec![vec![]],
            pairs,
            size: 15,
            rule: Rule::Freestyle,
            nodes: Some(1000),
            ms: 100,
            elo0,
            elo1,
        }
    }

    /// Pair `k`: A wins both games when `wins(k)`, else splits them.
    fn pair(k: usize, wins: &dyn Fn(usize) -> bool) -> PairRecord {
        PairRecord {
            pair: k,
            games: vec![row_game(true, true), row_game(false, !wins(k))],
        }
    }

    /// The part files of `m` cut into `count` shares, each holding its
    /// first `played(index)` pairs.
    fn parts(
        m: &Match,
        count: usize,
        wins: &dyn Fn(usize) -> bool,
        played: &dyn Fn(usize) -> usize,
    ) -> Vec<(String, String)> {
        (0..count)
            .map(|index| {
                let shard = Shard::new(index, count).unwrap();
                let mut part = Part::new(shard, m.clone());
                let share: Vec<usize> = (0..m.pairs).filter(|&k| shard.owns(k)).collect();
                part.pairs = share
                    .iter()
                    .take(played(index))
                    .map(|&k| pair(k, wins))
                    .collect();
                part.finished = part.pairs.len() == share.len();
                (format!("part-{index}"), part.to_json())
            })
            .collect()
    }

    fn merged(parts: &[(String, String)]) -> Result<Merged, String> {
        merged_typed(parts).map_err(|e| e.to_string())
    }

    fn merged_typed(parts: &[(String, String)]) -> Result<Merged, MergeError> {
        let refs: Vec<(&str, &str)> = parts.iter().map(|(n, t)| (&n[..], &t[..])).collect();
        merge(&refs)
    }

    /// What one machine's match would count: pairs in order until the SPRT decides.
    fn one_machine(m: &Match, wins: &dyn Fn(usize) -> bool) -> (Tally, usize, Verdict) {
        let mut tally = Tally::default();
        let mut by_pair = stats::Pairs::default();
        for k in 0..m.pairs {
            let games = pair(k, wins).games;
            for g in &games {
                tally.add(result_of(g.result).unwrap());
            }
            by_pair.add([&games[0], &games[1]].map(|g| result_of(g.result).unwrap()));
            let verdict = stats::sprt(&by_pair, m.elo0, m.elo1).1;
            if verdict != Verdict::Continue {
                return (tally, k + 1, verdict);
            }
        }
        (tally, m.pairs, Verdict::Continue)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn a_merge_counts_what_one_machine_plays(
            pairs in 1usize..40, count in 1usize..9, pattern in any::<u64>(), elo1 in 5.0f64..300.0
        ) {
            let m = the_match(pairs, 0.0, elo1);
            let wins = |k: usize| pattern >> (k % 64) & 1 == 1;
            let all = parts(&m, count, &wins, &|_| usize::MAX);
            let got = merged(&all).unwrap();
            let (tally, played, verdict) = one_machine(&m, &wins);
            prop_assert_eq!(got.tally, tally);
            prop_assert_eq!(got.pairs.len(), played);
            prop_assert_eq!(got.verdict, verdict);
            prop_assert_eq!(stats::elo(&got.tally), stats::elo(&tally));
            prop_assert_eq!(got.beyond, pairs - played);
        }
    }

    #[test]
    fn the_sprt_may_stop_before_every_share_is_in() {
        // A wins every pair: H1 is accepted after a handful of pairs.
        let m = the_match(60, 0.0, 200.0);
        let always = |_| true;
        let (_, stops_after, verdict) = one_machine(&m, &always);
        assert_eq!(verdict, Verdict::Accept);
        assert!(stops_after < 12, "{stops_after}");
        // Four shares, each 4 pairs in and still playing: pairs 1..16 are in.
        let early = parts(&m, 4, &always, &|_| 4);
        let got = merged(&early).unwrap();
        assert_eq!(
            (got.pairs.len(), got.verdict),
            (stops_after, Verdict::Accept)
        );
        // Share 3 not in at all: still decided if the SPRT stopped before its first pair.
        let without = parts(&m, 40, &always, &|_| 1);
        let got = merged(&without[..stops_after]).unwrap();
        assert_eq!(got.pairs.len(), stops_after);

        // Undecided: the merge says so, naming the share it waits for.
        let even = the_match(40, 0.0, 5.0);
        let split = |_| false;
        let waiting = parts(&even, 4, &split, &|i| if i == 2 { 1 } else { 10 });
        let err = merged(&waiting).unwrap_err();
        assert!(
            err.starts_with("the SPRT has not stopped after the first 6 pairs")
                && err.ends_with("pair 7 is share 2/4's, whose part part-2 is still playing"),
            "{err}"
        );
        let err = merged(&waiting[..2]).unwrap_err();
        assert!(
            err.ends_with("pair 3 is share 2/4's, which is missing"),
            "{err}"
        );
        // The merge decides on what it waits for, not on its words.
        assert!(matches!(
            merged_typed(&waiting[..2]),
            Err(MergeError::Undecided {
                pairs: 2,
                state: Unplayed::Missing,
                ..
            })
        ));
        assert!(matches!(
            merged_typed(&waiting),
            Err(MergeError::Undecided { state: Unplayed::Playing(name), .. }) if name == "part-2"
        ));
    }

    #[test]
    fn a_foreign_or_forged_part_is_refused() {
        let m = the_match(8, 0.0, 5.0);
        let split = |_| false;
        let good = parts(&m, 2, &split, &|_| usize::MAX);
        assert!(merged(&good).is_ok());
        let refused = |given: &[(String, String)], says: &str| {
            let err = merged(given).unwrap_err();
            assert!(!err.contains('\n') && err.contains(says), "{err}");
        };
        let mut twice = good.clone();
        twice.push(("again".into(), good[0].1.clone()));
        refused(&twice, "again: share 0/2 is given twice");
        let other = |change: &dyn Fn(&mut Match), says: &str| {
            let mut m2 = m.clone();
            change(&mut m2);
            let mut mixed = good[..1].to_vec();
            mixed.push(parts(&m2, 2, &split, &|_| usize::MAX).remove(1));
            refused(
                &mixed,
                &format!("part-1: a part of another match than part-0: {says}"),
            );
        };
        other(
            &|m| m.a = "lmr_base=60".into(),
            "A lmr_base=60, not lmr_base=40",
        );
        other(&|m| m.nodes = Some(5), "nodes Some(5), not Some(1000)");
        other(&|m| m.elo1 = 10.0, "other SPRT bounds");
        other(
            &|m| m.openings = vec![vec![Xy::new(7, 7)]],
            "other openings",
        );

        // Edits the first pair of part 1 and merges.
        let edit = |change: &dyn Fn(&mut serde_json::Value), says: &str| {
            let mut given = good.clone();
            let mut json: serde_json::Value = serde_json::from_str(&given[1].1).unwrap();
            change(&mut json["pairs"][0]);
            given[1].1 = json.to_string();
            refused(&given, says);
        };
        edit(
            &|p| p["pair"] = 0.into(),
            "part-1: pair 2: holds pair 1 in its place",
        );
        edit(
            &|p| p["games"][0]["result"] = "0".into(),
            "game 1: the result 0 is not the board's",
        );
        edit(
            &|p| p["games"][0]["result"] = "x".into(),
            "is none of 1, = and 0",
        );
        edit(
            &|p| p["games"][0]["moves"][0] = serde_json::json!([0, 12]),
            "is not legal",
        );
        edit(
            &|p| p["games"][1]["moves"][0] = serde_json::json!([99, 0]),
            "off the board",
        );
        edit(
            &|p| p["games"][1]["a_black"] = true.into(),
            "A black then white",
        );
        edit(
            &|p| p["games"][1]["illegal"] = true.into(),
            "not the board's",
        );
        let mut extra = good.clone();
        let mut json: serde_json::Value = serde_json::from_str(&extra[0].1).unwrap();
        json["finished"] = true.into();
        json["pairs"].as_array_mut().unwrap().pop();
        extra[0].1 = json.to_string();
        refused(
            &extra,
            "part-0: share 0/2 holds 3 pairs, but its share of the match is 4",
        );
        let mut judge_part = good.clone();
        judge_part[0].1 = judge_part[0]
            .1
            .replace(FORMAT, "inarow judge part, version 1");
        refused(&judge_part, "part-0: a part file of another kind");
    }
}
