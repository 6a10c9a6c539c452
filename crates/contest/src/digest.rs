//! The digest of a bot's folder that tells the same bot on every machine
//! of a cluster ([`folder_digest`]), and the one-line error of a file or
//! folder that cannot be read ([`Unread`]).

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use nix::dir::Dir;
use nix::fcntl::{AtFlags, OFlag, openat, readlinkat};
use nix::sys::stat::{Mode, SFlag, fstatat};
use sha2::{Digest, Sha256};

use inarow_sandbox::folder::MAX_DEPTH;
use inarow_sandbox::launcher::PROBE_FILE_PREFIX;

/// The SHA-256 of a folder: every file's path (relative to `folder`, in
/// sorted order), its kind and its bytes, and every symbolic link's
/// target (not followed). The same bot copied to another machine has the
/// same digest; a changed program, book or meta file has another. The
/// judge's own probe files ([`PROBE_FILE_PREFIX`]) are not part of a bot.
///
/// The walk goes by open folders (`openat`), never by paths, so no path's
/// length stops it (a bot may leave a path of many thousands of bytes); it
/// follows no link and waits on no FIFO. Folders nested deeper than
/// [`MAX_DEPTH`] are refused, as the judge never commits one.
pub fn folder_digest(folder: &Path) -> Result<String, Unread> {
    let top = nix::fcntl::open(
        folder,
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
    .map_err(|errno| Unread::new(folder, errno.into()))?;
    let mut hash = Sha256::new();
    let mut path = Vec::new();
    digest_into(top, folder, &mut path, &mut hash)?;
    Ok(hex(&hash.finalize()))
}

/// Hashes the folder `dir` (at `path` below `folder`): its entries in
/// sorted order, then each of its folders in turn.
fn digest_into(
    dir: OwnedFd,
    folder: &Path,
    path: &mut Vec<OsString>,
    hash: &mut Sha256,
) -> Result<(), Unread> {
    let unread = |path: &[OsString], name: Option<&OsStr>, reason: std::io::Error| {
        let mut at = folder.to_path_buf();
        at.extend(path.iter().map(OsString::as_os_str).chain(name));
        Unread::new(&at, reason)
    };
    let mut listing = Dir::from_fd(dir).map_err(|e| unread(path, None, e.into()))?;
    let mut names: Vec<OsString> = Vec::new();
    for entry in listing.iter() {
        let entry = entry.map_err(|e| unread(path, None, e.into()))?;
        let name = OsStr::from_bytes(entry.file_name().to_bytes());
        if name == "." || name == ".." || name.as_bytes().starts_with(PROBE_FILE_PREFIX.as_bytes())
        {
            continue;
        }
        names.push(name.to_os_string());
    }
    names.sort();
    let field = |hash: &mut Sha256, tag: &[u8], bytes: &[u8]| {
        hash.update(tag);
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    let here = listing.as_fd();
    // Folders are entered after their own files, in sorted order.
    let mut folders = Vec::new();
    for name in names {
        let mut relative: Vec<u8> = Vec::new();
        for part in path.iter().chain([&name]) {
            if !relative.is_empty() {
                relative.push(b'/');
            }
            relative.extend_from_slice(part.as_bytes());
        }
        field(hash, b"path", &relative);
        let stat = fstatat(here, name.as_os_str(), AtFlags::AT_SYMLINK_NOFOLLOW)
            .map_err(|e| unread(path, Some(&name), e.into()))?;
        match SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT {
            SFlag::S_IFLNK => {
                let target = readlinkat(here, name.as_os_str())
                    .map_err(|e| unread(path, Some(&name), e.into()))?;
                field(hash, b"link", target.as_bytes());
            }
            SFlag::S_IFDIR => {
                field(hash, b"folder", b"");
                folders.push(name);
            }
            SFlag::S_IFREG => {
                // A bot may swap the file for a link or a FIFO meanwhile:
                // never follow the one, never wait on the other.
                let file = openat(
                    here,
                    name.as_os_str(),
                    OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
                    Mode::empty(),
                )
                .map_err(|e| unread(path, Some(&name), e.into()))?;
                let mut file = std::fs::File::from(file);
                let mut bytes = Vec::new();
                file.metadata()
                    .and_then(|m| {
                        if m.is_file() {
                            Ok(())
                        } else {
                            Err(std::io::Error::other("no longer a regular file"))
                        }
                    })
                    .and_then(|()| file.read_to_end(&mut bytes))
                    .map_err(|reason| unread(path, Some(&name), reason))?;
                field(hash, b"file", &bytes);
            }
            _ => field(hash, b"other", b""),
        }
    }
    for name in folders {
        if path.len() >= MAX_DEPTH {
            return Err(unread(path, Some(&name), nix::errno::Errno::ELOOP.into()));
        }
        let sub = openat(
            here,
            name.as_os_str(),
            OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| unread(path, Some(&name), e.into()))?;
        path.push(name);
        digest_into(sub, folder, path, hash)?;
        path.pop();
    }
    Ok(())
}

/// A file or folder that cannot be read: one line naming it (a path too
/// long to show whole is cut in the middle).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {reason}", shown_path(path))]
pub struct Unread {
    /// What cannot be read.
    pub path: PathBuf,
    /// The system's reason.
    pub reason: std::io::Error,
}

impl Unread {
    pub(crate) fn new(path: &Path, reason: std::io::Error) -> Unread {
        Unread {
            path: path.to_path_buf(),
            reason,
        }
    }
}

/// A path for a one-line message, escaped, and cut in the middle past 200
/// characters.
fn shown_path(path: &Path) -> String {
    let text = inarow_sandbox::shown::escape(&path.display().to_string()).into_owned();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 200 {
        return text;
    }
    let head: String = chars[..100].iter().collect();
    let tail: String = chars[chars.len() - 80..].iter().collect();
    format!("{head}...{tail}")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes `levels` folders of 200-letter names below `top`, then a
    /// file `deep` holding `content` at the bottom, by open folders (no
    /// path of that length can be opened at once), and returns the
    /// path's length.
    fn deep_file(top: &Path, levels: usize, content: &[u8]) -> usize {
        let name = "d".repeat(200);
        let mut here =
            nix::fcntl::open(top, OFlag::O_RDONLY | OFlag::O_DIRECTORY, Mode::empty()).unwrap();
        for _ in 0..levels {
            let _ = nix::sys::stat::mkdirat(&here, name.as_str(), Mode::from_bits_truncate(0o755));
            here = openat(
                &here,
                name.as_str(),
                OFlag::O_RDONLY | OFlag::O_DIRECTORY,
                Mode::empty(),
            )
            .unwrap();
        }
        let file = openat(
            &here,
            "deep",
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_TRUNC,
            Mode::from_bits_truncate(0o644),
        )
        .unwrap();
        std::io::Write::write_all(&mut std::fs::File::from(file), content).unwrap();
        levels * 201 + 4
    }

    #[test]
    fn a_path_longer_than_the_kernel_reads_at_once_is_digested() {
        let dir = tempfile::tempdir().unwrap();
        let bot = dir.path().join("bot");
        std::fs::create_dir(&bot).unwrap();
        std::fs::write(bot.join("meta"), "bot\npython3\nbot.py\n0\n").unwrap();
        let length = deep_file(&bot, 30, b"first");
        assert!(length > 6000);
        // A walk by paths stops here: the kernel refuses the path.
        let deep_folder: PathBuf = std::iter::repeat_n("d".repeat(200), 30).collect();
        let refused = std::fs::read_dir(bot.join(&deep_folder)).unwrap_err();
        assert_eq!(
            refused.raw_os_error(),
            Some(libc_enametoolong()),
            "{refused}"
        );
        let first = folder_digest(&bot).unwrap();
        deep_file(&bot, 30, b"other");
        assert_ne!(
            folder_digest(&bot).unwrap(),
            first,
            "the deep file is part of the bot"
        );
        deep_file(&bot, 30, b"first");
        assert_eq!(folder_digest(&bot).unwrap(), first);
    }

    fn libc_enametoolong() -> i32 {
        nix::errno::Errno::ENAMETOOLONG as i32
    }

    #[test]
    fn folders_nested_past_the_depth_are_refused_in_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut here = dir.path().to_path_buf();
        for _ in 0..=MAX_DEPTH {
            here.push("d");
        }
        std::fs::create_dir_all(&here).unwrap();
        let refused = folder_digest(dir.path()).unwrap_err().to_string();
        assert!(refused.starts_with("cannot read "), "{refused}");
        assert!(!refused.contains('\n') && refused.len() < 400, "{refused}");
    }

    #[test]
    fn a_folder_digest_changes_with_any_file_and_not_with_its_place() {
        let dir = tempfile::tempdir().unwrap();
        let make = |name: &str| {
            let bot = dir.path().join(name);
            std::fs::create_dir_all(bot.join("book")).unwrap();
            std::fs::write(bot.join("meta"), "bot\npython3\nbot.py\n0\n").unwrap();
            std::fs::write(bot.join("book/openings"), "7,7\n").unwrap();
            bot
        };
        let (one, two) = (make("one"), make("two"));
        let digest = folder_digest(&one).unwrap();
        assert_eq!(digest.len(), 64);
        assert_eq!(
            folder_digest(&two).unwrap(),
            digest,
            "same files, another place"
        );
        std::fs::write(two.join("book/openings"), "7,8\n").unwrap();
        assert_ne!(folder_digest(&two).unwrap(), digest);
        std::fs::write(two.join("book/openings"), "7,7\n").unwrap();
        std::fs::rename(two.join("book"), two.join("books")).unwrap();
        assert_ne!(folder_digest(&two).unwrap(), digest, "a renamed folder");
        std::fs::write(one.join(format!("{PROBE_FILE_PREFIX}1-5")), "probe").unwrap();
        assert_eq!(
            folder_digest(&one).unwrap(),
            digest,
            "another share's probe file is not part of the bot"
        );
        let err = folder_digest(&dir.path().join("none"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("none"), "{err}");
    }
}
