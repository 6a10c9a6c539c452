//! `inarow selfplay oracle` and `inarow selfplay agree`: a reference
//! brain's moves in positions of a match, and how often a brain at a
//! small node budget picks them (issue 55). Deterministic at a fixed node
//! budget and paired position by position, it measures a search's choices
//! far more cheaply than games do.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use inarow_core::{Game, Mnk, Point, Rule};
use inarow_files::{check_writable, write_atomic};
use inarow_judge::shown::escape;
use inarow_match::agree::{self, Paired, Position};
use inarow_match::brain::{self, BrainProcess, Eval, Place};
use inarow_match::sgf;
use inarow_sandbox::Sandbox;

/// Options of `inarow selfplay oracle`.
#[derive(clap::Args, Debug)]
pub struct OracleArgs {
    /// The match's SGF file, as c-gomoku-cli writes it.
    #[arg(value_name = "GAMES.sgf")]
    sgf: PathBuf,
    /// The reference brain (a Gomocup brain program, e.g. Rapfi's `pbrain-rapfi`).
    #[arg(long, value_name = "PROGRAM")]
    brain: PathBuf,
    /// Nodes the reference searches in each position (`INFO max_node`).
    #[arg(long, value_parser = crate::numbers::whole::<u64>(1))]
    nodes: u64,
    /// Positions to keep (positions whose game the reference says is
    /// decided are skipped).
    #[arg(long, value_parser = crate::numbers::whole::<usize>(1))]
    count: usize,
    /// Seed of the positions' order.
    #[arg(long, default_value_t = 55, value_parser = crate::numbers::seed)]
    seed: u64,
    /// The positions file to write: a line each, the moves as `x,y`
    /// points, ` | ` and the reference's move.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Options every brain asked shares.
    #[command(flatten)]
    common: Common,
}

/// Options of `inarow selfplay agree`.
#[derive(clap::Args, Debug)]
pub struct AgreeArgs {
    /// The positions file `inarow selfplay oracle` wrote.
    #[arg(value_name = "POSITIONS")]
    positions: PathBuf,
    /// The brain measured (a Gomocup brain program, e.g. a build's `pbrain-inarow`).
    #[arg(long, value_name = "PROGRAM")]
    brain: PathBuf,
    /// Nodes the brain searches in each position (`INFO max_node`).
    #[arg(long, value_parser = crate::numbers::whole::<u64>(1))]
    nodes: u64,
    /// Write a line each position: 1 where the brain chose the reference's
    /// move, 0 where it did not.
    #[arg(long, value_name = "FILE")]
    marks: Option<PathBuf>,
    /// Another run's marks file on the same positions: the positions only
    /// one of the two agrees on, and McNemar's test of the difference.
    #[arg(long, value_name = "MARKS")]
    against: Option<PathBuf>,
    /// Options every brain asked shares.
    #[command(flatten)]
    common: Common,
}

/// What oracle and agree share: the board and how a brain runs.
#[derive(clap::Args, Debug)]
struct Common {
    /// The board's side.
    #[arg(long, default_value_t = 15, value_parser = crate::args::board_size)]
    size: usize,
    /// The rule told to the brain and that the positions are played under.
    #[command(flatten)]
    rule: crate::args::RuleArgs,
    /// Milliseconds a brain is told it may take a move (`INFO
    /// timeout_turn`): generous, so that the node budget alone decides.
    #[arg(long, default_value_t = 60_000, value_parser = crate::numbers::whole::<u64>(1))]
    ms: u64,
    /// How brains are contained.
    #[command(flatten)]
    sandbox: crate::args::SandboxArgs,
}

/// A brain program, started afresh for each position (no hash of another
/// position helps it) in its sandbox.
struct Asker {
    place: Place,
    folders: Vec<PathBuf>,
    sandbox: Sandbox,
    size: usize,
    rule: Rule,
    turn: Duration,
    empty: Mnk,
}

impl Asker {
    fn new(program: &Path, common: &Common) -> anyhow::Result<Asker> {
        let place = Place::find(program, None)?;
        let turn = Duration::from_millis(common.ms);
        // One position a process: a backstop of one move's patience.
        let cpu = brain::patience(turn).as_secs().max(60);
        let mut sandbox = common.sandbox.sandbox(cpu)?;
        sandbox.set_live(1);
        let folders = vec![place.data_folder().to_path_buf()];
        for warning in place.check(&sandbox, &folders)? {
            eprintln!("inarow: warning: {}", escape(&warning));
        }
        let rule = common.rule.rule();
        Ok(Asker {
            empty: Mnk::new(common.size, common.size, 5, rule)?,
            place,
            folders,
            sandbox,
            size: common.size,
            rule,
            turn,
        })
    }

