//! Bot folders and their `meta` files.
//!
//! The meta file is the organiser's record of a bot, but it lies in the
//! bot's folder, where the bot writes: it is read without following links,
//! only as a small regular file, and it can ask for nothing outside the
//! bot's folder (more to read comes only from the organiser's
//! `--allow-read FOLDER=PATH`).
//!
//! A bot's name is what its meta file says, under the one rule of
//! [`crate::name`], so two folders may give the same one, or two that look
//! alike (`honest` and `HONEST`): the judge never guesses which of them is
//! meant. Both are left out unless the organiser decides with a [`Rename`]
//! (`inarow judge --rename FOLDER=NAME`).

use std::fs;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use inarow_sandbox::Program;
use inarow_sandbox::paths::PathError;

pub use crate::name::NameProblem;
use crate::name::{self, skeleton};
use crate::shown::{escape, quoted};

/// The largest meta file the judge reads, in bytes.
pub const MAX_META_BYTES: u64 = 4096;

/// What the judge knows about one bot, read from `<folder>/meta`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotMeta {
    /// The bot's folder; its process runs there.
    pub folder: PathBuf,
    /// The bot's name (first line), as it appears in `EXIT NAME` and the standings.
    pub name: String,
    /// The program to run (second line): a name without `/`, looked up in
    /// `PATH`, or a relative path to a file inside the bot's folder.
    pub command: String,
    /// Arguments from the third line; the opponent's name and the seed follow them.
    pub args: Vec<String>,
    /// Whether the bot's standard error is shown (fourth line `1`) or discarded (`0`).
    pub show_stderr: bool,
    /// More paths the bot may read, resolved: given only by the organiser
    /// (`--allow-read FOLDER=PATH`, see [`check_grants`]), never by the meta file.
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
    /// The organiser's `--rename FOLDER=NAME` cannot be followed (a folder
    /// the bots folder does not hold, a name another bot gives): the
    /// organiser's mistake, so no bot is left out for it.
    #[error(transparent)]
    Rename(#[from] RenameError),
    /// The `meta` file is malformed, or not a file the judge reads.
    #[error("{path}: {problem}")]
    Invalid {
        /// The `meta` file.
        path: PathBuf,
        /// What is wrong with it.
        problem: MetaProblem,
    },
}

/// What is wrong with a meta file, in words that name no path.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetaProblem {
    /// A symbolic link, never followed.
    #[error("a symbolic link; the meta file must be a regular file in the bot's folder")]
    Link,
    /// A folder, a FIFO or another file that is not a regular one.
    #[error("{what}; the meta file must be a regular file of at most {MAX_META_BYTES} bytes")]
    NotAFile {
        /// What it is, in words.
        what: &'static str,
    },
    /// A file with another hard link.
    #[error(
        "a hard link to a file elsewhere; the meta file must be the bot folder's own regular file"
    )]
    HardLink,
    /// Larger than [`MAX_META_BYTES`].
    #[error("larger than {MAX_META_BYTES} bytes; a meta file is four short lines")]
    TooLarge,
    /// Not UTF-8.
    #[error("not text (UTF-8)")]
    NotText,
    /// A `read:` line, which only the organiser may give.
    #[error(
        "line {line} `read: ...` is not accepted: extra read paths come only from the organiser, with `--allow-read FOLDER=PATH`"
    )]
    ReadLine {
        /// The line, from 1.
        line: usize,
    },
    /// Not four lines.
    #[error("meta needs 4 lines (name, command, arguments, 1/0 show stderr), found {found}")]
    LineCount {
        /// The lines found.
        found: usize,
    },
    /// An empty name.
    #[error("line 1 (the bot's name) is empty")]
    EmptyName,
    /// A name the judge refuses.
    #[error("line 1: the bot's name {0}")]
    BadName(NameProblem),
    /// An empty command.
    #[error("line 2 (the command) is empty")]
    EmptyCommand,
    /// A command absolute or with `..`.
    #[error("line 2: the command {} is refused: {COMMAND_RULE}", quoted(command))]
    CommandOutside {
        /// The command.
        command: String,
    },
    /// A command that leads out of the folder through a link.
    #[error(
        "line 2: the command {} leads out of the bot's folder through a symbolic link: {COMMAND_RULE}",
        quoted(command)
    )]
    CommandLeadsOut {
        /// The command.
        command: String,
    },
    /// A fourth line that is not `1` or `0`.
    #[error("line 4 must be 1 or 0, found {}", quoted(found))]
    ShowStderr {
        /// The line found.
        found: String,
    },
    /// A name other folders give too, or names that look like it
    /// ([`name::look_alike`]).
    #[error("{}", given_twice(name, others))]
    GivenTwice {
        /// The name.
        name: String,
        /// The other folders giving it or a look-alike: each folder's
        /// name and the name it gives.
        others: Vec<(String, String)>,
    },
}

