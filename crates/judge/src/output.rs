//! Where a run leaves its files ([`Records`], claimed by [`Claim`]): never
//! over an earlier run's nor another's started at once; the results JSON
//! and the SGF records ([`crate::sgf`]) each written to a temporary file
//! and renamed so nothing is half-written.

use std::io;
use std::path::{Path, PathBuf};

use inarow_core::Rule;

use crate::record::GameRecord;
use crate::sgf::write_sgf_dir_under;
use crate::tournament::Results;

pub use inarow_files::write_atomic;

/// Why the results or the SGF records could not be written: one line
/// naming the path.
#[derive(Debug, thiserror::Error)]
pub enum Unwritable {
    /// The results' path is a folder.
    #[error("cannot write the results to {}: it is a folder", path.display())]
    ResultsFolder {
        /// The path.
        path: PathBuf,
    },
    /// The results' folder cannot be written.
    #[error("cannot write the results to {}: {reason}", path.display())]
    Results {
        /// The results file.
        path: PathBuf,
        /// The system's reason.
        reason: io::Error,
    },
    /// The SGF folder cannot be made or written.
    #[error("cannot write SGF records into {}: {reason}", path.display())]
    Sgf {
        /// The SGF folder.
        path: PathBuf,
        /// The system's reason.
        reason: io::Error,
    },
    /// Every name of the series holds an earlier run's files.
    #[error(
        "cannot write the results to {}: it and its {MOST_NUMBERED} numbered names all hold earlier runs' files: move earlier results away",
        path.display()
    )]
    AllTaken {
        /// The results file given.
        path: PathBuf,
    },
}

/// Checks, before any game is played, that the results file and the SGF
/// folder can be written, making nothing: a run refused later leaves the
/// folders as they were. The SGF folder is made when its records are
/// written; until then the nearest folder above it that exists must be
/// writable.
pub fn check_writable(results: &Path, sgf: &Path) -> Result<(), Unwritable> {
    let dir = folder_of(results);
    if results.is_dir() {
        return Err(Unwritable::ResultsFolder {
            path: results.to_path_buf(),
        });
    }
    try_write_in(dir).map_err(|reason| Unwritable::Results {
        path: results.to_path_buf(),
        reason,
    })?;
    nearest_folder(sgf)
        .and_then(|folder| try_write_in(&folder))
        .map_err(|reason| Unwritable::Sgf {
            path: sgf.to_path_buf(),
            reason,
        })
}

/// The folder `path` lies in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// `path` if it is a folder, else the nearest folder above it, where
/// making it would start; an error if what is there is not a folder.
fn nearest_folder(path: &Path) -> io::Result<PathBuf> {
    let mut at = path;
    loop {
        match std::fs::metadata(at) {
            Ok(found) if found.is_dir() => return Ok(at.to_path_buf()),
            Ok(_) => {
                return Err(io::Error::other(format!(
                    "{} is not a folder",
                    at.display()
                )));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => at = folder_of(at),
            Err(e) => return Err(e),
        }
    }
}

/// The most numbered records a series may hold (`results-2.json` to this).
pub const MOST_NUMBERED: u32 = 9999;

/// Where a run leaves its files: the results file (a share's part file)
/// and the folder of its SGF records. A run never writes over an earlier
/// run's files, nor mixes its records with theirs: when the names given
/// hold an earlier run's, it takes the next free ones of the series,
/// `results-2.json` with `sgf-2`, then `-3`, ... (`inarow judge`, its
/// merge and shares, and the page's tournaments alike).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Records {
    /// The results file.
    pub results: PathBuf,
    /// The folder of SGF records.
    pub sgf: PathBuf,
}

impl Records {
    /// Checks before a run that both can be written, making nothing.
    pub fn check(&self) -> Result<(), Unwritable> {
        check_writable(&self.results, &self.sgf)
    }

    /// Record `n` of this series (from 2): `results-N.json` beside the
    /// results file and `sgf-N` beside the SGF folder; 1 is these.
    pub fn numbered(&self, n: u32) -> Records {
        if n <= 1 {
            return self.clone();
        }
        let (stem, extension) = split_extension(&self.results);
        let sgf_name = self.sgf.file_name().unwrap_or_default().to_string_lossy();
        Records {
            results: self
                .results
                .with_file_name(format!("{stem}-{n}{extension}")),
            sgf: self.sgf.with_file_name(format!("{sgf_name}-{n}")),
        }
    }

