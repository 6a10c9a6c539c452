//! The `eval` subcommand: the learned evaluation's tool chain. `games`
//! plays seeded self-play games at fixed nodes from varied openings, a game
//! per core, into a games file; `fit` fits the tables by logistic
//! regression and writes a tables file; `check` reads a tables file and
//! compares its loss with today's (the embedded tables') and the tuned
//! pattern evaluation's, on games given or on a small seeded set it plays.

use std::fs::File;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::progress::{games_bar, rate};
use anyhow::Context;
use inarow_core::{GameResult, Rule, Xy};
use inarow_engine::eval::fine_tables::FineTables;
use inarow_engine::eval::learned::Learned;
use inarow_engine::eval::{Eval, Weights};
use inarow_engine::learn::games::{self, GameRecord};
use inarow_engine::learn::{self, Samples, shapes};
use inarow_engine::options::OptionsError;
use inarow_engine::search::{Limits, Options, Searcher};
use inarow_files::write_atomic;
use inarow_match::openings::seeded_openings;
use inarow_match::{in_order, play_match_game};
use sha2::{Digest, Sha256};

/// Options of `inarow eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: EvalCommand,
}

#[derive(clap::Subcommand, Debug)]
enum EvalCommand {
    /// Play seeded self-play games at fixed nodes into a games file.
    Games(GamesArgs),
    /// Fit the learned evaluation's tables to games files.
    Fit(FitArgs),
    /// Read a tables file: what it holds, and its loss beside today's
    /// tables' and the pattern evaluation's, on games given or played.
    Check(CheckArgs),
}

/// Options of `inarow eval games`.
#[derive(clap::Args, Debug)]
struct GamesArgs {
    /// The games file to write: each game is added whole as it ends, so a
    /// run cut short keeps every game it finished.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// How many games.
    #[arg(long, default_value_t = 1000, value_parser = crate::numbers::whole::<usize>(1))]
    games: usize,
    /// Nodes a move.
    #[arg(long, default_value_t = 5000, value_parser = crate::numbers::whole::<u64>(1))]
    nodes: u64,
    /// Random stones of each opening (near the centre, alternating).
    #[arg(long, default_value_t = 4, value_parser = crate::numbers::whole_in::<usize>(1, 20))]
    stones: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::seed)]
    seed: u64,
    /// Games played at once, a game per core.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = crate::numbers::whole::<usize>(1))]
    jobs: usize,
    /// The engine's settings, as `inarow selfplay --a` takes them.
    #[arg(long, default_value = "")]
    settings: String,
    /// The board's side.
    #[arg(long, default_value_t = 15, value_parser = crate::args::board_size)]
    size: usize,
    /// The rule.
    #[command(flatten)]
    rule: crate::args::RuleArgs,
}

/// Options of `inarow eval fit`.
#[derive(clap::Args, Debug)]
struct FitArgs {
    /// Games files (from `inarow eval games`); every tenth game is held out.
    #[arg(required = true, value_name = "GAMES")]
    games: Vec<PathBuf>,
    /// The tables file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Tables to start from: `learned` (the embedded ones), `tuned` (the tuned
    /// pattern evaluation as tables) or a tables file. A rule without games
    /// keeps these.
    #[arg(long, default_value = "learned")]
    from: String,
    /// Fit fine tables instead (evaluation v3: values of the 2,380 fine
    /// point codes by colour, of the eleven-bit threat masks, and
    /// move-ordering scores fitted to the moves played), into a tables
    /// file of version 3; they start from zero.
    #[arg(long, conflicts_with = "from")]
    fine: bool,
    /// The pull of each value towards where it started (L2, per position):
    /// 1e-4 by default, 1e-3 with `--fine`, whose values start from the
    /// embedded tables' (each code at its nine-pattern shape's value).
    #[arg(long, value_parser = crate::numbers::real("a number from 0 to 1", |x| (0.0..=1.0).contains(&x)))]
    pull: Option<f64>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 400, value_parser = crate::numbers::whole::<usize>(1))]
    epochs: usize,
}

