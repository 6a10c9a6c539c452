//! The survey of a bots folder: every bot folder read, the bots that may
//! play and those left out with their reasons (a meta file refused, a name
//! given by two folders), the organiser's renames applied.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::meta::{BotMeta, MetaError, MetaProblem, folder_name};
use crate::name::skeleton;
use crate::rename::{Rename, RenameError};
use crate::shown::escape;

/// A bot folder left out of a tournament, and why: as the results file
/// keeps it (`"left_out": [{"folder": "evil", "reason": "..."}]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    /// The folder's name inside the bots folder.
    pub folder: String,
    /// Why, in one line that names no path of this machine.
    pub reason: String,
    /// Where the folder is: it stays closed to the bots that play. Not
    /// written to results or part files.
    #[serde(skip)]
    pub path: PathBuf,
}

impl LeftOut {
    /// `bot` left out for `reason` (escaped: a probe's reason may quote
    /// what the bot's sandbox said, and it is shown and kept).
    pub fn bot(bot: &BotMeta, reason: String) -> LeftOut {
        LeftOut {
            folder: escape(&bot.folder_name()).into_owned(),
            reason: escape(&reason).into_owned(),
            path: bot.folder.clone(),
        }
    }
}

/// The bot folders of a bots folder: the bots that may play, in folder
/// order, and those left out (a meta file the judge refuses, a name
/// another folder gives too), also in folder order.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    /// The bots that may play.
    pub bots: Vec<BotMeta>,
    /// The bots left out.
    pub left_out: Vec<LeftOut>,
}

impl Survey {
    /// Moves `bots[index]` to the bots left out, for `reason`.
    pub fn leave_out(&mut self, index: usize, reason: String) {
        let bot = self.bots.remove(index);
        self.left_out.push(LeftOut::bot(&bot, reason));
        self.left_out.sort_by(|a, b| a.folder.cmp(&b.folder));
    }

    /// Every bot folder, playing or left out: each stays closed to the others.
    pub fn folders(&self) -> Vec<PathBuf> {
        closed(&self.bots, &self.left_out)
    }
}

/// The folders of `bots` and of the bots `left_out`: every bot folder of a
/// tournament, each kept closed to the others.
pub fn closed(bots: &[BotMeta], left_out: &[LeftOut]) -> Vec<PathBuf> {
    bots.iter()
        .map(|b| b.folder.clone())
        .chain(left_out.iter().map(|l| l.path.clone()))
        .collect()
}

/// A bot folder and its meta file read, or why it is refused.
type Scanned = (PathBuf, Result<BotMeta, MetaError>);

/// Every bot folder of `dir` (each subfolder holding an entry named
/// `meta`, whatever it is), sorted, each with its meta file read or the
/// error that refuses it, `renames` applied. A name that more than one
/// folder gives is an error for each of them: which of them the name
/// means is the organiser's to say, never the folder order's. `Err` when
/// `dir` itself cannot be read or a rename cannot be followed.
fn scan(dir: &Path, renames: &[Rename]) -> Result<Vec<Scanned>, MetaError> {
    let io = |reason| MetaError::Io {
        path: dir.to_path_buf(),
        reason,
    };
    let mut folders: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        // A link, a FIFO or a folder named `meta` makes a bot folder too,
        // so that it is refused by name, not passed over in silence.
        .filter(|path| fs::symlink_metadata(path.join("meta")).is_ok())
        .collect();
    folders.sort();
    let names: Vec<String> = folders.iter().map(|f| folder_name(f)).collect();
    for (i, rename) in renames.iter().enumerate() {
        if renames[..i].iter().any(|r| r.folder == rename.folder) {
            return Err(RenameError::Twice {
                rename: rename.clone(),
            }
            .into());
        }
        if !names.contains(&rename.folder) {
            return Err(RenameError::NoFolder {
                rename: rename.clone(),
                bots: dir.to_path_buf(),
            }
            .into());
        }
    }
    let renamed = |name: &str| renames.iter().find(|r| r.folder == name);
    let mut found: Vec<Scanned> = folders
        .into_iter()
        .zip(&names)
        .map(|(folder, name)| {
            let loaded = BotMeta::load_as(&folder, renamed(name).map(|r| &r.name[..]));
            (folder, loaded)
        })
        .collect();
    // Who gives each name or a look-alike of it, in folder order.
    let skeletons: Vec<Option<String>> = found
        .iter()
        .map(|(_, loaded)| loaded.as_ref().ok().map(|bot| skeleton(&bot.name)))
        .collect();
    let twins: Vec<Vec<usize>> = (0..found.len())
        .filter_map(|i| {
            let own = skeletons[i].as_ref()?;
            let all: Vec<usize> = (0..found.len())
                .filter(|&j| skeletons[j].as_ref() == Some(own))
                .collect();
            (all.len() > 1 && all[0] == i).then_some(all)
        })
        .collect();
    let name_of = |found: &[Scanned], i: usize| match &found[i].1 {
        Ok(bot) => bot.name.clone(),
        Err(_) => unreachable!("twins give a name"),
    };
    for all in twins {
        let given: Vec<String> = all.iter().map(|&i| name_of(&found, i)).collect();
        // The organiser's own rename gives a taken name: theirs to fix.
        if let Some((k, rename)) = all
            .iter()
            .enumerate()
            .find_map(|(k, &i)| renamed(&names[i]).map(|r| (k, r)))
        {
            let other = (0..all.len())
                .find(|&o| o != k)
                .expect("twins are two or more");
            return Err(RenameError::Taken {
                rename: rename.clone(),
                other: names[all[other]].clone(),
                given: given[other].clone(),
            }
            .into());
        }
        for (k, &i) in all.iter().enumerate() {
            let others = all
                .iter()
                .zip(&given)
                .filter(|&(&j, _)| j != i)
                .map(|(&j, name)| (names[j].clone(), name.clone()))
                .collect();
            found[i].1 = Err(MetaError::Invalid {
                path: found[i].0.join("meta"),
                problem: MetaProblem::GivenTwice {
                    name: given[k].clone(),
                    others,
                },
            });
        }
    }
    Ok(found)
}