    /// Whether an earlier run's files are here: anything at the results
    /// file's path (a link too, or another run's claim), or anything in the
    /// SGF folder.
    pub fn taken(&self) -> bool {
        self.results.symlink_metadata().is_ok() || sgf_holds_any(&self.sgf)
    }

    /// Where a new run would write: these records when nothing is here yet,
    /// else the first numbered ones free. Only a look: a run takes them
    /// with [`Records::claim`], which another run cannot also win.
    pub fn unused(&self) -> Result<Records, Unwritable> {
        (1..=MOST_NUMBERED)
            .map(|n| self.numbered(n))
            .find(|records| !records.taken())
            .ok_or_else(|| self.all_taken())
    }

    /// Claims the records a new run writes ([`Claim`]): these when nothing
    /// is here yet, else the first numbered ones free, made the run's own
    /// at once so that no other run writes there.
    pub fn claim(&self) -> Result<Claim, Unwritable> {
        self.claim_first(|records| sgf_holds_any(&records.sgf))
    }

    /// [`Records::claim`] for a share whose SGF records are named `records`
    /// ([`crate::sgf::sgf_name`]): the shares of one tournament write into one SGF
    /// folder, so only its part file or one of its own records there is in
    /// its way.
    pub fn claim_by_share(&self, records: &[String]) -> Result<Claim, Unwritable> {
        self.claim_first(|numbered| {
            records
                .iter()
                .any(|name| numbered.sgf.join(name).symlink_metadata().is_ok())
        })
    }

    /// The first records of the series whose SGF folder is free for this
    /// run (`sgf_taken` false) and whose results file this run made.
    fn claim_first(&self, sgf_taken: impl Fn(&Records) -> bool) -> Result<Claim, Unwritable> {
        for records in (1..=MOST_NUMBERED).map(|n| self.numbered(n)) {
            if records.results.symlink_metadata().is_ok() || sgf_taken(&records) {
                continue;
            }
            // Pushed first: an interrupt between the file's making and
            // the push would otherwise leave it behind.
            UNWRITTEN
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(records.results.clone());
            let made = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&records.results);
            match made {
                Ok(_) => {
                    return Ok(Claim {
                        records,
                        written: false,
                    });
                }
                Err(reason) => {
                    // Not ours: never removed by this process.
                    let mut claimed = UNWRITTEN.lock().unwrap_or_else(|e| e.into_inner());
                    claimed.retain(|path| *path != records.results);
                    // Another run made it since the look above: the next.
                    if reason.kind() != io::ErrorKind::AlreadyExists {
                        return Err(Unwritable::Results {
                            path: records.results,
                            reason,
                        });
                    }
                }
            }
        }
        Err(self.all_taken())
    }

    fn all_taken(&self) -> Unwritable {
        Unwritable::AllTaken {
            path: self.results.clone(),
        }
    }

    /// The newest results of this series: the highest numbered results file
    /// there is, else these records. An empty file is a run's claim, not
    /// results ([`Claim`]): passed over.
    pub fn latest(&self) -> Records {
        let (stem, extension) = split_extension(&self.results);
        let folder = folder_of(&self.results);
        let prefix = format!("{stem}-");
        let newest = std::fs::read_dir(folder)
            .into_iter()
            .flatten()
            .filter_map(|entry| {
                let entry = entry.ok()?;
                if entry.metadata().ok()?.len() == 0 {
                    return None;
                }
                let name = entry.file_name().into_string().ok()?;
                let digits = name.strip_prefix(&prefix)?.strip_suffix(&extension)?;
                // Digits only, as `numbered` writes them: no sign, no zero first.
                if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                digits
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (2..=MOST_NUMBERED).contains(n))
            })
            .max();
        self.numbered(newest.unwrap_or(1))
    }

    /// Writes `results` (the results or a part file's text) and one SGF
    /// per game of `games`, played under `rule`: the results first, so
    /// that they are kept whatever happens to the records.
    pub fn write(&self, results: &str, games: &[GameRecord], rule: Rule) -> Result<(), Unwritable> {
        write_atomic(&self.results, results.as_bytes()).map_err(|reason| Unwritable::Results {
            path: self.results.clone(),
            reason,
        })?;
        write_sgf_dir_under(&self.sgf, games, rule).map_err(|reason| Unwritable::Sgf {
            path: self.sgf.clone(),
            reason,
        })?;
        Ok(())
    }

    /// Where the files went, as a run says at its end.
    pub fn kept(&self) -> String {
        format!(
            "results in {}, SGF records in {}",
            self.results.display(),
            self.sgf.display()
        )
    }
}

