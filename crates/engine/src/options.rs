//! The search's settings read from text, as `inarow selfplay --a` and `--b`
//! give them: `key=value` pairs separated by commas.

use std::str::FromStr;

use crate::eval::{MOVER_WEIGHT, Weights};
use crate::search::{Algorithm, Options, Params, params::pairs};

impl FromStr for Options {
    type Err = String;

    /// Reads `search` (`selective` or `classic`), every setting of
    /// [`Params`] by name (`lmr_base=40`), and the classic search's `root_vcf`, `vcf_defence`, `root_vct`, `vct_defence`, `lmr`,
    /// `null_move`, `futility`, `tuned_order`, `four_three`, `three_three` and `three_ext` (on/off), `leaf_vcf` (node
    /// budget), `quiet_fours` (fours past the horizon), `width`, `tt_mb`, `soft`, `mover` (the hand-set
    /// evaluation's mover weight in tenths) and `eval` (`hand` or `tuned`
    /// weights); settings not named keep their defaults, so an empty text
    /// gives [`Options::default`].
    fn from_str(text: &str) -> Result<Options, String> {
        let mut o = Options::default();
        for pair in pairs(text) {
            let (k, v) = pair?;
            let flag = || match v {
                "on" | "1" | "true" => Ok(true),
                "off" | "0" | "false" => Ok(false),
                _ => Err(format!("{k} must be on or off, got {v:?}")),
            };
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| format!("{k} needs a whole number, got {v:?}"))
            };
            match k {
                "root_vcf" => o.root_vcf = flag()?,
                "lmr" => o.lmr = flag()?,
                "vcf_defence" => o.vcf_defence = flag()?,
                "root_vct" => o.root_vct = flag()?,
                "vct_defence" => o.vct_defence = flag()?,
                "leaf_vcf" => o.leaf_vcf_nodes = num()?,
                "width" => o.width = (num()? as usize).max(1),
                "tt_mb" => o.tt_bytes = (num()? as usize).max(1) << 20,
                "mover" => o.weights = Weights::hand_set(num()?.clamp(1, 100) as i32),
                "eval" => {
                    o.weights = match v {
                        "hand" => Weights::hand_set(MOVER_WEIGHT),
                        "tuned" => Weights::TUNED,
                        _ => return Err(format!("eval must be hand or tuned, got {v:?}")),
                    }
                }
                "null_move" => o.null_move = flag()?,
                "futility" => o.futility = flag()?,
                "tuned_order" => o.tuned_order = flag()?,
                "soft" => o.soft_percent = num()?.min(100) as u32,
                "four_three" => o.four_three = flag()?,
                "three_ext" => o.three_ext = flag()?,
                "quiet_fours" => o.quiet_fours = num()?.min(32) as u32,
                "three_three" => o.three_three = flag()?,
                "search" => {
                    o.algorithm = match v {
                        "selective" => Algorithm::Selective,
                        "classic" => Algorithm::Classic,
                        _ => return Err(format!("search must be selective or classic, got {v:?}")),
                    }
                }
                _ if Params::TABLE.iter().any(|row| row.0 == k) => o.params.set_text(k, v)?,
                _ => {
                    return Err(format!(
                        "unknown option {k:?} (search, the selective search's settings, root_vcf, vcf_defence, root_vct, vct_defence, lmr, leaf_vcf, width, tt_mb, soft, mover, eval, null_move, futility, tuned_order, quiet_fours, four_three, three_three, three_ext)"
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
        let o: Options = "root_vcf=off, width=12,leaf_vcf=0,soft=80".parse().unwrap();
        assert!(!o.root_vcf && o.width == 12 && o.leaf_vcf_nodes == 0 && o.soft_percent == 80);
        assert_eq!("soft=250".parse::<Options>().unwrap().soft_percent, 100);
        assert_eq!("".parse::<Options>().unwrap(), Options::default());
        let o: Options = "quiet_fours=4,four_three=on,three_ext=on,three_three=on"
            .parse()
            .unwrap();
        assert!(o.quiet_fours == 4 && o.four_three && o.three_ext && o.three_three);
        assert_eq!("quiet_fours=99".parse::<Options>().unwrap().quiet_fours, 32);
        let o: Options = "eval=hand,null_move=on,futility=on".parse().unwrap();
        assert!(o.weights == Weights::hand_set(MOVER_WEIGHT) && o.null_move && o.futility);
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
        // Every setting of the selective search reads by its own name (none
        // is shadowed by a classic option of the same name).
        for row in Params::TABLE {
            let o: Options = format!("{}={}", row.0, row.2).parse().unwrap();
            assert_eq!(o.params.get(row.0), Some(row.2), "{}", row.0);
        }
        let o: Options = "search=classic,lmr_base=55".parse().unwrap();
        let file: Options = "# tuned\nsearch=classic\nlmr_base=55 # a comment\n"
            .parse()
            .unwrap();
        assert_eq!(file, o);
        assert!(o.algorithm == Algorithm::Classic && o.params.lmr_base == 55);
        assert!(
            "lmr_base=9999"
                .parse::<Options>()
                .unwrap_err()
                .contains("within")
        );
        assert!(
            "search=fast"
                .parse::<Options>()
                .unwrap_err()
                .contains("selective or classic")
        );
        assert!(
            "speed=9"
                .parse::<Options>()
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(
            "lmr=maybe"
                .parse::<Options>()
                .unwrap_err()
                .contains("on or off")
        );
    }
}
