//! A gomoku engine for freestyle gomoku (five or more in a row wins).
//!
//! The parts follow the usual engine split: [`pattern`] (line pattern
//! tables), [`board`] (the position with incremental patterns), [`eval`],
//! [`movegen`], [`vcf`] (threat search), [`search`] (PVS with iterative
//! deepening, TT, killers and history), [`time`] (budgets), [`opening`]
//! (the Swap2 opening decided by search), [`player`] (the engine as a
//! Swap2 player, `inarow_core::swap2::Strategy`) and [`brain`] (the engine
//! as a Gomocup brain, `inarow_protocol::gomocup::Brain`).

pub mod board;
pub mod brain;
pub mod eval;
pub mod movegen;
pub mod opening;
pub mod pattern;
pub mod player;
pub mod score;
pub mod search;
pub mod selfplay;
pub mod suite;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;