/// Records one run alone writes: their results file was made, empty, by
/// this run with `O_EXCL` (which two processes cannot both win) when it
/// chose them, so that a run started at the same moment in the same folder
/// finds them taken and claims the next pair. Writing replaces the empty
/// file whole; a claim dropped unwritten (a run refused or failed before
/// its end) removes it, leaving the folder as it was.
#[derive(Debug)]
pub struct Claim {
    records: Records,
    written: bool,
}

/// The results files claimed and not yet written in this process, for
/// [`drop_unwritten_claims`]: a Ctrl-C handler exits without dropping them.
static UNWRITTEN: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes the empty results files of this process's claims not yet
/// written: for an interrupt handler that ends the process at once, so an
/// interrupted run leaves no empty file in a later run's way.
pub fn drop_unwritten_claims() {
    let claimed = std::mem::take(&mut *UNWRITTEN.lock().unwrap_or_else(|e| e.into_inner()));
    for path in claimed {
        remove_if_empty(&path);
    }
}

/// Removes `path` if it is an empty regular file: a claim never written
/// (a results file is never empty).
fn remove_if_empty(path: &Path) {
    if path
        .symlink_metadata()
        .is_ok_and(|meta| meta.is_file() && meta.len() == 0)
    {
        let _ = std::fs::remove_file(path);
    }
}

impl Claim {
    /// Where this run writes.
    pub fn records(&self) -> &Records {
        &self.records
    }

    /// Writes the results and the SGF records ([`Records::write`]) and
    /// returns where they went.
    pub fn write(
        mut self,
        results: &str,
        games: &[GameRecord],
        rule: Rule,
    ) -> Result<Records, Unwritable> {
        self.records.write(results, games, rule)?;
        self.written = true;
        self.forget();
        Ok(self.records.clone())
    }

    /// Takes this claim off the list [`drop_unwritten_claims`] empties.
    fn forget(&self) {
        let mut claimed = UNWRITTEN.lock().unwrap_or_else(|e| e.into_inner());
        claimed.retain(|path| *path != self.records.results);
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        if !self.written {
            self.forget();
            remove_if_empty(&self.records.results);
        }
    }
}

/// Whether anything is in the SGF folder `sgf`.
fn sgf_holds_any(sgf: &Path) -> bool {
    std::fs::read_dir(sgf).is_ok_and(|mut entries| entries.next().is_some())
}

/// A file name's stem and its extension with the dot (`results`, `.json`);
/// no extension for a name without one (or one that only starts with a dot).
fn split_extension(path: &Path) -> (String, String) {
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem.to_string(), format!(".{extension}")),
        _ => (name, String::new()),
    }
}

