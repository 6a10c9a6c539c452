//! The `selfplay` subcommand: a match between two engine settings, or
//! against another build or engine speaking the Gomocup brain protocol, with
//! the score, an Elo estimate with 95% error bars, and an SPRT verdict.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use inarow_contest::Ending;
use inarow_contest::shard::{self, Shard};
use inarow_core::{GameResult, Point, Rule, Xy};
use inarow_files::write_atomic;
use inarow_judge::shown::escape;
use inarow_match::openings;
use inarow_match::part::{GameRow, PairRecord, Part, mark};
use inarow_match::setup::Setup;
use inarow_match::{self as matches, Plan, Verdict, stats};

use crate::score::elo_said;

/// Options of `inarow selfplay`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<SelfplayCommand>,
    /// Settings of engine A, e.g. `lmr_base=40,tt_mb=32` (the search's settings by name, `tt_mb`, `soft`, `threads`, `eval`).
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
    /// The folder brain A keeps its files in (told by `INFO folder`; the
    /// only place it may write: its installation is read-only). Default: a
    /// new folder for each brain A, removed after the match. With -j N
    /// over 1, the N brains A keep theirs in its subfolders 1 to N (made
    /// if missing, kept after the match), one each.
    #[arg(long, requires = "a_brain")]
    pub a_folder: Option<std::path::PathBuf>,
    /// The folder brain B keeps its files in (subfolders 1 to N with -j N).
    #[arg(long, requires = "b_brain")]
    pub b_folder: Option<std::path::PathBuf>,
    /// Openings file: one opening a line, its stones in move order, `#`
    /// comments (see --openings-format).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// How the openings file writes its stones: `xy`, points `x,y` from
    /// 0,0 at the top left separated by spaces (`7,7 8,6 6,8`, as `inarow
    /// selfplay openings` writes them); `offset`, c-gomoku-cli's
    /// `type=offset` (Gomocup's openings), offsets `x,y` from the centre
    /// (half the side, rounded down) separated by a comma and a space
    /// (`0,0, 1,-1, -1,1`).
    #[arg(long, value_enum, default_value_t = OpeningsFormat::Xy, value_name = "FORMAT", requires = "openings")]
    pub openings_format: OpeningsFormat,
    /// Number of openings (each played twice, colours swapped); without a
    /// file, balanced openings of --stones stones are generated from the
    /// seed.
    #[arg(long, default_value_t = 20, value_parser = crate::numbers::whole::<usize>(1))]
    pub pairs: usize,
    /// Milliseconds per move (ignored when --nodes is given).
    #[arg(long, default_value_t = 100, value_parser = crate::numbers::whole::<u64>(1))]
    pub ms: u64,
    /// Node budget per move instead of time (reproducible games).
    #[arg(long, value_parser = crate::numbers::whole::<u64>(1))]
    pub nodes: Option<u64>,
    /// SPRT hypotheses: A is `elo0` (H0) or `elo1` (H1) better, `elo0`
    /// below `elo1`; stops early.
    #[arg(long, default_value_t = 0.0, value_parser = elo)]
    pub elo0: f64,
    /// See `--elo0`.
    #[arg(long, default_value_t = 20.0, value_parser = elo)]
    pub elo1: f64,
    /// Stones in each generated opening (with fewer the side to move wins
    /// almost every game).
    #[arg(long, default_value_t = 5, value_parser = crate::numbers::whole_in::<usize>(1, 20))]
    pub stones: usize,
    /// The board's side.
    #[arg(long, default_value_t = 15, value_parser = crate::args::board_size)]
    pub size: usize,
    /// The rule: freestyle (five or more wins), exact (exactly five) or
    /// renju; `--exact` is `--rule exact`.
    #[command(flatten)]
    pub rule: crate::args::RuleArgs,
    /// Seed for the generated openings.
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::seed)]
    pub seed: u64,
    /// Pairs played at once, a game per core: the pairs are reported, and
    /// the SPRT decides, in their order, so that a match on nodes gives the
    /// same figures and files with any number. A brain side has a brain
    /// process and folder of its own for each pair played at once (see
    /// --a-folder).
    #[arg(short = 'j', long, default_value_t = 1, value_parser = crate::numbers::whole::<usize>(1))]
    pub jobs: usize,
    /// Write every game to this file, one a line: pair, A's colour, the
    /// result for A (1, = or 0), the opening's points, `|`, the moves.
    #[arg(long, value_name = "FILE")]
    pub games_file: Option<std::path::PathBuf>,
    /// Refused: `--games` is a count of games elsewhere (`menace train`);
    /// the games file is `--games-file`.
    #[arg(long, hide = true, value_name = "FILE")]
    pub games: Option<String>,
    /// How brains are contained (only brains run in the sandbox; the
    /// engines of this build run in this process).
    #[command(flatten)]
    pub sandbox: crate::args::SandboxArgs,
    /// Play only share I of N (from 0): pairs k with k mod N = I, never
    /// stopping on the SPRT, and keep them in a part file for `inarow
    /// selfplay merge`. Without it, a Slurm job array or a Kubernetes
    /// Indexed Job gives the share.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    pub shard: Option<Shard>,
    /// The number of shares of a Kubernetes Indexed Job (its completions).
    #[arg(long, value_name = "N", value_parser = crate::numbers::whole::<usize>(1))]
    pub shards: Option<usize>,
    /// The part file of a share, rewritten after every pair (default
    /// `selfplay-part-I-of-N.json`).
    #[arg(long, value_name = "FILE")]
    pub part: Option<PathBuf>,
}

