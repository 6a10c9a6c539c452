//! Who plays: the bots folder and the organiser's orders (renames, grants,
//! `--strict`) turned into the field of a tournament, the bots left out
//! each with its reason, before any game.
//!
//! The rules are the judge's, so that every front starts a tournament on
//! the same ones: a bad bot is left out (or, strictly, stops the judge),
//! a grant goes to a folder and never opens another bot's, a tournament
//! needs two bots, and a bot the sandbox cannot contain does not play.

use std::path::{Path, PathBuf};

use inarow_sandbox::paths::check_grant;
use inarow_sandbox::{ProbeError, Sandbox};

mod survey;

pub use crate::grant::GrantError;
use crate::meta::{BotMeta, MetaError};
use crate::rename::Rename;
use crate::shown::escape;
pub use survey::{LeftOut, Survey, closed, discover, survey, survey_renamed};

/// What the organiser said about the bots folder.
#[derive(Clone, Debug, Default)]
pub struct Orders {
    /// The bots folder: one subfolder per bot.
    pub bots: PathBuf,
    /// `--rename FOLDER=NAME`: the bot in FOLDER plays under NAME.
    pub renames: Vec<Rename>,
    /// `--allow-read PATH`: read by every bot, so it must open none's folder.
    pub everyone: Vec<PathBuf>,
    /// `--allow-read FOLDER=PATH`: read by the bot in folder FOLDER only.
    pub grants: Vec<(String, PathBuf)>,
    /// `--strict`: a bad bot stops the judge instead of being left out.
    pub strict: bool,
}

/// The bots of a tournament: those that play and those left out.
#[derive(Clone, Debug, Default)]
pub struct Field {
    /// The bots that play, in folder order, their grants given.
    pub bots: Vec<BotMeta>,
    /// The bots left out, in folder order, each with why.
    pub left_out: Vec<LeftOut>,
    /// What only hurts a bot itself (`name: what`): the bot still plays.
    pub warnings: Vec<String>,
}

/// A tournament over `dir` needs two bots that may play: fewer is
/// [`FieldError::TooFew`], which names the bots left out and why.
fn enough(found: &Survey, dir: &Path) -> Result<(), FieldError> {
    if found.bots.len() >= 2 {
        return Ok(());
    }
    Err(FieldError::TooFew {
        bots: dir.to_path_buf(),
        playing: found.bots.len(),
        left_out: found.left_out.clone(),
    })
}

