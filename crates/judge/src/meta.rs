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
//! meant. Both are left out ([`crate::field::survey`]) unless the
//! organiser decides with a [`crate::rename::Rename`] (`inarow judge --rename
//! FOLDER=NAME`, [`crate::rename`]); more to read comes from the
//! organiser's grants ([`crate::grant`]).

use std::fs;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

use inarow_sandbox::Program;

use crate::name;
pub use crate::name::NameProblem;
use crate::rename::RenameError;
use crate::shown::quoted;

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
    /// (`--allow-read FOLDER=PATH`, see [`crate::grant::check_grants`]), never by the meta file.
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

pub(crate) fn folder_name(folder: &Path) -> String {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::field::survey;

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
    pub(crate) fn bot_with(dir: &Path, name: &str, meta: &str) -> PathBuf {
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
        // Nobody writes the FIFO: a blocking open would hang here for good,
        // so reaching the next line is the test (no clock needed).
        let err = refused(&folder);
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
}
