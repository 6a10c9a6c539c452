//! A tournament's bot for one game: its program started in the sandbox as
//! an [`inarow_sandbox::process::Running`] (non-blocking pipes, deadlines,
//! killed with everything it started), each answer one turn of its
//! [`Talk`], whose silences are the [`Fault`]s it forfeits for.
//!
//! Nothing here prints or exits: the lines a bot says go to a [`Listener`]
//! the front hands in, and an interrupt is reported to the front's handler.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use inarow_contest::Fault;
use inarow_contest::talk::{Deadline, Hitch, Talk};
use inarow_sandbox::process::{LongLines, Running};
use inarow_sandbox::{self as sandbox, Sandbox, StartError};

use crate::meta::BotMeta;
use crate::referee::Contestant;
use crate::shown;

/// Longest answer line read from a bot; past it the bot forfeits.
pub const MAX_LINE: usize = 64 * 1024;

/// Kills every bot still running and lets no new one start; the interrupt
/// handler calls this. Returns how many were killed.
pub fn kill_all_bots() -> usize {
    sandbox::shut_down()
}

/// Makes Ctrl-C (and SIGTERM) kill every running bot and lets no new one
/// start; then `on_interrupt` gets how many were killed (the front says so
/// and exits). Call once, before the first game.
pub fn install_interrupt_handler(
    on_interrupt: impl Fn(usize) + Send + 'static,
) -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(move || {
        // Once shut down, no game can start a bot while the front exits.
        on_interrupt(sandbox::shut_down());
    })
}

/// A line of a bot's conversation, as a [`Listener`] hears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said<'a> {
    /// The judge wrote this line to the bot.
    ToBot(&'a str),
    /// The bot answered this line.
    FromBot(&'a str),
    /// The bot wrote this line on its standard error.
    Stderr(&'a str),
    /// The judge says this of the bot (what it wrote could not be kept).
    Note(&'a str),
}

impl Said<'_> {
    /// The line as `-d` shows it, after `bot`'s name: `<` for what the judge
    /// wrote, `>` for what the bot answered, `!` for its standard error, `*`
    /// for what the judge says of it.
    /// Control characters and bidirectional overrides are escaped
    /// ([`shown::escape`]): the line goes to the organiser's terminal.
    pub fn shown(&self, bot: &str) -> String {
        let (arrow, line) = match self {
            Said::ToBot(line) => ('<', line),
            Said::FromBot(line) => ('>', line),
            Said::Stderr(line) => ('!', line),
            Said::Note(line) => ('*', line),
        };
        format!("{} {arrow} {}", shown::escape(bot), shown::escape(line))
    }
}

/// Hears the lines of bots (by name) besides the game: the front decides
/// where they are shown. Called from game threads and from the threads
/// relaying standard error.
#[derive(Clone)]
pub struct Listener(Arc<Hear>);

/// What a [`Listener`] does with a bot's line.
type Hear = dyn Fn(&str, Said<'_>) + Send + Sync;

impl Listener {
    /// A listener calling `hear` with the bot's name and its line.
    pub fn new(hear: impl Fn(&str, Said<'_>) + Send + Sync + 'static) -> Listener {
        Listener(Arc::new(hear))
    }

    /// Hands `bot`'s line to the listener.
    pub fn hear(&self, bot: &str, said: Said<'_>) {
        (self.0)(bot, said)
    }

    /// A standard error sink handing each line of `bot` to the listener.
    fn stderr_of(&self, bot: &str) -> sandbox::StderrSink {
        let (listener, bot) = (self.clone(), bot.to_string());
        Some(Box::new(move |line: &str| {
            listener.hear(&bot, Said::Stderr(line))
        }))
    }
}

impl fmt::Debug for Listener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Listener")
    }
}

/// How bot processes are started for a game.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    /// Contained or not, and the limits.
    pub sandbox: &'a Sandbox,
    /// Time limit per answer; `None` for none.
    pub timeout: Option<Duration>,
    /// `-d`: hears every line both ways and the bot's standard error.
    pub echo: Option<&'a Listener>,
    /// Without `echo`: hears the standard error of a bot whose meta file
    /// asks to show it; `None` drops it.
    pub stderr: Option<&'a Listener>,
    /// Every bot folder of the tournament: each bot is kept out of the others'.
    pub folders: &'a [PathBuf],
}

/// A running bot, one per game.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    talk: Talk,
    timeout: Option<Duration>,
    echo: Option<Listener>,
    /// Hears what the judge says of it (`-d`'s echo, or the front's
    /// listener of standard error, whether or not it shows the bot's).
    notes: Option<Listener>,
}

