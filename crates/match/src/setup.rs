//! A match as a front asks for it, checked and made ready to play: the
//! board and the rule, the openings (from a file, or balanced ones from a
//! seed), what each side spends on a move, and the two sides (engine
//! settings of this build, or Gomocup brains found before anything starts).
//! The front reads its flags into a [`Setup`], asks it for the sandbox the
//! brains need, and gets back the contenders, a pair for each game played
//! at once (each brain a process and a folder of its own); it only prints.

use std::path::PathBuf;
use std::time::Duration;

use inarow_contest::digest::Unread;
use inarow_core::{Mnk, Rule};
use inarow_engine::board::{MAX_SIZE, MIN_SIZE};
use inarow_engine::options::OptionsError;
use inarow_engine::search::{Limits, Options, Searcher};
use inarow_sandbox::Sandbox;

use crate::brain::{self, BrainError, BrainProcess, Place, PlaceError};
use crate::openings::{self, Opening, OpeningsError, OpeningsFormat};
use crate::{Contender, part};

/// What a match is asked to be, before anything starts.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The board's side.
    pub size: usize,
    /// Freestyle or exact five.
    pub rule: Rule,
    /// Pairs of games at most.
    pub pairs: usize,
    /// An openings file (one opening a line), or `None` for balanced
    /// openings made from `seed`.
    pub openings: Option<PathBuf>,
    /// How the openings file writes its stones.
    pub openings_format: OpeningsFormat,
    /// The seed of the generated openings.
    pub seed: u64,
    /// Stones in each generated opening (1 to 20).
    pub stones: usize,
    /// Nodes per move (engines of this build only), or `None` on the clock.
    pub nodes: Option<u64>,
    /// Milliseconds per move on the clock (and a brain's turn).
    pub ms: u64,
    /// Engine settings of A and B, as text (`lmr_base=40,...`).
    pub settings: [String; 2],
    /// A brain's program for A or B instead of the engine.
    pub brains: [Option<PathBuf>; 2],
    /// The folder each brain keeps its files in; `None` for a new one,
    /// removed after the match. With more than one game at once, the
    /// brain of game slot `k` keeps its files in the folder's subfolder
    /// `k` (from 1, made if missing): two brains never share one.
    pub brain_folders: [Option<PathBuf>; 2],
    /// Games played at once (at least 1): each slot has its own pair of
    /// contenders, so each brain side has one brain process a slot.
    pub jobs: usize,
}

/// A [`Setup`] checked: its openings made, its engines' options read and
/// its brains found.
#[derive(Debug)]
pub struct Ready {
    /// The setup.
    pub setup: Setup,
    /// The openings, used in turn.
    pub openings: Vec<Opening>,
    /// What each side may spend on a move.
    pub limits: Limits,
    options: [Options; 2],
    /// Each side's brain in every game slot, or none for an engine.
    places: [Vec<Place>; 2],
    /// Every brain's own folder: each brain is kept out of the others'.
    folders: Vec<PathBuf>,
}

/// Whether generated openings fit a board of `size`: their stones lie
/// within three points of the centre. One line naming `--size` if not.
pub fn generated_size(size: usize) -> Result<(), SizeError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(SizeError::Range);
    }
    if size < 7 {
        return Err(SizeError::Small);
    }
    Ok(())
}

/// Why a board's side does not fit: one line naming `--size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// Outside what the engine plays on.
    #[error("--size must be between {MIN_SIZE} and {MAX_SIZE}")]
    Range,
    /// Too small for generated openings.
    #[error("--size must be at least 7 for generated openings")]
    Small,
}

