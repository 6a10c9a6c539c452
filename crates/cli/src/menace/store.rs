//! State files on disk: load, check writable, save without ever leaving a
//! half-written file.

use std::io;
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use inarow_core::Player;
use inarow_files::{Lock, LockError};
use inarow_menace::{Memory, Menace};

use super::MachineArgs;

/// The machines named by `--state`, `--preset` and `--seed`: loaded from the
/// state file when it exists, fresh otherwise.
///
/// A state file that exists but cannot be read (or is not a regular file)
/// is an error, and the caller never saves over it. With `will_save`, a path
/// that cannot be written (or a read-only file) is reported before any game
/// is played, and the state file is locked against other inarow processes
/// that would save to it: keep the returned lock for as long as the file is
/// used. Only readers (`menace show`) go without the lock; saves are whole,
/// so they never see half a file.
pub fn open(args: &MachineArgs, will_save: bool) -> anyhow::Result<(Memory, Option<Lock>)> {
    let Some(path) = &args.state else {
        return Ok((fresh(args), None));
    };
    let lock = if will_save {
        check_writable(path, "state file")?;
        Some(lock(path)?)
    } else {
        None
    };
    // Read under the lock: the file no other writer is changing.
    let memory = match inarow_files::read_regular(path) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes)
                .map_err(|_| anyhow!("state file {} is not text (not UTF-8)", path.display()))?;
            let memory = Memory::from_json(&text, args.seed)
                .with_context(|| format!("state file {}", path.display()))?;
            if let Some(preset) = args.preset
                && preset != memory.preset()
            {
                bail!(
                    "state file {} holds boxes of preset {}, but --preset {preset} was given",
                    path.display(),
                    memory.preset()
                );
            }
            memory
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => fresh(args),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read state file {}", path.display()));
        }
    };
    Ok((memory, lock))
}

/// Locks the state file at `path` for this process (see
/// [`inarow_files::Lock`]); a second writer gets a one-line error.
fn lock(path: &Path) -> anyhow::Result<Lock> {
    Lock::exclusive(path).map_err(|e| match e {
        LockError::InUse { .. } => anyhow!("state file {} is {e}", path.display()),
        LockError::Io(e) => anyhow!("cannot lock state file {}: {e}", path.display()),
    })
}

fn fresh(args: &MachineArgs) -> Memory {
    Memory {
        x: Menace::new(args.preset.unwrap_or_default(), Player::X, args.seed),
        o: None,
    }
}

/// Fails with a clear message if a file cannot be created beside `path`
/// (`what` names the file in the message).
pub fn check_writable(path: &Path, what: &str) -> anyhow::Result<()> {
    inarow_files::check_writable(path)
        .with_context(|| format!("cannot write {what} {}", path.display()))
}

/// Saves `text` whole to `path` (see [`inarow_files::write_atomic`]); the
/// error names the file.
pub fn save_text(path: &Path, text: &str) -> anyhow::Result<()> {
    inarow_files::write_atomic(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Saves the machines to the state file, if there is one.
pub fn save(args: &MachineArgs, memory: &Memory) -> anyhow::Result<()> {
    match &args.state {
        Some(path) => save_text(path, &memory.to_json()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn a_failed_write_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        save_text(&path, "first").unwrap();
        save_text(&path, "second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        let err = save_text(&dir.path().join("missing/state.json"), "x").unwrap_err();
        assert!(format!("{err:#}").starts_with("cannot write "), "{err:#}");
    }
}