/// Why no tournament can start on the bots folder: one line, escaped
/// where it quotes a bot.
#[derive(Debug, thiserror::Error)]
pub enum FieldError {
    /// The bots folder cannot be read, or a rename cannot be followed.
    #[error(transparent)]
    Survey(#[from] MetaError),
    /// `--strict`, and the bot in `folder` is bad.
    #[error("{}", escape(&format!(
        "{}: {why}{}; --strict plays no game while a bot is bad",
        folder.display(),
        match more { 0 => String::new(), n => format!(" (and {n} more bad bot(s))") }
    )))]
    Strict {
        /// The bad bot's folder.
        folder: PathBuf,
        /// What is wrong with it.
        why: String,
        /// How many more bots are bad.
        more: usize,
    },
    /// A grant cannot be given.
    #[error(transparent)]
    Grant(#[from] GrantError),
    /// Fewer than two bots may play.
    #[error("{}", too_few(bots, *playing, left_out))]
    TooFew {
        /// The bots folder.
        bots: PathBuf,
        /// How many may play.
        playing: usize,
        /// The bots left out, with why.
        left_out: Vec<LeftOut>,
    },
    /// The sandbox contains none of the bots: the machine, not the bots.
    #[error(transparent)]
    Uncontained(#[from] Uncontainable),
}

/// [`FieldError::TooFew`] in words, with the bots left out and why.
fn too_few(bots: &Path, playing: usize, left_out: &[LeftOut]) -> String {
    let left_out = if left_out.is_empty() {
        String::new()
    } else {
        let each: Vec<String> = left_out
            .iter()
            .map(|l| format!("{}: {}", l.folder, l.reason))
            .collect();
        format!(" (left out: {})", each.join("; "))
    };
    format!(
        "{} holds {playing} bot(s) that can play; a tournament needs at least 2 folders with a good meta file{left_out}",
        bots.display()
    )
}

impl Orders {
    /// The bots folder read with the renames: the bots that may play, and
    /// those left out for their meta files or a name given twice.
    pub fn survey(&self) -> Result<Survey, MetaError> {
        survey_renamed(&self.bots, &self.renames)
    }

    /// Gives the grants to `bots`, each kept out of every folder of `all`
    /// (every bot folder, left out or not; a bot's own is skipped): a grant
    /// to everyone must open no bot folder, a grant to one bot goes to the
    /// bot of that folder and must exist and open no other's. A grant to a
    /// folder of `all` that is not among `bots` (left out, or not the bot
    /// debugged) is passed over; one naming no folder at all is an error.
    /// A bot is named by its folder, never by its meta name: a bot naming
    /// itself like another must not get the other's grant.
    pub fn grant(&self, bots: &mut [BotMeta], all: &[PathBuf]) -> Result<(), GrantError> {
        for path in &self.everyone {
            check_grant(path, all).map_err(|why| GrantError::ToEveryone {
                path: path.clone(),
                why,
            })?;
        }
        for (folder, path) in &self.grants {
            match bots.iter_mut().find(|b| b.folder_name() == *folder) {
                Some(bot) => bot.grants.push(path.clone()),
                None if all.iter().any(|f| f.file_name() == Some(folder.as_ref())) => {}
                None => {
                    return Err(GrantError::NoFolder {
                        folder: folder.clone(),
                        path: path.clone(),
                        bots: self.bots.clone(),
                    });
                }
            }
        }
        for bot in bots.iter_mut().filter(|b| !b.grants.is_empty()) {
            crate::grant::check_grants(bot, all)?;
        }
        Ok(())
    }

    /// The first bot left out, as `--strict` refuses it.
    fn refuse(&self, left_out: &[LeftOut]) -> Result<(), FieldError> {
        match left_out.first() {
            Some(first) if self.strict => Err(FieldError::Strict {
                folder: self.bots.join(&first.folder),
                why: first.reason.clone(),
                more: left_out.len() - 1,
            }),
            _ => Ok(()),
        }
    }
}

/// The field of a tournament on `orders`, each bot's sandbox tried in
/// `sandbox`: the bots folder surveyed (bad meta files and names given
/// twice left out), the grants given, then each bot probed (one the
/// sandbox cannot contain, or whose program is not there, left out).
/// `Err`, in one line, when the bots folder cannot be read, a rename or a
/// grant cannot be followed, fewer than two bots may play, the sandbox
/// contains none of them, or with `--strict` when any bot is bad.
pub fn field(orders: &Orders, sandbox: &Sandbox) -> Result<Field, FieldError> {
    let mut found = orders.survey()?;
    orders.refuse(&found.left_out)?;
    let all = found.folders();
    orders.grant(&mut found.bots, &all)?;
    enough(&found, &orders.bots)?;
    let checked = check_bots(sandbox, &found.bots, &all)?;
    if let (true, Some((i, why))) = (orders.strict, checked.uncontained.first()) {
        return Err(FieldError::Strict {
            folder: orders.bots.join(found.bots[*i].folder_name()),
            why: why.clone(),
            more: 0,
        });
    }
    for (i, why) in checked.uncontained.into_iter().rev() {
        found.leave_out(i, why);
    }
    enough(&found, &orders.bots)?;
    Ok(Field {
        bots: found.bots,
        left_out: found.left_out,
        warnings: checked.warnings,
    })
}

/// The one bot `inarow judge -d BOT` plays against the house bot: `bot`
/// is a folder of the bots folder or a path to a bot folder. It plays
/// under its rename, with the grants naming its folder, kept out of every
/// folder of the bots folder; its sandbox is tried first. The bot and the
/// folders it is kept out of come back, with the warnings of its probe.
pub fn debugged(
    orders: &Orders,
    bot: &Path,
    sandbox: &Sandbox,
) -> Result<(BotMeta, Vec<PathBuf>, Vec<String>), FieldError> {
    let folder = if std::fs::symlink_metadata(bot.join("meta")).is_ok() {
        bot.to_path_buf()
    } else {
        orders.bots.join(bot)
    };
    // Its folder's name as a tournament's survey reads it: the real one.
    let real = folder.canonicalize().unwrap_or_else(|_| folder.clone());
    let rename = orders
        .renames
        .iter()
        .find(|r| real.file_name().is_some_and(|name| *name == *r.folder));
    let mut meta = BotMeta::load_as(&folder, rename.map(|r| &r.name[..]))?;
    // Other bots beside it stay closed to it, as in a tournament.
    let mut all = orders.survey().map(|s| s.folders()).unwrap_or_default();
    all.push(meta.folder.clone());
    orders.grant(std::slice::from_mut(&mut meta), &all)?;
    let checked = check_bots(sandbox, std::slice::from_ref(&meta), &all)?;
    Ok((meta, all, checked.warnings))
}

/// What [`check_bots`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// What only hurts a bot itself (`name: what`), such as a folder it
    /// cannot write or a program it cannot reach (it then forfeits its games).
    pub warnings: Vec<String>,
    /// The bots (by index) that must not play, each with why in one line:
    /// the sandbox cannot contain them, or their program cannot be started
    /// inside it.
    pub uncontained: Vec<(usize, String)>,
}