/// How an openings file writes its stones (`--openings-format`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningsFormat {
    /// Points `x,y` from 0,0 at the top left, separated by spaces.
    Xy,
    /// c-gomoku-cli's offsets `x,y` from the centre, separated by `, `.
    Offset,
}

impl From<OpeningsFormat> for openings::OpeningsFormat {
    fn from(format: OpeningsFormat) -> Self {
        match format {
            OpeningsFormat::Xy => openings::OpeningsFormat::Points,
            OpeningsFormat::Offset => openings::OpeningsFormat::Offset,
        }
    }
}

/// What `inarow selfplay` can do besides playing a match.
#[derive(clap::Subcommand, Debug)]
enum SelfplayCommand {
    /// Merge the part files of a match played in shares: the score, Elo and
    /// SPRT verdict of the pairs one machine would have played, and whether
    /// the SPRT has stopped (parts may still be playing).
    Merge(MergeArgs),
    /// Find openings whose outcome is open (the engine playing itself from
    /// seeded candidates at several node budgets, neither colour winning
    /// every game) and write them as an openings file for `--openings`.
    Openings(crate::openings::Args),
    /// Score a match c-gomoku-cli played (`-repeat`) from its SGF file, by
    /// pairs and by opening set, leaving void games out (the gate against
    /// Rapfi, `scripts/gate.sh`).
    Score(crate::score::Args),
    /// Take positions from a match's SGF file (after the opening, up to
    /// six plies before the end, in a seeded order) and write each with a
    /// reference brain's move at a node budget, leaving out positions it
    /// says are decided: the positions file `agree` measures a brain on.
    Oracle(crate::agree::OracleArgs),
    /// How often a brain at a node budget chooses the reference's move in
    /// the positions of an `oracle` file (a fresh brain each position),
    /// and, against another run's marks, McNemar's test of the difference.
    Agree(crate::agree::AgreeArgs),
}

/// Options of `inarow selfplay merge`.
#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// The part files, one per share, in any order.
    #[arg(required = true, value_name = "PARTS")]
    parts: Vec<PathBuf>,
    /// Write the games counted to this file, as `--games-file` does.
    #[arg(long, value_name = "FILE")]
    games_file: Option<PathBuf>,
}

