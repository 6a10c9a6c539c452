//! `INFO rule`: the rule as Gomocup numbers it, written by the manager and
//! read by the brain in one place, so that both sides agree on the bits.

use std::fmt;

use inarow_core::Rule;

/// The number `INFO rule` carries: bit 1 exactly five, bit 2 continuous
/// game, bit 4 renju; higher bits (caro, 8) are rules nobody here plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleBits(pub u64);

impl RuleBits {
    /// The bits that name rules this crate knows (1, 2 and 4).
    const KNOWN: u64 = 7;

    /// The rule these bits play: bit 4 renju, else bit 1 exact five, else
    /// freestyle; bit 2 (continuous game) changes nothing, except that 2
    /// alone is renju, as Yixin-board sends it (and Rapfi reads it).
    pub fn rule(self) -> Rule {
        let n = self.0;
        if n & 4 != 0 || n == 2 {
            Rule::Renju
        } else if n & 1 != 0 {
            Rule::Exact
        } else {
            Rule::Freestyle
        }
    }

    /// Whether every bit set names a rule known here; a brain that sees a
    /// higher bit plays [`RuleBits::rule`] of the lower ones and says so.
    pub fn is_supported(self) -> bool {
        self.0 & !Self::KNOWN == 0
    }
}

impl From<Rule> for RuleBits {
    /// The number a manager sends: 0 freestyle, 1 exact five, 4 renju.
    fn from(rule: Rule) -> RuleBits {
        RuleBits(match rule {
            Rule::Freestyle => 0,
            Rule::Exact => 1,
            Rule::Renju => 4,
        })
    }
}

impl fmt::Display for RuleBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_reads_back_as_itself() {
        for rule in Rule::ALL {
            let bits = RuleBits::from(rule);
            assert_eq!(bits.rule(), rule);
            assert!(bits.is_supported());
        }
        assert_eq!(RuleBits::from(Rule::Exact).to_string(), "1");
    }

    #[test]
    fn the_bits_decode_as_gomocup_and_yixin_board_send_them() {
        let rule = |n| RuleBits(n).rule();
        // Continuous game (2) with exact five, or with renju.
        assert_eq!(rule(3), Rule::Exact);
        assert_eq!(rule(6), Rule::Renju);
        // Yixin-board's renju.
        assert_eq!(rule(2), Rule::Renju);
        // Caro (8): unknown, played as the lower bits say.
        assert!(!RuleBits(8).is_supported() && !RuleBits(9).is_supported());
        assert_eq!(rule(8), Rule::Freestyle);
        assert_eq!(rule(9), Rule::Exact);
    }
}