/// Why a setup cannot be played: one line naming the flag at fault.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A board the referee does not have.
    #[error("--size {size}: {error}")]
    Board {
        /// The side asked for.
        size: usize,
        /// Why.
        error: inarow_core::ParseError,
    },
    /// A side the engine does not play on.
    #[error("{0}")]
    Size(SizeError),
    /// A side too small for generated openings.
    #[error("{0} (or give --openings)")]
    Generated(SizeError),
    /// A side's engine settings (`--a`, `--b`) cannot be read.
    #[error("--{side}: {error}")]
    Settings {
        /// `a` or `b`.
        side: char,
        /// Why.
        error: OptionsError,
    },
    /// `--pairs 0`.
    #[error("--pairs must be at least 1")]
    Pairs,
    /// `--ms 0`.
    #[error("--ms must be at least 1 millisecond a move")]
    Ms,
    /// `--nodes 0`.
    #[error("--nodes must be at least 1")]
    Nodes,
    /// `--stones` outside 1 to 20.
    #[error("--stones must be between 1 and 20")]
    Stones,
    /// `-j 0`.
    #[error("-j must be at least 1 game at once")]
    Jobs,
    /// The openings file cannot be read.
    #[error("cannot read openings file {}: {error}", .path.display())]
    OpeningsUnread {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The openings file holds no openings to play.
    #[error("openings file {}: {error}", .path.display())]
    Openings {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        error: OpeningsError,
    },
    /// `--nodes` with a brain, which keeps its own clock.
    #[error("--nodes needs two engines of this build: a brain keeps its own clock, use --ms")]
    NodesWithBrain,
    /// A brain that cannot play.
    #[error(transparent)]
    Brain(#[from] PlaceError),
}

impl Setup {
    /// Checks the setup and makes its openings; the error is one line
    /// naming the flag at fault.
    pub fn ready(self) -> Result<Ready, SetupError> {
        let size = self.size;
        // The referee's board and the engine's must both hold it.
        Mnk::new(size, size, 5, self.rule).map_err(|error| SetupError::Board { size, error })?;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SetupError::Size(SizeError::Range));
        }
        if self.openings.is_none() {
            generated_size(size).map_err(SetupError::Generated)?;
        }
        let options = [0, 1].map(|k| {
            self.settings[k]
                .parse::<Options>()
                .map_err(|error| SetupError::Settings {
                    side: ['a', 'b'][k],
                    error,
                })
        });
        let [a, b] = options;
        let options = [a?, b?];
        if self.pairs == 0 {
            return Err(SetupError::Pairs);
        }
        if self.ms == 0 {
            return Err(SetupError::Ms);
        }
        if self.nodes == Some(0) {
            return Err(SetupError::Nodes);
        }
        if !(1..=20).contains(&self.stones) {
            return Err(SetupError::Stones);
        }
        if self.jobs == 0 {
            return Err(SetupError::Jobs);
        }
        let limits = match self.nodes {
            Some(n) => Limits {
                time: None,
                depth: 60,
                nodes: n,
            },
            None => Limits::time(Duration::from_millis(self.ms)),
        };
        if self.nodes.is_some() && self.brains.iter().any(Option::is_some) {
            return Err(SetupError::NodesWithBrain);
        }
        // Brains' folders are checked before the openings, whose making
        // may take a while: a bad folder is refused at once.
        let places = [self.slots(0)?, self.slots(1)?];
        let openings = match &self.openings {
            Some(path) => {
                let text =
                    std::fs::read_to_string(path).map_err(|error| SetupError::OpeningsUnread {
                        path: path.clone(),
                        error,
                    })?;
                openings::parse_openings(&text, size, self.rule, self.openings_format).map_err(
                    |error| SetupError::Openings {
                        path: path.clone(),
                        error,
                    },
                )?
            }
            None => {
                openings::balanced_openings(self.seed, self.pairs, size, self.rule, self.stones)
            }
        };
        let folders = places
            .iter()
            .flatten()
            .map(|b| b.data_folder().to_path_buf())
            .collect();
        Ok(Ready {
            setup: self,
            openings,
            limits,
            options,
            places,
            folders,
        })
    }

    /// Side `k`'s brain in every game slot, each keeping its files in a
    /// folder of its own; none for an engine of this build.
    fn slots(&self, k: usize) -> Result<Vec<Place>, PlaceError> {
        let Some(path) = self.brains[k].as_deref() else {
            return Ok(Vec::new());
        };
        let given = self.brain_folders[k].as_deref();
        if self.jobs == 1 || given.is_none() {
            return (0..self.jobs).map(|_| Place::find(path, given)).collect();
        }
        let given = given.expect("a folder given");
        let name = || path.display().to_string();
        match std::fs::metadata(given) {
            Err(error) => {
                return Err(PlaceError::Folder {
                    name: name(),
                    folder: given.to_path_buf(),
                    error,
                });
            }
            Ok(m) if !m.is_dir() => {
                return Err(PlaceError::NotAFolder {
                    name: name(),
                    folder: given.to_path_buf(),
                });
            }
            Ok(_) => {}
        }
        let mut places: Vec<Place> = Vec::with_capacity(self.jobs);
        for slot in 1..=self.jobs {
            let folder = given.join(slot.to_string());
            match std::fs::create_dir(&folder) {
                Err(error) if error.kind() != std::io::ErrorKind::AlreadyExists => {
                    return Err(PlaceError::SlotFolder {
                        name: name(),
                        folder,
                        error,
                    });
                }
                _ => {}
            }
            let place = Place::find(path, Some(&folder))?;
            // A link could make two slots one folder.
            if let Some(twin) = places
                .iter()
                .position(|p| p.data_folder() == place.data_folder())
            {
                return Err(PlaceError::OneFolder {
                    name: name(),
                    first: given.join((twin + 1).to_string()),
                    second: folder,
                });
            }
            places.push(place);
        }
        Ok(places)
    }
}

