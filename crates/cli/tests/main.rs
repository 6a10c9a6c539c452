//! The integration tests of `inarow`, gathered in one test binary so that
//! the crate's tests are compiled and linked once, not once a file (issue 57).
//! Each file of this folder is one module; the CLI's
//! `every_test_file_is_a_module_of_its_crates_binary` keeps a new file from
//! being left out.

mod common;

mod eval;
mod judge_bots;
mod judge_cli;
mod judge_hostile;
mod judge_languages;
mod judge_names;
mod judge_schedule;
mod judge_shard;
mod menace;
mod numbers;
mod pbrain;
mod readme;
mod scripts;
mod selfplay;
mod selfplay_jobs;
mod selfplay_shard;
mod serve;
mod solve_play;
mod yixin_board;

/// A test file its crate's `tests/main.rs` does not name would never be
/// compiled (`autotests = false`): in every crate that gathers its tests,
/// each `.rs` file of `tests/` must be a module of `tests/main.rs`.
#[test]
fn every_test_file_is_a_module_of_its_crates_binary() {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut gathered = 0;
    for krate in std::fs::read_dir(&crates).unwrap() {
        let krate = krate.unwrap().path();
        let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).unwrap_or_default();
        if !manifest.contains("\nautotests = false\n") {
            continue;
        }
        gathered += 1;
        let tests = krate.join("tests");
        let main = std::fs::read_to_string(tests.join("main.rs")).unwrap();
        for entry in std::fs::read_dir(&tests).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "main") {
                assert!(
                    main.contains(&format!("\nmod {module};\n")),
                    "{}: {name} is not a module of main.rs: add `mod {module};`",
                    tests.display()
                );
            }
        }
    }
    assert_eq!(
        gathered, 6,
        "the crates that gather their tests in one binary"
    );
}
