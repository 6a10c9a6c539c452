//! # inarow-files
//!
//! Files saved whole. MENACE's state, the judge's results and SGF records,
//! training curves and charts are each written to a temporary file in the
//! folder they belong in, synced to disk and renamed over the old file: a
//! reader, or a crash half-way, sees the old file or the new one, never half
//! of one.
//!
//! # Examples
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("state.json");
//! inarow_files::write_atomic(&path, b"{}").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"{}");
//! ```
#![deny(missing_docs)]

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// synced to disk and then renamed over `path`.
///
/// On failure `path` keeps its old contents (or stays missing) and no
/// temporary file is left behind. The error does not name `path`: callers
/// say which file it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = folder_of(path);
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable where folders can be synced.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Fails unless a file can be created in the folder `path` would be written
/// to: checked before a long run, so it does not end unable to save.
pub fn check_writable(path: &Path) -> io::Result<()> {
    tempfile::NamedTempFile::new_in(folder_of(path)).map(drop)
}

/// The folder a file at `path` lives in: `.` for a bare file name.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn names_in(dir: &Path) -> Vec<std::ffi::OsString> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        write_atomic(&path, b"first, longer text").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(names_in(dir.path()), ["r.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        write_atomic(&path, b"old").unwrap();
        // Into a folder that does not exist.
        assert!(write_atomic(&dir.path().join("missing/state.json"), b"new").is_err());
        // Over a folder: the temporary is written, the rename fails.
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("inside"), "kept").unwrap();
        assert!(write_atomic(&folder, b"new").is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(fs::read_to_string(folder.join("inside")).unwrap(), "kept");
        assert_eq!(names_in(dir.path()), ["folder", "state.json"]);
    }

    #[test]
    fn writability_is_checked_in_the_files_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_writable(&dir.path().join("new.json")).is_ok());
        assert!(check_writable(&dir.path().join("missing/new.json")).is_err());
        assert_eq!(names_in(dir.path()), Vec::<std::ffi::OsString>::new());
        assert_eq!(folder_of(Path::new("state.json")), Path::new("."));
        assert_eq!(folder_of(Path::new("a/b.json")), Path::new("a"));
    }
}
