//! Bot folders in tests: a place the bots' user can reach, folders it owns,
//! and the processes still running in a folder. Shared with the `inarow`
//! tests, which include this file.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use inarow_sandbox::judge_is_root;

/// The kernel's overflow user.
const NOBODY: (u32, u32) = (65534, 65534);

/// A fresh folder for bot folders that the bots' user can reach.
pub fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Makes `folder` (and what is in it) `nobody`'s, when the tests run as
/// root: the folders of a judge the tests run as an ordinary user
/// (`nobody`), whose bots are that user outside their namespaces. A root
/// judge needs nothing of the kind: each bot's folder is mapped to its uid.
pub fn give_to_nobody(folder: &Path) {
    if !judge_is_root() {
        return;
    }
    let (uid, gid) = NOBODY;
    let mut stack = vec![folder.to_path_buf()];
    while let Some(path) = stack.pop() {
        std::os::unix::fs::lchown(&path, Some(uid), Some(gid)).unwrap();
        if path.is_dir() {
            stack.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        }
    }
}

/// Processes (not zombies) whose working folder is `dir` or inside it: a
/// bot and everything it started run in its folder.
pub fn processes_in(dir: &Path) -> Vec<i32> {
    let dir = dir.canonicalize().unwrap();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().filter_map(|e| e.ok()) {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(cwd) = fs::read_link(entry.path().join("cwd")) else {
            continue;
        };
        let zombie = fs::read_to_string(entry.path().join("stat"))
            .map(|s| {
                let state = s.rsplit(')').next().unwrap_or("").trim_start();
                state.starts_with('Z') || state.starts_with('X')
            })
            .unwrap_or(true);
        if cwd.starts_with(&dir) && !zombie {
            found.push(pid);
        }
    }
    found
}
