//! Where a brain's program is, found before anything starts, the folder
//! it keeps its files in, and whether its sandbox holds.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use inarow_sandbox::{ProbeError, Program, Sandbox};

/// A brain's program, found before anything starts, and the folder of
/// its own it may write to for the match: it runs in its installation
/// (read-only), so its build folder is never written or measured.
#[derive(Clone, Debug)]
pub struct Place {
    /// The path as given, for messages.
    pub(super) name: String,
    /// Its file in its installation (`./pbrain-x`), where it runs.
    command: String,
    /// The folder holding its program: its installation.
    folder: PathBuf,
    /// The folder it keeps its files in (`INFO folder`).
    data: Arc<Data>,
}

/// A brain's own folder: the organiser's, or one made for the match and
/// removed after it.
#[derive(Debug)]
enum Data {
    Given(PathBuf),
    Made(tempfile::TempDir),
}

impl Place {
    /// The brain at `path` keeping its files in `folder` (a new folder
    /// when `None`), or why there is none (one line).
    pub fn find(path: &Path, keep_in: Option<&Path>) -> Result<Place, String> {
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
        let data = match keep_in {
            Some(given) => {
                let real = given
                    .canonicalize()
                    .map_err(|e| format!("brain {name}: its folder {}: {e}", given.display()))?;
                if !real.is_dir() {
                    return Err(format!("brain {name}: {} is not a folder", given.display()));
                }
                if real.starts_with(&folder) || folder.starts_with(&real) {
                    return Err(format!(
                        "brain {name}: its folder {} and its installation {} must be apart (the installation stays read-only)",
                        given.display(),
                        folder.display()
                    ));
                }
                Data::Given(real)
            }
            None => Data::Made(
                tempfile::Builder::new()
                    .prefix("inarow-brain-")
                    .tempdir()
                    .map_err(|e| format!("cannot make a folder for brain {name}: {e}"))?,
            ),
        };
        Ok(Place {
            name,
            command,
            folder,
            data: Arc::new(data),
        })
    }

    /// The folder holding its program.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The folder it keeps its files in.
    pub fn data_folder(&self) -> &Path {
        match &*self.data {
            Data::Given(path) => path,
            Data::Made(dir) => dir.path(),
        }
    }

    /// The brain as the sandbox starts it, kept out of `folders` (every
    /// brain's folder of the match; its own is skipped).
    pub(super) fn program<'a>(&'a self, folders: &'a [PathBuf]) -> Program<'a> {
        Program {
            name: &self.name,
            command: &self.command,
            args: &[],
            folder: self.data_folder(),
            workdir: Some(&self.folder),
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
            Err(ProbeError::NoProgram(e) | ProbeError::Full(e)) => {
                Err(format!("cannot start brain {}: {e}", self.name))
            }
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
        let place = Place::find(&real.join("a/../a/brain"), None).unwrap();
        // A file in its installation, where it runs.
        assert_eq!(place.command, "./brain");
        assert_eq!(place.folder, real.join("a"));
        // Its files go to a folder of its own, never its installation.
        assert!(place.data_folder().is_dir());
        assert!(!place.data_folder().starts_with(real.join("a")));
        assert_eq!(place.name, real.join("a/../a/brain").display().to_string());
        let missing = Place::find(&real.join("nothing"), None).unwrap_err();
        assert!(missing.starts_with("cannot find brain"));
        let folder = Place::find(&real.join("a"), None).unwrap_err();
        assert!(folder.contains("is not a program file"));
        std::fs::create_dir(real.join("keep")).unwrap();
        let kept = Place::find(&real.join("a/brain"), Some(&real.join("keep"))).unwrap();
        assert_eq!(kept.data_folder(), real.join("keep"));
        for inside in [real.clone(), real.join("a")] {
            let refused = Place::find(&real.join("a/brain"), Some(&inside)).unwrap_err();
            assert!(refused.contains("must be apart"), "{refused}");
        }
    }
}
