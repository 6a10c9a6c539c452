//! Shares of a tournament or a match for the machines of a cluster: which
//! share this process plays (`I/N`, or read from the scheduler), and the
//! checks a merge makes on the set of parts it is given (a bot's folder
//! digest is [`crate::digest`]).
//!
//! A share is a pure function of the schedule and `I/N`: item `k` (a game
//! of a tournament, a pair of a match) belongs to share `k mod N`, which
//! also spreads long and short games evenly over the shares.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::digest::Unread;

/// Share `index` of `count` (from 0): this process plays the items `k`
/// with `k mod count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which share, from 0.
    pub index: usize,
    /// How many shares the work is cut into.
    pub count: usize,
}

/// Why a share cannot be, or cannot be read: one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// A count of shares out of range.
    #[error("the number of shards must be between 1 and {MAX_SHARES}, not {count}")]
    Count {
        /// The count given.
        count: usize,
    },
    /// A share beyond the count.
    #[error("shard {index} does not exist among {count} (they count from 0 to {})", count - 1)]
    Index {
        /// The share given.
        index: usize,
        /// The count of shares.
        count: usize,
    },
    /// Not `I/N`.
    #[error("{text:?} is not a shard: write I/N, such as 0/4 (I from 0 to N-1)")]
    Form {
        /// What was written.
        text: String,
    },
    /// A scheduler's variable that is not a number.
    #[error("{name}={value:?} is not a whole number")]
    NotANumber {
        /// The variable.
        name: String,
        /// Its value.
        value: String,
    },
    /// A Slurm task without the count of its array.
    #[error(
        "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (Slurm 18.08 or later sets both)"
    )]
    NoSlurmCount,
    /// A Slurm task numbered below its array's first.
    #[error("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {first}")]
    BelowSlurmMin {
        /// The task's number.
        id: usize,
        /// The array's first number.
        first: usize,
    },
    /// A Slurm task that is no share of its array.
    #[error(
        "SLURM_ARRAY_TASK_ID {id} of {count} tasks from {first}: {why} (the array must be a range without gaps, such as --array=0-{})",
        count.max(&1) - 1
    )]
    Slurm {
        /// The task's number.
        id: usize,
        /// The array's count of tasks.
        count: usize,
        /// The array's first number.
        first: usize,
        /// Why it is no share.
        why: Box<ShardError>,
    },
    /// A Kubernetes Indexed Job whose count of shares is not given.
    #[error(
        "JOB_COMPLETION_INDEX is set but not the number of shards: give --shards N or {SHARDS_VARIABLE} (the Job's completions)"
    )]
    NoKubernetesCount,
    /// A Kubernetes index that is no share.
    #[error("JOB_COMPLETION_INDEX {index}: {why}")]
    Kubernetes {
        /// The Job's index.
        index: usize,
        /// Why it is no share.
        why: Box<ShardError>,
    },
}

/// The most shares one piece of work is cut into: far beyond any cluster's
/// machines for one tournament, and it keeps hostile part files from
/// announcing billions of shares.
pub const MAX_SHARES: usize = 1 << 20;

impl Shard {
    /// The whole work in one share.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Share `index` of `count`, checked.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 || count > MAX_SHARES {
            return Err(ShardError::Count { count });
        }
        if index >= count {
            return Err(ShardError::Index { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Whether item `k` of the schedule is this share's.
    pub fn owns(&self, k: usize) -> bool {
        k % self.count == self.index
    }

    /// Whether this is the whole work, not a share of it.
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The share that owns item `k` among `count` shares.
    pub fn owner(k: usize, count: usize) -> Shard {
        Shard {
            index: k % count,
            count,
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// Reads `I/N`, such as `0/4` for the first of four shares.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Form {
            text: text.to_string(),
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let i = i.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n)
    }
}

/// Where a share was found: on the command line or in a scheduler's variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A Slurm job array (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`).
    Slurm,
    /// A Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`).
    Kubernetes,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Slurm => "SLURM_ARRAY_TASK_ID of a Slurm job array",
            Source::Kubernetes => "JOB_COMPLETION_INDEX of a Kubernetes Indexed Job",
        })
    }
}

/// The variable that gives a Kubernetes Indexed Job's number of shares
/// when `--shards` does not (Kubernetes does not set one itself).
pub const SHARDS_VARIABLE: &str = "INAROW_SHARDS";

