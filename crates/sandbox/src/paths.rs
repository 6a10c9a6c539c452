//! Which files a contained contestant may touch: its own folder (read,
//! write, run), the system's programs and libraries and the installation of
//! its command (read, run), a few device files, and whatever read-only paths
//! the operator grants. Nothing else: not the other contestants' folders, not
//! the rest of the judge's tree, not the home folder, not `/tmp`, not the
//! secrets under `/etc`.

use std::ffi::OsStr;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

/// System folders a program may read and run from.
const SYSTEM_DIRS: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/etc/alternatives",
    "/etc/ld.so.conf.d",
    "/etc/ssl/certs",
    "/etc/fonts",
];

/// Files under `/etc` that programs read as they start and that hold no
/// secret (`/etc/shadow` and `/etc/ssl/private` stay closed).
const SYSTEM_FILES: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.preload",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/hosts",
    "/etc/host.conf",
    "/etc/resolv.conf",
    "/etc/gai.conf",
    "/etc/mime.types",
    "/etc/locale.alias",
    "/etc/ssl/openssl.cnf",
];

/// Language runtimes keep their configuration in `/etc/<name>*` folders
/// (`/etc/python3.11`, `/etc/java-17-openjdk`, `/etc/perl`).
const SYSTEM_ETC_PREFIXES: &[&str] = &["python", "java", "perl", "ruby", "node", "php", "R"];

/// Device files a program may read and write.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// Folders named like this hold a program inside a larger installation (a
/// Python or Node build, a pyenv or nvm root): the installation is granted.
const INSTALLATION_BIN: &[&str] = &["bin", "sbin", "shims", "libexec"];

/// What one contestant may touch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paths {
    /// Its folder: read, write and run inside.
    pub folder: PathBuf,
    /// Read (and run, for folders) only.
    pub read: Vec<PathBuf>,
    /// Device files: read and write.
    pub devices: Vec<PathBuf>,
    /// Files inside the folder that stay read-only (its `meta`: the
    /// organiser's, not the contestant's).
    #[serde(default)]
    pub fixed: Vec<PathBuf>,
    /// The size of its private `/tmp`, in bytes.
    #[serde(default = "default_tmp_size")]
    pub tmp_size: u64,
    /// Where it runs, if not in its folder (a Gomocup brain runs in its
    /// installation, read-only, and writes to a folder of its own).
    #[serde(default)]
    pub workdir: Option<PathBuf>,
}

impl Paths {
    /// Where the contestant runs: its working folder, or else its folder.
    pub fn workdir(&self) -> &Path {
        self.workdir.as_deref().unwrap_or(&self.folder)
    }
}

/// What a contestant's view must never open: the other contestants'
/// folders (nothing inside one, nothing holding one) and the home folder
/// (nothing holding it; a program's installation inside it, such as a
/// pyenv, opens only itself).
#[derive(Clone, Copy, Debug, Default)]
pub struct Closed<'a> {
    /// The other contestants' folders.
    pub folders: &'a [PathBuf],
    /// The judge's home folder.
    pub home: Option<&'a Path>,
}

impl Closed<'_> {
    /// Whether granting `grant` would open something closed.
    pub fn opened_by(&self, grant: &Path) -> bool {
        self.folders
            .iter()
            .any(|c| c.starts_with(grant) || grant.starts_with(c))
            || self.home.is_some_and(|home| home.starts_with(grant))
    }
}

/// The size of a contestant's private `/tmp`.
pub const TMP_SIZE: u64 = 64 << 20;

fn default_tmp_size() -> u64 {
    TMP_SIZE
}

/// Why a contestant's paths cannot be set up: one line for the operator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PathError(pub String);

/// The system's folders and files every contestant may read, those that exist here.
pub fn system() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = SYSTEM_DIRS
        .iter()
        .chain(SYSTEM_FILES)
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect();
    if let Ok(entries) = fs::read_dir("/etc") {
        let mut runtimes: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                SYSTEM_ETC_PREFIXES.iter().any(|p| name.starts_with(p))
                    && e.file_type().is_ok_and(|t| t.is_dir())
            })
            .map(|e| e.path())
            .collect();
        runtimes.sort();
        paths.extend(runtimes);
    }
    paths
}

