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
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Candidates tried at most.
    #[arg(long, default_value_t = 2000)]
    pub tries: usize,
    /// Stones of an opening: `N`, or `LEAST-MOST` (each candidate draws its own).
    #[arg(long, default_value = "4-6", value_parser = parse_stones)]
    pub stones: (usize, usize),
    /// Node budgets, one game of the engine against itself at each from
    /// every candidate.
    #[arg(long, default_value = "2000,3000,4500,7000", value_delimiter = ',')]
    pub nodes: Vec<u64>,
    /// How far from even black's score may be (0 to 0.5): kept within
    /// 0.5 ± this.
    #[arg(long, default_value_t = 0.125)]
    pub within: f64,
    /// Seed of the candidates.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: one a core).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// The board's side.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    #[command(flatten)]
    pub rule: crate::args::RuleArgs,
}

/// Reads `N` or `LEAST-MOST` stones.
fn parse_stones(text: &str) -> Result<(usize, usize), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected N or LEAST-MOST stones, got {text:?}"))
    };
    let (least, most) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if least == 0 || least > most {
        return Err(format!("stones {text:?}: need 1 <= LEAST <= MOST"));
    }
    Ok((least, most))
}

/// Finds the openings and writes them, with how they were found.
pub fn run(args: Args) -> anyhow::Result<()> {
    inarow_match::setup::generated_size(args.size).map_err(anyhow::Error::msg)?;
    if args.stones.1 > 9 {
        bail!(
            "at most 9 stones: an opening is drawn within three points of the centre ({} asked)",
            args.stones.1
        );
    }
    if args.nodes.is_empty() || args.nodes.contains(&0) {
        bail!("--nodes needs one or more node budgets above 0");
    }
    if !(0.0..=0.5).contains(&args.within) {
        bail!("--within {} is out of range: use 0 to 0.5", args.within);
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