/// Options of `inarow eval check`.
#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The tables file, or `rapfi:FILE`: a published classical model
    /// (Rapfi's `model220723.bin`), measured beside the embedded tables.
    tables: PathBuf,
    /// Games files to measure the tables' loss on (from `inarow eval
    /// games`); without them, a small seeded set is played (--play).
    #[arg(value_name = "GAMES")]
    games: Vec<PathBuf>,
    /// Without games files: how many seeded self-play games today's engine
    /// plays to measure on (a few seconds; a games file measures on more).
    #[arg(long, value_name = "N", default_value_t = 40, conflicts_with = "games", value_parser = crate::numbers::whole::<usize>(1))]
    play: usize,
    /// Nodes a move of the games played (--play).
    #[arg(long, default_value_t = 1000, conflicts_with = "games", value_parser = crate::numbers::whole::<u64>(1))]
    nodes: u64,
    /// Seed of the openings of the games played (--play).
    #[arg(long, default_value_t = 1, conflicts_with = "games", value_parser = crate::numbers::seed)]
    seed: u64,
    /// Games played at once (--play), a game per core.
    #[arg(short = 'j', long, default_value_t = 1, conflicts_with = "games", value_parser = crate::numbers::whole::<usize>(1))]
    jobs: usize,
    /// The rule of the games played (--play).
    #[command(flatten)]
    rule: crate::args::RuleArgs,
}

/// Runs `inarow eval`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        EvalCommand::Games(a) => games(a),
        EvalCommand::Fit(a) => fit_tables(a),
        EvalCommand::Check(a) => check(a),
    }
}

/// Seeded self-play at fixed nodes from varied openings: what `eval
/// games` writes, and what `eval check` measures on without a games file.
struct SelfPlay {
    games: usize,
    nodes: u64,
    stones: usize,
    seed: u64,
    jobs: usize,
    options: Options,
    size: usize,
    rule: Rule,
}

/// One game of a [`SelfPlay`], as the games file keeps it.
struct Played {
    record: GameRecord,
    /// Whether black lost by a stone on a forbidden point (renju).
    forbidden: bool,
}

impl SelfPlay {
    /// Plays the games, a game per worker, and hands each to `heard` in
    /// order (from 0) until it says to stop.
    fn play(&self, mut heard: impl FnMut(usize, Played) -> ControlFlow<()>) {
        let (size, rule) = (self.size, self.rule);
        let openings = seeded_openings(self.seed, self.games, size, self.stones);
        let limits = Limits::nodes(self.nodes);
        // Black and white each keep their own table, as in a match.
        let mut workers: Vec<(Searcher, Searcher)> = (0..self.jobs)
            .map(|_| (Searcher::new(self.options), Searcher::new(self.options)))
            .collect();
        in_order(
            &mut workers,
            &openings,
            |(black, white), opening| {
                play_match_game(black, white, true, opening, size, rule, limits)
            },
            |k, game| {
                let opening = &openings[k];
                let moves = opening
                    .iter()
                    .chain(&game.moves)
                    .map(|p| Xy::new(p.col(size), p.row(size)))
                    .collect();
                let record = GameRecord {
                    rule,
                    size: size as u8,
                    opening: opening.len() as u8,
                    black: game.result,
                    moves,
                };
                heard(
                    k,
                    Played {
                        record,
                        forbidden: game.forbidden.is_some(),
                    },
                )
            },
        );
    }
}

/// The games file being written: its header first, then each game added
/// whole as it ends. A write that fails is cut back to the games before
/// it, so the file always reads as the games it holds.
struct GamesFile {
    path: PathBuf,
    file: File,
    /// The bytes of the header and the whole games written.
    whole: u64,
}

impl GamesFile {
    /// A new games file of no games at `path`, in place of any before.
    fn create(path: &Path) -> anyhow::Result<GamesFile> {
        let header = games::games_header();
        let cannot = || format!("cannot write the games file {}", path.display());
        // Whole from its first moment: a header, in place at once.
        write_atomic(path, &header).with_context(cannot)?;
        let file = File::options()
            .append(true)
            .open(path)
            .with_context(cannot)?;
        Ok(GamesFile {
            path: path.to_path_buf(),
            file,
            whole: header.len() as u64,
        })
    }

    /// Adds `game` in one write.
    fn add(&mut self, game: &GameRecord) -> anyhow::Result<()> {
        let mut bytes = Vec::new();
        games::write_game(&mut bytes, game);
        if let Err(e) = self.file.write_all(&bytes) {
            // A part of a game (a full disk) would make the file unreadable.
            let _ = self.file.set_len(self.whole);
            return Err(e)
                .with_context(|| format!("cannot write the games file {}", self.path.display()));
        }
        self.whole += bytes.len() as u64;
        Ok(())
    }
}

