//! Bot folders and their `meta` files.

use std::fs;
use std::path::{Path, PathBuf};

/// What the judge knows about one bot, read from `<folder>/meta`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotMeta {
    /// The bot's folder; its process runs there.
    pub folder: PathBuf,
    /// The bot's name (first line), as it appears in `EXIT NAME` and the standings.
    pub name: String,
    /// The program to run (second line). A relative path with a `/` is
    /// taken from the bot's folder.
    pub command: String,
    /// Arguments from the third line; the opponent's name and the seed follow them.
    pub args: Vec<String>,
    /// Whether the bot's standard error is shown (fourth line `1`) or discarded (`0`).
    pub show_stderr: bool,
}

/// Why a bot folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MetaError {
    /// The `meta` file or the folder cannot be read.
    // The reason is part of the message and deliberately not the error's
    // source, so a report of the whole chain does not print it twice.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The operating system's reason.
        reason: std::io::Error,
    },
    /// The `meta` file is malformed.
    #[error("{path}: {problem}")]
    Invalid {
        /// The `meta` file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
}

impl BotMeta {
    /// Reads `<folder>/meta`.
    pub fn load(folder: &Path) -> Result<BotMeta, MetaError> {
        let path = folder.join("meta");
        let text = fs::read_to_string(&path).map_err(|reason| MetaError::Io {
            path: path.clone(),
            reason,
        })?;
        let folder = folder.canonicalize().map_err(|reason| MetaError::Io {
            path: folder.to_path_buf(),
            reason,
        })?;
        BotMeta::parse(&text, folder).map_err(|problem| MetaError::Invalid { path, problem })
    }

    /// Reads the four lines of a `meta` file for a bot living in `folder`.
    pub fn parse(text: &str, folder: PathBuf) -> Result<BotMeta, String> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        // Trailing blank lines are common; the fourth line (1 or 0) never is blank.
        let used = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |i| i + 1);
        if used != 4 {
            return Err(format!(
                "meta needs 4 lines (name, command, arguments, 1/0 show stderr), found {used}"
            ));
        }
        let line = |i: usize| lines.get(i).copied().unwrap_or("");
        let name = line(0);
        if name.is_empty() {
            return Err("line 1 (the bot's name) is empty".into());
        }
        if name.chars().any(char::is_whitespace) {
            return Err(format!(
                "line 1: the bot's name {name:?} contains whitespace, which `EXIT NAME` cannot carry"
            ));
        }
        let command = line(1);
        if command.is_empty() {
            return Err("line 2 (the command) is empty".into());
        }
        let show_stderr = match line(3) {
            "1" => true,
            "0" => false,
            other => return Err(format!("line 4 must be 1 or 0, found {other:?}")),
        };
        Ok(BotMeta {
            folder,
            name: name.to_string(),
            command: command.to_string(),
            args: line(2).split_whitespace().map(String::from).collect(),
            show_stderr,
        })
    }

    /// The program path as the process should be started with.
    pub fn program(&self) -> PathBuf {
        let command = Path::new(&self.command);
        if command.is_relative() && self.command.contains('/') {
            self.folder.join(command)
        } else {
            command.to_path_buf()
        }
    }
}

/// Every bot in `dir`: each subfolder holding a `meta` file, sorted by folder
/// name. Names must be unique.
pub fn discover(dir: &Path) -> Result<Vec<BotMeta>, MetaError> {
    let io = |reason| MetaError::Io {
        path: dir.to_path_buf(),
        reason,
    };
    let mut folders: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.join("meta").is_file())
        .collect();
    folders.sort();
    let bots = folders
        .iter()
        .map(|f| BotMeta::load(f))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, bot) in bots.iter().enumerate() {
        if let Some(other) = bots[..i].iter().find(|b| b.name == bot.name) {
            return Err(MetaError::Invalid {
                path: bot.folder.join("meta"),
                problem: format!(
                    "the name {:?} is already used by {}",
                    bot.name,
                    other.folder.display()
                ),
            });
        }
    }
    Ok(bots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_lines_with_empty_arguments() {
        let meta = BotMeta::parse("Rando\npython3\n\n1\n", PathBuf::from("/b")).unwrap();
        assert_eq!(meta.name, "Rando");
        assert!(meta.args.is_empty());
        assert!(meta.show_stderr);
        let meta = BotMeta::parse("R\n./run\n a  b \n0", PathBuf::from("/b")).unwrap();
        assert_eq!(meta.args, ["a", "b"]);
        assert_eq!(meta.program(), PathBuf::from("/b/./run"));
        assert!(!meta.show_stderr);
    }

    #[test]
    fn bad_meta_is_named() {
        let err = |t| BotMeta::parse(t, PathBuf::from("/b")).unwrap_err();
        assert!(err("A\npython3\n").contains("4 lines"));
        assert!(err("A\npython3\nx\n2\n").contains("line 4"));
        assert!(err("My Bot\npython3\nx\n1\n").contains("whitespace"));
        assert!(err("\npython3\nx\n1\n").contains("name"));
        assert!(err("A\npython3\nx\n1\nextra\n").contains("4 lines"));
    }
}