/// The device files every contestant may use, those that exist here.
pub fn devices() -> Vec<PathBuf> {
    DEVICES
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect()
}

fn is_system(path: &Path) -> bool {
    SYSTEM_DIRS.iter().any(|d| path.starts_with(d))
}

/// Where `command` is: a path with a `/` is taken from `folder` (unless
/// absolute), a bare name is looked up in `path_var` as a shell would.
pub fn resolve(
    command: &str,
    folder: &Path,
    path_var: Option<&OsStr>,
) -> Result<PathBuf, PathError> {
    if command.contains('/') {
        let path = as_given(command, folder);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(PathError(format!(
                "the program {} does not exist",
                path.display()
            )))
        };
    }
    resolve_in_view(command, folder, path_var, true, Closed::default())
}

/// The program `command` names before any `PATH` lookup: a path with a
/// `/` taken from `folder` (unless absolute), a bare name as it is.
pub fn as_given(command: &str, folder: &Path) -> PathBuf {
    if command.contains('/') {
        // `join` keeps an absolute path as it is.
        folder.join(command)
    } else {
        PathBuf::from(command)
    }
}

/// Where the program of `command` lies in a contestant's view, found
/// without following anything the contestant controls: a path with a `/` is
/// a file in its folder (checked inside the view, where the kernel also
/// follows its `#!` line); a bare name is the first executable of that name
/// in `path_var` that the contestant may run once its installation is in
/// its view (see [`runs_in_view`]).
pub fn resolve_in_view(
    command: &str,
    folder: &Path,
    path_var: Option<&OsStr>,
    rootless: bool,
    closed: Closed<'_>,
) -> Result<PathBuf, PathError> {
    if command.contains('/') {
        let relative = Path::new(command);
        let inside = relative.is_relative()
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        return if inside {
            Ok(folder.join(relative))
        } else {
            Err(PathError(format!(
                "the command {command:?} must be a file in the bot's folder or a program on PATH"
            )))
        };
    }
    let found = path_var.and_then(|var| {
        std::env::split_paths(var)
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join(command))
            .find(|candidate| runs_in_view(candidate, rootless, closed))
    });
    found.ok_or_else(|| PathError(format!("the program {command:?} is not in PATH")))
}

/// Whether a contestant may run `path` once its installation (what
/// [`installation`] grants) is in its view, at its own path. An ordinary
/// judge's contestant is the judge's user outside, so the judge's own
/// rights decide. A root judge's contestant is a stranger to every file
/// outside its folder, so the file and every folder from it up to the
/// installation's top must be open to others; the folders above that are
/// the view's own (open to all), whatever their modes on the host, so a
/// tree kept in `/root` (mode 700) is reachable.
fn runs_in_view(path: &Path, rootless: bool, closed: Closed<'_>) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if !fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    if rootless {
        return nix::unistd::access(path, nix::unistd::AccessFlags::X_OK).is_ok();
    }
    let Ok(real) = path.canonicalize() else {
        return false;
    };
    let top = grant_for(&real, closed);
    let open = |p: &Path| fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o001 != 0);
    if !open(&real) {
        return false;
    }
    real.ancestors()
        .skip(1)
        .take_while(|p| p.starts_with(&top))
        .all(open)
}

/// What running `program` needs beyond the system's folders and `folder`:
/// the installation it belongs to and that of its script interpreter
/// (`#!/usr/bin/env python3` leads to the `python3` in `path_var`). An
/// installation is the program's folder, or the one above it when that
/// folder is a `bin`, `sbin`, `shims` or `libexec`; a grant that would open
/// something `closed` narrows to the program's own folder, then to the
/// program file alone.
pub fn installation(
    program: &Path,
    folder: &Path,
    path_var: Option<&OsStr>,
    closed: Closed<'_>,
) -> Vec<PathBuf> {
    let mut grants = Vec::new();
    let mut next = Some(program.to_path_buf());
    // A script's interpreter may itself be a script (a pyenv shim); a few levels suffice.
    for _ in 0..4 {
        let Some(program) = next.take() else { break };
        let Ok(real) = program.canonicalize() else {
            break;
        };
        if !is_system(&real) && !real.starts_with(folder) {
            let grant = grant_for(&real, closed);
            if !grants.iter().any(|g: &PathBuf| grant.starts_with(g)) {
                grants.push(grant);
            }
        }
        next = interpreter(&real, path_var);
    }
    grants
}