impl Ready {
    /// A brain's time per move.
    fn turn(&self) -> Duration {
        Duration::from_millis(self.setup.ms)
    }

    /// Whether a side is a brain, which runs in the sandbox (engine against
    /// engine needs none: nothing to probe, no warning).
    pub fn needs_sandbox(&self) -> bool {
        self.brains_at_once() > 0
    }

    /// How many brain processes live at once: one for each brain side in
    /// each game slot, for their share of the host's file table
    /// ([`Sandbox::set_live`]).
    pub fn brains_at_once(&self) -> usize {
        self.places.iter().map(Vec::len).sum()
    }

    /// The CPU seconds a brain's whole match may take, unless the front
    /// gives another limit.
    pub fn cpu_budget(&self) -> u64 {
        brain::cpu_budget(self.setup.pairs, self.setup.size, self.turn())
    }

    /// Probes each brain's sandbox, in every game slot: the warnings to
    /// show (each once), or why a brain cannot run there.
    pub fn check(&self, sandbox: &Sandbox) -> Result<Vec<String>, PlaceError> {
        let mut warnings = Vec::new();
        for place in self.places.iter().flatten() {
            for warning in place.check(sandbox, &self.folders)? {
                if !warnings.contains(&warning) {
                    warnings.push(warning);
                }
            }
        }
        Ok(warnings)
    }

    /// Side `k` (0 for A, 1 for B) as a part file names it: its engine
    /// settings, or its brain's path and folder digest.
    pub fn describe(&self, k: usize) -> Result<String, Unread> {
        Ok(match self.places[k].first() {
            Some(place) => format!(
                "brain {} (folder SHA-256 {})",
                place.folder().display(),
                inarow_contest::digest::folder_digest(place.folder())?
            ),
            None => self.setup.settings[k].clone(),
        })
    }

