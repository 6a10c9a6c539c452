//! Files the judge leaves behind: the results JSON and one SGF per game,
//! each written to a temporary file and renamed so nothing is half-written,
//! and where a run leaves them ([`Records`]): never over an earlier run's.

use std::io;
use std::path::{Path, PathBuf};

use inarow_core::Rule;

use crate::fault::Fault;
use crate::name::MAX_NAME_CHARS;
use crate::record::{Ending, GameRecord, Seat};
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
    /// ([`sgf_name`]): the shares of one tournament write into one SGF
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

fn sgf_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// An SGF point: first letter the column (X), second the row (Y), `a` = 0.
fn sgf_point(x: u8, y: u8) -> String {
    format!("{}{}", (b'a' + x) as char, (b'a' + y) as char)
}

/// The game of a freestyle tournament as SGF (`GM[4]`, gomoku), one node
/// per stone in the order placed, opening stones included, so viewers
/// replay it move by move; its rule named (`RU[Freestyle]`).
pub fn sgf(game: &GameRecord) -> String {
    sgf_under(game, Rule::Freestyle)
}

/// [`sgf`] of a game played under `rule`, which the SGF names (`RU`).
pub fn sgf_under(game: &GameRecord, rule: Rule) -> String {
    sgf_by_under(game, "inarow judge", true, rule)
}

/// The `RU` property of `rule`: `RU[Freestyle]`, `RU[Exact]` or
/// `RU[Renju]`, the names the web page writes and reads back (SGF leaves
/// the names of gomoku's rules free; renju records write `Renju`).
fn rule_property(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "RU[Freestyle]",
        Rule::Exact => "RU[Exact]",
        Rule::Renju => "RU[Renju]",
    }
}

/// [`sgf_under`] written by application `app` (`AP`); a game not
/// `finished` has no result (`RE`) and its comment is left out.
pub fn sgf_by_under(game: &GameRecord, app: &str, finished: bool, rule: Rule) -> String {
    let black = game.named(game.black).unwrap_or(&game.a);
    let white = game.named(game.white()).unwrap_or(&game.b);
    let result = match (game.winner, &game.forfeit) {
        (None, _) => "0".to_string(),
        (Some(w), forfeit) => {
            // Before colours are settled, A is written as black.
            let colour = if game.black.unwrap_or(Seat::A) == w {
                'B'
            } else {
                'W'
            };
            match forfeit {
                Some(f) if matches!(f.fault, Fault::Timeout { .. }) => {
                    format!("{colour}+T")
                }
                Some(_) => format!("{colour}+F"),
                None => format!("{colour}+"),
            }
        }
    };
    let comment = match &game.forfeit {
        Some(f) => format!("{} forfeits: {}", game.name(f.by), f.reason()),
        None => match game.reason {
            Some(Ending::Forbidden) => game.foul_reason().unwrap_or_default(),
            // The page's games: "you resigned".
            Some(Ending::Resigned) => {
                format!("{} resigned", game.named(game.loser()).unwrap_or_default())
            }
            Some(ending) => ending.name().to_string(),
            None => String::new(),
        },
    };
    let mut out = format!(
        "(;FF[4]GM[4]CA[UTF-8]SZ[{}]{}AP[{}]GN[game {}: {} opens against {}]PB[{}]PW[{}]",
        game.size,
        rule_property(rule),
        sgf_text(app),
        game.index,
        sgf_text(&game.a),
        sgf_text(&game.b),
        sgf_text(black),
        sgf_text(white),
    );
    if finished {
        // A record read back from a file may hold what an older judge kept raw.
        let comment = crate::shown::escape(&comment);
        out.push_str(&format!("RE[{result}]C[{}]", sgf_text(&comment)));
    }
    for stone in &game.stones {
        out.push_str(&format!(
            ";{}[{}]",
            stone.colour,
            sgf_point(stone.x, stone.y)
        ));
    }
    out.push_str(")\n");
    out
}

/// The longest file name [`sgf_name`] builds, in bytes: `game-`, the
/// index (at most 20 digits), `-`, two names of at most
/// [`MAX_NAME_CHARS`] bytes each around `-vs-`, and `.sgf`.
pub const MAX_SGF_NAME_BYTES: usize =
    "game-".len() + 20 + "-".len() + MAX_NAME_CHARS + "-vs-".len() + MAX_NAME_CHARS + ".sgf".len();

// Every file system the judge writes to takes names of 255 bytes.
const _: () = assert!(MAX_SGF_NAME_BYTES <= 255);

/// The file name of a game's SGF: index and both names, made safe for any
/// file system and at most [`MAX_SGF_NAME_BYTES`] long whatever the names
/// (each is cut to [`MAX_NAME_CHARS`], as the name rule already keeps it;
/// a record read from an older judge's file may not be).
pub fn sgf_name(game: &GameRecord) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .take(MAX_NAME_CHARS)
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!(
        "game-{:04}-{}-vs-{}.sgf",
        game.index,
        safe(&game.a),
        safe(&game.b)
    )
}

/// Writes one SGF per game of a freestyle tournament into `dir`, creating
/// it, and returns the paths.
pub fn write_sgf_dir(dir: &Path, games: &[GameRecord]) -> io::Result<Vec<PathBuf>> {
    write_sgf_dir_under(dir, games, Rule::Freestyle)
}