    /// The brain's move after `moves` at `nodes`, and its evaluation; an
    /// error for a move that is not an empty point.
    fn ask(&self, moves: &[Point], nodes: u64) -> anyhow::Result<(Point, Option<Eval>)> {
        let game = agree::replay(&self.empty, moves).map_err(anyhow::Error::msg)?;
        let mut brain = BrainProcess::start(
            &self.place,
            &self.folders,
            &self.sandbox,
            self.size,
            self.rule,
            self.turn,
        )?;
        let (p, eval) = brain.move_at_nodes(&game, moves, nodes)?;
        if game.stone(p).is_some() {
            bail!(
                "brain {} played {} on a stone",
                escape(&self.place.folder().display().to_string()),
                p.to_xy(self.size)
            );
        }
        Ok((p, eval))
    }
}

/// Writes the positions file: positions of the match in the seeded order,
/// each with the reference's move, those it says are decided left out.
pub fn run_oracle(args: OracleArgs) -> anyhow::Result<()> {
    let text = std::fs::read(&args.sgf)
        .with_context(|| format!("cannot read the SGF file {}", args.sgf.display()))?;
    let games = sgf::moves(&String::from_utf8_lossy(&text)).with_context(|| {
        format!(
            "{} holds no games to take positions from",
            args.sgf.display()
        )
    })?;
    let size = args.common.size;
    if let Some(g) = games.iter().find(|g| g.size != size) {
        bail!(
            "{} has a {}x{} game: give --size {}",
            args.sgf.display(),
            g.size,
            g.size,
            g.size
        );
    }
    let candidates = agree::candidates(&games, args.seed);
    // Saved whole at the end, as every file of the project is; checked
    // first so that a long run does not end unable to save.
    check_writable(&args.out).with_context(|| format!("cannot write {}", args.out.display()))?;
    let asker = Asker::new(&args.brain, &args.common)?;
    let mut out = String::new();
    let (mut kept, mut decided) = (0, 0);
    for moves in &candidates {
        if kept == args.count {
            break;
        }
        let (best, eval) = asker.ask(moves, args.nodes)?;
        if eval.is_some_and(Eval::decided) {
            decided += 1;
            continue;
        }
        let line = agree::line_of(
            &Position {
                moves: moves.clone(),
                best,
            },
            size,
        );
        out.push_str(&line);
        out.push('\n');
        kept += 1;
    }
    write_atomic(&args.out, out.as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "oracle: {kept} positions to {} ({decided} decided left out, {} positions in the games)",
        args.out.display(),
        candidates.len()
    );
    if kept < args.count {
        eprintln!(
            "inarow: warning: only {kept} of the {} positions asked for: the games hold no more",
            args.count
        );
    }
    Ok(())
}

/// Prints how often the brain picks the reference's move, and with
/// `--against` the paired comparison with another run.
pub fn run_agree(args: AgreeArgs) -> anyhow::Result<()> {
    let name = args.positions.display();
    let text = std::fs::read_to_string(&args.positions)
        .with_context(|| format!("cannot read the positions file {name}"))?;
    let positions = agree::read_positions(&text, args.common.size, args.common.rule.rule())
        .with_context(|| format!("{name} is not a positions file"))?;
    // Read the other run's marks first: a bad file is refused before any
    // brain runs.
    let other = match &args.against {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the marks file {}", path.display()))?;
            Some(
                agree::read_marks(&text, positions.len())
                    .map_err(anyhow::Error::msg)
                    .with_context(|| format!("{} is not a marks file of {name}", path.display()))?,
            )
        }
        None => None,
    };
    if let Some(path) = &args.marks {
        check_writable(path)
            .with_context(|| format!("cannot write the marks file {}", path.display()))?;
    }
    let asker = Asker::new(&args.brain, &args.common)?;
    let mut marks = Vec::with_capacity(positions.len());
    for p in &positions {
        let (chosen, _) = asker.ask(&p.moves, args.nodes)?;
        marks.push(chosen == p.best);
    }
    if let Some(path) = &args.marks {
        write_atomic(path, agree::marks_text(&marks).as_bytes())
            .with_context(|| format!("cannot write the marks file {}", path.display()))?;
    }
    let hits = marks.iter().filter(|&&m| m).count();
    println!(
        "agree: {hits} of {} ({:.1}%)",
        marks.len(),
        100.0 * hits as f64 / marks.len() as f64
    );
    if let Some(other) = other {
        let p = Paired::of(&marks, &other);
        println!(
            "against {}: only this brain {}, only the other {}, both {}, neither {}; McNemar p = {:.3} (z = {:+.2})",
            args.against.as_deref().unwrap_or(Path::new("")).display(),
            p.only_this,
            p.only_other,
            p.both,
            p.neither,
            p.p_value(),
            p.z()
        );
    }
    Ok(())
}