/// Why no bot can be contained here: the machine, not the bots.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Uncontainable {
    /// The sandbox refuses to start any contestant on this machine.
    #[error("cannot contain bots here: {why} (--no-sandbox runs bots uncontained)")]
    Refused {
        /// Why.
        why: String,
    },
    /// The probe of every bot found the sandbox not holding.
    #[error(
        "the sandbox cannot contain {bot} on this machine: {why} (--no-sandbox runs bots uncontained)"
    )]
    NoneContained {
        /// The first bot probed.
        bot: String,
        /// What its probe found.
        why: String,
    },
}

/// Before the first game: starts each bot's sandbox with a probe inside,
/// each kept out of every folder of `closed` but its own (every bot
/// folder, those left out included). `Err` says, in one line, that the
/// sandbox contains none of them: the machine, not the bots.
pub fn check_bots(
    sandbox: &Sandbox,
    bots: &[BotMeta],
    closed: &[std::path::PathBuf],
) -> Result<Checked, Uncontainable> {
    if let Some(why) = sandbox.refusal() {
        return Err(Uncontainable::Refused {
            why: why.to_string(),
        });
    }
    let mut checked = Checked::default();
    let mut first_failure = None;
    let mut machine_failures = 0;
    for (i, bot) in bots.iter().enumerate() {
        match sandbox.check(&bot.contestant(&bot.args, closed)) {
            Ok(found) => checked
                .warnings
                .extend(found.into_iter().map(|w| format!("{}: {w}", bot.name))),
            Err(ProbeError::NoProgram(e)) => checked
                .uncontained
                .push((i, format!("it cannot be started in its sandbox: {e}"))),
            Err(ProbeError::Full(e)) => checked.uncontained.push((i, e)),
            Err(ProbeError::Uncontained(e)) => {
                machine_failures += 1;
                first_failure.get_or_insert_with(|| Uncontainable::NoneContained {
                    bot: bot.name.clone(),
                    why: e.clone(),
                });
                checked.uncontained.push((
                    i,
                    format!(
                        "the sandbox cannot contain it on this machine: {e} (--no-sandbox runs bots uncontained)"
                    ),
                ));
            }
        }
    }
    match first_failure {
        Some(why) if machine_failures == bots.len() => Err(why),
        _ => Ok(checked),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    /// The bots folder `dir` given a bot folder for each `(folder, name)`,
    /// its meta naming the bot `name`.
    fn bots_in(dir: &Path, bots: &[(&str, &str)]) {
        for (folder, name) in bots {
            let path = dir.join(folder);
            fs::create_dir_all(&path).unwrap();
            fs::write(path.join("meta"), format!("{name}\npython3\n\n0\n")).unwrap();
        }
    }

    fn orders(bots: &Path) -> Orders {
        Orders {
            bots: bots.to_path_buf(),
            ..Orders::default()
        }
    }

    fn folders(field: &Field) -> (Vec<String>, Vec<(&str, &str)>) {
        let bots = field.bots.iter().map(|b| b.folder_name()).collect();
        let left = field
            .left_out
            .iter()
            .map(|l| (&l.folder[..], &l.reason[..]))
            .collect();
        (bots, left)
    }

    #[test]
    fn bad_bots_are_left_out_with_their_reasons() {
        let dir = tempfile::tempdir().unwrap();
        bots_in(
            dir.path(),
            &[("alice", "alice"), ("bob", "bob"), ("carol", "has space")],
        );
        let played = field_of(&orders(dir.path()));
        let (bots, left) = folders(&played);
        assert_eq!(bots, ["alice", "bob"]);
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].0, "carol");
        assert!(left[0].1.starts_with("meta: line 1:"), "{}", left[0].1);
    }

    #[test]
    fn a_name_given_twice_leaves_out_both_until_a_rename_decides() {
        let dir = tempfile::tempdir().unwrap();
        bots_in(
            dir.path(),
            &[("alice", "alice"), ("evil", "twin"), ("honest", "twin")],
        );
        let err = field(&orders(dir.path()), &Sandbox::off()).unwrap_err();
        let FieldError::TooFew {
            playing, left_out, ..
        } = &err
        else {
            panic!("{err:?}")
        };
        assert_eq!((*playing, left_out.len()), (1, 2));
        let line = err.to_string();
        assert!(
            line.contains("holds 1 bot(s) that can play")
                && line.contains("evil: meta: the name \"twin\" is also given"),
            "{line}"
        );
        let renamed = Orders {
            renames: vec![Rename::parse("evil=impostor").unwrap()],
            ..orders(dir.path())
        };
        let played = field_of(&renamed);
        let names: Vec<&str> = played.bots.iter().map(|b| &b.name[..]).collect();
        assert_eq!(names, ["alice", "impostor", "twin"]);
        assert!(played.left_out.is_empty());
    }

    #[test]
    fn a_grant_naming_no_folder_is_one_line_and_one_to_a_left_out_bot_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let bots = dir.path().join("bots");
        bots_in(
            &bots,
            &[("alice", "alice"), ("bob", "bob"), ("broken", "has space")],
        );
        let books = dir.path().join("books");
        fs::create_dir_all(&books).unwrap();
        let granted = |folder: &str| Orders {
            grants: vec![(folder.to_string(), books.clone())],
            ..orders(&bots)
        };
        let played = field_of(&granted("alice"));
        assert_eq!(played.bots[0].grants, [books.canonicalize().unwrap()]);
        assert!(played.bots[1].grants.is_empty());
        field_of(&granted("broken"));
        let err = field(&granted("nobody"), &Sandbox::off()).unwrap_err();
        assert!(
            matches!(&err, FieldError::Grant(GrantError::NoFolder { folder, .. }) if folder == "nobody"),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "--allow-read nobody={}: {} holds no bot folder \"nobody\" (name a bot by its folder's name)",
                books.display(),
                bots.display()
            )
        );
        // A grant to everyone, or to one bot, never opens another bot's folder.
        let opens = Orders {
            everyone: vec![bots.join("bob")],
            ..orders(&bots)
        };
        let err = field(&opens, &Sandbox::off()).unwrap_err();
        assert!(matches!(
            err,
            FieldError::Grant(GrantError::ToEveryone { .. })
        ));
        let opens = Orders {
            grants: vec![("alice".into(), bots.join("bob"))],
            ..orders(&bots)
        };
        let err = field(&opens, &Sandbox::off()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("--allow-read for bot alice: cannot grant"),
            "{err}"
        );
    }

    /// The field of `orders`, which must be one.
    fn field_of(orders: &Orders) -> Field {
        field(orders, &Sandbox::off()).unwrap()
    }

    #[test]
    fn strictly_the_first_bad_bot_stops_the_judge() {
        let dir = tempfile::tempdir().unwrap();
        bots_in(
            dir.path(),
            &[
                ("alice", "alice"),
                ("bob", "bob"),
                ("carol", "has space"),
                ("dave", "\x1b[2J"),
            ],
        );
        let strict = Orders {
            strict: true,
            ..orders(dir.path())
        };
        let err = field(&strict, &Sandbox::off()).unwrap_err();
        let FieldError::Strict { folder, more, .. } = &err else {
            panic!("{err:?}")
        };
        assert_eq!((folder, *more), (&dir.path().join("carol"), 1));
        let line = err.to_string();
        assert!(
            line.ends_with(" (and 1 more bad bot(s)); --strict plays no game while a bot is bad")
                && !line.contains('\n'),
            "{line}"
        );
        fs::remove_dir_all(dir.path().join("carol")).unwrap();
        fs::remove_dir_all(dir.path().join("dave")).unwrap();
        assert_eq!(field_of(&strict).bots.len(), 2);
    }

    #[test]
    fn a_debugged_bot_gets_its_own_grants_and_its_rename() {
        let dir = tempfile::tempdir().unwrap();
        let bots = dir.path().join("bots");
        bots_in(&bots, &[("alice", "alice"), ("bob", "bob")]);
        let books = dir.path().join("books");
        fs::create_dir_all(&books).unwrap();
        let orders = Orders {
            renames: vec![Rename::parse("alice=ann").unwrap()],
            grants: vec![
                ("alice".into(), books.clone()),
                ("bob".into(), books.clone()),
            ],
            ..orders(&bots)
        };
        let (meta, all, warnings) = debugged(&orders, Path::new("alice"), &Sandbox::off()).unwrap();
        assert_eq!(meta.name, "ann");
        assert_eq!(meta.grants, [books.canonicalize().unwrap()]);
        assert!(all.contains(&bots.join("bob").canonicalize().unwrap()));
        assert!(warnings.is_empty());
        let err = debugged(&orders, Path::new("nobody"), &Sandbox::off()).unwrap_err();
        assert!(
            matches!(err, FieldError::Survey(MetaError::Io { .. })),
            "{err:?}"
        );
    }
}
