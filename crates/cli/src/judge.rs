//! The `judge` subcommand: a thin front on the `inarow-judge` crate.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use inarow_core::Rule;
use inarow_judge::house::HouseBot;
use inarow_judge::process::{BotProcess, Echo};
use inarow_judge::{BotMeta, Config, Results, discover, output, play_game, process, tournament};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Options of `inarow judge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Folder holding one subfolder per bot, each with a `meta` file.
    #[arg(long, default_value = "bots")]
    bots: PathBuf,
    /// Tournament seed (printed by every run; give it back to replay a tournament).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (default: the number of cores).
    #[arg(short = 'j', long = "jobs")]
    jobs: Option<usize>,
    /// Time limit per answer in seconds; 0 for none.
    #[arg(long, default_value = "10", value_parser = parse_seconds)]
    timeout: f64,
    /// Where to write the results (JSON).
    #[arg(long, default_value = "results.json")]
    results: PathBuf,
    /// Folder for one SGF record per game.
    #[arg(long, default_value = "sgf")]
    sgf: PathBuf,
    /// Exactly five wins (an overline does not); the default is five or more.
    #[arg(long)]
    exact: bool,
    /// Debug one bot (a folder in the bots folder, or a path) against the
    /// built-in bot, showing every line exchanged and the bot's stderr.
    #[arg(short = 'd', long = "debug", value_name = "BOT")]
    debug: Option<PathBuf>,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(s),
        _ => Err(format!(
            "{text:?} is not a number of seconds (0 or more, 0 for no limit)"
        )),
    }
}

/// Runs `inarow judge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    process::install_interrupt_handler().context("cannot install the Ctrl-C handler")?;
    let timeout = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    let rule = if args.exact {
        Rule::Exact
    } else {
        Rule::Freestyle
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    if let Some(bot) = &args.debug {
        return debug(&args.bots, bot, seed, timeout, rule);
    }
    let bots = discover(&args.bots)?;
    if bots.len() < 2 {
        bail!(
            "{} holds {} bot(s); a tournament needs at least 2 folders with a meta file",
            args.bots.display(),
            bots.len()
        );
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        bail!("-j must be at least 1");
    }
    let config = Config {
        seed,
        jobs,
        timeout,
        rule,
    };
    let games = tournament::schedule(bots.len(), seed).len();
    println!(
        "tournament seed {seed} (replay with --seed {seed}): {} bots, {games} games, {jobs} at once",
        bots.len()
    );
    let bar = ProgressBar::with_draw_target(
        Some(games as u64),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} {msg}")
            .expect("valid template"),
    );
    let records = tournament::play_all(&bots, &config, &|record| {
        bar.set_message(format!("{} vs {}", record.a, record.b));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let results = Results::new(&bots, &config, records);
    print!("{}", tournament::format_standings(&results.standings));
    for (game, forfeit) in results.forfeits() {
        println!(
            "game {}: {} forfeits: {}",
            game.index, forfeit.by, forfeit.reason
        );
    }
    output::write_atomic(&args.results, output::results_json(&results).as_bytes())
        .with_context(|| format!("cannot write {}", args.results.display()))?;
    output::write_sgf_dir(&args.sgf, &results.games)
        .with_context(|| format!("cannot write SGF records into {}", args.sgf.display()))?;
    println!(
        "results in {}, SGF records in {}",
        args.results.display(),
        args.sgf.display()
    );
    Ok(())
}

/// Plays the bot twice against the house bot, once opening and once
/// answering, echoing every line.
fn debug(
    bots: &Path,
    bot: &Path,
    seed: u64,
    timeout: Option<Duration>,
    rule: Rule,
) -> anyhow::Result<()> {
    let folder = if bot.join("meta").is_file() {
        bot.to_path_buf()
    } else {
        bots.join(bot)
    };
    let meta = BotMeta::load(&folder)?;
    let house_name = if meta.name == "house" {
        "house-judge"
    } else {
        "house"
    };
    println!(
        "debugging {} against the built-in bot {house_name}, seed {seed}",
        meta.name
    );
    println!(
        "lines: `NAME < ...` judge to bot, `NAME > ...` bot to judge, `NAME ! ...` bot's stderr"
    );
    for (game, bot_opens) in [true, false].into_iter().enumerate() {
        let mut house = HouseBot::new(house_name, seed.wrapping_add(game as u64));
        let mut process = BotProcess::start(&meta, house_name, seed, timeout, Echo::On)
            .with_context(|| format!("cannot start {}", meta.program().display()))?;
        let record = if bot_opens {
            play_game(&tournament::board(rule), &mut process, &mut house)
        } else {
            play_game(&tournament::board(rule), &mut house, &mut process)
        };
        drop(process);
        let outcome = match (&record.winner, &record.forfeit) {
            (_, Some(f)) => format!("{} forfeits: {}", f.by, f.reason),
            (Some(w), None) => format!("{w} wins with five"),
            (None, None) => "tie: the board is full".into(),
        };
        println!("game {}: {} opens; {outcome}", game + 1, record.a);
    }
    Ok(())
}
