//! Playing the schedule: one game between bot processes (watched or not),
//! every game of a share, each bot kept out of the others' folders.

use inarow_contest::Fault;
use inarow_contest::shard::Shard;
use inarow_core::{Mnk, Player, Point, Rule};

use crate::meta::BotMeta;
use crate::process::{BotProcess, Start};
use crate::record::{Forfeit, GameRecord, Seat};
use crate::referee::{Contestant, play_game_watched};

use super::Config;
use super::schedule::{Fixture, schedule, share};
use super::turns::in_turn;

/// Every bot's folder: each bot is kept out of the others'.
pub fn folders(bots: &[BotMeta]) -> Vec<std::path::PathBuf> {
    bots.iter().map(|b| b.folder.clone()).collect()
}

/// A bot that could not even start: it forfeits every prompt.
struct Absent {
    name: String,
    error: String,
}

impl Contestant for Absent {
    fn name(&self) -> &str {
        &self.name
    }
    fn ask(&mut self, _prompt: &str) -> Result<String, Fault> {
        Err(Fault::NoStart {
            error: self.error.clone(),
        })
    }
    fn exit(&mut self, _line: &str) {}
    fn finish(&mut self) {}
}

fn start(
    bots: &[BotMeta],
    bot: &BotMeta,
    opponent: &str,
    seed: u64,
    config: &Config,
) -> Box<dyn Contestant> {
    let folders = crate::field::closed(bots, &config.left_out);
    let start = Start {
        sandbox: &config.sandbox,
        timeout: config.timeout,
        echo: None,
        stderr: config.stderr.as_ref(),
        folders: &folders,
    };
    match BotProcess::start(bot, opponent, seed, start) {
        Ok(process) => Box::new(process),
        Err(e) => Box::new(Absent {
            name: bot.name.clone(),
            error: e.to_string(),
        }),
    }
}

/// The empty board of a rule.
pub fn board(rule: Rule) -> Mnk {
    match rule {
        Rule::Freestyle => Mnk::gomoku(),
        Rule::Exact => Mnk::gomoku_exact(),
        Rule::Renju => Mnk::renju(),
    }
}

/// Plays one scheduled game between bot processes.
pub fn play_fixture(bots: &[BotMeta], fixture: &Fixture, config: &Config) -> GameRecord {
    play_fixture_watched(bots, fixture, config, &|_| {})
}

/// What happens in the games of a tournament, as a watcher sees it (from
/// the game's thread, as it happens), in the game's own terms.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// Game `game` starts between `a`, who opens, and `b`.
    Start {
        /// The game's place in the schedule.
        game: usize,
        /// The bot that opens.
        a: &'a str,
        /// The bot that answers the opening.
        b: &'a str,
    },
    /// The judge asks `bot` for its next answer.
    Asking {
        /// The game.
        game: usize,
        /// The bot asked.
        bot: &'a str,
    },
    /// A stone was put on the board (an opening stone or a move).
    Stone {
        /// The game.
        game: usize,
        /// The bot that put it there.
        by: Seat,
        /// Where, on the game's board.
        point: Point,
        /// Its colour: `X` black, `O` white.
        colour: Player,
    },
    /// A bot lost the game through a fault (the record says which).
    Forfeit {
        /// The finished game.
        record: &'a GameRecord,
        /// Its forfeit.
        forfeit: &'a Forfeit,
    },
    /// The game is over.
    End {
        /// Everything that happened in it.
        record: &'a GameRecord,
    },
}

/// Hears every [`Event`] of every game.
pub type OnEvent<'a> = &'a (dyn Fn(&Event<'_>) + Sync);

/// A contestant whose questions are announced to a watcher first.
struct Watched<'a> {
    inner: Box<dyn Contestant>,
    index: usize,
    on_event: OnEvent<'a>,
}

impl Contestant for Watched<'_> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
        (self.on_event)(&Event::Asking {
            game: self.index,
            bot: self.inner.name(),
        });
        self.inner.ask(prompt)
    }
    fn exit(&mut self, line: &str) {
        self.inner.exit(line);
    }
    fn finish(&mut self) {
        self.inner.finish();
    }
    fn went_over(&mut self) -> Option<Fault> {
        self.inner.went_over()
    }
}

/// [`play_fixture`], telling `on_event` what happens as it happens.
pub fn play_fixture_watched(
    bots: &[BotMeta],
    fixture: &Fixture,
    config: &Config,
    on_event: OnEvent<'_>,
) -> GameRecord {
    let (bot_a, bot_b) = (&bots[fixture.a], &bots[fixture.b]);
    let game = fixture.index;
    on_event(&Event::Start {
        game,
        a: &bot_a.name,
        b: &bot_b.name,
    });
    let mut a = Watched {
        inner: start(bots, bot_a, &bot_b.name, fixture.a_seed, config),
        index: game,
        on_event,
    };
    let mut b = Watched {
        inner: start(bots, bot_b, &bot_a.name, fixture.b_seed, config),
        index: game,
        on_event,
    };
    let mut on_stone = |by, point, colour| {
        on_event(&Event::Stone {
            game,
            by,
            point,
            colour,
        })
    };
    let mut record = play_game_watched(&board(config.rule), &mut a, &mut b, &mut on_stone);
    record.index = game;
    record.a_seed = fixture.a_seed;
    record.b_seed = fixture.b_seed;
    if let Some(forfeit) = &record.forfeit {
        on_event(&Event::Forfeit {
            record: &record,
            forfeit,
        });
    }
    on_event(&Event::End { record: &record });
    record
}

/// Plays every fixture on `config.jobs` threads and returns the records in
/// schedule order. `on_game` sees each record as its game ends.
pub fn play_all(
    bots: &[BotMeta],
    config: &Config,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    play_share(bots, config, Shard::WHOLE, on_game)
}

/// [`play_all`] for one machine's `shard` of the schedule: its records in
/// schedule order.
pub fn play_share(
    bots: &[BotMeta],
    config: &Config,
    shard: Shard,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    let fixtures = share(bots.len(), config.seed, shard);
    play_fixtures_watched(bots, &fixtures, config, &|event| {
        if let Event::End { record } = event {
            on_game(record);
        }
    })
}

/// [`play_all`], telling `on_event` everything that happens in every game
/// (from the game's thread, as it happens).
pub fn play_all_watched(
    bots: &[BotMeta],
    config: &Config,
    on_event: OnEvent<'_>,
) -> Vec<GameRecord> {
    play_fixtures_watched(bots, &schedule(bots.len(), config.seed), config, on_event)
}

/// Plays `fixtures` (the whole schedule, or a machine's share of it) on
/// `config.jobs` threads and returns the records in the order given. A bot
/// plays one game at a time, in that order ([`in_turn`]).
pub fn play_fixtures_watched(
    bots: &[BotMeta],
    fixtures: &[Fixture],
    config: &Config,
    on_event: OnEvent<'_>,
) -> Vec<GameRecord> {
    // A game's record comes back only once both its bots are finished: each
    // bot's processes ended and, contained, its launcher gone, which it is
    // only once it has committed what the bot wrote to its folder. So the
    // next game of either bot starts from the folder this game left.
    in_turn(fixtures, config.jobs, |fixture| {
        play_fixture_watched(bots, fixture, config, on_event)
    })
}
