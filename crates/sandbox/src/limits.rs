//! What a contained contestant may use, and the limit it went over.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One mebibyte.
pub const MIB: u64 = 1 << 20;
/// One gibibyte.
pub const GIB: u64 = 1 << 30;

/// A share of the machine's processors, in thousandths of a core
/// (`Cores(1000)` is one core, `Cores(500)` half of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cores(pub u32);

impl Cores {
    /// One whole core.
    pub const ONE: Cores = Cores(1000);

    /// Reads `1`, `2`, `0.5`: cores, at least a hundredth of one.
    pub fn parse(text: &str) -> Result<Cores, ValueError> {
        let value: f64 = text
            .trim()
            .parse()
            .map_err(|_| ValueError::NotCores(text.to_string()))?;
        if !(0.01..=4096.0).contains(&value) {
            return Err(ValueError::Cores(text.to_string()));
        }
        Ok(Cores((value * 1000.0).round() as u32))
    }

    /// Microseconds of CPU time per `period_us` of wall time.
    pub fn quota_us(self, period_us: u64) -> u64 {
        period_us * u64::from(self.0) / 1000
    }
}

impl fmt::Display for Cores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 1000 == 0 {
            write!(f, "{}", self.0 / 1000)
        } else {
            write!(f, "{}", f64::from(self.0) / 1000.0)
        }
    }
}

/// The resources one contestant (its program and every process it starts) may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Bytes of memory for the program and all its processes together,
    /// everything counted (heap, `memfd`, its `/tmp`, what it writes to its
    /// folder during a game, shared memory, page tables); `None` for none
    /// (`--memory unbounded`).
    pub memory: Option<u64>,
    /// Processes and threads alive at once.
    pub processes: u64,
    /// CPU seconds each of its processes may use; `None` for no limit.
    pub cpu_seconds: Option<u64>,
    /// The processors all its processes together may keep busy; `None` for
    /// no bound (`--cpus unbounded`).
    #[serde(default = "default_cpus")]
    pub cpus: Option<Cores>,
    /// The largest file it may write, in bytes.
    pub file_size: u64,
    /// The most its folder may hold after a game, in bytes.
    #[serde(default = "default_disk")]
    pub disk: u64,
    /// The most standard error shown of one game, in bytes (the rest is
    /// dropped and counted).
    #[serde(default = "default_stderr")]
    pub stderr: u64,
    /// The most files each of its processes may hold open (a hard
    /// `RLIMIT_NOFILE`): with `processes`, what it can take of the host's
    /// file table.
    #[serde(default = "default_open_files")]
    pub open_files: u64,
}

fn default_open_files() -> u64 {
    1024
}

fn default_disk() -> u64 {
    256 * MIB
}

fn default_stderr() -> u64 {
    MIB
}

fn default_cpus() -> Option<Cores> {
    Some(Cores::ONE)
}

/// The most entries (files, folders, links) a contestant's folder may hold,
/// whatever their size.
pub const MAX_ENTRIES: u64 = 100_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory: Some(GIB),
            processes: 256,
            cpu_seconds: None,
            cpus: default_cpus(),
            file_size: 64 * MIB,
            disk: default_disk(),
            stderr: default_stderr(),
            open_files: default_open_files(),
        }
    }
}

/// A limit a contestant went over: the reason it forfeits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// Its memory, counted over all its processes.
    Memory,
    /// Its processes and threads.
    Processes,
    /// The CPU time of one of its processes.
    Cpu,
    /// The size of a file it wrote.
    FileSize,
    /// What its folder holds.
    Disk,
}

impl Limit {
    /// The limit's name as results files and forfeit reasons spell it.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Memory => "memory",
            Limit::Processes => "processes",
            Limit::Cpu => "cpu",
            Limit::FileSize => "file-size",
            Limit::Disk => "disk",
        }
    }

    /// Reads a limit's name as [`Limit::name`] writes it.
    pub fn from_name(name: &str) -> Option<Limit> {
        [
            Limit::Memory,
            Limit::Processes,
            Limit::Cpu,
            Limit::FileSize,
            Limit::Disk,
        ]
        .into_iter()
        .find(|l| l.name() == name)
    }

    /// The limit at `value` (bytes, processes or seconds), in words.
    pub fn describe(self, value: u64) -> String {
        match self {
            Limit::Memory => format!("over its {} of memory", format_size(value)),
            Limit::Processes => format!("over its {value} processes and threads"),
            Limit::Cpu => format!("over {value} s of CPU time in one process"),
            Limit::FileSize => format!("wrote past the {} file-size limit", format_size(value)),
            Limit::Disk => format!("filled its folder past {}", format_size(value)),
        }
    }
}

