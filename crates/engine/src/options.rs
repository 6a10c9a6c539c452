//! The search's settings read from text, as `inarow selfplay --a` and `--b`
//! give them: `key=value` pairs separated by commas.

use std::str::FromStr;

use crate::eval::{MOVER_WEIGHT, Weights};
use crate::search::{Options, Params, params::pairs};

impl FromStr for Options {
    type Err = String;

    /// Reads every setting of [`Params`] by name (`lmr_base=40`), `tt_mb`
    /// (the table's size), `soft` (the share of the time budget after which
    /// no iteration starts, percent), `eval` (`hand` or `tuned` weights) and
    /// `mover` (the hand-set evaluation's mover weight in tenths); settings
    /// not named keep their defaults, so an empty text gives
    /// [`Options::default`].
    fn from_str(text: &str) -> Result<Options, String> {
        let mut o = Options::default();
        for pair in pairs(text) {
            let (k, v) = pair?;
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| format!("{k} needs a whole number, got {v:?}"))
            };
            match k {
                "tt_mb" => o.tt_bytes = (num()? as usize).max(1) << 20,
                "soft" => o.soft_percent = num()?.min(100) as u32,
                "mover" => o.weights = Weights::hand_set(num()?.clamp(1, 100) as i32),
                "eval" => {
                    o.weights = match v {
                        "hand" => Weights::hand_set(MOVER_WEIGHT),
                        "tuned" => Weights::TUNED,
                        _ => return Err(format!("eval must be hand or tuned, got {v:?}")),
                    }
                }
                _ if Params::TABLE.iter().any(|row| row.0 == k) => o.params.set_text(k, v)?,
                _ => {
                    return Err(format!(
                        "unknown option {k:?} (the search's settings, tt_mb, soft, eval, mover)"
                    ));
                }
            }
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_or_explain() {
        let o: Options = "tt_mb=4, soft=80,lmr_base=55".parse().unwrap();
        assert!(o.tt_bytes == 4 << 20 && o.soft_percent == 80 && o.params.lmr_base == 55);
        assert_eq!("soft=250".parse::<Options>().unwrap().soft_percent, 100);
        assert_eq!("".parse::<Options>().unwrap(), Options::default());
        let o: Options = "eval=hand".parse().unwrap();
        assert_eq!(o.weights, Weights::hand_set(MOVER_WEIGHT));
        assert_eq!(
            "eval=tuned".parse::<Options>().unwrap().weights,
            Weights::TUNED
        );
        assert!(
            "eval=magic"
                .parse::<Options>()
                .unwrap_err()
                .contains("hand or tuned")
        );
        // Every setting of the search reads by its own name.
        for row in Params::TABLE {
            let o: Options = format!("{}={}", row.0, row.2).parse().unwrap();
            assert_eq!(o.params.get(row.0), Some(row.2), "{}", row.0);
        }
        let file: Options = "# tuned\nsoft=80\nlmr_base=55 # a comment\n"
            .parse()
            .unwrap();
        assert_eq!(file, "soft=80,lmr_base=55".parse().unwrap());
        assert!(
            "lmr_base=9999"
                .parse::<Options>()
                .unwrap_err()
                .contains("within")
        );
        // The retired classic search's settings are unknown, and say so.
        for retired in ["search=classic", "width=12", "lmr=on", "vct_defence=on"] {
            let e = retired.parse::<Options>().unwrap_err();
            assert!(e.contains("unknown option"), "{retired}: {e}");
        }
        assert!(
            "tt_mb=big"
                .parse::<Options>()
                .unwrap_err()
                .contains("whole number")
        );
    }
}
