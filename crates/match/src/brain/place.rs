//! Where a brain's program is, found before anything starts, and whether
//! its sandbox holds.

use std::path::{Path, PathBuf};

use inarow_sandbox::{ProbeError, Program, Sandbox};

/// A brain's program, found before anything starts.
#[derive(Clone, Debug)]
pub struct Place {
    /// The path as given, for messages.
    pub(super) name: String,
    /// Its file in its folder (`./pbrain-x`): a contestant's command is a
    /// file in its own folder, where it runs.
    command: String,
    /// The folder it keeps its files in.
    folder: PathBuf,
}

impl Place {
    /// The brain at `path`, or why there is none (one line).
    pub fn find(path: &Path) -> Result<Place, String> {
        let name = path.display().to_string();
        let real =
            std::fs::canonicalize(path).map_err(|e| format!("cannot find brain {name}: {e}"))?;
        if !real.is_file() {
            return Err(format!("brain {name} is not a program file"));
        }
        let folder = real.parent().expect("a file has a folder").to_path_buf();
        let command = real
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| format!("./{n}"))
            .ok_or_else(|| format!("brain {name}: its file name is not UTF-8"))?;
        Ok(Place {
            name,
            command,
            folder,
        })
    }

    /// The folder it keeps its files in.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The brain as the sandbox starts it, kept out of `folders` (every
    /// brain's of the match; its own is skipped).
    pub(super) fn program<'a>(&'a self, folders: &'a [PathBuf]) -> Program<'a> {
        Program {
            name: &self.name,
            command: &self.command,
            args: &[],
            folder: &self.folder,
            grants: &[],
            closed: folders,
        }
    }

    /// Probes the brain's sandbox as the judge probes a bot's: an error
    /// (one line) if it would not be contained; warnings for what only
    /// hurts the brain itself. Nothing to check with the sandbox off.
    pub fn check(&self, sandbox: &Sandbox, folders: &[PathBuf]) -> Result<Vec<String>, String> {
        match sandbox.check(&self.program(folders)) {
            Ok(warnings) => Ok(warnings
                .into_iter()
                .map(|w| format!("brain {}: {w}", self.name))
                .collect()),
            Err(ProbeError::NoProgram(e)) => Err(format!("cannot start brain {}: {e}", self.name)),
            Err(ProbeError::Uncontained(e)) => Err(format!(
                "the sandbox cannot contain brain {} on this machine: {e} (--no-sandbox runs it uncontained)",
                self.name
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brain_is_a_file_found_by_its_real_path() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        std::fs::create_dir(real.join("a")).unwrap();
        std::fs::write(real.join("a/brain"), "").unwrap();
        let place = Place::find(&real.join("a/../a/brain")).unwrap();
        // A file in its own folder, where it runs.
        assert_eq!(place.command, "./brain");
        assert_eq!(place.folder, real.join("a"));
        assert_eq!(place.name, real.join("a/../a/brain").display().to_string());
        let missing = Place::find(&real.join("nothing")).unwrap_err();
        assert!(missing.starts_with("cannot find brain"));
        let folder = Place::find(&real.join("a")).unwrap_err();
        assert!(folder.contains("is not a program file"));
    }
}
