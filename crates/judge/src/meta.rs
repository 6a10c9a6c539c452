//! Bot folders and their `meta` files.

use std::fs;
use std::path::{Path, PathBuf};

use crate::sandbox::Program;

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
    /// More paths the bot may read, from an optional fifth line
    /// `read: PATH ...` (relative to its folder); checked when the bots
    /// folder is read.
    pub grants: Vec<PathBuf>,
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

    /// Reads the four lines of a `meta` file for a bot living in `folder`,
    /// and the optional fifth, `read: PATH ...`.
    pub fn parse(text: &str, folder: PathBuf) -> Result<BotMeta, String> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        // Trailing blank lines are common; the fourth line (1 or 0) never is blank.
        let used = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |i| i + 1);
        if !(4..=5).contains(&used) {
            return Err(format!(
                "meta needs 4 lines (name, command, arguments, 1/0 show stderr) and an optional `read: PATHS`, found {used}"
            ));
        }
        let line = |i: usize| lines.get(i).copied().unwrap_or("");
        let name = line(0);
        check_name(name)?;
        let command = line(1);
        if command.is_empty() {
            return Err("line 2 (the command) is empty".into());
        }
        let show_stderr = match line(3) {
            "1" => true,
            "0" => false,
            other => return Err(format!("line 4 must be 1 or 0, found {other:?}")),
        };
        let grants = match line(4) {
            "" => Vec::new(),
            fifth => {
                let paths = fifth.strip_prefix("read:").ok_or_else(|| {
                    format!("line 5 must be `read: PATH ...` (more paths the bot may read), found {fifth:?}")
                })?;
                paths.split_whitespace().map(|p| folder.join(p)).collect()
            }
        };
        Ok(BotMeta {
            folder,
            name: name.to_string(),
            command: command.to_string(),
            args: line(2).split_whitespace().map(String::from).collect(),
            show_stderr,
            grants,
        })
    }

    /// The program path as the process should be started with.
    pub fn program(&self) -> PathBuf {
        crate::sandbox::paths::as_given(&self.command, &self.folder)
    }

    /// The bot as the sandbox starts it, with `args` (its own, or with the
    /// opponent and seed appended) and kept out of `folders` (every bot's
    /// folder of the tournament; its own is skipped).
    pub fn contestant<'a>(&'a self, args: &'a [String], folders: &'a [PathBuf]) -> Program<'a> {
        Program {
            name: &self.name,
            command: &self.command,
            args,
            folder: &self.folder,
            grants: &self.grants,
            closed: folders,
        }
    }
}

/// A name travels in `EXIT NAME` lines and as a bot's argument, so it is
/// kept to letters, digits, `-`, `_` and `.`, and never looks like an option.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("line 1 (the bot's name) is empty".into());
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!(
            "line 1: the bot's name {name:?} holds {bad:?}; use letters, digits, '-', '_' and '.'"
        ));
    }
    if name.starts_with('-') {
        return Err(format!(
            "line 1: the bot's name {name:?} starts with '-', which bots would read as an option"
        ));
    }
    Ok(())
}

/// Checks `bot`'s extra read-only paths: each must exist and open no other
/// bot's folder (`folders`: every bot's; its own is skipped). Grants come
/// back resolved.
pub fn check_grants(bot: &mut BotMeta, folders: &[PathBuf]) -> Result<(), MetaError> {
    let others: Vec<PathBuf> = folders
        .iter()
        .filter(|f| **f != bot.folder)
        .cloned()
        .collect();
    let checked = bot
        .grants
        .iter()
        .map(|g| crate::sandbox::paths::check_grant(g, &others))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| MetaError::Invalid {
            path: bot.folder.join("meta"),
            problem: format!("line 5: {e}"),
        })?;
    bot.grants = checked;
    Ok(())
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
    let mut bots = folders
        .iter()
        .map(|f| BotMeta::load(f))
        .collect::<Result<Vec<_>, _>>()?;
    let all: Vec<PathBuf> = bots.iter().map(|b| b.folder.clone()).collect();
    for bot in &mut bots {
        check_grants(bot, &all)?;
    }
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
        assert!(err("My Bot\npython3\nx\n1\n").contains("holds ' '"));
        assert!(err("\npython3\nx\n1\n").contains("name"));
        assert!(err("A\npython3\nx\n1\nextra\n").contains("line 5"));
        assert!(err("A\npython3\nx\n1\nread: a\nmore\n").contains("4 lines"));
    }

    #[test]
    fn names_are_plain_words_never_options() {
        let err =
            |name: &str| BotMeta::parse(&format!("{name}\npython3\n\n1\n"), PathBuf::from("/b"));
        for good in ["alice", "bot-2", "deep_blue.v3", "Åsa"] {
            assert!(err(good).is_ok(), "{good}");
        }
        assert!(err("--help").unwrap_err().contains("starts with '-'"));
        assert!(err("-x").unwrap_err().contains("option"));
        for bad in ["a/b", "a;b", "$(x)", "a\tb", "\"q\""] {
            assert!(err(bad).unwrap_err().contains("use letters"), "{bad}");
        }
    }

    #[test]
    fn a_fifth_line_grants_more_paths_to_read_but_never_another_bot() {
        let dir = tempfile::tempdir().unwrap();
        let bots = dir.path().join("bots");
        for name in ["alice", "bob"] {
            std::fs::create_dir_all(bots.join(name)).unwrap();
        }
        std::fs::create_dir_all(dir.path().join("books")).unwrap();
        std::fs::write(bots.join("bob/meta"), "bob\npython3\n\n0\n").unwrap();
        std::fs::write(
            bots.join("alice/meta"),
            "alice\npython3\n\n0\nread: ../../books\n",
        )
        .unwrap();
        let found = discover(&bots).unwrap();
        assert_eq!(
            found[0].grants,
            [dir.path().join("books").canonicalize().unwrap()]
        );
        std::fs::write(
            bots.join("alice/meta"),
            "alice\npython3\n\n0\nread: ../bob\n",
        )
        .unwrap();
        let err = discover(&bots).unwrap_err().to_string();
        assert!(
            err.contains("alice/meta") && err.contains("would open"),
            "{err}"
        );
        std::fs::write(bots.join("alice/meta"), "alice\npython3\n\n0\nread: ..\n").unwrap();
        assert!(discover(&bots).is_err());
    }
}