    /// Side `k` started for game slot `slot` (from 0, below
    /// [`Setup::jobs`]): its brain in `sandbox` (which
    /// [`Ready::needs_sandbox`] asked for), or the engine of this build.
    pub fn contender(
        &self,
        k: usize,
        slot: usize,
        sandbox: Option<&Sandbox>,
    ) -> Result<Box<dyn Contender + Send>, BrainError> {
        Ok(match (self.places[k].get(slot), sandbox) {
            (Some(place), Some(sandbox)) => Box::new(BrainProcess::start(
                place,
                &self.folders,
                sandbox,
                self.setup.size,
                self.setup.rule,
                self.turn(),
            )?),
            _ => Box::new(Searcher::new(self.options[k])),
        })
    }

    /// The match a part file belongs to.
    pub fn part_match(&self, elo: (f64, f64)) -> Result<part::Match, Unread> {
        let size = self.setup.size;
        Ok(part::Match {
            a: self.describe(0)?,
            b: self.describe(1)?,
            openings: self
                .openings
                .iter()
                .map(|o| o.iter().map(|p| p.to_xy(size)).collect())
                .collect(),
            pairs: self.setup.pairs,
            size,
            rule: self.setup.rule,
            nodes: self.setup.nodes,
            ms: self.setup.ms,
            elo0: elo.0,
            elo1: elo.1,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// A match of `brains` (an engine of this build for a side without
    /// one), `jobs` games at once, brain B's files in `folder` or new ones.
    fn setup(
        brains: [Option<&Path>; 2],
        folder: Option<&Path>,
        jobs: usize,
    ) -> Result<Ready, SetupError> {
        let dir = brains.iter().flatten().next().unwrap().parent().unwrap();
        let openings = dir.join("openings.txt");
        std::fs::write(&openings, "7,7 8,8\n").unwrap();
        Setup {
            size: 15,
            rule: Rule::Freestyle,
            pairs: 2,
            openings: Some(openings),
            openings_format: OpeningsFormat::Points,
            seed: 1,
            stones: 5,
            nodes: None,
            ms: 100,
            settings: [String::new(), String::new()],
            brains: brains.map(|b| b.map(Path::to_path_buf)),
            brain_folders: [None, folder.map(Path::to_path_buf)],
            jobs,
        }
        .ready()
    }

    #[test]
    fn each_brain_at_once_keeps_its_files_in_a_folder_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        std::fs::create_dir(real.join("installed")).unwrap();
        let brain = real.join("installed/brain");
        std::fs::write(&brain, "").unwrap();
        let b = [None, Some(brain.as_path())];
        // New folders: one for each game at once, apart.
        let ready = setup(b, None, 3).unwrap();
        assert_eq!(ready.brains_at_once(), 3);
        assert!(ready.needs_sandbox());
        let mut made = ready.folders.clone();
        made.sort();
        made.dedup();
        assert_eq!(made.len(), 3, "{made:?}");
        assert!(made.iter().all(|f| f.is_dir()));
        drop(ready);
        assert!(made.iter().all(|f| !f.exists()), "removed after the match");
        // A given folder: its subfolders 1 to N, made when missing; the
        // folder itself with one game at a time.
        let given = real.join("kept");
        std::fs::create_dir_all(given.join("2")).unwrap();
        let ready = setup(b, Some(&given), 3).unwrap();
        let slots: Vec<PathBuf> = (1..=3).map(|k| given.join(k.to_string())).collect();
        assert_eq!(ready.folders, slots);
        drop(ready);
        assert!(slots.iter().all(|f| f.is_dir()), "kept after the match");
        assert_eq!(setup(b, Some(&given), 1).unwrap().folders, [given]);
        // Two brain sides: two brains a game, all apart.
        let both = setup([Some(&brain), Some(&brain)], None, 2).unwrap();
        assert_eq!(both.brains_at_once(), 4);
        let mut folders = both.folders.clone();
        folders.sort();
        folders.dedup();
        assert_eq!(folders.len(), 4);
        let jobs = setup(b, None, 0).unwrap_err();
        assert!(matches!(jobs, SetupError::Jobs));
        assert!(jobs.to_string().contains("-j must be at least 1"));
    }
}
