//! The search's settings read from text, as `inarow selfplay --a` and `--b`
//! give them: `key=value` pairs separated by commas.

use std::str::FromStr;
use std::sync::Mutex;

use crate::eval::fine_tables::{FineTables, ModelError};
use crate::eval::learned::{Learned, TablesError};
use crate::eval::{Eval, MOVER_WEIGHT, Weights};
use crate::search::params::{SettingError, pairs};
use crate::search::{MAX_THREADS, Options, Params};

/// Why options cannot be read from text: one line naming what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    /// A setting of the search, or a number, that cannot be.
    #[error("{0}")]
    Setting(#[from] SettingError),
    /// A name that is no option.
    #[error("unknown option {0:?} (the search's settings, tt_mb, soft, threads, eval, mover)")]
    Unknown(String),
    /// An evaluation that cannot be had.
    #[error("{0}")]
    Eval(#[from] EvalError),
}

/// Why an evaluation cannot be had from a file: one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The file cannot be read; `wanted` says what it should have been.
    #[error("{wanted} cannot read {path:?}: {error}")]
    Unread {
        /// What the file should have been.
        wanted: &'static str,
        /// The file.
        path: String,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The file holds no tables or model this build reads.
    #[error("{path}: {error}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why.
        error: Unreadable,
    },
}

/// Why a file's bytes are no evaluation.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    /// A fine tables file or a classical model that cannot be read.
    #[error("{0}")]
    Model(ModelError),
    /// A learned tables file that cannot be read.
    #[error("{0}")]
    Tables(TablesError),
}

impl FromStr for Options {
    type Err = OptionsError;

    /// Reads every setting of [`Params`] by name (`lmr_base=40`), `tt_mb`
    /// (the table's size), `soft` (the share of the time budget after which
    /// no iteration starts, percent), `threads` (search threads, 1 to
    /// [`MAX_THREADS`]), `eval` (the pattern evaluation's
    /// `hand` or `tuned` weights, the `learned` tables the engine embeds,
    /// a tables file by its path, or `rapfi:FILE`, a published classical
    /// model) and `mover` (the hand-set
    /// evaluation's mover weight in tenths); settings
    /// not named keep their defaults, so an empty text gives
    /// [`Options::default`].
    fn from_str(text: &str) -> Result<Options, OptionsError> {
        let mut o = Options::default();
        for pair in pairs(text) {
            let (k, v) = pair?;
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| SettingError::not_a_number(k, v))
            };
            match k {
                "tt_mb" => o.tt_bytes = (num()? as usize).max(1) << 20,
                "soft" => o.soft_percent = num()?.min(100) as u32,
                "threads" => o.threads = (num()? as usize).clamp(1, MAX_THREADS),
                "mover" => o.eval = Eval::Pattern(Weights::hand_set(num()?.clamp(1, 100) as i32)),
                "eval" => o.eval = eval_named(v)?,
                _ if Params::TABLE.iter().any(|row| row.0 == k) => o.params.set_text(k, v)?,
                _ => return Err(OptionsError::Unknown(k.to_string())),
            }
        }
        Ok(o)
    }
}

/// The evaluation `eval=` names: `hand` or `tuned` pattern weights, the
/// `learned` tables the engine embeds, `rapfi:FILE` (a published classical
/// model) or a tables file by its path; or why not in one line.
pub fn eval_named(v: &str) -> Result<Eval, EvalError> {
    match v {
        "hand" => Ok(Eval::Pattern(Weights::hand_set(MOVER_WEIGHT))),
        "tuned" => Ok(Eval::Pattern(Weights::TUNED)),
        "learned" => Ok(Eval::Learned(Learned::embedded())),
        file => eval_file(file),
    }
}

/// The evaluation in a file: `rapfi:FILE`, a published classical model, or
/// a tables file written by `inarow eval fit` (the learned tables,
/// versions 1 and 2, or fine tables, version 3); or why not in one line.
pub fn eval_file(v: &str) -> Result<Eval, EvalError> {
    match v.strip_prefix("rapfi:") {
        Some(model) => load_model(model).map(Eval::fine),
        None => load_eval(v),
    }
}

/// The evaluation in a tables file written by `inarow eval fit`: the
/// learned tables (versions 1 and 2) or fine tables (version 3, `--fine`);
/// or why not in one line.
pub fn load_eval(path: &str) -> Result<Eval, EvalError> {
    static LOADED: Kept<Eval> = Mutex::new(Vec::new());
    kept(
        &LOADED,
        path,
        "eval must be hand, tuned, learned or a tables file:",
        |bytes| {
            if FineTables::is_tables_file(bytes) {
                let tables = FineTables::from_bytes(bytes).map_err(Unreadable::Model)?;
                Ok(Eval::fine(Box::leak(Box::new(tables))))
            } else {
                let tables = Learned::from_bytes(bytes).map_err(Unreadable::Tables)?;
                Ok(Eval::Learned(Box::leak(Box::new(tables))))
            }
        },
    )
    .copied()
}

