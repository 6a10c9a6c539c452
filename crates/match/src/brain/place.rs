//! Where a brain's program is, found before anything starts, the folder
//! it keeps its files in, and whether its sandbox holds.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use inarow_sandbox::{ProbeError, Program, Sandbox};

/// Why a brain cannot play: one line naming it and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// Its program is not there.
    #[error("cannot find brain {name}: {error}")]
    NotFound {
        /// The brain as given.
        name: String,
        /// The system's reason.
        error: std::io::Error,
    },
    /// Its path is no file.
    #[error("brain {name} is not a program file")]
    NotAProgram {
        /// The brain as given.
        name: String,
    },
    /// Its file's name is not UTF-8.
    #[error("brain {name}: its file name is not UTF-8")]
    NotUtf8 {
        /// The brain as given.
        name: String,
    },
    /// The folder given for its files cannot be had.
    #[error("brain {name}: its folder {}: {error}", .folder.display())]
    Folder {
        /// The brain as given.
        name: String,
        /// The folder as given.
        folder: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The folder given for its files is no folder.
    #[error("brain {name}: {} is not a folder", .folder.display())]
    NotAFolder {
        /// The brain as given.
        name: String,
        /// The folder as given.
        folder: PathBuf,
    },
    /// The folder given for its files and its installation overlap.
    #[error(
        "brain {name}: its folder {} and its installation {} must be apart (the installation stays read-only)",
        .folder.display(),
        .installation.display()
    )]
    NotApart {
        /// The brain as given.
        name: String,
        /// The folder as given.
        folder: PathBuf,
        /// The folder holding its program.
        installation: PathBuf,
    },
    /// No folder could be made for its files.
    #[error("cannot make a folder for brain {name}: {error}")]
    NoFolder {
        /// The brain as given.
        name: String,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The folder of a game slot could not be made.
    #[error("brain {name}: cannot make its folder {}: {error}", .folder.display())]
    SlotFolder {
        /// The brain as given.
        name: String,
        /// The slot's folder.
        folder: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// Two game slots' folders are one folder.
    #[error(
        "brain {name}: its folders {} and {} are one folder: each brain playing at once keeps its own",
        .first.display(),
        .second.display()
    )]
    OneFolder {
        /// The brain as given.
        name: String,
        /// The first slot's folder.
        first: PathBuf,
        /// The second slot's folder.
        second: PathBuf,
    },
    /// Its program is missing, or its folder is over its bound.
    #[error("cannot start brain {name}: {error}")]
    CannotStart {
        /// The brain as given.
        name: String,
        /// The probe's finding.
        error: ProbeError,
    },
    /// The sandbox does not work on this machine.
    #[error(
        "the sandbox cannot contain brain {name} on this machine: {error} (--no-sandbox runs it uncontained)"
    )]
    Uncontained {
        /// The brain as given.
        name: String,
        /// The probe's finding.
        error: ProbeError,
    },
}

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
    pub fn find(path: &Path, keep_in: Option<&Path>) -> Result<Place, PlaceError> {
        let name = path.display().to_string();
        let real = std::fs::canonicalize(path).map_err(|error| PlaceError::NotFound {
            name: name.clone(),
            error,
        })?;
        if !real.is_file() {
            return Err(PlaceError::NotAProgram { name });
        }
        let folder = real.parent().expect("a file has a folder").to_path_buf();
        let command = real
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| format!("./{n}"))
            .ok_or_else(|| PlaceError::NotUtf8 { name: name.clone() })?;
        let data = match keep_in {
            Some(given) => {
                let real = given.canonicalize().map_err(|error| PlaceError::Folder {
                    name: name.clone(),
                    folder: given.to_path_buf(),
                    error,
                })?;
                if !real.is_dir() {
                    return Err(PlaceError::NotAFolder {
                        name,
                        folder: given.to_path_buf(),
                    });
                }
                if real.starts_with(&folder) || folder.starts_with(&real) {
                    return Err(PlaceError::NotApart {
                        name,
                        folder: given.to_path_buf(),
                        installation: folder,
                    });
                }
                Data::Given(real)
            }
            None => Data::Made(
                tempfile::Builder::new()
                    .prefix("inarow-brain-")
                    .tempdir()
                    .map_err(|error| PlaceError::NoFolder {
                        name: name.clone(),
                        error,
                    })?,
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
    pub fn check(&self, sandbox: &Sandbox, folders: &[PathBuf]) -> Result<Vec<String>, PlaceError> {
        let name = self.name.clone();
        match sandbox.check(&self.program(folders)) {
            Ok(warnings) => Ok(warnings
                .into_iter()
                .map(|w| format!("brain {}: {w}", self.name))
                .collect()),
            Err(error @ (ProbeError::NoProgram(_) | ProbeError::Full(_))) => {
                Err(PlaceError::CannotStart { name, error })
            }
            Err(error @ ProbeError::Uncontained(_)) => Err(PlaceError::Uncontained { name, error }),
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
        assert!(matches!(missing, PlaceError::NotFound { .. }));
        assert!(missing.to_string().starts_with("cannot find brain"));
        let folder = Place::find(&real.join("a"), None).unwrap_err();
        assert!(matches!(folder, PlaceError::NotAProgram { .. }));
        assert!(folder.to_string().contains("is not a program file"));
        std::fs::create_dir(real.join("keep")).unwrap();
        let kept = Place::find(&real.join("a/brain"), Some(&real.join("keep"))).unwrap();
        assert_eq!(kept.data_folder(), real.join("keep"));
        for inside in [real.clone(), real.join("a")] {
            let refused = Place::find(&real.join("a/brain"), Some(&inside)).unwrap_err();
            assert!(matches!(refused, PlaceError::NotApart { .. }));
            assert!(refused.to_string().contains("must be apart"), "{refused}");
        }
    }
}