/// [`MetaProblem::GivenTwice`] in words: each other folder, and the name
/// it gives where that is a look-alike rather than the same name.
fn given_twice(name: &str, others: &[(String, String)]) -> String {
    let each = |(folder, given): &(String, String)| {
        if given == name {
            folder.clone()
        } else {
            format!("{folder} (as {}, which looks like it)", quoted(given))
        }
    };
    let who = match others {
        [one] => format!("the bot in folder {}: both are left out", each(one)),
        more => format!(
            "the bots in folders {}: all {} are left out",
            more.iter().map(each).collect::<Vec<_>>().join(", "),
            more.len() + 1
        ),
    };
    format!(
        "the name {} is also given by {who} (inarow judge --rename FOLDER=NAME decides)",
        quoted(name)
    )
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

impl MetaError {
    /// What is wrong, naming the file by its name alone (`meta: line 2:
    /// ...`): the same words on every machine, as a results file keeps them.
    pub fn reason(&self) -> String {
        let (path, what) = match self {
            MetaError::Io { path, reason } => (path, format!("cannot read it: {reason}")),
            MetaError::Invalid { path, problem } => (path, problem.to_string()),
            MetaError::Rename(problem) => return problem.to_string(),
        };
        match path.file_name() {
            Some(name) if name == "meta" => format!("meta: {what}"),
            _ => what,
        }
    }
}

/// What a command (meta line 2) may be, as refusals say it.
const COMMAND_RULE: &str = "a command is a program name without '/' (looked up in PATH) or a relative path to a file inside the bot's folder (./run, bin/run), never absolute and never with '..'";

/// Reads the meta file at `path` once: without following a link, without
/// waiting on a FIFO, and only a regular file of at most
/// [`MAX_META_BYTES`] with no other hard link (a bot could link a file it
/// cannot read there, for the judge to quote). What is refused says why in
/// words; the content of whatever was refused is never read.
fn read_meta(path: &Path) -> Result<String, MetaError> {
    let invalid = |problem| MetaError::Invalid {
        path: path.to_path_buf(),
        problem,
    };
    let flags = nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits())
        .open(path)
        .map_err(|reason| {
            if reason.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32) {
                invalid(MetaProblem::Link)
            } else {
                MetaError::Io {
                    path: path.to_path_buf(),
                    reason,
                }
            }
        })?;
    let io = |reason| MetaError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let meta = file.metadata().map_err(io)?;
    let kind = meta.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "a folder"
        } else if kind.is_fifo() {
            "a FIFO"
        } else {
            "not a regular file"
        };
        return Err(invalid(MetaProblem::NotAFile { what }));
    }
    if meta.nlink() > 1 {
        return Err(invalid(MetaProblem::HardLink));
    }
    let too_large = || invalid(MetaProblem::TooLarge);
    if meta.len() > MAX_META_BYTES {
        return Err(too_large());
    }
    // It may grow between the look and the read: the read is bounded too.
    let mut bytes = Vec::new();
    file.take(MAX_META_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_META_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| invalid(MetaProblem::NotText))
}

/// Checks the command of meta line 2 as written: a program name without
/// `/`, or a relative path without `..`.
fn check_command(command: &str) -> Result<(), MetaProblem> {
    if command.is_empty() {
        return Err(MetaProblem::EmptyCommand);
    }
    if !command.contains('/') {
        return Ok(());
    }
    let path = Path::new(command);
    let outside = command.ends_with('/')
        || path.components().any(|c| {
            matches!(
                c,
                Component::RootDir | Component::ParentDir | Component::Prefix(_)
            )
        });
    if outside {
        return Err(MetaProblem::CommandOutside {
            command: command.to_string(),
        });
    }
    Ok(())
}

/// Checks that a command with a `/` does not lead out of `folder` (its
/// canonical path) through a symbolic link, where it exists now.
fn check_command_inside(command: &str, folder: &Path) -> Result<(), MetaProblem> {
    if !command.contains('/') {
        return Ok(());
    }
    match folder.join(command).canonicalize() {
        Ok(real) if !real.starts_with(folder) => Err(MetaProblem::CommandLeadsOut {
            command: command.to_string(),
        }),
        // Missing, it forfeits its games as a program that cannot start.
        _ => Ok(()),
    }
}

