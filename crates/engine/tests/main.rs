//! The integration tests of `inarow-engine`, gathered in one test binary so that
//! the crate's tests are compiled and linked once, not once a file (issue 57).
//! Each file of this folder is one module; `every_file_here_is_a_module`
//! keeps a new file from being left out.

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

/// A test file this binary does not name would never be compiled
/// (`autotests = false`): every `.rs` file of the folder must be a module here.
#[test]
fn every_file_here_is_a_module() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(folder.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "main") {
            assert!(
                main.contains(&format!("\nmod {module};\n")),
                "tests/{name} is not a module of tests/main.rs: add `mod {module};`"
            );
        }
    }
}
