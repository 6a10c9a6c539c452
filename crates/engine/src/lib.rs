#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod analysis;
pub mod board;
pub mod eval;
pub mod heat;
pub mod history;
pub mod learn;
pub mod movepick;
pub mod opening;
pub mod options;
pub mod pattern;
pub mod player;
pub mod pos;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;
pub mod vcf_solver;
pub mod vct;