/// Runs the match and prints a line per pair and a summary.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(SelfplayCommand::Merge(merge)) => return run_merge(merge),
        Some(SelfplayCommand::Openings(openings)) => return crate::openings::run(openings),
        Some(SelfplayCommand::Score(score)) => return crate::score::run(score),
        Some(SelfplayCommand::Oracle(oracle)) => return crate::agree::run_oracle(oracle),
        Some(SelfplayCommand::Agree(agree)) => return crate::agree::run_agree(agree),
        None => {}
    }
    check(&args)?;
    let share = crate::args::which_shard(args.shard, args.shards)?;
    let ready = Setup {
        size: args.size,
        rule: args.rule.rule(),
        pairs: args.pairs,
        openings: args.openings.clone(),
        openings_format: args.openings_format.into(),
        seed: args.seed,
        stones: args.stones,
        nodes: args.nodes,
        ms: args.ms,
        settings: [args.a.clone(), args.b.clone()],
        brains: [args.a_brain.clone(), args.b_brain.clone()],
        brain_folders: [args.a_folder.clone(), args.b_folder.clone()],
        jobs: args.jobs,
    }
    .ready()
    .map_err(anyhow::Error::msg)?;
    let size = ready.setup.size;
    for line in sides_said(&args) {
        println!("{line}");
    }
    let sandbox = if ready.needs_sandbox() {
        let mut sandbox = args.sandbox.sandbox(ready.cpu_budget())?;
        // Their open files together stay within half the host's table.
        sandbox.set_live(ready.brains_at_once());
        for warning in ready.check(&sandbox).map_err(anyhow::Error::msg)? {
            eprintln!("inarow: warning: {}", escape(&warning));
        }
        Some(sandbox)
    } else {
        None
    };
    let mut record = match &args.games_file {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write games file {}", path.display()))?,
        )),
        None => None,
    };
    // A share keeps its pairs in a part file, rewritten whole after each.
    let mut part = match share {
        Some(shard) => Some((
            Part::new(
                shard,
                ready
                    .part_match((args.elo0, args.elo1))
                    .map_err(anyhow::Error::msg)?,
            ),
            args.part.clone().unwrap_or_else(|| {
                format!("selfplay-part-{}-of-{}.json", shard.index, shard.count).into()
            }),
        )),
        None => None,
    };
    let keep_part = |part: &Part, path: &PathBuf| {
        write_atomic(path, part.to_json().as_bytes())
            .with_context(|| format!("cannot write the part file {}", path.display()))
    };
    if let Some((part, path)) = &part {
        keep_part(part, path)?;
        println!(
            "share {} of the match: pairs k with k mod {} = {}; part in {}",
            part.shard,
            part.shard.count,
            part.shard.index,
            path.display()
        );
    }
    // A pair of contenders for each game played at once, each brain a
    // process and a folder of its own.
    let mut sides = Vec::with_capacity(args.jobs);
    for slot in 0..args.jobs {
        sides.push((
            ready
                .contender(0, slot, sandbox.as_ref())
                .map_err(anyhow::Error::msg)?,
            ready
                .contender(1, slot, sandbox.as_ref())
                .map_err(anyhow::Error::msg)?,
        ));
    }
    let plan = Plan {
        openings: &ready.openings,
        pairs: args.pairs,
        size,
        rule: ready.setup.rule,
        limits: ready.limits,
        elo0: args.elo0,
        elo1: args.elo1,
        share: share.unwrap_or(Shard::WHOLE),
    };
    // A bar on a terminal; the pair lines are the plain lines of a log.
    let owned = (0..args.pairs).filter(|&k| plan.share.owns(k)).count();
    let bar = crate::progress::pairs_bar(owned as u64);
    // The games of the pair being played: heard game by game, kept by pair.
    let rows: std::cell::RefCell<Vec<GameRow>> = Default::default();
    let sharing = part.is_some();
    // A contender that cannot answer loses the game: say why, once for
    // each side rather than once a game.
    let mut reported: [Option<String>; 2] = [None, None];
    let finished = matches::play_match(
        &mut sides,
        &plan,
        |played| -> anyhow::Result<()> {
            let g = played.game;
            if sharing {
                rows.borrow_mut().push(GameRow {
                    a_black: played.a_black,
                    result: mark(g.result),
                    moves: xys(&g.moves, size),
                    illegal: g.ending == Ending::Forfeit,
                    failure: g.unanswered().map(ToString::to_string),
                    longest_ms: g.longest.as_millis() as u64,
                });
            }
            if let Some(why) = g.unanswered().map(ToString::to_string) {
                let side = usize::from(g.result == GameResult::Win);
                if reported[side].as_ref() != Some(&why) {
                    bar.suspend(|| eprintln!("inarow: {}; it loses the game", escape(&why)));
                    reported[side] = Some(why);
                }
            }
            let Some(out) = record.as_mut() else {
                return Ok(());
            };
            writeln!(
                out,
                "{}",
                game_line(
                    played.pair,
                    played.a_black,
                    g.result,
                    &xys(played.opening, size),
                    &xys(&g.moves, size)
                )
            )
            .and_then(|_| out.flush())
            .context("cannot write the games file")
        },
        |pair| {
            bar.inc(1);
            bar.set_message(format!(
                "A {}-{}-{}, LLR {:.2}",
                pair.tally.wins, pair.tally.draws, pair.tally.losses, pair.llr
            ));
            match part.as_mut() {
                Some((part, path)) => {
                    part.pairs.push(PairRecord {
                        pair: pair.pair,
                        games: rows.take(),
                    });
                    bar.suspend(|| {
                        println!("pair {}: {}", pair.pair + 1, pair_said(pair.results));
                    });
                    // A part that cannot be kept stops nothing here; the
                    // next pair tries again, and the end says so.
                    if let Err(e) = keep_part(part, path) {
                        bar.suspend(|| eprintln!("inarow: {e:#}"));
                    }
                }
                None => bar.suspend(|| {
                    println!(
                        "{}",
                        pair_line(pair.pair, pair.results, pair.tally, pair.llr)
                    );
                }),
            }
        },
    );
    bar.finish_and_clear();
    let summary = finished?;
    if let Some((mut part, path)) = part {
        part.finished = true;
        keep_part(&part, &path)?;
        println!(
            "share {}: {} pairs played, part in {}; merge every share with: inarow selfplay merge PARTS...",
            part.shard,
            part.pairs.len(),
            path.display()
        );
        return Ok(());
    }
    print_summary(
        summary.tally,
        summary.by_pair,
        (args.elo0, args.elo1),
        summary.illegal,
        summary.longest.as_millis(),
    );
    println!("{}", proven_line(&summary.proven));
    if args.rule.rule() == Rule::Renju {
        println!(
            "black stones on forbidden points: {} games lost by one",
            summary.forbidden
        );
    }
    Ok(())
}

