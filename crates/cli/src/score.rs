//! `inarow selfplay score`: a match c-gomoku-cli played, scored by pairs
//! from its SGF file, as `inarow selfplay` scores its own matches (the
//! gate against Rapfi, `scripts/gate.sh`).

use std::path::PathBuf;

use anyhow::Context;
use inarow_match::sgf::{self, SgfScore};
use inarow_match::stats;

/// Options of `inarow selfplay score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The match's SGF file, as c-gomoku-cli writes it with `-repeat`
    /// (each opening twice in a row, colours swapped).
    #[arg(value_name = "GAMES.sgf")]
    sgf: PathBuf,
    /// The engine scored, by its name in the file.
    #[arg(long, default_value = "inarow")]
    name: String,
    /// The openings file took this many sets in turn (opening k from set
    /// k mod N): each set is scored apart as well.
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::whole_in::<usize>(1, 16))]
    sets: usize,
}

/// Prints the match's score and its pairs, then each set's.
pub fn run(args: Args) -> anyhow::Result<()> {
    let text = std::fs::read(&args.sgf)
        .with_context(|| format!("cannot read the SGF file {}", args.sgf.display()))?;
    let text = String::from_utf8_lossy(&text);
    let games = sgf::read(&text, &args.name)
        .with_context(|| format!("{} is not a match to score", args.sgf.display()))?;
    let sets = sgf::score(&games, args.sets);
    for line in said(&args.name, &sgf::total(&sets)) {
        println!("{line}");
    }
    if args.sets > 1 {
        for (i, set) in sets.iter().enumerate() {
            println!(
                "set {} of {} (pairs k with k mod {} = {i}):",
                i + 1,
                args.sets,
                args.sets
            );
            for line in said(&args.name, set) {
                println!("  {line}");
            }
        }
    }
    Ok(())
}

/// The games' line and the pairs' line of a score.
fn said(name: &str, s: &SgfScore) -> [String; 2] {
    let t = s.tally;
    let (won, split, lost) = s.pairs.won_split_lost();
    let c = s.pairs.counts;
    [
        format!(
            "{name}: +{} ={} -{} over {}, score {:.1}%; {} void",
            t.wins,
            t.draws,
            t.losses,
            counted(t.games(), "game"),
            100.0 * t.score(),
            s.void
        ),
        format!(
            "by pair (points 0/0.5/1/1.5/2): {} {} {} {} {}  won {won} split {split} lost {lost}  {}; {} left out",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            elo_said(s.pairs.no_elo(), stats::elo_of_pairs(&s.pairs)),
            counted(u64::from(s.broken), "pair")
        ),
    ]
}

/// `1 game`, `2 games`.
fn counted(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Elo with its 95% interval, or why the match gives none yet (an
/// interval of no width would claim a certainty it does not have).
pub(crate) fn elo_said(none: Option<stats::NoElo>, (lo, elo, hi): (f64, f64, f64)) -> String {
    match none {
        Some(why) => format!("no Elo yet: {why}"),
        None => format!("Elo {elo:+.0} [{lo:+.0}, {hi:+.0}] (95%)"),
    }
}
