//! What the judge's tests share: the sandbox they start bots in, bot
//! folders the bots' user can use, and the processes still running in a
//! folder.
#![allow(dead_code)]

use std::path::PathBuf;

use inarow_sandbox::{Launcher, Limits, Sandbox};

mod folders;
pub use folders::*;

/// Bots contained as in a real tournament, by this crate's launcher.
pub fn sandbox() -> Sandbox {
    sandbox_with(Limits::default())
}

/// [`sandbox`] with other limits.
pub fn sandbox_with(limits: Limits) -> Sandbox {
    let launcher = Launcher {
        program: PathBuf::from(env!("CARGO_BIN_EXE_inarow-contain")),
        prefix: Vec::new(),
        share_user: false,
    };
    Sandbox::contained(launcher, limits, Vec::new())
        .expect("the tests' machine bounds memory and processors")
}
