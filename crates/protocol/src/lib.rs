//! # inarow-protocol
//!
//! The wire formats gomoku players speak, each in one module with both of
//! its sides, over any reader and writer (no processes, no files):
//!
//! - [`koth`]: the king-of-the-hill judge's line protocol
//!   (`shared/specs/koth-gomoku.md`): the prompts `A`, `B`, `C`, `N` and
//!   `EXIT` the judge writes and the answers it reads, and the bot's loop
//!   answering prompts with any [`inarow_core::swap2::Strategy`].
//! - [`gomocup`]: the Gomocup brain protocol with the Swap2 extension: the
//!   commands a manager writes and the replies it reads, and the brain's
//!   loop over a [`gomocup::Brain`].
//!
//! Points are the core's [`inarow_core::Point`]; both protocols write them
//! as column then row, from 0 at the top-left corner.
#![deny(missing_docs)]

pub mod gomocup;
pub mod koth;