/// A published classical model (Rapfi's `model220723.bin` and its kind)
/// read from the file at `path`, or why not in one line.
pub fn load_model(path: &str) -> Result<&'static FineTables, EvalError> {
    static LOADED: Kept<FineTables> = Mutex::new(Vec::new());
    kept(
        &LOADED,
        path,
        "eval=rapfi: needs a classical model file:",
        |bytes| FineTables::from_classical_model(bytes).map_err(Unreadable::Model),
    )
}

/// Files read so far, by path.
type Kept<T> = Mutex<Vec<(String, &'static T)>>;

/// What the file at `path` holds, read by `read` once per process and
/// kept: searches hold tables by reference, and a match makes a searcher
/// per game. Errors name the file; `wanted` says what it should have been
/// when it cannot be read at all.
fn kept<T>(
    loaded: &'static Kept<T>,
    path: &str,
    wanted: &'static str,
    read: impl FnOnce(&[u8]) -> Result<T, Unreadable>,
) -> Result<&'static T, EvalError> {
    let mut loaded = loaded.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = loaded.iter().find(|(p, _)| p == path) {
        return Ok(t);
    }
    let bytes = std::fs::read(path).map_err(|e| EvalError::Unread {
        wanted,
        path: path.to_string(),
        error: e,
    })?;
    let value = read(&bytes).map_err(|error| EvalError::Unreadable {
        path: path.to_string(),
        error,
    })?;
    let value: &'static T = Box::leak(Box::new(value));
    loaded.push((path.to_string(), value));
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_or_explain() {
        let o: Options = "tt_mb=4, soft=80,lmr_base=55".parse().unwrap();
        assert!(o.tt_bytes == 4 << 20 && o.soft_percent == 80 && o.params.lmr_base == 55);
        assert_eq!(o.threads, 1, "one thread unless asked");
        let threads = |text: &str| text.parse::<Options>().unwrap().threads;
        assert_eq!(threads("threads=4"), 4);
        assert_eq!(threads("threads=0"), 1);
        assert_eq!(threads("threads=1000"), crate::search::MAX_THREADS);
        assert!("threads=two".parse::<Options>().is_err());
        assert_eq!("soft=250".parse::<Options>().unwrap().soft_percent, 100);
        assert_eq!("".parse::<Options>().unwrap(), Options::default());
        let o: Options = "eval=hand".parse().unwrap();
        assert_eq!(o.eval, Eval::Pattern(Weights::hand_set(MOVER_WEIGHT)));
        assert_eq!(
            "eval=tuned".parse::<Options>().unwrap().eval,
            Eval::Pattern(Weights::TUNED)
        );
        assert_eq!(
            "eval=learned".parse::<Options>().unwrap().eval,
            Eval::Learned(Learned::embedded())
        );
        let e = "eval=magic".parse::<Options>().unwrap_err();
        assert!(
            matches!(&e, OptionsError::Eval(EvalError::Unread { path, .. }) if path == "magic")
        );
        let e = e.to_string();
        assert!(e.contains("hand, tuned, learned or a tables file"), "{e}");
        // Every setting of the search reads by its own name.
        for row in Params::TABLE {
            let o: Options = format!("{}={}", row.0, row.2).parse().unwrap();
            assert_eq!(o.params.get(row.0), Some(row.2), "{}", row.0);
        }
        let file: Options = "# tuned\nsoft=80\nlmr_base=55 # a comment\n"
            .parse()
            .unwrap();
        assert_eq!(file, "soft=80,lmr_base=55".parse().unwrap());
        let e = "lmr_base=9999".parse::<Options>().unwrap_err();
        assert!(matches!(
            e,
            OptionsError::Setting(SettingError::OutOfRange { value: 9999, .. })
        ));
        assert!(e.to_string().contains("within"));
        // The retired classic search's settings are unknown, and say so.
        for retired in ["search=classic", "width=12", "lmr=on", "vct_defence=on"] {
            let e = retired.parse::<Options>().unwrap_err();
            assert!(matches!(e, OptionsError::Unknown(_)), "{retired}: {e}");
            assert!(e.to_string().contains("unknown option"), "{retired}: {e}");
        }
        let e = "tt_mb=big".parse::<Options>().unwrap_err();
        assert!(matches!(
            e,
            OptionsError::Setting(SettingError::NotANumber { .. })
        ));
        assert_eq!(e.to_string(), r#"tt_mb needs a whole number, got "big""#);
    }
}
