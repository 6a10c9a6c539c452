//! Time management: how long to think about one move.
//!
//! The budget is the per-move limit less a safety margin, further capped by
//! a share of the match time left (assuming a number of moves still to
//! come). The search stops deepening once half the budget is gone (the next
//! iteration would not finish) and aborts at the full budget.

use std::time::Duration;

/// Time limits as the front ends learn them (all optional).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Limit for one move.
    pub turn: Option<Duration>,
    /// Time left for the whole match.
    pub match_left: Option<Duration>,
}

/// Moves we assume are still to come when sharing out the match time.
const MOVES_TO_GO: u32 = 20;

/// The time to spend on the next move.
pub fn budget(clock: Clock) -> Duration {
    let mut t = Duration::from_secs(5);
    if let Some(turn) = clock.turn {
        // Keep back 5% and 10 ms for process and pipe overhead: the
        // search itself stops within a few milliseconds of its budget.
        t = turn.mul_f64(0.95).saturating_sub(Duration::from_millis(10));
    }
    if let Some(left) = clock.match_left {
        t = t.min(left / MOVES_TO_GO);
    }
    t.max(Duration::from_millis(5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_respects_both_limits() {
        let ms = Duration::from_millis;
        let only_turn = budget(Clock {
            turn: Some(ms(1000)),
            match_left: None,
        });
        assert!(only_turn < ms(1000) && only_turn >= ms(900));
        let short_match = budget(Clock {
            turn: Some(ms(1000)),
            match_left: Some(ms(2000)),
        });
        assert_eq!(short_match, ms(100));
        let nearly_out = budget(Clock {
            turn: Some(ms(1000)),
            match_left: Some(ms(1)),
        });
        assert_eq!(nearly_out, ms(5));
        assert_eq!(budget(Clock::default()), Duration::from_secs(5));
    }
}