fn games(args: GamesArgs) -> anyhow::Result<()> {
    let options: Options = args
        .settings
        .parse()
        .map_err(|e: OptionsError| anyhow::anyhow!("--settings: {e}"))?;
    // --games, --nodes, -j and --stones are in range (their parsers).
    inarow_match::setup::generated_size(args.size).map_err(anyhow::Error::msg)?;
    let rule = args.rule.rule();
    let plan = SelfPlay {
        games: args.games,
        nodes: args.nodes,
        stones: args.stones,
        seed: args.seed,
        jobs: args.jobs,
        options,
        size: args.size,
        rule,
    };
    let mut file = GamesFile::create(&args.out)?;
    let bar = games_bar(args.games as u64, rate);
    let mut tally = [0usize; 3];
    let mut forbidden = 0;
    let mut failed = None;
    plan.play(|k, played| {
        if let Err(e) = file.add(&played.record) {
            failed = Some(e);
            return ControlFlow::Break(());
        }
        forbidden += usize::from(played.forbidden);
        tally[match played.record.black {
            GameResult::Win => 0,
            GameResult::Draw => 1,
            GameResult::Loss => 2,
        }] += 1;
        let lost = if rule == Rule::Renju {
            format!(" ({forbidden} by a black stone on a forbidden point)")
        } else {
            String::new()
        };
        let said = format!(
            "black won {}, drawn {}, white won {}{lost}",
            tally[0], tally[1], tally[2]
        );
        bar.set_message(said.clone());
        bar.inc(1);
        let done = k + 1;
        if done % 200 == 0 || done == args.games {
            bar.suspend(|| println!("{done} games: {said}"));
        }
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    match failed {
        Some(e) => Err(e),
        None => {
            println!("wrote {} games to {}", args.games, args.out.display());
            Ok(())
        }
    }
}

fn read_games_file(path: &Path) -> anyhow::Result<Vec<GameRecord>> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read games file {}", path.display()))?;
    games::read_games(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// The tables named by `--from`.
fn tables_from(from: &str) -> anyhow::Result<Learned> {
    Ok(match from {
        "learned" => Learned::embedded().clone(),
        "tuned" => {
            let t = Weights::TUNED.tables();
            Learned::new([t.clone(), t.clone(), t], [0.0; 3])
        }
        path => read_tables(Path::new(path))?,
    })
}

/// `inarow eval fit --fine`: fine tables fitted to the games, every tenth
/// game held out, written as a tables file of version 3.
fn fit_fine_tables(args: &FitArgs) -> anyhow::Result<()> {
    let (mut train, mut held) = (Samples::default(), Samples::default());
    let mut n = 0usize;
    for path in &args.games {
        for game in read_games_file(path)? {
            let into = if n % 10 == 9 { &mut held } else { &mut train };
            into.add_fine(&game, &Weights::TUNED);
            n += 1;
        }
    }
    anyhow::ensure!(
        !held.is_empty() && !train.is_empty(),
        "too few positions to fit and hold some out (every tenth game is held out)"
    );
    println!(
        "{} training positions ({} moves to order), {} held out ({})",
        train.len(),
        train.choices(),
        held.len(),
        held.choices()
    );
    let options = learn::Options {
        epochs: args.epochs,
        pull: args.pull.unwrap_or(1e-3),
        ..learn::Options::FINE
    };
    let start = FineTables::from_learned(Learned::embedded());
    let (tables, report) = learn::fine::fit_fine(&train, &held, &start, options);
    println!(
        "values: loss {:.5} training, {:.5} held out (epoch {})",
        report.fitted.0, report.fitted.1, report.epoch
    );
    if let Some(order) = report.order {
        println!(
            "ordering: loss {:.5} training, {:.5} held out (epoch {}); the move played ranked first in {:.1}% of held-out positions",
            order.loss.0,
            order.loss.1,
            order.epoch,
            100.0 * order.top
        );
    }
    write_atomic(&args.out, &tables.to_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("wrote {} (fine tables, version 3)", args.out.display());
    Ok(())
}

/// `inarow eval check rapfi:MODEL` or `check FINE` (a tables file of
/// version 3): the tables' loss on the games' positions at their own scale
/// and at the best scale there, beside the embedded learned tables' and
/// the pattern evaluation's, all through the search's evaluation of each
/// position.
fn check_fine(tables: &'static FineTables, all: &[GameRecord]) {
    let embedded = Learned::embedded();
    for rule in Rule::ALL {
        let games: Vec<_> = all.iter().filter(|g| g.rule == rule).cloned().collect();
        if games.is_empty() {
            continue;
        }
        // The engine's units are the embedded tables' (see
        // `FineTables::to_engine_units`), so their scale is the model's own.
        let own = embedded.scale(rule);
        let line = |name: &str, scored: &[(f32, f32)]| {
            let best = learn::best_scored_scale(scored);
            format!(
                "  {name}: {:.5} at its own scale, {:.5} at its best ({:.6} per unit)",
                learn::scored_loss(scored, own),
                learn::scored_loss(scored, best),
                best
            )
        };
        let model = learn::scored(&games, &Eval::fine(tables));
        println!(
            "{rule}: {} games, {} positions; loss (mean cross-entropy):",
            games.len(),
            model.len()
        );
        println!("{}", line("the model", &model));
        for (name, eval) in [
            ("today's (the embedded tables)", Eval::Learned(embedded)),
            (
                "the tuned pattern evaluation",
                Eval::Pattern(Weights::TUNED),
            ),
        ] {
            println!("{}", line(name, &learn::scored(&games, &eval)));
        }
    }
}

fn read_tables(path: &Path) -> anyhow::Result<Learned> {
    tables_in(path, &read_bytes(path)?)
}

/// A tables file's bytes, or why they cannot be read.
fn read_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read tables file {}", path.display()))
}

/// The learned tables in `bytes`, read from `path`.
fn tables_in(path: &Path, bytes: &[u8]) -> anyhow::Result<Learned> {
    Learned::from_bytes(bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// Every game of the files, by rule (in [`Rule::ALL`]'s order); every
/// tenth game held out.
fn samples(paths: &[PathBuf]) -> anyhow::Result<[(Samples, Samples); 3]> {
    let mut games = Vec::new();
    for path in paths {
        games.extend(read_games_file(path)?);
    }
    Ok(samples_of(&games))
}

/// [`samples`] of games read or played.
fn samples_of(games: &[GameRecord]) -> [(Samples, Samples); 3] {
    let mut out: [(Samples, Samples); 3] = Default::default();
    for (n, game) in games.iter().enumerate() {
        let k = Rule::ALL
            .iter()
            .position(|&r| r == game.rule)
            .expect("a rule");
        let (train, held) = &mut out[k];
        let into = if n % 10 == 9 { held } else { train };
        into.add_shapes(game, &Weights::TUNED);
    }
    out
}

fn fit_tables(args: FitArgs) -> anyhow::Result<()> {
    if args.fine {
        return fit_fine_tables(&args);
    }
    let from = tables_from(&args.from)?;
    let by_rule = samples(&args.games)?;
    let mut fitted = Rule::ALL.map(|r| from.tables(r).clone());
    let mut scales = Rule::ALL.map(|r| from.scale(r));
    let mut any = false;
    for (k, rule) in Rule::ALL.into_iter().enumerate() {
        let (train, held) = &by_rule[k];
        if train.is_empty() {
            continue;
        }
        anyhow::ensure!(
            !held.is_empty(),
            "{rule}: too few games to hold any out (every tenth is held out)"
        );
        println!(
            "{rule}: {} training positions, {} held out",
            train.len(),
            held.len()
        );
        let (tables, report) = shapes::fit(
            train,
            held,
            &fitted[k],
            learn::Options {
                epochs: args.epochs,
                pull: args.pull.unwrap_or(learn::Options::SHAPES.pull),
                ..learn::Options::SHAPES
            },
            |epoch, train, held| println!("  epoch {epoch}: loss {train:.5}, held out {held:.5}"),
        );
        println!(
            "{rule}: scale {:.6}; loss (training, held out): pattern evaluation {:.5} {:.5}, start {:.5} {:.5}, fitted {:.5} {:.5} (epoch {})",
            report.scale,
            report.base.0,
            report.base.1,
            report.start.0,
            report.start.1,
            report.fitted.0,
            report.fitted.1,
            report.epoch
        );
        fitted[k] = tables;
        scales[k] = report.scale;
        any = true;
    }
    anyhow::ensure!(any, "no positions to fit in the games given");
    let learned = Learned::new(fitted, scales);
    let bytes = learned.to_bytes();
    write_atomic(&args.out, &bytes)
        .with_context(|| format!("cannot write tables file {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    println!("{}", summary(&args.out, &bytes, &learned));
    Ok(())
}

/// What a tables file of learned tables holds, for a person: its kind,
/// the SHA-256 of the file (as `sha256sum` prints it, shortened), whether
/// it is the build's own, and the logistic scale of each rule.
fn summary(path: &Path, bytes: &[u8], learned: &Learned) -> String {
    let sha = short_sha(bytes);
    let own = if bytes == Learned::embedded().to_bytes() {
        ", the tables this build embeds"
    } else {
        ""
    };
    let scales = Rule::ALL
        .map(|rule| format!("{rule} {:.6}", learned.scale(rule)))
        .join(", ");
    format!(
        "{}: learned tables (evaluation v2), SHA-256 {sha}...{own}; logistic scale a unit: {scales}",
        path.display()
    )
}

/// The first twelve hex digits of the SHA-256 of a file's bytes, as
/// `sha256sum` begins its line: enough to tell tables apart.
fn short_sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The games `eval check` measures on: those of the files given, or
/// without files a seeded set today's engine plays, said as it starts.
fn games_to_measure(args: &CheckArgs) -> anyhow::Result<Vec<GameRecord>> {
    if !args.games.is_empty() {
        let mut all = Vec::new();
        for path in &args.games {
            all.extend(read_games_file(path)?);
        }
        return Ok(all);
    }
    let rule = args.rule.rule();
    println!(
        "no games file given: measuring on {} seeded self-play games of today's engine ({} nodes a move, seed {}, {rule}); a games file from `inarow eval games` measures on more",
        args.play, args.nodes, args.seed
    );
    let plan = SelfPlay {
        games: args.play,
        nodes: args.nodes,
        stones: 4,
        seed: args.seed,
        jobs: args.jobs,
        options: Options::default(),
        size: 15,
        rule,
    };
    let bar = games_bar(args.play as u64, rate);
    let mut all = Vec::with_capacity(args.play);
    plan.play(|_, played| {
        all.push(played.record);
        bar.inc(1);
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    Ok(all)
}

fn check(args: CheckArgs) -> anyhow::Result<()> {
    if let Some(model) = args.tables.to_str().and_then(|t| t.strip_prefix("rapfi:")) {
        let tables = inarow_engine::options::load_model(model).map_err(anyhow::Error::msg)?;
        println!(
            "{model}: a classical model (Rapfi's), logistic scale {}",
            tables.scale
        );
        check_fine(tables, &games_to_measure(&args)?);
        return Ok(());
    }
    let bytes = read_bytes(&args.tables)?;
    let name = args.tables.display().to_string();
    if FineTables::is_tables_file(&bytes) {
        let tables = FineTables::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        println!(
            "{name}: fine tables (evaluation v3), SHA-256 {}..., logistic scale {}",
            short_sha(&bytes),
            tables.scale
        );
        let games = games_to_measure(&args)?;
        check_fine(Box::leak(Box::new(tables)), &games);
        return Ok(());
    }
    let learned = tables_in(&args.tables, &bytes)?;
    println!("{}", summary(&args.tables, &bytes, &learned));
    let by_rule = samples_of(&games_to_measure(&args)?);
    let embedded = Learned::embedded();
    for (k, rule) in Rule::ALL.into_iter().enumerate() {
        let (a, b) = &by_rule[k];
        let mut all = a.clone();
        all.extend(b);
        if all.is_empty() {
            continue;
        }
        let (tables, pattern) = shapes::losses(&all, learned.tables(rule), learned.scale(rule));
        let (today, _) = shapes::losses(&all, embedded.tables(rule), embedded.scale(rule));
        println!(
            "{rule}: {} positions; loss (mean cross-entropy, lower is better): these tables {tables:.5}, today's (the embedded tables) {today:.5}, the tuned pattern evaluation {pattern:.5}",
            all.len()
        );
    }
    Ok(())
}
