//! The part files a merge reads: each read as text within a size, parsed
//! as its kind's part, and the set checked to hold every share once.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::digest::Unread;

use super::{Shard, ShardError};

/// The largest part file a merge reads: a part of a 100-bot tournament is a
/// few megabytes; anything far larger is not a part.
pub const MAX_PART_BYTES: u64 = 1 << 30;

/// Reads a part file as text, refusing what cannot be one (too large, not
/// UTF-8); the error names the file.
pub fn read_part(path: &Path) -> Result<String, PartError> {
    let unread = |reason| PartError::Unread(Unread::new(path, reason));
    let file = std::fs::File::open(path).map_err(unread)?;
    let mut bytes = Vec::new();
    file.take(MAX_PART_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unread)?;
    if bytes.len() as u64 > MAX_PART_BYTES {
        return Err(PartError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    String::from_utf8(bytes).map_err(|_| PartError::NotText {
        path: path.to_path_buf(),
    })
}

/// Reads every part file named, each as its name and its text.
pub fn read_parts(paths: &[PathBuf]) -> Result<Vec<(String, String)>, PartError> {
    paths
        .iter()
        .map(|path| read_part(path).map(|text| (path.display().to_string(), text)))
        .collect()
}

/// Why the parts given to a merge cannot be merged, before their games
/// are looked at: one line naming the part.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    /// A part file cannot be read.
    #[error(transparent)]
    Unread(#[from] Unread),
    /// A part file too large to be one.
    #[error("{}: larger than {} MiB, not a part file", path.display(), MAX_PART_BYTES >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// A part file that is not text.
    #[error("{}: not text, not a part file", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// Not the JSON of a part of this kind.
    #[error("{name}: not a part file of `{command}`: {why}")]
    NotAPart {
        /// The part's name.
        name: String,
        /// The command that writes such parts.
        command: &'static str,
        /// What the JSON reader found wrong.
        why: serde_json::Error,
    },
    /// A part of another kind.
    #[error("{name}: a part file of another kind ({format:?}, not {wanted:?})")]
    OtherKind {
        /// The part's name.
        name: String,
        /// The format line it carries.
        format: String,
        /// The format line wanted.
        wanted: &'static str,
    },
    /// A part that says what its kind refuses (a bot's name the name rule
    /// refuses): the part's name and why, quoting the part escaped.
    #[error("{name}: {why}")]
    Refused {
        /// The part's name.
        name: String,
        /// What it says that is refused, in words.
        why: String,
    },
    /// A part of another tournament or match than the first part's.
    #[error(
        "{name}: a part of another {whole} than {first}: {}",
        inarow_sandbox::shown::escape(why)
    )]
    OtherWhole {
        /// The part's name.
        name: String,
        /// What the parts make up.
        whole: &'static str,
        /// The first part's name.
        first: String,
        /// The first difference, in words.
        why: String,
    },
    /// No part at all.
    #[error("no part files given to merge")]
    NoParts,
    /// A part whose share cannot be.
    #[error("{name}: {why}")]
    Shard {
        /// The part's name.
        name: String,
        /// Why its share cannot be.
        why: ShardError,
    },
    /// A part of a run cut into another count of shares.
    #[error(
        "{name}: share {shard} is of a run cut into {} shards, but {first} is of one cut into {count}",
        shard.count
    )]
    OtherCount {
        /// The part's name.
        name: String,
        /// Its share.
        shard: Shard,
        /// The first part's name.
        first: String,
        /// The first part's count of shares.
        count: usize,
    },
    /// A share given twice.
    #[error("{name}: share {shard} is given twice (also {other})")]
    Twice {
        /// The part's name.
        name: String,
        /// The share.
        shard: Shard,
        /// The other part of that share.
        other: String,
    },
}

/// A part file's contents: the part as pretty JSON and a final newline.
pub fn part_json<T: serde::Serialize>(part: &T) -> String {
    let mut text = serde_json::to_string_pretty(part).expect("parts serialize");
    text.push('\n');
    text
}

/// A part file: one share's work, as a merge reads and checks it.
pub trait PartFile: serde::de::DeserializeOwned {
    /// The command that writes such parts, as errors name it.
    const COMMAND: &'static str;
    /// The format line such parts carry.
    const FORMAT: &'static str;
    /// What the parts together make up, as errors name it.
    const WHOLE: &'static str;
    /// The format line this part carries.
    fn format(&self) -> &str;
    /// The share this part played.
    fn shard(&self) -> Shard;
    /// The first thing in which `other` is a part of another whole, in
    /// words.
    fn difference(&self, other: &Self) -> Option<String>;
    /// What this part says that its kind refuses, in one line quoting it
    /// escaped; checked as each part is read, before any part is compared
    /// with another (which would quote it). `None` by default.
    fn refused(&self) -> Option<String> {
        None
    }
}