/// The share a scheduler gave this process, read through `var` (the
/// environment, or a table in tests): a Slurm job array, or a Kubernetes
/// Indexed Job whose count comes from `shards` (`--shards`) or
/// [`SHARDS_VARIABLE`]. `None` when no scheduler set one.
pub fn from_scheduler(
    var: impl Fn(&str) -> Option<String>,
    shards: Option<usize>,
) -> Result<Option<(Shard, Source)>, ShardError> {
    let number = |name: &str| -> Result<Option<usize>, ShardError> {
        var(name)
            .map(|value| {
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| ShardError::NotANumber {
                        name: name.to_string(),
                        value,
                    })
            })
            .transpose()
    };
    if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let count = number("SLURM_ARRAY_TASK_COUNT")?.ok_or(ShardError::NoSlurmCount)?;
        // `--array=1-4` numbers tasks from 1: shares count from the first task.
        let first = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let index = id
            .checked_sub(first)
            .ok_or(ShardError::BelowSlurmMin { id, first })?;
        let shard = Shard::new(index, count).map_err(|why| ShardError::Slurm {
            id,
            count,
            first,
            why: Box::new(why),
        })?;
        return Ok(Some((shard, Source::Slurm)));
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let count = match shards {
            Some(n) => n,
            None => number(SHARDS_VARIABLE)?.ok_or(ShardError::NoKubernetesCount)?,
        };
        let shard = Shard::new(index, count).map_err(|why| ShardError::Kubernetes {
            index,
            why: Box::new(why),
        })?;
        return Ok(Some((shard, Source::Kubernetes)));
    }
    Ok(None)
}

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
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn shards_read_as_i_of_n_from_zero() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard::WHOLE));
        assert_eq!(
            "4/4".parse::<Shard>(),
            Err(ShardError::Index { index: 4, count: 4 })
        );
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::Count { count: 0 }));
        for bad in ["4/4", "1/0", "a/b", "3", "-1/4", "1/4/5", ""] {
            let err = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(err.contains("shard") && !err.contains('\n'), "{bad}: {err}");
        }
        assert_eq!(Shard { index: 3, count: 8 }.to_string(), "3/8");
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let table: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| table.get(k).cloned()
    }

    #[test]
    fn schedulers_give_the_share() {
        assert_eq!(from_scheduler(env(&[]), None), Ok(None));
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
        ]);
        assert_eq!(
            from_scheduler(slurm, None),
            Ok(Some((Shard { index: 3, count: 4 }, Source::Slurm)))
        );
        // An array numbered from 1 (--array=1-4).
        let from_one = env(&[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ]);
        assert_eq!(
            from_scheduler(from_one, None).unwrap().unwrap().0,
            Shard { index: 0, count: 4 }
        );
        let gaps = env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ]);
        assert!(
            from_scheduler(gaps, None)
                .unwrap_err()
                .to_string()
                .contains("without gaps")
        );
        let no_count = env(&[("SLURM_ARRAY_TASK_ID", "1")]);
        assert!(
            from_scheduler(no_count, None)
                .unwrap_err()
                .to_string()
                .contains("SLURM_ARRAY_TASK_COUNT")
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "2")]);
        assert_eq!(
            from_scheduler(&k8s, Some(5)),
            Ok(Some((Shard { index: 2, count: 5 }, Source::Kubernetes)))
        );
        assert!(
            from_scheduler(&k8s, None)
                .unwrap_err()
                .to_string()
                .contains("--shards")
        );
        let k8s_env = env(&[("JOB_COMPLETION_INDEX", "2"), ("INAROW_SHARDS", "3")]);
        assert_eq!(
            from_scheduler(k8s_env, None).unwrap().unwrap().0,
            Shard { index: 2, count: 3 }
        );
        let beyond = env(&[("JOB_COMPLETION_INDEX", "3")]);
        assert!(
            from_scheduler(beyond, Some(3))
                .unwrap_err()
                .to_string()
                .contains("JOB_COMPLETION_INDEX 3")
        );
        let junk = env(&[("JOB_COMPLETION_INDEX", "x")]);
        assert!(
            from_scheduler(junk, Some(3))
                .unwrap_err()
                .to_string()
                .contains("not a whole number")
        );
    }

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