/// Creates and removes a file in `dir`: the only sure test that it can be written.
fn try_write_in(dir: &Path) -> io::Result<()> {
    let probe = dir.join(format!(".inarow-write-check-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    std::fs::remove_file(&probe)
}

/// The results as pretty JSON.
pub fn results_json(results: &Results) -> String {
    let mut text = serde_json::to_string_pretty(results).expect("results serialize");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::sgf_name;

    #[test]
    fn records_are_numbered_beside_the_given_ones_and_the_newest_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let given = Records {
            results: dir.path().join("results.json"),
            sgf: dir.path().join("sgf"),
        };
        assert_eq!(given.numbered(1), given);
        let third = given.numbered(3);
        assert_eq!(third.results, dir.path().join("results-3.json"));
        assert_eq!(third.sgf, dir.path().join("sgf-3"));
        let bare = Records {
            results: PathBuf::from("out"),
            sgf: PathBuf::from(".records"),
        };
        assert_eq!(bare.numbered(2).results, PathBuf::from("out-2"));
        assert_eq!(bare.numbered(2).sgf, PathBuf::from(".records-2"));

        // Nothing here: the given ones, which are also the newest.
        assert_eq!(given.unused().unwrap(), given);
        assert_eq!(given.latest(), given);
        // An empty SGF folder holds no earlier run.
        std::fs::create_dir_all(&given.sgf).unwrap();
        assert!(!given.taken());
        // An earlier run's SGF records alone take the name, as does a
        // results file alone.
        std::fs::write(given.sgf.join("game-0000-a-vs-b.sgf"), "(;)").unwrap();
        assert!(given.taken());
        assert_eq!(given.unused().unwrap(), given.numbered(2));
        std::fs::write(given.numbered(2).results, "{}").unwrap();
        assert_eq!(given.unused().unwrap(), given.numbered(3));
        // The newest is the highest number written, gaps and strays aside.
        std::fs::write(given.numbered(7).results, "{}").unwrap();
        for stray in [
            "results-07.json",
            "results-+9.json",
            "results-x.json",
            "results-12.txt",
        ] {
            std::fs::write(dir.path().join(stray), "{}").unwrap();
        }
        assert_eq!(given.latest(), given.numbered(7));
        assert_eq!(given.unused().unwrap(), given.numbered(3));
    }

    #[test]
    fn a_share_keeps_to_its_own_records_in_a_folder_shared_with_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let given = Records {
            results: dir.path().join("part-1-of-2.json"),
            sgf: dir.path().join("sgf-parts"),
        };
        let mine = ["game-0001-a-vs-b.sgf".to_string()];
        // Another share's records in the folder: not in this share's way.
        std::fs::create_dir_all(&given.sgf).unwrap();
        std::fs::write(given.sgf.join("game-0000-b-vs-a.sgf"), "(;)").unwrap();
        assert!(given.taken(), "a whole run would not write there");
        assert_eq!(*given.claim_by_share(&mine).unwrap().records(), given);
        // Its own record from an earlier run is, as is its part file.
        std::fs::write(given.sgf.join(&mine[0]), "(;)").unwrap();
        let second = given.claim_by_share(&mine).unwrap();
        assert_eq!(*second.records(), given.numbered(2));
        drop(second);
        std::fs::remove_file(given.sgf.join(&mine[0])).unwrap();
        std::fs::write(&given.results, "{}").unwrap();
        let second = given.claim_by_share(&mine).unwrap();
        assert_eq!(
            second.records().results,
            dir.path().join("part-1-of-2-2.json")
        );
        assert_eq!(second.records().sgf, dir.path().join("sgf-parts-2"));
    }

    #[test]
    fn runs_started_at_once_claim_a_pair_each_where_a_look_alone_collides() {
        const RUNS: usize = 8;
        let game = |run: usize| {
            let mut game = GameRecord::new("ann", "bob");
            game.index = run;
            game
        };
        // The control: each run looks for a free pair, then writes at its
        // end. Runs that all look before any writes choose the same pair:
        // one results file is left of eight, and one SGF folder holds
        // every run's record.
        let dir = tempfile::tempdir().unwrap();
        let given = Records {
            results: dir.path().join("results.json"),
            sgf: dir.path().join("sgf"),
        };
        let looked: Vec<Records> = (0..RUNS).map(|_| given.unused().unwrap()).collect();
        for (run, records) in looked.iter().enumerate() {
            let text = format!("{{\"run\": {run}}}\n");
            records.write(&text, &[game(run)], Rule::Freestyle).unwrap();
        }
        assert_eq!(std::fs::read_dir(&given.sgf).unwrap().count(), RUNS);
        assert_eq!(given.unused().unwrap(), given.numbered(2));

        // Claims, the same order of events (every claim made before any
        // run writes), in threads: a pair each, whole.
        let dir = tempfile::tempdir().unwrap();
        let given = Records {
            results: dir.path().join("results.json"),
            sgf: dir.path().join("sgf"),
        };
        let all_claimed = std::sync::Barrier::new(RUNS);
        let written: Vec<Records> = std::thread::scope(|scope| {
            let runs: Vec<_> = (0..RUNS)
                .map(|run| {
                    let (given, all_claimed) = (&given, &all_claimed);
                    scope.spawn(move || {
                        let claim = given.claim().unwrap();
                        all_claimed.wait();
                        let text = format!("{{\"run\": {run}}}\n");
                        claim.write(&text, &[game(run)], Rule::Freestyle).unwrap()
                    })
                })
                .collect();
            runs.into_iter().map(|run| run.join().unwrap()).collect()
        });
        let mut pairs: Vec<&Records> = written.iter().collect();
        pairs.sort_by_key(|r| r.results.clone());
        pairs.dedup();
        assert_eq!(pairs.len(), RUNS, "{written:?}");
        for (run, records) in written.iter().enumerate() {
            let text = std::fs::read_to_string(&records.results).unwrap();
            assert_eq!(text, format!("{{\"run\": {run}}}\n"));
            let sgf: Vec<_> = std::fs::read_dir(&records.sgf).unwrap().collect();
            assert_eq!(sgf.len(), 1, "{}", records.sgf.display());
            assert!(records.sgf.join(sgf_name(&game(run))).is_file());
        }
    }

    #[test]
    fn a_claim_not_written_leaves_the_folder_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let given = Records {
            results: dir.path().join("results.json"),
            sgf: dir.path().join("sgf"),
        };
        let first = given.claim().unwrap();
        assert_eq!(*first.records(), given);
        // Claimed, it is taken: a run started now writes the next pair.
        assert!(given.taken());
        let second = given.claim().unwrap();
        assert_eq!(*second.records(), given.numbered(2));
        // An empty file is a claim, never the newest results.
        assert_eq!(given.latest(), given);
        drop(first);
        assert!(!given.results.exists(), "a dropped claim is given back");
        assert_eq!(given.claim().unwrap().records(), &given);
        // An interrupt handler gives back every claim not written.
        let kept = second;
        let share = given
            .claim_by_share(&["game-0001-a-vs-b.sgf".into()])
            .unwrap();
        assert_eq!(*share.records(), given);
        drop_unwritten_claims();
        assert!(!given.results.exists() && !given.numbered(2).results.exists());
        drop((kept, share));
        // A claim's file left by a killed run is passed over, not read.
        std::fs::write(&given.results, "").unwrap();
        std::fs::write(given.numbered(2).results, "{}").unwrap();
        std::fs::write(given.numbered(3).results, "").unwrap();
        assert_eq!(given.latest(), given.numbered(2));
        assert_eq!(given.claim().unwrap().records(), &given.numbered(4));
    }

    #[test]
    fn records_are_written_results_first_and_say_where() {
        let dir = tempfile::tempdir().unwrap();
        let records = Records {
            results: dir.path().join("r.json"),
            sgf: dir.path().join("deep/sgf"),
        };
        let game = GameRecord::new("ann", "bob");
        records.write("{}\n", &[game], Rule::Freestyle).unwrap();
        assert_eq!(std::fs::read_to_string(&records.results).unwrap(), "{}\n");
        assert!(records.sgf.join("game-0000-ann-vs-bob.sgf").is_file());
        assert_eq!(
            records.kept(),
            format!(
                "results in {}, SGF records in {}",
                records.results.display(),
                records.sgf.display()
            )
        );
        // All taken: one line naming the file given.
        let full = Records {
            results: dir.path().join("full.json"),
            sgf: dir.path().join("full-sgf"),
        };
        for n in 1..=MOST_NUMBERED {
            std::fs::write(full.numbered(n).results, "").unwrap();
        }
        let err = full.unused().unwrap_err().to_string();
        assert!(
            err.contains("full.json") && err.contains("move earlier results away"),
            "{err}"
        );
    }

    #[test]
    fn unwritable_places_are_found_before_any_game() {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("r.json");
        let sgf = dir.path().join("sgf");
        check_writable(&results, &sgf).unwrap();
        assert!(!sgf.exists(), "a check makes nothing");
        check_writable(&results, &dir.path().join("a/b/sgf")).unwrap();
        assert!(!dir.path().join("a").exists(), "a check makes nothing");
        let err = check_writable(&dir.path().join("missing/r.json"), &sgf)
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing/r.json"), "{err}");
        assert!(matches!(
            check_writable(dir.path(), &sgf),
            Err(Unwritable::ResultsFolder { .. })
        ));
        let err = check_writable(dir.path(), &sgf).unwrap_err().to_string();
        assert!(err.contains("is a folder"), "{err}");
        std::fs::write(dir.path().join("file"), "").unwrap();
        let err = check_writable(&results, &dir.path().join("file/sgf"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("SGF"), "{err}");
    }
}
