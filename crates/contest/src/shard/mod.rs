//! Shares of a tournament or a match for the machines of a cluster: which
//! share this process plays (`I/N`, or read from the scheduler), and the
//! checks a merge makes on the set of parts it is given (a bot's folder
//! digest is [`crate::digest`]).
//!
//! A share is a pure function of the schedule and `I/N`: item `k` (a game
//! of a tournament, a pair of a match) belongs to share `k mod N`, which
//! also spreads long and short games evenly over the shares.
//!
//! One file an idea: the share (here), the schedulers' variables
//! (`scheduler.rs`) and the part files a merge reads (`part.rs`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

mod part;
mod scheduler;

pub use part::{
    MAX_PART_BYTES, Parsed, PartError, PartFile, missing_shares, parse_part, parse_parts,
    part_json, read_part, read_parts,
};
pub use scheduler::{SHARDS_VARIABLE, Source, from_scheduler};

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

#[cfg(test)]
mod tests {
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
}
