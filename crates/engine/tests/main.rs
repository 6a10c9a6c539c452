//! The integration tests of `inarow-engine`, gathered in one test binary so that
//! the crate's tests are compiled and linked once, not once a file (issue 57).
//! Each file of this folder is one module; the CLI's
//! `every_test_file_is_a_module_of_its_crates_binary` keeps a new file from
//! being left out.

#[path = "support/suite.rs"]
mod suite;

mod defences;
mod exact_five;
mod fine;
mod patterns;
mod play;
mod renju;
mod tactics;
mod threats;
mod watch;
