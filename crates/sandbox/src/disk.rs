//! What a contestant's folder holds, measured while it runs: its `--disk`
//! limit covers the whole folder, not only each file.

use std::fs;
use std::ops::ControlFlow;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The most entries a folder may hold; a folder with more is over its
/// limit whatever their size (walking millions of tiny files would make
/// the measure itself a cost).
pub const MAX_ENTRIES: usize = 100_000;

/// What a walk of a folder found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// Bytes of disk its files and folders take (their allocated blocks:
    /// a sparse file costs what it holds, not its length).
    pub bytes: u64,
    /// Files, folders and links in it.
    pub entries: usize,
}

impl Usage {
    /// Whether this is over `limit`.
    pub fn over(&self, limit: &Usage) -> bool {
        self.bytes > limit.bytes || self.entries > limit.entries
    }

    /// The limit of a folder that may hold `bytes` and [`MAX_ENTRIES`]
    /// entries, more than `base` already holds when `growth` is set.
    pub fn limit(bytes: u64, base: Option<&Usage>) -> Usage {
        let base = base.copied().unwrap_or(Usage {
            bytes: 0,
            entries: 0,
        });
        Usage {
            bytes: base.bytes.saturating_add(bytes),
            entries: base.entries.saturating_add(MAX_ENTRIES),
        }
    }
}

/// Visits the entries below `folder` without following links, at most
/// `max_depth` folders down and until `visit` says stop or more than
/// `max_entries` were met. Returns how many entries were met, and whether
/// `visit` stopped the walk.
pub fn walk(
    folder: &Path,
    max_entries: usize,
    max_depth: usize,
    mut visit: impl FnMut(&fs::Metadata) -> ControlFlow<()>,
) -> (usize, bool) {
    let mut entries_met = 0;
    let mut stack = vec![(folder.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            entries_met += 1;
            if entries_met > max_entries {
                return (entries_met, false);
            }
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            if visit(&meta).is_break() {
                return (entries_met, true);
            }
            if meta.is_dir() && depth < max_depth {
                stack.push((entry.path(), depth + 1));
            }
        }
    }
    (entries_met, false)
}

/// Walks `folder` without following links, stopping once past
/// `max_entries` entries.
pub fn usage(folder: &Path, max_entries: usize) -> Usage {
    let mut bytes = 0;
    let (entries, _) = walk(folder, max_entries, usize::MAX, |meta| {
        bytes += meta.blocks() * 512;
        ControlFlow::Continue(())
    });
    Usage { bytes, entries }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_counts_every_file_below_it_but_not_what_links_point_to() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        fs::create_dir_all(&deep).unwrap();
        let empty = usage(dir.path(), MAX_ENTRIES);
        fs::write(deep.join("one"), vec![7u8; 1 << 20]).unwrap();
        fs::write(dir.path().join("two"), vec![7u8; 1 << 20]).unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("big"), vec![7u8; 4 << 20]).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let full = usage(dir.path(), MAX_ENTRIES);
        let added = full.bytes - empty.bytes;
        assert!((2 << 20..3 << 20).contains(&added), "{added}");
        assert!(!full.over(&Usage::limit(3 << 20, None)));
        assert!(full.over(&Usage::limit(1 << 20, None)));
        assert_eq!(full.entries, 6, "a, b, c, one, two, link");
        // Counting growth: what it already holds is allowed, more is not.
        assert!(!full.over(&Usage::limit(1 << 20, Some(&full))));
        assert_eq!(
            usage(dir.path(), 2).entries,
            3,
            "the walk stops past the cap"
        );
    }

    #[test]
    fn too_many_entries_is_over_any_size() {
        let many = Usage {
            bytes: 0,
            entries: MAX_ENTRIES + 1,
        };
        assert!(many.over(&Usage::limit(u64::MAX / 2, None)));
    }
}