/// The bots of `dir` (see [`Survey`]): a bot whose meta file is refused,
/// or whose name another folder also gives, is left out, and the others
/// may play. `Err` only when `dir` itself cannot be read.
pub fn survey(dir: &Path) -> Result<Survey, MetaError> {
    survey_renamed(dir, &[])
}

/// [`survey`] with the organiser's `renames` applied before names are
/// compared: a renamed bot plays under its new name, so two folders that
/// give one name can both play once one is renamed. `Err` also when a
/// rename names no bot folder of `dir`, renames a folder twice or gives a
/// name another bot gives: one line, and no bot is left out for it.
pub fn survey_renamed(dir: &Path, renames: &[Rename]) -> Result<Survey, MetaError> {
    let mut survey = Survey::default();
    for (folder, loaded) in scan(dir, renames)? {
        match loaded {
            Ok(bot) => survey.bots.push(bot),
            Err(e) => survey.left_out.push(LeftOut {
                folder: escape(&folder_name(&folder)).into_owned(),
                reason: escape(&e.reason()).into_owned(),
                path: folder.canonicalize().unwrap_or(folder),
            }),
        }
    }
    Ok(survey)
}

/// Every bot in `dir`, sorted by folder name, strictly: the first folder
/// that [`survey`] would leave out is the error.
pub fn discover(dir: &Path) -> Result<Vec<BotMeta>, MetaError> {
    scan(dir, &[])?.into_iter().map(|(_, bot)| bot).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::tests::bot_with;

    #[test]
    fn a_survey_leaves_out_bad_bots_and_every_folder_of_a_name_given_twice() {
        let dir = tempfile::tempdir().unwrap();
        bot_with(dir.path(), "a-first", "twin\npython3\n\n0\n");
        bot_with(dir.path(), "b-evil", "evil\n../a-first/run\n\n0\n");
        bot_with(dir.path(), "c-second", "twin\npython3\n\n0\n");
        bot_with(dir.path(), "d-fine", "fine\npython3\n\n0\n");
        bot_with(dir.path(), "e-good", "good\npython3\n\n0\n");
        fs::create_dir_all(dir.path().join("f-no-meta")).unwrap();
        fs::write(dir.path().join("README.md"), "not a bot").unwrap();
        let found = survey(dir.path()).unwrap();
        let names: Vec<&str> = found.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["fine", "good"]);
        let left: Vec<(&str, &str)> = found
            .left_out
            .iter()
            .map(|l| (&l.folder[..], &l.reason[..]))
            .collect();
        assert_eq!(left.len(), 3, "{left:?}");
        assert_eq!(
            left[0],
            (
                "a-first",
                "meta: the name \"twin\" is also given by the bot in folder c-second: both are left out (inarow judge --rename FOLDER=NAME decides)"
            )
        );
        assert_eq!(left[1].0, "b-evil");
        assert!(
            left[1]
                .1
                .starts_with("meta: line 2: the command \"../a-first/run\"")
        );
        assert_eq!(
            left[2],
            (
                "c-second",
                "meta: the name \"twin\" is also given by the bot in folder a-first: both are left out (inarow judge --rename FOLDER=NAME decides)"
            )
        );
        // Left out, a folder stays closed to the others.
        assert_eq!(found.folders().len(), 5);
        // Strictly, the first bad folder is the error.
        let err = discover(dir.path()).unwrap_err().to_string();
        assert!(err.contains("a-first/meta: the name \"twin\""), "{err}");
        assert!(survey(&dir.path().join("none")).is_err());
    }

    #[test]
    fn three_folders_of_one_name_are_all_left_out_each_naming_the_others() {
        let dir = tempfile::tempdir().unwrap();
        for folder in ["a", "b", "c"] {
            bot_with(dir.path(), folder, "same\npython3\n\n0\n");
        }
        let found = survey(dir.path()).unwrap();
        assert!(found.bots.is_empty());
        let reasons: Vec<&str> = found.left_out.iter().map(|l| &l.reason[..]).collect();
        assert_eq!(
            reasons[1],
            "meta: the name \"same\" is also given by the bots in folders a, c: all 3 are left out (inarow judge --rename FOLDER=NAME decides)"
        );
        // Renaming one still leaves the other two alike.
        let renames = [Rename::parse("b=bee").unwrap()];
        let found = survey_renamed(dir.path(), &renames).unwrap();
        let names: Vec<&str> = found.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["bee"]);
        assert_eq!(found.left_out.len(), 2);
        assert!(
            found.left_out[0]
                .reason
                .contains("the bot in folder c: both")
        );
    }

    #[test]
    fn a_rename_lets_both_twins_play_under_distinct_names() {
        let dir = tempfile::tempdir().unwrap();
        bot_with(dir.path(), "honest", "honest\npython3\n\n0\n");
        bot_with(dir.path(), "evil", "honest\npython3\n\n0\n");
        let renames = [Rename::parse("evil=impostor").unwrap()];
        let found = survey_renamed(dir.path(), &renames).unwrap();
        assert!(found.left_out.is_empty(), "{:?}", found.left_out);
        let bots: Vec<(String, &str)> = found
            .bots
            .iter()
            .map(|b| (b.folder_name(), &b.name[..]))
            .collect();
        assert_eq!(
            bots,
            [("evil".into(), "impostor"), ("honest".into(), "honest")]
        );
        // Both renamed, each may even take the other's name.
        let swapped = [
            Rename::parse("evil=honest").unwrap(),
            Rename::parse("honest=first").unwrap(),
        ];
        let found = survey_renamed(dir.path(), &swapped).unwrap();
        let names: Vec<&str> = found.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["honest", "first"]);
        // A rename of a folder whose meta is refused is passed over.
        bot_with(dir.path(), "broken", "broken\npython3\n\n7\n");
        let renames = [
            Rename::parse("evil=impostor").unwrap(),
            Rename::parse("broken=fixed").unwrap(),
        ];
        let found = survey_renamed(dir.path(), &renames).unwrap();
        assert_eq!(found.bots.len(), 2);
        assert_eq!(found.left_out[0].folder, "broken");
        assert!(found.left_out[0].reason.contains("line 4"));
    }

    #[test]
    fn a_rename_to_a_taken_or_bad_name_or_an_unknown_folder_is_one_line() {
        let dir = tempfile::tempdir().unwrap();
        bot_with(dir.path(), "honest", "honest\npython3\n\n0\n");
        bot_with(dir.path(), "evil", "honest\npython3\n\n0\n");
        bot_with(dir.path(), "ann", "ann\npython3\n\n0\n");
        let refused = |renames: &[&str]| {
            let renames: Vec<Rename> = renames.iter().map(|r| Rename::parse(r).unwrap()).collect();
            let err = survey_renamed(dir.path(), &renames).unwrap_err();
            assert!(matches!(err, MetaError::Rename(_)), "{err:?}");
            let line = err.to_string();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(line, err.reason());
            line
        };
        assert_eq!(
            refused(&["evil=ann"]),
            "--rename evil=ann: the name \"ann\" is also given by the bot in folder ann; give a name no other bot gives"
        );
        assert_eq!(
            refused(&["evil=honest"]),
            "--rename evil=honest: the name \"honest\" is also given by the bot in folder honest; give a name no other bot gives"
        );
        assert!(refused(&["evil=x", "ann=x"]).starts_with("--rename ann=x: the name \"x\""));
        assert!(refused(&["evil=x", "evil=y"]).contains("renamed twice"));
        let err = refused(&["nobody=x"]);
        assert!(
            err.starts_with("--rename nobody=x: ")
                && err
                    .ends_with("holds no bot folder \"nobody\" (name a bot by its folder's name)"),
            "{err}"
        );
        // The rename's own form and name, before any folder is looked at.
        for (bad, says) in [
            ("evil", "write FOLDER=NAME"),
            ("=x", "FOLDER is the name"),
            ("a/b=x", "FOLDER is the name"),
            ("evil=", "the name is empty"),
            ("evil=--help", "starts with '-'"),
            ("evil=a b", "holds ' '"),
            ("evil=a=b", "holds '='"),
            ("evil=\x1b]0;t\x07", "use ASCII letters"),
            ("evil=Åsa", "holds U+00C5"),
            ("evil=TIE", "looks like TIE"),
            ("evil=.x", "starts with '.'"),
        ] {
            let err = Rename::parse(bad).unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
            assert!(!err.contains(['\n', '\x1b', '\x07']), "{bad}: {err}");
        }
        assert_eq!(
            "evil=Asa.v2".parse::<Rename>().unwrap(),
            Rename {
                folder: "evil".into(),
                name: "Asa.v2".into()
            }
        );
        let long = format!("evil={}", "a".repeat(250));
        let err = Rename::parse(&long).unwrap_err().to_string();
        assert!(
            err.ends_with("has 250 characters; a name has at most 32"),
            "{err}"
        );
    }

    #[test]
    fn look_alike_names_are_one_name_given_twice_until_a_rename_decides() {
        let dir = tempfile::tempdir().unwrap();
        bot_with(dir.path(), "a-honest", "honest\npython3\n\n0\n");
        bot_with(dir.path(), "b-shouting", "HONEST\npython3\n\n0\n");
        bot_with(dir.path(), "c-digit", "he1lo\npython3\n\n0\n");
        bot_with(dir.path(), "d-hello", "hello\npython3\n\n0\n");
        bot_with(dir.path(), "e-fine", "fine\npython3\n\n0\n");
        let found = survey(dir.path()).unwrap();
        let names: Vec<&str> = found.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["fine"]);
        let left: Vec<(&str, &str)> = found
            .left_out
            .iter()
            .map(|l| (&l.folder[..], &l.reason[..]))
            .collect();
        assert_eq!(
            left,
            [
                (
                    "a-honest",
                    "meta: the name \"honest\" is also given by the bot in folder b-shouting (as \"HONEST\", which looks like it): both are left out (inarow judge --rename FOLDER=NAME decides)"
                ),
                (
                    "b-shouting",
                    "meta: the name \"HONEST\" is also given by the bot in folder a-honest (as \"honest\", which looks like it): both are left out (inarow judge --rename FOLDER=NAME decides)"
                ),
                (
                    "c-digit",
                    "meta: the name \"he1lo\" is also given by the bot in folder d-hello (as \"hello\", which looks like it): both are left out (inarow judge --rename FOLDER=NAME decides)"
                ),
                (
                    "d-hello",
                    "meta: the name \"hello\" is also given by the bot in folder c-digit (as \"he1lo\", which looks like it): both are left out (inarow judge --rename FOLDER=NAME decides)"
                ),
            ]
        );
        // The organiser decides: renamed, each plays under its own name.
        let renames = [
            Rename::parse("b-shouting=loud").unwrap(),
            Rename::parse("c-digit=digits").unwrap(),
        ];
        let found = survey_renamed(dir.path(), &renames).unwrap();
        assert!(found.left_out.is_empty(), "{:?}", found.left_out);
        let names: Vec<&str> = found.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["honest", "loud", "digits", "hello", "fine"]);
        // A rename to a look-alike of another bot's name is a taken name.
        let renames = [
            Rename::parse("b-shouting=F1NE").unwrap(),
            Rename::parse("c-digit=digits").unwrap(),
        ];
        let err = survey_renamed(dir.path(), &renames)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "--rename b-shouting=F1NE: the name \"F1NE\" is also given by the bot in folder e-fine (as \"fine\", which looks like it); give a name no other bot gives"
        );
    }

    #[test]
    fn a_cyrillic_look_alike_is_refused_and_the_honest_bot_plays() {
        let dir = tempfile::tempdir().unwrap();
        bot_with(dir.path(), "honest", "honest\npython3\n\n0\n");
        bot_with(dir.path(), "impostor", "h\u{43e}nest\npython3\n\n0\n");
        bot_with(dir.path(), "tie", "TIE\npython3\n\n0\n");
        let found = survey(dir.path()).unwrap();
        let names: Vec<&str> = found.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["honest"]);
        assert_eq!(
            found.left_out[0].reason,
            "meta: line 1: the bot's name \"h\u{43e}nest\" holds U+043E; use ASCII letters, digits, '-', '_' and '.'"
        );
        assert!(found.left_out[1].reason.contains("looks like TIE"));
        // A rename lets it play under a name of the rule.
        let renames = [Rename::parse("impostor=impostor").unwrap()];
        let found = survey_renamed(dir.path(), &renames).unwrap();
        let names: Vec<&str> = found.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["honest", "impostor"]);
    }
}
