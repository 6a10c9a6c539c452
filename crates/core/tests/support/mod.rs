//! Helpers shared by the core's tests.

pub mod renju_brute;
