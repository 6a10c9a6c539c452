//! The `selfplay` subcommand: a match between two engine settings, or
//! against another build or engine speaking the Gomocup brain protocol, with
//! the score, an Elo estimate with 95% error bars, and an SPRT verdict.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use inarow_core::{GameResult, Point};
use inarow_engine::search::{Limits, Options, Searcher};
use inarow_judge::matches::brain::{self, BrainProcess, Place};
use inarow_judge::matches::{self, Contender, Plan, Verdict, openings, stats};

/// Options of `inarow selfplay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Settings of engine A, e.g. `width=20,leaf_vcf=0,root_vcf=on,vcf_defence=on,lmr=on,tt_mb=32`.
    #[arg(long, default_value = "")]
    pub a: String,
    /// Settings of engine B (the baseline).
    #[arg(long, default_value = "")]
    pub b: String,
    /// Play A with this Gomocup brain instead (e.g. another build's
    /// `pbrain-inarow`, or another engine); it gets `--ms` per move.
    #[arg(long, conflicts_with = "a")]
    pub a_brain: Option<std::path::PathBuf>,
    /// Play B with this Gomocup brain instead.
    #[arg(long, conflicts_with = "b")]
    pub b_brain: Option<std::path::PathBuf>,
    /// Openings file: one opening a line, `x,y` points in move order.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Number of openings (each played twice, colours swapped); without a
    /// file, balanced four-stone openings are generated from the seed.
    #[arg(long, default_value_t = 20)]
    pub pairs: usize,
    /// Milliseconds per move (ignored when --nodes is given).
    #[arg(long, default_value_t = 100)]
    pub ms: u64,
    /// Node budget per move instead of time (reproducible games).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// SPRT hypotheses: A is `elo0` (H0) or `elo1` (H1) better; stops early.
    #[arg(long, default_value_t = 0.0)]
    pub elo0: f64,
    /// See `--elo0`.
    #[arg(long, default_value_t = 20.0)]
    pub elo1: f64,
    /// Stones in each generated opening.
    #[arg(long, default_value_t = 5)]
    pub stones: usize,
    /// Seed for the generated openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game to this file, one a line: pair, A's colour, the
    /// result for A (1, = or 0), the opening's points, `|`, the moves.
    #[arg(long)]
    pub games: Option<std::path::PathBuf>,
    /// How brains are contained (only brains run in the sandbox; the
    /// engines of this build run in this process).
    #[command(flatten)]
    pub sandbox: crate::judge::SandboxArgs,
}

