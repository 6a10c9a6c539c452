//! # inarow-contest
//!
//! The plumbing every contest between contained programs shares, whoever
//! runs it: the judge's king-of-the-hill tournament (`inarow-judge`) and
//! the engine match runner's Gomocup brains (`inarow-match`). It sits below
//! both so that neither reaches into the other: the match runner used to
//! take these from the judge's crate.
//!
//! - [`talk`]: the conversation with a contained opponent (thawed for its
//!   turn, lines within deadlines, frozen after), its silences typed as
//!   faults: a tournament's bots and a match's brains both speak through it.
//! - [`fault`]: why a player lost without being beaten on the board, with
//!   the words the records write beside it.
//! - [`ending`]: how a game ended, as every record names it.
//! - [`shard`]: a machine's share of a tournament or match on a cluster
//!   (`I/N`, Slurm job arrays, Kubernetes Indexed Jobs), and part files
//!   read and checked for a merge (a tournament's and a match's).
//! - [`digest`]: a bot folder's digest, the same bot on every machine, and
//!   the one-line error of a file that cannot be read.
//!
//! Outside text (a bot's answer, a path) reaches a message only through
//! `inarow_sandbox::shown`'s escape. Linux only, as the sandbox is.
#![deny(missing_docs)]

pub mod digest;
pub mod ending;
pub mod fault;
pub mod shard;
pub mod talk;

pub use ending::Ending;
pub use fault::Fault;
pub use shard::Shard;
