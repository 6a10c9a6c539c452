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
//! - [`talk`]: the conversation with a contained opponent (thawed for its
//!   turn, lines within deadlines, frozen after), its silences typed as
//!   faults: a tournament's bots and a match's brains both speak through it.
//! - [`process`]: a bot for one game, run by `inarow_sandbox` (contained
//!   by the kernel: namespaces, Landlock, cgroups, resource limits; end
//!   and kill), each answer a turn of its [`talk::Talk`].
//! - [`referee`]: one game, the Swap2 opening, forfeits.
//! - [`fault`]: why a bot lost without being beaten on the board, with
//!   the words the records write beside it.
//! - [`record`]: what a game leaves: its record (seats, colours, the
//!   answer to the opening, the ending, the fault a bot forfeited for) as
//!   the results, part files and SGF records write it.
//! - [`tournament`]: the schedule from the tournament seed, parallel games, standings.
//! - [`digest`]: a bot folder's digest, the same bot on every machine.
//! - [`output`]: where a run leaves the results file and SGF records.
//! - [`sgf`]: the SGF writer.
//! - [`local`]: a player of this process (the house bot) as a contestant.
//! - [`shard`]: a machine's share of a tournament or match on a cluster
//!   (`I/N`, Slurm job arrays, Kubernetes Indexed Jobs), bot folder digests,
//!   part files read and checked (a tournament's and, in `inarow-match`, a
//!   match's).
//! - [`part`]: a tournament's part files and their merge into the results
//!   a one-machine run writes.
//! - [`replay`]: a recorded game played again through the rules, so a
//!   merge takes no part whose games the stones do not bear out.
//! - [`shown`]: outside text escaped before it reaches the organiser's
//!   terminal or files (control characters, bidirectional overrides): the
//!   sandbox crate's gate, which the match runner shares.
//!
//! The wire format is `inarow_protocol::koth`; the Swap2 game the referee
//! drives is `inarow_core::swap2`; the sandbox every bot runs in is
//! `inarow_sandbox`. The engine match runner, built on the same sandbox and
//! part files, is `inarow-match`.
//!
//! The library never prints or exits: fronts hear of games, lines and
//! interrupts through callbacks and events.
//!
//! Linux only: namespaces, Landlock, cgroups, process groups and `poll` are
//! how the judge stays unbreakable.
#![deny(missing_docs)]

pub mod digest;
pub mod fault;
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
pub mod shard;
pub mod shown;
pub mod talk;
pub mod tournament;

pub use fault::Fault;
pub use field::discover;
pub use meta::BotMeta;
pub use record::GameRecord;
pub use referee::{Contestant, play_game};
pub use tournament::{Config, Results};
