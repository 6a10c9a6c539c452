//! The organiser's grants (`inarow judge --allow-read [FOLDER=]PATH`):
//! more paths a bot may read, checked to exist and to open no other bot's
//! folder. A meta file never grants anything.

use std::path::PathBuf;

use inarow_sandbox::paths::PathError;

use crate::meta::BotMeta;

/// Why a grant of the organiser cannot be given: one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GrantError {
    /// `--allow-read PATH` is missing or would open a bot's folder.
    #[error("--allow-read {}: {why}", path.display())]
    ToEveryone {
        /// The path as given.
        path: PathBuf,
        /// What is wrong with it.
        why: PathError,
    },
    /// `--allow-read FOLDER=PATH` names a folder the bots folder does not hold.
    #[error(
        "--allow-read {folder}={}: {} holds no bot folder {folder:?} (name a bot by its folder's name)",
        path.display(),
        bots.display()
    )]
    NoFolder {
        /// The folder named.
        folder: String,
        /// The path granted.
        path: PathBuf,
        /// The bots folder.
        bots: PathBuf,
    },
    /// A grant to one bot is missing or would open another bot's folder.
    #[error("--allow-read for bot {bot}: {why}")]
    ToBot {
        /// The bot's name.
        bot: String,
        /// What is wrong with the grant.
        why: PathError,
    },
}

/// Checks the extra read-only paths the organiser gave `bot`
/// (`--allow-read FOLDER=PATH`): each must exist and open no other bot's
/// folder (`folders`: every bot folder, left out or not; its own is
/// skipped). Grants come back resolved.
pub fn check_grants(bot: &mut BotMeta, folders: &[PathBuf]) -> Result<(), GrantError> {
    let others: Vec<PathBuf> = folders
        .iter()
        .filter(|f| **f != bot.folder)
        .cloned()
        .collect();
    let checked = bot
        .grants
        .iter()
        .map(|g| inarow_sandbox::paths::check_grant(g, &others))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|why| GrantError::ToBot {
            bot: bot.name.clone(),
            why,
        })?;
    bot.grants = checked;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::field::survey;
    use crate::meta::tests::bot_with;

    #[test]
    fn organiser_grants_must_exist_and_never_open_another_bot() {
        let dir = tempfile::tempdir().unwrap();
        let bots = dir.path().join("bots");
        bot_with(&bots, "alice", "alice\npython3\n\n0\n");
        bot_with(&bots, "bob", "bob\npython3\n\n0\n");
        fs::create_dir_all(dir.path().join("books")).unwrap();
        let found = survey(&bots).unwrap();
        let all = found.folders();
        let mut alice = found.bots[0].clone();
        alice.grants = vec![dir.path().join("books/../books")];
        check_grants(&mut alice, &all).unwrap();
        assert_eq!(
            alice.grants,
            [dir.path().join("books").canonicalize().unwrap()]
        );
        for bad in [bots.join("bob"), bots.clone(), dir.path().join("none")] {
            let mut alice = found.bots[0].clone();
            alice.grants = vec![bad.clone()];
            let err = check_grants(&mut alice, &all).unwrap_err().to_string();
            assert!(err.starts_with("--allow-read for bot alice: "), "{err}");
            assert!(!err.contains('\n'));
        }
    }
}
