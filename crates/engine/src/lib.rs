//! A gomoku engine for freestyle gomoku (five or more in a row wins).
//!
//! The parts follow the usual engine split: [`pattern`] (line pattern
//! tables), [`board`] (the position with incremental patterns), [`eval`],
//! [`movegen`], [`vcf`] (threat search), [`search`] (PVS with iterative
//! deepening, TT, killers and history), [`time`] (budgets), [`koth`] (answers
//! to the king-of-the-hill judge, including the Swap2 opening) and [`brain`]
//! (the Gomocup brain protocol over any reader and writer).

pub mod board;
pub mod brain;
pub mod eval;
pub mod koth;
pub mod movegen;
pub mod opening;
pub mod options;
pub mod pattern;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;