/// Reads a part from the text of file `name`: JSON of a part of kind `T`.
/// The error names the file.
pub fn parse_part<T: PartFile>(name: &str, text: &str) -> Result<T, PartError> {
    let part: T = serde_json::from_str(text).map_err(|why| PartError::NotAPart {
        name: name.to_string(),
        command: T::COMMAND,
        why,
    })?;
    if part.format() != T::FORMAT {
        return Err(PartError::OtherKind {
            name: name.to_string(),
            format: inarow_sandbox::shown::escape(part.format()).into_owned(),
            wanted: T::FORMAT,
        });
    }
    if let Some(why) = part.refused() {
        return Err(PartError::Refused {
            name: name.to_string(),
            why,
        });
    }
    Ok(part)
}

/// Parts read for a merge, by name, and the shares missing among them.
pub type Parsed<'a, T> = (Vec<(&'a str, T)>, Vec<Shard>);

/// Reads the parts given to a merge (`(name, text)` of each), checks their
/// shares with [`missing_shares`] and that every part is of the first
/// one's whole: the parts by name, and the shares missing.
pub fn parse_parts<'a, T: PartFile>(parts: &[(&'a str, &str)]) -> Result<Parsed<'a, T>, PartError> {
    let parsed = parts
        .iter()
        .map(|&(name, text)| parse_part::<T>(name, text).map(|p| (name, p)))
        .collect::<Result<Vec<_>, _>>()?;
    let shares: Vec<(&str, Shard)> = parsed.iter().map(|(name, p)| (*name, p.shard())).collect();
    let missing = missing_shares(&shares)?;
    let (first_name, first) = &parsed[0];
    for (name, part) in &parsed[1..] {
        if let Some(why) = first.difference(part) {
            return Err(PartError::OtherWhole {
                name: name.to_string(),
                whole: T::WHOLE,
                first: first_name.to_string(),
                why,
            });
        }
    }
    Ok((parsed, missing))
}

/// Checks the shares of the parts given to a merge (`name` of each part and
/// its share, in the order given): all of one count, none twice. Returns
/// the shares missing, for the caller to say whether it can do without them.
pub fn missing_shares(parts: &[(&str, Shard)]) -> Result<Vec<Shard>, PartError> {
    let Some(&(first_name, first)) = parts.first() else {
        return Err(PartError::NoParts);
    };
    for &(name, shard) in parts {
        Shard::new(shard.index, shard.count).map_err(|why| PartError::Shard {
            name: name.to_string(),
            why,
        })?;
        if shard.count != first.count {
            return Err(PartError::OtherCount {
                name: name.to_string(),
                shard,
                first: first_name.to_string(),
                count: first.count,
            });
        }
    }
    let mut seen: Vec<Option<&str>> = vec![None; first.count];
    for &(name, shard) in parts {
        if let Some(other) = seen[shard.index].replace(name) {
            return Err(PartError::Twice {
                name: name.to_string(),
                shard,
                other: other.to_string(),
            });
        }
    }
    Ok((0..first.count)
        .filter(|&i| seen[i].is_none())
        .map(|index| Shard {
            index,
            count: first.count,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_share_once_and_none_twice() {
        let s = |index, count| Shard { index, count };
        assert!(matches!(
            missing_shares(&[("a", s(1, 2)), ("b", s(1, 2))]),
            Err(PartError::Twice { .. })
        ));
        let missing = |parts: &[(&str, Shard)]| missing_shares(parts).map_err(|e| e.to_string());
        assert_eq!(missing(&[("a", s(1, 2)), ("b", s(0, 2))]), Ok(vec![]));
        assert_eq!(missing(&[("a", s(1, 3))]), Ok(vec![s(0, 3), s(2, 3)]));
        let twice = missing(&[("a", s(1, 2)), ("b", s(1, 2))]).unwrap_err();
        assert!(
            twice.starts_with("b: share 1/2 is given twice (also a)"),
            "{twice}"
        );
        let counts = missing(&[("a", s(0, 2)), ("b", s(1, 3))]).unwrap_err();
        assert!(counts.starts_with("b:"), "{counts}");
        let beyond = missing(&[("a", s(5, 2))]).unwrap_err();
        assert!(beyond.starts_with("a:"), "{beyond}");
        assert!(missing_shares(&[]).is_err());
    }

    #[test]
    fn parts_too_large_or_not_text_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("binary");
        std::fs::write(&binary, [0xff, 0xfe, 0]).unwrap();
        let refused = |path: &Path| read_part(path).unwrap_err().to_string();
        assert!(refused(&binary).contains("not text"));
        assert!(
            read_part(&dir.path().join("none"))
                .unwrap_err()
                .to_string()
                .contains("none")
        );
    }
}
