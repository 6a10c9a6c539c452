//! `inarow selfplay openings`: a set of openings whose outcome is open,
//! found by the engine playing itself from seeded candidates, written as
//! the openings file `inarow selfplay --openings` reads.

use std::path::PathBuf;

use anyhow::{Context, bail};
use inarow_files::write_atomic;
use inarow_match::openings::{OpenFound, OpenSearch, open_openings};

/// Options of `inarow selfplay openings`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The openings file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Openings wanted.
    #[arg(long, default_value_t = 100, value_parser = crate::numbers::whole::<usize>(1))]
    pub count: usize,
    /// Candidates tried at most.
    #[arg(long, default_value_t = 2000, value_parser = crate::numbers::whole::<usize>(1))]
    pub tries: usize,
    /// Stones of an opening: `N`, or `LEAST-MOST` (each candidate draws its own).
    #[arg(long, default_value = "4-6", value_parser = parse_stones)]
    pub stones: (usize, usize),
    /// Node budgets, one game of the engine against itself at each from
    /// every candidate.
    #[arg(long, default_value = "2000,3000,4500,7000", value_delimiter = ',', value_parser = crate::numbers::whole::<u64>(1))]
    pub nodes: Vec<u64>,
    /// How far from even black's score may be (0 to 0.5): kept within
    /// 0.5 ± this.
    #[arg(long, default_value_t = 0.125, value_parser = crate::numbers::real("a number from 0 to 0.5", |w| (0.0..=0.5).contains(&w)))]
    pub within: f64,
    /// Seed of the candidates.
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::seed)]
    pub seed: u64,
    /// Games played at once (default: one a core).
    #[arg(short = 'j', long, value_parser = crate::numbers::whole::<usize>(1))]
    pub jobs: Option<usize>,
    /// The board's side.
    #[arg(long, default_value_t = 15, value_parser = crate::args::board_size)]
    pub size: usize,
    #[command(flatten)]
    pub rule: crate::args::RuleArgs,
}

/// The most stones an opening holds: it is drawn within three points of
/// the centre.
const MOST_STONES: usize = 9;

/// Reads `N` or `LEAST-MOST` stones, 1 to [`MOST_STONES`].
fn parse_stones(text: &str) -> Result<(usize, usize), crate::numbers::Allowed> {
    let number = |t: &str| t.trim().parse::<usize>().ok();
    let read = match text.split_once('-') {
        Some((a, b)) => number(a).zip(number(b)),
        None => number(text).map(|n| (n, n)),
    };
    match read {
        Some((least, most)) if 1 <= least && least <= most && most <= MOST_STONES => {
            Ok((least, most))
        }
        _ => Err(crate::numbers::Allowed(format!(
            "N or LEAST-MOST stones with 1 <= LEAST <= MOST <= {MOST_STONES} (an opening is drawn within three points of the centre)"
        ))),
    }
}

/// Finds the openings and writes them, with how they were found.
pub fn run(args: Args) -> anyhow::Result<()> {
    // --stones, --nodes and --within are in range (their parsers).
    inarow_match::setup::generated_size(args.size).map_err(anyhow::Error::msg)?;
    if args.nodes.is_empty() {
        bail!("--nodes needs one or more node budgets, such as 2000,3000");
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let search = OpenSearch {
        seed: args.seed,
        count: args.count,
        tries: args.tries,
        stones: args.stones,
        size: args.size,
        rule: args.rule.rule(),
        budgets: args.nodes.clone(),
        within: args.within,
        jobs: jobs.max(1),
    };
    let OpenFound {
        openings: found,
        tried,
    } = open_openings(&search);
    if found.is_empty() {
        bail!(
            "no open opening in {} candidates: try more (--tries) or other budgets (--nodes)",
            args.tries
        );
    }
    let budgets: Vec<String> = args.nodes.iter().map(u64::to_string).collect();
    let mut text = format!(
        "# Openings whose outcome is open, written by `inarow selfplay openings`\n\
         # (seed {}, stones {}-{}, {}x{} {}): from each candidate the engine played\n\
         # itself once at each of {} nodes a move, and kept it when black scored\n\
         # within {} of even ({} kept of {} tried). One opening a line,\n\
         # x,y points from black; black's score after the #.\n",
        args.seed,
        args.stones.0,
        args.stones.1,
        args.size,
        args.size,
        search.rule.name(),
        budgets.join(", "),
        args.within,
        found.len(),
        tried,
    );
    for o in &found {
        let points: Vec<String> = o
            .opening
            .iter()
            .map(|p| {
                let (x, y) = p.xy(args.size);
                format!("{x},{y}")
            })
            .collect();
        text.push_str(&format!("{} # black {:.2}\n", points.join(" "), o.black));
    }
    write_atomic(&args.out, text.as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "{} open openings of {} wanted ({tried} candidates tried), in {}",
        found.len(),
        args.count,
        args.out.display()
    );
    Ok(())
}
