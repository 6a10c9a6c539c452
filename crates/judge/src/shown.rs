//! Bot text made safe to show on the organiser's terminal: the one gate
//! for outside text, which lives in `inarow_sandbox` (the crate of
//! programs the project did not write) so that the judge and the match
//! runner share it, re-exported here.

pub use inarow_sandbox::shown::{escape, quoted};
