//! The seeds a run derives from its one `--seed`, so the terminal program
//! and the web page draw the same opponents and the same second learner
//! (docs/menace.md lists them).

/// The seed of the random or perfect opponent MENACE trains against.
pub const fn opponent_seed(seed: u64) -> u64 {
    seed ^ 0x6f70_706f
}

/// The seed of the second learner, a MENACE playing O.
pub const fn second_learner_seed(seed: u64) -> u64 {
    seed ^ 0x4f4f_4f4f
}