/// What A and B are and what the match plays, before its first pair: a
/// line for each side (an engine of this build and its settings, or a
/// brain by its path), a warning when the two are the same engine, and the
/// openings and the budget of a move.
fn sides_said(args: &Args) -> Vec<String> {
    let brain = |path: &std::path::Path| format!("the Gomocup brain {}", path.display());
    let a = args
        .a_brain
        .as_deref()
        .map_or_else(|| engine_named(&args.a), brain);
    let b = args
        .b_brain
        .as_deref()
        .map_or_else(|| engine_named(&args.b), brain);
    let mut lines = vec![format!("A: {a}"), format!("B: {b}")];
    // Both parsed (the match is ready): the same options are the same
    // engine, however they were written.
    let options = |settings: &str| settings.parse::<inarow_engine::search::Options>().ok();
    let same = args.a_brain.is_none()
        && args.b_brain.is_none()
        && options(&args.a).is_some()
        && options(&args.a) == options(&args.b);
    if same {
        lines.push(
            "A and B are the same engine with the same settings: the match measures only its noise (give --a or --b to change one)"
                .to_string(),
        );
    }
    let openings = match &args.openings {
        Some(path) => format!("openings from {}", path.display()),
        None => format!(
            "balanced {}-stone openings from seed {}",
            args.stones, args.seed
        ),
    };
    let budget = match args.nodes {
        Some(n) => format!("{n} nodes a move"),
        None => format!("{} ms a move", args.ms),
    };
    lines.push(format!(
        "{} pairs of {openings}, {}x{} {}, {budget}",
        args.pairs,
        args.size,
        args.size,
        args.rule.rule()
    ));
    lines
}

/// An engine of this build by its settings (`--a`, `--b`).
fn engine_named(settings: &str) -> String {
    match settings.trim() {
        "" => "the inarow engine of this build, default settings".to_string(),
        given => format!("the inarow engine of this build, settings {given}"),
    }
}

/// A side as a part file describes it ([`inarow_match::setup::Ready::describe`]):
/// a brain by its path and folder digest, or an engine by its settings.
fn side_named(described: &str) -> String {
    if described.starts_with("brain ") {
        format!("the Gomocup {described}")
    } else {
        engine_named(described)
    }
}

