//! # inarow-judge
//!
//! The gomoku king-of-the-hill judge of `shared/specs/koth-gomoku.md`: it
//! starts bot programs, talks the line protocol with them under time limits,
//! referees each game on the rules of [`inarow_core::Mnk`], and keeps the
//! results as JSON and SGF.
//!
//! - [`meta`]: a bot folder's `meta` file read (its name, command,
//!   arguments), or refused naming why.
//! - [`rename`]: the organiser's `--rename FOLDER=NAME`.
//! - [`grant`]: the organiser's `--allow-read`, checked to open no other
//!   bot's folder.
//! - [`name`]: the one rule for a bot's name, from every source (short
//!   plain ASCII, never a protocol word, look-alikes one name).
//! - [`field`]: who plays: the survey of the bots folder and the
//!   organiser's orders (renames, grants, `--strict`) made the field of a
//!   tournament, the bots left out with their reasons.
//! - [`process`]: a bot for one game, run by `inarow_sandbox` (contained
//!   by the kernel: namespaces, Landlock, cgroups, resource limits; end
//!   and kill), each answer a turn of its [`inarow_contest::talk::Talk`].
//! - [`referee`]: one game, the Swap2 opening, forfeits.
//! - [`record`]: what a game leaves: its record (seats, colours, the
//!   answer to the opening, the ending, the fault a bot forfeited for) as
//!   the results, part files and SGF records write it.
//! - [`tournament`]: the schedule from the tournament seed, parallel games, standings.
//! - [`output`]: where a run leaves the results file and SGF records.
//! - [`sgf`]: the SGF writer.
//! - [`local`]: a player of this process (the house bot) as a contestant.
//! - [`part`]: a tournament's part files and their merge into the results
//!   a one-machine run writes.
//! - [`replay`]: a recorded game played again through the rules, so a
//!   merge takes no part whose games the stones do not bear out.
//! - [`shown`]: outside text escaped before it reaches the organiser's
//!   terminal or files (control characters, bidirectional overrides): the
//!   sandbox crate's gate, which the match runner shares.
//!
//! What a tournament shares with the engine match runner lives below both,
//! in [`inarow_contest`]: the conversation with a contained bot (`talk`), the
//! faults a bot forfeits for, how a game ended, shares of a cluster run and
//! the part files' reading, bot folder digests.
//!
//! The wire format is `inarow_protocol::koth`; the Swap2 game the referee
//! drives is `inarow_core::swap2`; the sandbox every bot runs in is
//! `inarow_sandbox`. The engine match runner, built on the same sandbox and
//! contest plumbing, is `inarow-match`.
//!
//! The library never prints or exits: fronts hear of games, lines and
//! interrupts through callbacks and events.
//!
//! Linux only: namespaces, Landlock, cgroups, process groups and `poll` are
//! how the judge stays unbreakable.
#![deny(missing_docs)]

pub mod field;
pub mod grant;
pub mod local;
pub mod meta;
pub mod name;
pub mod output;
pub mod part;
pub mod process;
pub mod record;
pub mod referee;
pub mod rename;
pub mod replay;
pub mod sgf;
pub mod shown;
pub mod tournament;

pub use field::discover;
pub use meta::BotMeta;
pub use record::GameRecord;
pub use referee::{Contestant, play_game};
pub use tournament::{Config, Results};