/// Runs the match and prints a line per pair and a summary.
pub fn run(args: Args) -> anyhow::Result<()> {
    let size = 15;
    let a: Options = args.a.parse().map_err(anyhow::Error::msg).context("--a")?;
    let b: Options = args.b.parse().map_err(anyhow::Error::msg).context("--b")?;
    if args.pairs == 0 {
        bail!("--pairs must be at least 1");
    }
    if !(1..=20).contains(&args.stones) {
        bail!("--stones must be between 1 and 20");
    }
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read openings file {}", path.display()))?;
            openings::parse_openings(&text, size).map_err(anyhow::Error::msg)?
        }
        None => openings::balanced_openings(args.seed, args.pairs, size, args.stones),
    };
    let limits = match args.nodes {
        Some(n) => Limits {
            time: None,
            depth: 60,
            nodes: n,
        },
        None => Limits::time(Duration::from_millis(args.ms)),
    };
    if args.nodes.is_some() && (args.a_brain.is_some() || args.b_brain.is_some()) {
        bail!("--nodes needs two engines of this build: a brain keeps its own clock, use --ms");
    }
    let turn = Duration::from_millis(args.ms);
    let place = |path: &Option<PathBuf>| {
        path.as_deref()
            .map(Place::find)
            .transpose()
            .map_err(anyhow::Error::msg)
    };
    let brains = [place(&args.a_brain)?, place(&args.b_brain)?];
    // Each brain is kept out of the other's folder (unless they share one).
    let folders: Vec<PathBuf> = brains
        .iter()
        .flatten()
        .map(|b| b.folder().to_path_buf())
        .collect();
    // Engine against engine needs no sandbox: nothing to probe, no warning.
    let sandbox = if brains.iter().any(Option::is_some) {
        let sandbox = args
            .sandbox
            .sandbox(brain::cpu_budget(args.pairs, size, turn))?;
        for place in brains.iter().flatten() {
            for warning in place
                .check(&sandbox, &folders)
                .map_err(anyhow::Error::msg)?
            {
                eprintln!("inarow: warning: {warning}");
            }
        }
        Some(sandbox)
    } else {
        None
    };
    let contender = |k: usize, options| -> anyhow::Result<Box<dyn Contender>> {
        Ok(match (&brains[k], &sandbox) {
            (Some(place), Some(sandbox)) => Box::new(
                BrainProcess::start(place, &folders, sandbox, size, turn)
                    .map_err(anyhow::Error::msg)?,
            ),
            _ => Box::new(Searcher::new(options)),
        })
    };
    let mut record = match &args.games {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write games file {}", path.display()))?,
        )),
        None => None,
    };
    let mut sa = contender(0, a)?;
    let mut sb = contender(1, b)?;
    let plan = Plan {
        openings: &openings,
        pairs: args.pairs,
        size,
        limits,
        elo0: args.elo0,
        elo1: args.elo1,
    };
    // A contender that cannot answer loses the game: say why, once for
    // each side rather than once a game.
    let mut reported: [Option<String>; 2] = [None, None];
    let summary = matches::play_match(
        sa.as_mut(),
        sb.as_mut(),
        &plan,
        |played| -> anyhow::Result<()> {
            let g = played.game;
            if let Some(why) = &g.failure {
                let side = usize::from(g.result == GameResult::Win);
                if reported[side].as_ref() != Some(why) {
                    eprintln!("inarow: {why}; it loses the game");
                    reported[side] = Some(why.clone());
                }
            }
            let Some(out) = record.as_mut() else {
                return Ok(());
            };
            let colour = if played.a_black { "black" } else { "white" };
            writeln!(
                out,
                "{} {colour} {} {} | {}",
                played.pair + 1,
                result_mark(g.result),
                points(played.opening, size),
                points(&g.moves, size)
            )
            .and_then(|_| out.flush())
            .context("cannot write the games file")
        },
        |pair| {
            let line: String = pair.results.iter().map(|&r| result_mark(r)).collect();
            println!(
                "pair {:>3}: {line}  A {}-{}-{}  LLR {:.2}",
                pair.pair + 1,
                pair.tally.wins,
                pair.tally.draws,
                pair.tally.losses,
                pair.llr
            );
        },
    )?;
    let tally = summary.tally;
    let (lo, elo, hi) = stats::elo(&tally);
    let (llr, verdict) = stats::sprt(&tally, args.elo0, args.elo1);
    println!(
        "A vs B: +{} ={} -{} score {:.3}  Elo {elo:+.0} [{lo:+.0}, {hi:+.0}] (95%)",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.score()
    );
    println!(
        "SPRT elo0 {} elo1 {}: LLR {llr:.2} (bounds -2.94, 2.94): {}",
        args.elo0,
        args.elo1,
        match verdict {
            Verdict::Accept => "H1 accepted (A gains)",
            Verdict::Reject => "H0 accepted (no gain)",
            Verdict::Continue => "undecided",
        }
    );
    println!(
        "illegal moves: {}; longest think: {} ms",
        summary.illegal,
        summary.longest.as_millis()
    );
    Ok(())
}

/// A's result as the pair lines and the games file show it.
fn result_mark(result: GameResult) -> char {
    match result {
        GameResult::Win => '1',
        GameResult::Draw => '=',
        GameResult::Loss => '0',
    }
}

/// Points as `x,y` separated by spaces, as the openings file has them.
fn points(ps: &[Point], size: usize) -> String {
    ps.iter()
        .map(|p| format!("{},{}", p.col(size), p.row(size)))
        .collect::<Vec<_>>()
        .join(" ")
}