impl BotProcess {
    /// Starts `bot` in its folder with `opponent` and `seed` as the last two
    /// arguments, as `start` says.
    pub fn start(
        bot: &BotMeta,
        opponent: &str,
        seed: u64,
        start: Start,
    ) -> Result<BotProcess, StartError> {
        let mut args = bot.args.clone();
        args.push(opponent.to_string());
        args.push(seed.to_string());
        let program = bot.contestant(&args, start.folders);
        let stderr = match (start.echo, start.stderr) {
            (Some(echo), _) => echo.stderr_of(&bot.name),
            (None, Some(shown)) if bot.show_stderr => shown.stderr_of(&bot.name),
            (None, _) => None,
        };
        let running = Running::start(start.sandbox, &program, stderr, MAX_LINE, LongLines::Refuse)?;
        Ok(BotProcess {
            name: bot.name.clone(),
            talk: Talk::new(running),
            timeout: start.timeout,
            echo: start.echo.cloned(),
            notes: start.echo.or(start.stderr).cloned(),
        })
    }

    /// The process id of what was started, which is also its process group.
    pub fn id(&self) -> u32 {
        self.talk.running().id()
    }

    fn echo(&self, said: Said<'_>) {
        if let Some(echo) = &self.echo {
            echo.hear(&self.name, said);
        }
    }
}

impl Contestant for BotProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
        // Its clock starts once it is thawed: the deadline is set inside its turn.
        let timeout = self.timeout;
        let (name, echo) = (&self.name, &self.echo);
        let hear = |said: Said<'_>| {
            if let Some(echo) = echo {
                echo.hear(name, said);
            }
        };
        let answer = self.talk.turn(Duration::ZERO, |talk| {
            let deadline = timeout.map(Deadline::after);
            hear(Said::ToBot(prompt));
            let answer = talk.ask(prompt, deadline)?;
            hear(Said::FromBot(&answer));
            Ok(answer)
        });
        answer.map_err(Fault::from)
    }

    fn exit(&mut self, line: &str) {
        self.echo(Said::ToBot(line));
        self.talk.running_mut().close(line);
    }

    fn finish(&mut self) {
        let running = self.talk.running_mut();
        running.finish();
        // Files are kept one by one: the organiser hears when some were not.
        if let (Some(why), Some(notes)) = (running.unkept(), &self.notes) {
            let line =
                format!("what it wrote in this game could not all be kept in its folder: {why}");
            notes.hear(&self.name, Said::Note(&line));
        }
    }

    fn went_over(&mut self) -> Option<Fault> {
        let running = self.talk.running_mut();
        if let Some(limit) = running.went_over() {
            return Some(Fault::over(limit, running.limits()));
        }
        let unfrozen = self.talk.unfrozen()?;
        Some(Hitch::Freezing(unfrozen.clone()).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_line_carries_no_control_character_of_the_bot() {
        let line = "\x1b[2J\x1b]0;pwned\x07 \u{202e}x";
        for said in [Said::ToBot(line), Said::FromBot(line), Said::Stderr(line)] {
            let shown = said.shown("bot");
            assert!(!shown.contains(['\x1b', '\x07', '\u{202e}']), "{shown}");
            assert!(
                shown.ends_with(r"\x1b[2J\x1b]0;pwned\x07 \u{202e}x"),
                "{shown}"
            );
        }
        assert_eq!(Said::Stderr("ready").shown("ann"), "ann ! ready");
        assert_eq!(Said::FromBot("(7,7)").shown("ann"), "ann > (7,7)");
        assert_eq!(Said::ToBot("A []").shown("ann"), "ann < A []");
    }
}