/// [`write_sgf_dir`] for the games of a tournament under `rule`.
pub fn write_sgf_dir_under(
    dir: &Path,
    games: &[GameRecord],
    rule: Rule,
) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    games
        .iter()
        .map(|game| {
            let path = dir.join(sgf_name(game));
            write_atomic(&path, sgf_under(game, rule).as_bytes())?;
            Ok(path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Answer, Colour, Seat, Stone};

    #[test]
    fn sgf_lists_every_stone_with_x_as_the_first_letter() {
        let game = GameRecord {
            index: 3,
            a: "ann".into(),
            b: "bob]".into(),
            a_seed: 1,
            b_seed: 2,
            swap: Some(Answer::Black),
            black: Some(Seat::B),
            stones: vec![
                Stone {
                    by: Seat::A,
                    colour: Colour::Black,
                    x: 0,
                    y: 14,
                },
                Stone {
                    by: Seat::A,
                    colour: Colour::White,
                    x: 3,
                    y: 1,
                },
            ],
            winner: Some(Seat::B),
            reason: Some(Ending::Five),
            forbidden: None,
            forfeit: None,
            size: 15,
        };
        let text = sgf(&game);
        assert!(text.starts_with("(;FF[4]GM[4]"));
        assert!(text.contains("PB[bob\\]]PW[ann]RE[B+]"));
        assert!(text.ends_with(";B[ao];W[db])\n"), "{text}");
        assert_eq!(sgf_name(&game), "game-0003-ann-vs-bob_.sgf");
    }

    #[test]
    fn an_sgf_names_its_rule_and_a_forbidden_point_in_its_comment() {
        use crate::replay::examples::{double_three, refereed};
        let game = refereed(Rule::Renju, "ann", "bob", &double_three(), Fault::Eof);
        let text = sgf_under(&game, Rule::Renju);
        assert!(
            text.starts_with("(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[Renju]AP[inarow judge]"),
            "{text}"
        );
        assert!(
            text.contains("PB[ann]PW[bob]RE[W+]C[ann plays a forbidden point: double three]"),
            "{text}"
        );
        assert!(text.ends_with(";B[hh])\n"), "{text}");
        assert_eq!(sgf(&game), text.replace("RU[Renju]", "RU[Freestyle]"));
        assert!(sgf_under(&game, Rule::Exact).contains("SZ[15]RU[Exact]AP["));
        // The web page's unfinished game: its rule, no result.
        let page = sgf_by_under(&game, "inarow serve", false, Rule::Renju);
        assert!(
            page.contains("SZ[15]RU[Renju]AP[inarow serve]") && !page.contains("RE["),
            "{page}"
        );
        let dir = tempfile::tempdir().unwrap();
        let paths = write_sgf_dir_under(dir.path(), &[game], Rule::Renju).unwrap();
        let written = std::fs::read_to_string(&paths[0]).unwrap();
        assert_eq!(written, text);
    }

    #[test]
    fn an_sgf_comment_holds_no_control_character() {
        let mut game = GameRecord::new("ann", "bob");
        game.forfeit(
            Seat::B,
            Fault::Syntax {
                detail: "\x1b]0;pwned\x07".into(),
            },
        );
        // Even a record read back raw from an older judge's file.
        game.forfeit.as_mut().unwrap().fault = Fault::Crash {
            status: "\x1b[2J\u{202e}".into(),
        };
        let text = sgf(&game);
        assert!(!text.contains(['\x1b', '\x07', '\u{202e}']), "{text}");
        assert!(
            text.contains(r"C[bob forfeits: crash: \\x1b[2J\\u{202e}]"),
            "{text}"
        );
    }

    #[test]
    fn a_record_keeps_its_board_size() {
        use inarow_core::{Player, Point};
        let mut game = GameRecord::sized("you", "inarow engine", 9);
        game.lay(Seat::A, Point::at(8, 0, 9), Player::X);
        game.lay(Seat::B, Point::at(4, 4, 9), Player::O);
        assert_eq!((game.stones[0].x, game.stones[0].y), (0, 8));
        assert_eq!((game.stones[1].x, game.stones[1].y), (4, 4));
        let text = sgf_by_under(&game, "inarow serve", false, Rule::Freestyle);
        assert!(text.contains("SZ[9]"), "{text}");
        assert!(text.ends_with(";B[ai];W[ee])\n"), "{text}");
        let json = serde_json::to_value(&game).unwrap();
        assert_eq!(json["size"], 9);
        let back: GameRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back, game);
        // 15 x 15 records are written as they always were: no size.
        let game = GameRecord::new("a", "b");
        assert!(sgf(&game).contains("SZ[15]"));
        let json = serde_json::to_value(&game).unwrap();
        assert!(json.get("size").is_none(), "{json}");
        let back: GameRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back.size, 15);
    }

    #[test]
    fn an_sgf_name_is_bounded_whatever_the_names() {
        let dir = tempfile::tempdir().unwrap();
        let longest = "x".repeat(MAX_NAME_CHARS);
        let mut game = GameRecord::new(&longest, &longest);
        game.index = usize::MAX;
        let name = sgf_name(&game);
        assert_eq!(name.len(), MAX_SGF_NAME_BYTES, "{name}");
        std::fs::write(dir.path().join(&name), "(;)").unwrap();
        // Names no rule checked (a record of an older judge): cut, never
        // too long for the file system, never more than ASCII.
        let mut game = GameRecord::new(&"a".repeat(250), &"\u{43e}\u{202e}/..".repeat(100));
        game.index = 7;
        let name = sgf_name(&game);
        assert!(
            name.len() <= MAX_SGF_NAME_BYTES && name.is_ascii(),
            "{name}"
        );
        assert_eq!(
            name,
            format!("game-0007-{}-vs-{}.sgf", "a".repeat(32), "_".repeat(32))
        );
        let written = write_sgf_dir(dir.path(), &[game]).unwrap();
        assert!(written[0].exists());
    }

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
