//! `inarow menace train`: many games in a row, a table per block of games,
//! the learning curve as CSV and as a chart.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use anyhow::bail;
use inarow_agents::{Perfect, RandomAgent};
use inarow_core::TicTacToe;
use inarow_menace::{AgentSeat, Curve, GameResult, Memory, Tally, opponent_seed, results};

use super::chart;
use super::{MachineArgs, store};

/// Who MENACE plays against.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Uniformly random legal moves.
    Random,
    /// A perfect player, random among its best moves.
    Perfect,
    /// A second MENACE playing O with its own 289 boxes; it learns too.
    Menace,
}

/// Options of `inarow menace train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Who MENACE plays against.
    #[arg(long, value_enum, default_value_t = Opponent::Random)]
    opponent: Opponent,
    /// Number of games to play.
    #[arg(long, value_parser = crate::numbers::whole::<u64>(1))]
    games: u64,
    /// Games per row of the table and point of the curve [default: games / 20].
    #[arg(long, value_parser = crate::numbers::whole::<u64>(1))]
    block: Option<u64>,
    /// Write the learning curve (one row per block) to this CSV file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Draw the learning curve to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    chart: Option<PathBuf>,
    /// Save the state file every N games as well as at the end, so a run
    /// that is killed loses at most N games.
    #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = crate::numbers::whole::<u64>(1))]
    save_every: u64,
    #[command(flatten)]
    machine: MachineArgs,
}

/// Runs `inarow menace train`.
pub fn run(args: Args) -> anyhow::Result<()> {
    // --games, --block and --save-every are at least 1 (their parsers).
    let block = args.block.unwrap_or(args.games.div_ceil(20));
    if let Some(path) = &args.chart {
        let svg = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        if !svg {
            bail!(
                "--chart {}: the chart is drawn as SVG only: name the file with .svg",
                path.display()
            );
        }
    }
    for path in [&args.csv, &args.chart].into_iter().flatten() {
        store::check_writable(path, "output file")?;
    }
    // Held till the end: the state file is saved during the run and after.
    let (mut memory, _lock) = store::open(&args.machine, true)?;
    let seed = args.machine.seed;
    let opponent_seed = opponent_seed(seed);
    let curve = match args.opponent {
        Opponent::Random => {
            let mut random = AgentSeat(RandomAgent::new(opponent_seed));
            blocks(&args, block, &mut memory, |m, n, curve| {
                curve.extend(results(&mut m.x, &mut random, n));
            })?
        }
        Opponent::Perfect => {
            let mut perfect = AgentSeat(Perfect::<TicTacToe>::new(opponent_seed));
            blocks(&args, block, &mut memory, |m, n, curve| {
                curve.extend(results(&mut m.x, &mut perfect, n));
            })?
        }
        Opponent::Menace => blocks(&args, block, &mut memory, |m, n, curve| {
            // The second learner is kept with MENACE: it learns too.
            let (menace, second) = m.with_second_learner(seed);
            curve.extend(results(menace, second, n));
        })?,
    };
    store::save(&args.machine, &memory)?;
    if let Some(path) = &args.csv {
        store::save_text(path, &csv_of(&curve))?;
    }
    if let Some(path) = &args.chart {
        let title = format!("MENACE ({}) against {:?}", memory.preset(), args.opponent);
        store::save_text(path, &chart::svg(&title, &curve)?)?;
    }
    Ok(())
}

/// Plays all games in blocks, printing a table row per block; `play(memory,
/// n, curve)` plays `n` games and adds them to the curve. The state file
/// (if any) is saved every `--save-every` games.
fn blocks(
    args: &Args,
    block: u64,
    memory: &mut Memory,
    mut play: impl FnMut(&mut Memory, u64, &mut Curve),
) -> anyhow::Result<Curve> {
    let progress = crate::progress::games_bar(args.games, crate::progress::whole_rate);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "MENACE ({} preset) against {:?}: {} games, {} per block",
        memory.preset(),
        args.opponent,
        args.games,
        block
    )?;
    writeln!(
        out,
        "{:>19} {:>7} {:>7} {:>7} {:>6} {:>6} {:>6}",
        "games", "wins", "draws", "losses", "win%", "draw%", "loss%"
    )?;
    let mut curve = Curve::new(block);
    let mut unsaved = 0;
    while curve.games() < args.games {
        let len = block.min(args.games - curve.games());
        // Step the progress bar a few times per block even for big blocks.
        let step = len.div_ceil(8).max(1);
        let mut done = 0;
        while done < len {
            let n = step.min(len - done).min(args.save_every - unsaved);
            play(memory, n, &mut curve);
            done += n;
            unsaved += n;
            progress.inc(n);
            // The last save is the caller's, after the run.
            if unsaved == args.save_every && curve.games() < args.games {
                store::save(&args.machine, memory)?;
                unsaved = 0;
            }
        }
        let b = curve.last_block().expect("a block was played");
        progress
            .suspend(|| writeln!(out, "{}", row(&format!("{}-{}", b.first, b.last), &b.tally)))?;
    }
    progress.finish_and_clear();
    writeln!(out, "{}", row("all", &curve.total()))?;
    writeln!(out, "beads in MENACE's boxes: {}", memory.x.total_beads())?;
    Ok(curve)
}

fn row(label: &str, tally: &Tally) -> String {
    let pct = GameResult::ALL.map(|r| 100.0 * tally.rate(r));
    format!(
        "{label:>19} {:>7} {:>7} {:>7} {:>6.1} {:>6.1} {:>6.1}",
        tally.wins, tally.draws, tally.losses, pct[0], pct[1], pct[2]
    )
}

/// The learning curve as CSV: one row per block.
fn csv_of(curve: &Curve) -> String {
    let mut csv =
        String::from("first_game,last_game,wins,draws,losses,win_rate,draw_rate,loss_rate\n");
    for b in curve.blocks() {
        let t = &b.tally;
        let r = GameResult::ALL.map(|r| t.rate(r));
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{:.4},{:.4},{:.4}",
            b.first, b.last, t.wins, t.draws, t.losses, r[0], r[1], r[2]
        );
    }
    csv
}
