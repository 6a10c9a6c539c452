//! The integration tests of `inarow-web`, gathered in one test binary so that
//! the crate's tests are compiled and linked once, not once a file (issue 57).
//! Each file of this folder is one module; the CLI's
//! `every_test_file_is_a_module_of_its_crates_binary` keeps a new file from
//! being left out.

mod common;

mod analyse_api;
mod free_api;
mod gomoku_api;
mod gomoku_rule;
mod guard_api;
mod limits;
mod live_api;
mod menace_api;
mod moves_api;
mod renju_api;
mod tournament_api;
