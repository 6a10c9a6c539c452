//! The `bot` subcommand: the project's gomoku engine as a king-of-the-hill
//! bot, speaking the judge's protocol on stdin and stdout.

use std::io::{BufRead, Write};
use std::time::Duration;

use anyhow::{Context, bail};
use inarow_core::{Mnk, Player};
use inarow_engine::koth::{self, Koth, KothError};
use inarow_engine::search::{Limits, Options};
use inarow_judge::answer::{self, Reply, Strategy};
use inarow_judge::house::HouseBot;
use inarow_judge::protocol::{SIZE, Swap, Xy};

/// Options of `inarow bot`. The judge appends the opponent's name and the seed.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The opponent's name (the engine plays everyone the same way).
    opponent: Option<String>,
    /// Seed for every random choice.
    #[arg(default_value_t = 0)]
    seed: u64,
    /// Seconds the engine thinks per answer; keep it under the judge's limit.
    #[arg(long, default_value_t = 1.0)]
    move_time: f64,
    /// Search this many positions per answer instead of thinking on the
    /// clock: the same seed then gives the same game on any machine.
    #[arg(long, conflicts_with = "move_time")]
    move_nodes: Option<u64>,
    /// Play the simple house bot instead of the engine.
    #[arg(long)]
    house: bool,
}

/// The engine, with the house bot's answer for a board the engine refuses.
struct EngineBot {
    engine: Koth,
    fallback: HouseBot,
}

impl EngineBot {
    fn or_fallback<T>(
        &mut self,
        found: Result<T, KothError>,
        fallback: impl FnOnce(&mut HouseBot) -> T,
    ) -> T {
        found.unwrap_or_else(|e| {
            // Answering beats forfeiting: say why on stderr, play the simple move.
            eprintln!("inarow bot: the engine cannot answer ({e}); playing the house bot's move");
            fallback(&mut self.fallback)
        })
    }
}

impl Strategy for EngineBot {
    fn open(&mut self) -> [Xy; 3] {
        let found = self.engine.open(SIZE).map(|stones| stones.map(Xy::of));
        self.or_fallback(found, |h| h.open())
    }

    fn swap(&mut self, game: &Mnk) -> Swap {
        let found = self.engine.swap(game).map(|s| match s {
            koth::Swap::Black => Swap::Black,
            koth::Swap::White(w) => Swap::White(Xy::of(w)),
            koth::Swap::Place(b, w) => Swap::Choose(Xy::of(b), Xy::of(w)),
        });
        self.or_fallback(found, |h| h.swap(game))
    }

    fn colour(&mut self, game: &Mnk) -> Player {
        let found = self.engine.colour(game);
        self.or_fallback(found, |h| h.colour(game))
    }

    fn play(&mut self, game: &Mnk) -> Xy {
        let found = self.engine.play(game).map(Xy::of);
        self.or_fallback(found, |h| h.play(game))
    }
}

/// Runs `inarow bot` until `EXIT` or the end of input.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !(args.move_time.is_finite() && args.move_time > 0.0) {
        bail!(
            "--move-time must be a positive number of seconds, got {}",
            args.move_time
        );
    }
    if args.move_nodes == Some(0) {
        bail!("--move-nodes must be at least 1");
    }
    let limits = match args.move_nodes {
        Some(nodes) => Limits::nodes(nodes),
        None => Limits::time(Duration::from_secs_f64(args.move_time)),
    };
    let mut bot: Box<dyn Strategy> = if args.house {
        Box::new(HouseBot::new("house", args.seed))
    } else {
        Box::new(EngineBot {
            engine: Koth::with_limits(args.seed, limits, Options::default()),
            fallback: HouseBot::new("house", args.seed),
        })
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.context("cannot read the judge's line")?;
        match answer::reply(bot.as_mut(), &line)
            .with_context(|| format!("cannot answer {line:?}"))?
        {
            Reply::Answer(answer) => {
                writeln!(stdout, "{answer}")?;
                stdout.flush()?;
            }
            Reply::Exit => break,
        }
    }
    Ok(())
}