impl Limits {
    /// The value of `limit` (bytes, processes or seconds; 0 where none is set).
    pub fn value(&self, limit: Limit) -> u64 {
        match limit {
            Limit::Memory => self.memory.unwrap_or(0),
            Limit::Processes => self.processes,
            Limit::Cpu => self.cpu_seconds.unwrap_or(0),
            Limit::FileSize => self.file_size,
            Limit::Disk => self.disk,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a limit's text is no value: one line quoting it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// Not a number of cores.
    #[error("{0:?} is not a number of cores (try 1, 2 or 0.5)")]
    NotCores(String),
    /// A number of cores outside 0.01 to 4096.
    #[error("{0:?} is not a usable number of cores (0.01 to 4096)")]
    Cores(String),
    /// Not a size.
    #[error("{0:?} is not a size (try 512M or 2G)")]
    NotSize(String),
    /// A size below a byte or too large.
    #[error("{0:?} is not a usable size")]
    Size(String),
}

/// Reads a size such as `1G`, `512M`, `1.5GiB`, `64k` or a plain number of
/// bytes. Suffixes are binary (`K` = 1024).
pub fn parse_size(text: &str) -> Result<u64, ValueError> {
    let trimmed = text.trim();
    let digits = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(digits);
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => MIB,
        "g" | "gb" | "gib" => GIB,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(ValueError::NotSize(text.to_string())),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| ValueError::NotSize(text.to_string()))?;
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 / 2.0 {
        return Err(ValueError::Size(text.to_string()));
    }
    Ok(bytes as u64)
}

/// A size in the largest binary unit that keeps it readable: `1 GiB`, `64 MiB`.
pub fn format_size(bytes: u64) -> String {
    for (unit, scale) in [
        ("TiB", 1u64 << 40),
        ("GiB", GIB),
        ("MiB", MIB),
        ("KiB", 1 << 10),
    ] {
        if bytes >= scale {
            let value = bytes as f64 / scale as f64;
            return if bytes % scale == 0 {
                format!("{} {unit}", bytes / scale)
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_print_in_binary_units() {
        assert_eq!(parse_size("1G"), Ok(GIB));
        assert_eq!(parse_size("512M"), Ok(512 * MIB));
        assert_eq!(parse_size("1.5GiB"), Ok(3 * GIB / 2));
        assert_eq!(parse_size(" 64k "), Ok(64 * 1024));
        assert_eq!(parse_size("4096"), Ok(4096));
        for bad in ["", "G", "lots", "-1G", "0", "1.2.3M", "5X"] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
        assert_eq!(format_size(GIB), "1 GiB");
        assert_eq!(format_size(64 * MIB), "64 MiB");
        assert_eq!(format_size(3 * GIB / 2), "1.5 GiB");
        assert_eq!(format_size(100), "100 bytes");
    }

    #[test]
    fn cores_read_in_thousandths_and_give_a_quota() {
        assert_eq!(Cores::parse("1"), Ok(Cores::ONE));
        assert_eq!(Cores::parse("0.5"), Ok(Cores(500)));
        assert_eq!(Cores::parse("2"), Ok(Cores(2000)));
        for bad in ["", "0", "-1", "many", "0.001", "1e9"] {
            assert!(Cores::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(Cores(2000).quota_us(100_000), 200_000);
        assert_eq!(Cores(500).quota_us(100_000), 50_000);
        assert_eq!(Cores(2000).to_string(), "2");
        assert_eq!(Cores(1500).to_string(), "1.5");
    }

    #[test]
    fn each_limit_names_itself_and_its_value() {
        let limits = Limits::default();
        assert_eq!(Limit::Memory.to_string(), "memory");
        let said = |limit: Limit| limit.describe(limits.value(limit));
        assert!(said(Limit::Memory).contains("1 GiB"));
        assert!(said(Limit::Processes).contains("256"));
        assert_eq!(
            serde_json::to_string(&Limit::FileSize).unwrap(),
            "\"file-size\""
        );
        for limit in [Limit::Memory, Limit::Disk, Limit::FileSize] {
            assert_eq!(Limit::from_name(limit.name()), Some(limit));
        }
        assert_eq!(Limit::from_name("nothing"), None);
    }

    #[test]
    fn older_limits_without_cores_read_with_one_core() {
        let text = r#"{"memory":1073741824,"processes":256,"cpu_seconds":null,"file_size":67108864,"disk":268435456,"stderr":1048576}"#;
        let read: Limits = serde_json::from_str(text).unwrap();
        assert_eq!(read, Limits::default());
    }
}