/// Reads `--elo0` and `--elo1`: any number, negative ones too.
fn elo(text: &str) -> Result<f64, crate::numbers::Allowed> {
    crate::numbers::real("a number of Elo", |_| true)(text)
}

/// Refuses the numbers and flags no match can mean, each in one line.
fn check(args: &Args) -> anyhow::Result<()> {
    if let Some(given) = &args.games {
        anyhow::bail!(
            "selfplay has no --games (a count of games in menace train): write the games with --games-file {given}"
        );
    }
    if !(args.elo0.is_finite() && args.elo1.is_finite() && args.elo0 < args.elo1) {
        anyhow::bail!(
            "--elo0 ({}) must be below --elo1 ({}): the SPRT tells the two apart",
            args.elo0,
            args.elo1
        );
    }
    Ok(())
}

/// `inarow selfplay merge`: the pairs one machine would have played, as it
/// prints them, and whether the SPRT has stopped.
fn run_merge(args: MergeArgs) -> anyhow::Result<()> {
    let texts = shard::read_parts(&args.parts)?;
    let parts: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    let merged = matches::part::merge(&parts).map_err(anyhow::Error::msg)?;
    let of = &merged.of;
    println!("A: {}", side_named(&of.a));
    println!("B: {}", side_named(&of.b));
    let mut tally = inarow_core::Tally::default();
    let mut by_pair = stats::Pairs::default();
    let mut lines = String::new();
    for record in &merged.pairs {
        let opening = &of.openings[record.pair % of.openings.len()];
        let mut results = Vec::new();
        for game in &record.games {
            let result = match game.result {
                '1' => GameResult::Win,
                '0' => GameResult::Loss,
                _ => GameResult::Draw,
            };
            tally.add(result);
            results.push(result);
            lines.push_str(&game_line(
                record.pair,
                game.a_black,
                result,
                opening,
                &game.moves,
            ));
            lines.push('\n');
        }
        if let [first, second] = results[..] {
            by_pair.add([first, second]);
        }
        let (llr, _) = stats::sprt(&by_pair, of.elo0, of.elo1);
        println!("{}", pair_line(record.pair, &results, tally, llr));
    }
    if let Some(path) = &args.games_file {
        write_atomic(path, lines.as_bytes())
            .with_context(|| format!("cannot write games file {}", path.display()))?;
    }
    print_summary(
        merged.tally,
        merged.by_pair,
        (of.elo0, of.elo1),
        merged.illegal,
        u128::from(merged.longest_ms),
    );
    if merged.verdict == Verdict::Continue {
        println!("all {} pairs are in: the SPRT did not stop", of.pairs);
    } else {
        println!(
            "the SPRT stopped after pair {}: the merge counts the pairs one machine would have played{}",
            merged.pairs.len(),
            match merged.beyond {
                0 => String::new(),
                n => format!(" ({n} later pairs played by the shares are not counted)"),
            }
        );
    }
    Ok(())
}

/// A pair's line: what became of its games in words ([`pair_said`]), A's
/// tally so far and the LLR.
fn pair_line(pair: usize, results: &[GameResult], tally: inarow_core::Tally, llr: f64) -> String {
    format!(
        "pair {}: {}; so far A {}-{}-{}, LLR {llr:.2}",
        pair + 1,
        pair_said(results),
        tally.wins,
        tally.draws,
        tally.losses,
    )
}

/// A pair's games in words, from A's results, A black first: `A won
/// both`, `split (black won both)`, `B won one (as white), one drawn`.
fn pair_said(results: &[GameResult]) -> String {
    use GameResult::{Draw, Loss, Win};
    // The side that won a game where A had `result`.
    let winner = |result| if result == Win { "A" } else { "B" };
    // A was black in the first game, white in the second.
    let colour = |game: usize| if game == 0 { "black" } else { "white" };
    match results {
        [Win, Win] => "A won both".to_string(),
        [Loss, Loss] => "B won both".to_string(),
        [Draw, Draw] => "both drawn".to_string(),
        [Win, Loss] => "split (black won both)".to_string(),
        [Loss, Win] => "split (white won both)".to_string(),
        [first, _] => {
            // One drawn, one won: the game that was not drawn.
            let won = usize::from(*first == Draw);
            let result = results[won];
            // A's colour in that game, or B's: the other one.
            let as_colour = if result == Win {
                colour(won)
            } else {
                colour(1 - won)
            };
            format!("{} won one (as {as_colour}), one drawn", winner(result))
        }
        [one] => match one {
            Draw => "its one game drawn".to_string(),
            won => format!("{} won its one game", winner(*won)),
        },
        _ => results.iter().map(|&r| mark(r)).collect(),
    }
}