impl BotMeta {
    /// Reads `<folder>/meta` and checks it. The file is opened once without
    /// following a link or waiting on a FIFO, and read only when it is a
    /// regular file of at most [`MAX_META_BYTES`] with no other hard link;
    /// anything else is refused by kind, its content never read.
    pub fn load(folder: &Path) -> Result<BotMeta, MetaError> {
        BotMeta::load_as(folder, None)
    }

    /// [`BotMeta::load`], the bot playing under `renamed` when the
    /// organiser renamed it (`--rename FOLDER=NAME`, already checked): its
    /// meta file's name is then not used, so it is not checked either, and
    /// a rename lets a bot whose own name the rule refuses play.
    pub fn load_as(folder: &Path, renamed: Option<&str>) -> Result<BotMeta, MetaError> {
        let path = folder.join("meta");
        let text = read_meta(&path)?;
        let folder = folder.canonicalize().map_err(|reason| MetaError::Io {
            path: folder.to_path_buf(),
            reason,
        })?;
        let invalid = |problem| MetaError::Invalid {
            path: path.clone(),
            problem,
        };
        let meta = BotMeta::parse_as(&text, folder, renamed).map_err(invalid)?;
        check_command_inside(&meta.command, &meta.folder).map_err(invalid)?;
        Ok(meta)
    }

    /// Reads the four lines of a `meta` file for a bot living in `folder`.
    pub fn parse(text: &str, folder: PathBuf) -> Result<BotMeta, MetaProblem> {
        BotMeta::parse_as(text, folder, None)
    }

    /// [`BotMeta::parse`], the bot named `renamed` instead of line 1 when
    /// the organiser renamed it.
    fn parse_as(
        text: &str,
        folder: PathBuf,
        renamed: Option<&str>,
    ) -> Result<BotMeta, MetaProblem> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        // Trailing blank lines are common; the fourth line (1 or 0) never is blank.
        let used = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |i| i + 1);
        let line = |i: usize| lines.get(i).copied().unwrap_or("");
        if let Some(i) = (4..used).find(|&i| line(i).starts_with("read:")) {
            return Err(MetaProblem::ReadLine { line: i + 1 });
        }
        if used != 4 {
            return Err(MetaProblem::LineCount { found: used });
        }
        let name = match renamed {
            Some(name) => name,
            None => {
                check_name(line(0))?;
                line(0)
            }
        };
        let command = line(1);
        check_command(command)?;
        let show_stderr = match line(3) {
            "1" => true,
            "0" => false,
            other => {
                return Err(MetaProblem::ShowStderr {
                    found: other.to_string(),
                });
            }
        };
        Ok(BotMeta {
            folder,
            name: name.to_string(),
            command: command.to_string(),
            args: line(2).split_whitespace().map(String::from).collect(),
            show_stderr,
            grants: Vec::new(),
        })
    }

    /// The program path as the process should be started with.
    pub fn program(&self) -> PathBuf {
        inarow_sandbox::paths::as_given(&self.command, &self.folder)
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
            workdir: None,
            grants: &self.grants,
            closed: folders,
        }
    }

    /// The name of the bot's folder (its last component).
    pub fn folder_name(&self) -> String {
        folder_name(&self.folder)
    }
}

