//! Which share a scheduler gave this process: a Slurm job array, or a
//! Kubernetes Indexed Job (its count from `--shards` or a variable).

use std::fmt;

use super::{Shard, ShardError};

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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

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
}