fn grant_for(real: &Path, closed: Closed<'_>) -> PathBuf {
    let Some(dir) = real.parent() else {
        return real.to_path_buf();
    };
    let named_bin = dir
        .file_name()
        .is_some_and(|n| INSTALLATION_BIN.iter().any(|b| n == OsStr::new(b)));
    let wide = match dir.parent() {
        Some(up) if named_bin && up != Path::new("/") => Some(up),
        _ => None,
    };
    for candidate in wide.into_iter().chain([dir]) {
        if candidate != Path::new("/") && !closed.opened_by(candidate) {
            return candidate.to_path_buf();
        }
    }
    real.to_path_buf()
}

/// The interpreter a script names on its `#!` line, found through `PATH`
/// when the line runs `env`.
fn interpreter(script: &Path, path_var: Option<&OsStr>) -> Option<PathBuf> {
    let mut head = [0u8; 256];
    let n = fs::File::open(script).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let first = PathBuf::from(words.next()?);
    if first.file_name() != Some(OsStr::new("env")) {
        return Some(first);
    }
    let name = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
    resolve(name, Path::new("/"), path_var).ok()
}

/// Checks a read-only grant asked for by a meta file or a judge flag:
/// it must exist and open no other contestant's folder.
pub fn check_grant(grant: &Path, closed: &[PathBuf]) -> Result<PathBuf, PathError> {
    let real = grant
        .canonicalize()
        .map_err(|e| PathError(format!("cannot grant {}: {e}", grant.display())))?;
    if let Some(c) = closed
        .iter()
        .find(|c| c.starts_with(&real) || real.starts_with(c))
    {
        return Err(PathError(format!(
            "cannot grant {}: it would open {}",
            grant.display(),
            c.display()
        )));
    }
    Ok(real)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn executable(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn commands_resolve_from_the_folder_or_through_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let folder = root.join("bots/alice");
        executable(&folder.join("run"), "#!/bin/sh\n");
        executable(&root.join("tools/bin/engine"), "");
        let path_var =
            std::env::join_paths([root.join("nowhere"), root.join("tools/bin")]).unwrap();
        assert_eq!(resolve("./run", &folder, None), Ok(folder.join("./run")));
        assert_eq!(
            resolve("engine", &folder, Some(&path_var)),
            Ok(root.join("tools/bin/engine"))
        );
        assert!(
            resolve("missing", &folder, Some(&path_var))
                .unwrap_err()
                .0
                .contains("not in PATH")
        );
        assert!(
            resolve("./gone", &folder, None)
                .unwrap_err()
                .0
                .contains("does not exist")
        );
    }

    #[test]
    fn a_program_others_cannot_run_is_passed_over_for_a_root_judge() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        executable(&root.join("private/bin/tool"), "");
        executable(&root.join("public/bin/tool"), "");
        let tool = root.join("private/bin/tool");
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(root.join("private"), fs::Permissions::from_mode(0o750)).unwrap();
        let path_var =
            std::env::join_paths([root.join("private/bin"), root.join("public/bin")]).unwrap();
        let folder = root.join("bot");
        let none = Closed::default();
        assert_eq!(
            resolve_in_view("tool", &folder, Some(&path_var), false, none),
            Ok(root.join("public/bin/tool")),
            "a root judge's bot is a stranger to the file"
        );
        assert_eq!(
            resolve_in_view("tool", &folder, Some(&path_var), true, none),
            Ok(tool),
            "an ordinary judge's bot runs as the judge's user outside"
        );
    }

    #[test]
    fn a_tree_kept_in_a_folder_only_its_owner_enters_is_reachable_for_a_root_judge() {
        // /root is mode 700: the folders above an installation are the
        // view's own, so only the installation's own modes count.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        executable(&root.join("home/tree/target/release/inarow"), "");
        executable(&root.join("home/tree/closed/bin/tool"), "");
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(root.join("home"), fs::Permissions::from_mode(0o700)).unwrap();
        fs::set_permissions(
            root.join("home/tree/closed"),
            fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        let path_var = std::env::join_paths([
            root.join("home/tree/target/release"),
            root.join("home/tree/closed/bin"),
        ])
        .unwrap();
        let home = root.join("home");
        let closed = Closed {
            folders: &[],
            home: Some(&home),
        };
        assert_eq!(
            resolve_in_view("inarow", &root.join("bot"), Some(&path_var), false, closed),
            Ok(root.join("home/tree/target/release/inarow"))
        );
        assert_eq!(
            installation(
                &root.join("home/tree/target/release/inarow"),
                &root.join("bot"),
                None,
                closed
            ),
            [root.join("home/tree/target/release")],
            "an installation inside the home folder opens only itself"
        );
        assert!(
            resolve_in_view("tool", &root.join("bot"), Some(&path_var), false, closed).is_err(),
            "the installation's own folder is closed to others"
        );
        executable(&root.join("home/bin/tool"), "");
        assert_eq!(
            installation(&root.join("home/bin/tool"), &root.join("bot"), None, closed),
            [root.join("home/bin")],
            "never the home folder itself"
        );
    }

    #[test]
    fn a_command_is_a_file_in_the_folder_or_a_name_never_a_path_out() {
        let folder = Path::new("/bots/alice");
        assert_eq!(
            resolve_in_view("./run", folder, None, false, Closed::default()),
            Ok(folder.join("./run"))
        );
        assert_eq!(
            resolve_in_view("bin/run", folder, None, false, Closed::default()),
            Ok(folder.join("bin/run"))
        );
        for out in [
            "../bob/bot.py",
            "bin/../../bob/run",
            "/usr/bin/python3",
            "./..",
        ] {
            let refused = resolve_in_view(out, folder, None, false, Closed::default()).unwrap_err();
            assert!(
                refused.0.contains("must be a file in the bot's folder"),
                "{out}: {refused}"
            );
        }
    }

    #[test]
    fn an_installation_is_granted_through_shebangs_but_never_opens_another_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let folder = root.join("bots/alice");
        let other = root.join("bots/bob");
        fs::create_dir_all(&other).unwrap();
        // A pyenv-like shim: a script in `shims` whose interpreter is found through PATH.
        executable(
            &root.join("pyenv/shims/python9"),
            "#!/usr/bin/env python9-real\n",
        );
        executable(&root.join("runtime/bin/python9-real"), "");
        let path_var = std::env::join_paths([root.join("runtime/bin")]).unwrap();
        let others = [other.clone()];
        let closed = Closed {
            folders: &others,
            home: None,
        };
        let grants = installation(
            &root.join("pyenv/shims/python9"),
            &folder,
            Some(&path_var),
            closed,
        );
        assert_eq!(grants, [root.join("pyenv"), root.join("runtime")]);
        // A program beside the bots folder: its `bin` parent would open bob's folder.
        executable(&root.join("bin/engine"), "");
        let grants = installation(&root.join("bin/engine"), &folder, None, closed);
        assert_eq!(grants, [root.join("bin")]);
        // A program in the folder itself needs nothing more.
        executable(&folder.join("run"), "");
        assert!(installation(&folder.join("run"), &folder, None, closed).is_empty());
    }

    #[test]
    fn grants_must_exist_and_stay_clear_of_other_folders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let bob = root.join("bots/bob");
        fs::create_dir_all(&bob).unwrap();
        fs::create_dir_all(root.join("books")).unwrap();
        let closed = [bob.clone()];
        assert_eq!(
            check_grant(&root.join("books"), &closed),
            Ok(root.join("books"))
        );
        assert!(
            check_grant(&root.join("bots"), &closed)
                .unwrap_err()
                .0
                .contains("would open")
        );
        assert!(check_grant(&bob, &closed).is_err());
        assert!(check_grant(&root.join("none"), &closed).is_err());
    }

    #[test]
    fn the_system_lists_hold_no_secret() {
        let system = system();
        assert!(system.iter().all(|p| !p.starts_with("/etc/shadow")
            && !p.starts_with("/etc/ssl/private")
            && !p.starts_with("/home")
            && !p.starts_with("/tmp")
            && !p.starts_with("/root")));
        assert!(system.contains(&PathBuf::from("/usr")));
        assert!(devices().contains(&PathBuf::from("/dev/null")));
    }
}
