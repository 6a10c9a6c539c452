//! The organiser's renames (`inarow judge --rename FOLDER=NAME`): a bot
//! folder's name for its bot, decided where two folders give one name or
//! look-alikes, and why one cannot be followed.

use std::path::PathBuf;

use crate::name::{self, NameProblem};
use crate::shown::{escape, quoted};

/// The organiser's decision `--rename FOLDER=NAME`: the bot in folder
/// FOLDER plays under NAME, whatever its meta file's first line says. Two
/// folders that give the same name are both left out until one of them is
/// renamed (see [`survey_renamed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rename {
    /// The folder's name inside the bots folder.
    pub folder: String,
    /// The name the bot plays under; it passes the one rule of
    /// [`crate::name`], as a meta name does.
    pub name: String,
}

impl Rename {
    /// Reads `FOLDER=NAME`; the error is one line.
    pub fn parse(text: &str) -> Result<Rename, RenameError> {
        let given = || text.to_string();
        let Some((folder, name)) = text.split_once('=') else {
            return Err(RenameError::Form { text: given() });
        };
        if folder.is_empty() || folder.contains('/') {
            return Err(RenameError::Folder { text: given() });
        }
        match name::check(name) {
            Ok(()) => {}
            Err(NameProblem::Empty) => return Err(RenameError::EmptyName { text: given() }),
            Err(problem) => {
                return Err(RenameError::Name {
                    text: given(),
                    problem,
                });
            }
        }
        Ok(Rename {
            folder: folder.to_string(),
            name: name.to_string(),
        })
    }
}

impl std::str::FromStr for Rename {
    type Err = RenameError;

    fn from_str(text: &str) -> Result<Rename, RenameError> {
        Rename::parse(text)
    }
}

impl std::fmt::Display for Rename {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The folder is as the organiser typed it: shown through the gate.
        write!(f, "{}", escape(&format!("{}={}", self.folder, self.name)))
    }
}

/// Why the organiser's `--rename FOLDER=NAME` cannot be followed: one line,
/// the text as given escaped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenameError {
    /// Not `FOLDER=NAME`.
    #[error("--rename {}: write FOLDER=NAME", escape(text))]
    Form {
        /// The text given.
        text: String,
    },
    /// A FOLDER empty or with a `/`.
    #[error(
        "--rename {}: FOLDER is the name of a bot's folder inside the bots folder: write FOLDER=NAME",
        escape(text)
    )]
    Folder {
        /// The text given.
        text: String,
    },
    /// An empty NAME.
    #[error("--rename {}: the name is empty: write FOLDER=NAME", escape(text))]
    EmptyName {
        /// The text given.
        text: String,
    },
    /// A NAME a meta file could not give.
    #[error("--rename {}: the name {problem}", escape(text))]
    Name {
        /// The text given.
        text: String,
        /// What is wrong with the name.
        problem: NameProblem,
    },
    /// One folder renamed twice.
    #[error("--rename {rename}: the folder {} is renamed twice; give it one name", rename.folder)]
    Twice {
        /// The second rename.
        rename: Rename,
    },
    /// A folder the bots folder does not hold.
    #[error(
        "--rename {rename}: {} holds no bot folder {:?} (name a bot by its folder's name)",
        bots.display(),
        rename.folder
    )]
    NoFolder {
        /// The rename.
        rename: Rename,
        /// The bots folder.
        bots: PathBuf,
    },
    /// A name another bot gives, or one that looks like it.
    #[error(
        "--rename {rename}: the name {} is also given by the bot in folder {other}{}; give a name no other bot gives",
        quoted(&rename.name),
        if *given == rename.name {
            String::new()
        } else {
            format!(" (as {}, which looks like it)", quoted(given))
        }
    )]
    Taken {
        /// The rename.
        rename: Rename,
        /// The other bot's folder.
        other: String,
        /// The name the other bot gives.
        given: String,
    },
}