/// A game's line in the games file: pair, A's colour, A's result, the
/// opening's points, `|`, the moves.
fn game_line(
    pair: usize,
    a_black: bool,
    result: GameResult,
    opening: &[Xy],
    moves: &[Xy],
) -> String {
    let colour = if a_black { "black" } else { "white" };
    format!(
        "{} {colour} {} {} | {}",
        pair + 1,
        mark(result),
        points(opening),
        points(moves)
    )
}

/// The match's score, Elo with its interval, the pairs (pentanomial) and
/// Elo by them, the SPRT verdict and the illegal moves and longest think.
fn print_summary(
    tally: inarow_core::Tally,
    by_pair: stats::Pairs,
    (elo0, elo1): (f64, f64),
    illegal: usize,
    longest_ms: u128,
) {
    let (llr, verdict) = stats::sprt(&by_pair, elo0, elo1);
    println!(
        "A vs B: +{} ={} -{} score {:.3}  {}",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.score(),
        match by_pair.no_elo_of_games(&tally) {
            // The pairs' line, next, says why.
            Some(stats::NoElo::FewInformative { .. }) =>
                "no Elo yet: too few pairs went to one side (by pair, below)".to_string(),
            none => elo_said(none, stats::elo(&tally)),
        }
    );
    let c = by_pair.counts;
    let (won, split, lost) = by_pair.won_split_lost();
    println!(
        "A by pair (points 0/0.5/1/1.5/2): {} {} {} {} {}  won {won} split {split} lost {lost}  {}",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        elo_said(by_pair.no_elo(), stats::elo_of_pairs(&by_pair))
    );
    println!(
        "SPRT elo0 {elo0} elo1 {elo1}: LLR {llr:.2} (bounds -2.94, 2.94): {}",
        match verdict {
            Verdict::Accept => "H1 accepted (A gains)",
            Verdict::Reject => "H0 accepted (no gain)",
            Verdict::Continue => "undecided",
        }
    );
    println!("illegal moves: {illegal}; longest think: {longest_ms} ms");
}

/// How early each side proved its wins: its wins by a five, how many it
/// said it had proven (its score a forced win on every move of its since),
/// and on average how many plies before the end.
fn proven_line(proven: &[inarow_match::ProvenWins; 2]) -> String {
    let side = |name: &str, p: &inarow_match::ProvenWins| match p.mean_plies() {
        Some(mean) => format!(
            "{name} {} of {} wins, {mean:.1} plies before the end",
            p.proven, p.wins
        ),
        None => format!("{name} 0 of {} wins", p.wins),
    };
    format!(
        "wins proven early: {}; {}",
        side("A", &proven[0]),
        side("B", &proven[1])
    )
}

/// Points as records write them.
fn xys(ps: &[Point], size: usize) -> Vec<Xy> {
    ps.iter().map(|p| p.to_xy(size)).collect()
}

/// Points as `x,y` separated by spaces, as the openings file has them.
fn points(ps: &[Xy]) -> String {
    ps.iter().map(Xy::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::pair_said;
    use inarow_core::GameResult::{Draw, Loss, Win};

    #[test]
    fn every_pair_in_words() {
        for (results, said) in [
            ([Win, Win], "A won both"),
            ([Loss, Loss], "B won both"),
            ([Draw, Draw], "both drawn"),
            ([Win, Loss], "split (black won both)"),
            ([Loss, Win], "split (white won both)"),
            ([Win, Draw], "A won one (as black), one drawn"),
            ([Draw, Win], "A won one (as white), one drawn"),
            ([Loss, Draw], "B won one (as white), one drawn"),
            ([Draw, Loss], "B won one (as black), one drawn"),
        ] {
            assert_eq!(pair_said(&results), said, "{results:?}");
        }
        assert_eq!(pair_said(&[Loss]), "B won its one game");
    }
}