fn folder_name(folder: &Path) -> String {
    folder.file_name().map_or_else(
        || folder.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A meta file's name (line 1) under the one rule of [`crate::name`].
fn check_name(name: &str) -> Result<(), MetaProblem> {
    match name::check(name) {
        Ok(()) => Ok(()),
        Err(NameProblem::Empty) => Err(MetaProblem::EmptyName),
        Err(problem) => Err(MetaProblem::BadName(problem)),
    }
}

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
        assert_eq!(
            BotMeta::parse("A\npython3\n", PathBuf::from("/b")),
            Err(MetaProblem::LineCount { found: 2 })
        );
        let err = |t| {
            BotMeta::parse(t, PathBuf::from("/b"))
                .unwrap_err()
                .to_string()
        };
        assert!(err("A\npython3\n").contains("4 lines"));
        assert!(err("A\npython3\nx\n2\n").contains("line 4"));
        assert!(err("My Bot\npython3\nx\n1\n").contains("holds ' '"));
        assert!(err("\npython3\nx\n1\n").contains("name"));
        assert!(err("A\n\nx\n1\n").contains("line 2"));
        assert!(err("A\npython3\nx\n1\nextra\n").contains("4 lines"));
        assert!(err("A\npython3\nx\n1\nread: a\nmore\n").contains("--allow-read FOLDER=PATH"));
    }

    #[test]
    fn names_are_short_plain_words_never_options_nor_the_protocols() {
        let err =
            |name: &str| BotMeta::parse(&format!("{name}\npython3\n\n1\n"), PathBuf::from("/b"));
        for good in ["alice", "bot-2", "deep_blue.v3", &"x".repeat(32)] {
            assert!(err(good).is_ok(), "{good}");
        }
        let refused = |name: &str| {
            let line = err(name).unwrap_err().to_string();
            assert!(line.starts_with("line 1: the bot's name \""), "{line}");
            assert!(!line.contains(|c: char| c.is_control()), "{line:?}");
            line
        };
        assert!(refused("--help").contains("starts with '-'"));
        assert!(refused("-x").contains("option"));
        assert!(refused(".x").contains("starts with '.'"));
        for bad in ["a/b", "a;b", "$(x)", "a\tb", "\"q\"", "Åsa", "h\u{43e}nest"] {
            assert!(refused(bad).contains("use ASCII letters"), "{bad}");
        }
        assert!(refused(&"a".repeat(250)).contains("has 250 characters; a name has at most 32"));
        for tie in ["TIE", "tie", "T1E"] {
            assert!(refused(tie).contains("looks like TIE"), "{tie}");
        }
    }

    #[test]
    fn a_meta_with_escapes_in_its_name_or_command_is_quoted_escaped() {
        let dir = tempfile::tempdir().unwrap();
        bot_with(
            dir.path(),
            "named",
            "ann\x1b]0;t\x07\u{202e}\npython3\n\n0\n",
        );
        bot_with(dir.path(), "ran", "ran\n/bin/\x1b[2J\u{202e}\n\n0\n");
        bot_with(dir.path(), "shown", "shown\npython3\n\n\x1b[2J\n");
        let found = survey(dir.path()).unwrap();
        let reasons: Vec<&str> = found.left_out.iter().map(|l| &l.reason[..]).collect();
        assert_eq!(
            reasons,
            [
                r#"meta: line 1: the bot's name "ann\x1b]0;t\x07\u{202e}" holds U+001B; use ASCII letters, digits, '-', '_' and '.'"#,
                &format!(
                    r#"meta: line 2: the command "/bin/\x1b[2J\u{{202e}}" is refused: {COMMAND_RULE}"#
                ),
                r#"meta: line 4 must be 1 or 0, found "\x1b[2J""#,
            ]
        );
    }

    /// A fresh bots folder with a bot folder `name` holding `meta` text.
    fn bot_with(dir: &Path, name: &str, meta: &str) -> PathBuf {
        let folder = dir.join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("meta"), meta).unwrap();
        folder
    }

    /// The one-line error of loading `folder`, which must name its meta file.
    fn refused(folder: &Path) -> String {
        let err = BotMeta::load(folder).unwrap_err().to_string();
        assert!(!err.contains('\n'), "{err}");
        assert!(
            err.contains(&*folder.join("meta").to_string_lossy()),
            "{err}"
        );
        err
    }

    #[test]
    fn a_meta_that_is_a_link_is_refused_without_reading_what_it_points_at() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("secret");
        fs::write(&secret, "hunter2\npython3\n\n1\n").unwrap();
        let folder = dir.path().join("evil");
        fs::create_dir_all(&folder).unwrap();
        std::os::unix::fs::symlink(&secret, folder.join("meta")).unwrap();
        let err = refused(&folder);
        assert!(err.contains("symbolic link"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        // A link to nothing is refused the same way, not passed over.
        let dangling = dir.path().join("dangling");
        fs::create_dir_all(&dangling).unwrap();
        std::os::unix::fs::symlink(dir.path().join("none"), dangling.join("meta")).unwrap();
        assert!(refused(&dangling).contains("symbolic link"));
        // A hard link is refused too: the judge runs as root, and the file
        // could be one the bot itself may not read.
        let hard = dir.path().join("hard");
        fs::create_dir_all(&hard).unwrap();
        fs::hard_link(&secret, hard.join("meta")).unwrap();
        let err = refused(&hard);
        assert!(
            err.contains("hard link") && !err.contains("hunter2"),
            "{err}"
        );
        let found = survey(dir.path()).unwrap();
        assert!(found.bots.is_empty());
        let folders: Vec<&str> = found.left_out.iter().map(|l| &l.folder[..]).collect();
        assert_eq!(folders, ["dangling", "evil", "hard"]);
    }

    #[test]
    fn a_meta_that_is_a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("fifo");
        fs::create_dir_all(&folder).unwrap();
        nix::unistd::mkfifo(&folder.join("meta"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        // Nobody writes the FIFO: a blocking open would hang here for good.
        let start = std::time::Instant::now();
        let err = refused(&folder);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        assert!(err.contains("a FIFO"), "{err}");
    }

    #[test]
    fn a_meta_that_is_a_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("nested");
        fs::create_dir_all(folder.join("meta")).unwrap();
        assert!(refused(&folder).contains("a folder"));
        let found = survey(dir.path()).unwrap();
        assert_eq!(found.left_out[0].folder, "nested");
    }

    #[test]
    fn a_meta_over_4_kib_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let padded = format!("big\npython3\n{}\n1\n", "x ".repeat(2100));
        assert!(padded.len() as u64 > MAX_META_BYTES);
        let folder = bot_with(dir.path(), "big", &padded);
        let err = refused(&folder);
        assert!(err.contains("larger than 4096 bytes"), "{err}");
        // Just under the bound is read.
        let fits = format!("big\npython3\n{}\n1\n", "x ".repeat(2000));
        assert!(fits.len() as u64 <= MAX_META_BYTES);
        fs::write(folder.join("meta"), fits).unwrap();
        assert_eq!(BotMeta::load(&folder).unwrap().args.len(), 2000);
    }

    #[test]
    fn a_read_line_is_refused_grants_come_from_the_organiser() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("books")).unwrap();
        let folder = bot_with(
            dir.path(),
            "alice",
            "alice\npython3\nbot.py\n0\nread: ../books\n",
        );
        let err = refused(&folder);
        assert!(
            err.contains("line 5") && err.contains("--allow-read FOLDER=PATH"),
            "{err}"
        );
        fs::write(folder.join("meta"), "alice\npython3\nbot.py\n0\n\n\n").unwrap();
        assert!(BotMeta::load(&folder).unwrap().grants.is_empty());
    }

    #[test]
    fn an_absolute_command_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let folder = bot_with(dir.path(), "abs", "abs\n/usr/bin/python3\nbot.py\n0\n");
        let err = refused(&folder);
        assert!(
            err.contains("line 2")
                && err.contains("\"/usr/bin/python3\"")
                && err.contains("never absolute"),
            "{err}"
        );
    }

    #[test]
    fn a_command_with_dot_dot_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for command in ["../honest/bot.py", "./a/../../b", "bin/..", "a/../run"] {
            let folder = bot_with(dir.path(), "up", &format!("up\n{command}\n\n0\n"));
            let err = refused(&folder);
            assert!(err.contains("never with '..'"), "{command}: {err}");
            assert_eq!(
                BotMeta::load(&folder).unwrap_err().reason(),
                format!("meta: line 2: the command {command:?} is refused: {COMMAND_RULE}"),
                "a reason without this machine's paths"
            );
        }
    }

    #[test]
    fn a_command_that_leads_out_through_a_link_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("honest")).unwrap();
        fs::write(dir.path().join("honest/bot.py"), "print()").unwrap();
        let folder = bot_with(dir.path(), "evil", "evil\n./run\n\n0\n");
        std::os::unix::fs::symlink("../honest/bot.py", folder.join("run")).unwrap();
        assert!(refused(&folder).contains("leads out of the bot's folder"));
        fs::remove_file(folder.join("run")).unwrap();
        std::os::unix::fs::symlink("../honest", folder.join("bin")).unwrap();
        fs::write(folder.join("meta"), "evil\nbin/bot.py\n\n0\n").unwrap();
        assert!(refused(&folder).contains("leads out"));
    }

    #[test]
    fn good_commands_are_a_relative_path_inside_or_a_bare_name() {
        let dir = tempfile::tempdir().unwrap();
        let folder = bot_with(dir.path(), "good", "good\n./run\n\n0\n");
        fs::write(folder.join("run"), "#!/bin/sh\n").unwrap();
        let bot = BotMeta::load(&folder).unwrap();
        assert_eq!(bot.command, "./run");
        assert_eq!(bot.program(), folder.canonicalize().unwrap().join("./run"));
        // A link that stays inside is fine, and so is a program not there yet.
        fs::create_dir_all(folder.join("bin")).unwrap();
        std::os::unix::fs::symlink("../run", folder.join("bin/run")).unwrap();
        for command in ["bin/run", "bot.py/x", "./not-yet", "python3", "node"] {
            fs::write(folder.join("meta"), format!("good\n{command}\n\n0\n")).unwrap();
            let bot = BotMeta::load(&folder).unwrap();
            assert_eq!(bot.command, command);
        }
        fs::write(folder.join("meta"), "good\npython3\nbot.py\n0\n").unwrap();
        assert_eq!(
            BotMeta::load(&folder).unwrap().program(),
            PathBuf::from("python3")
        );
    }

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
