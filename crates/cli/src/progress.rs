//! The live bar of a run of games (`menace train`, `eval games`, `eval
//! check`) or of pairs of games (`selfplay`): done, a second, time left,
//! on standard error, and hidden when standard error is not a terminal (a
//! log gets the lines on standard output instead).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// A rate as a person reads it: two figures below 10 a second (0.37
/// games/s), whole ones from 100 (never 6,902,702.0555); for runs that
/// may be slow (engine games).
pub fn rate(per_sec: f64) -> String {
    let r = per_sec.max(0.0);
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 10.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.2}")
    }
}

/// A rate in whole games a second, for runs of thousands a second
/// (MENACE's training).
pub fn whole_rate(per_sec: f64) -> String {
    format!("{:.0}", per_sec.max(0.0))
}

/// The bar of `games` games, its rate written by `rate`.
pub fn games_bar(games: u64, rate: fn(f64) -> String) -> ProgressBar {
    terminal_bar(
        games,
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {rate} games/s, eta {eta}  {msg}",
        )
        .expect("a valid progress template")
        .with_key(
            "rate",
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(state.per_sec()));
            },
        ),
    )
}

/// The bar of a match's `pairs` pairs of games: a pair takes seconds, so
/// the time it has run ticks on between them.
pub fn pairs_bar(pairs: u64) -> ProgressBar {
    let bar = terminal_bar(
        pairs,
        ProgressStyle::with_template("{bar:30} {pos}/{len} pairs, {elapsed}, eta {eta}  {msg}")
            .expect("a valid progress template"),
    );
    if !bar.is_hidden() {
        bar.enable_steady_tick(std::time::Duration::from_millis(250));
    }
    bar
}

/// A bar of `len` in `style` when standard error is a terminal, else a
/// hidden one.
fn terminal_bar(len: u64, style: ProgressStyle) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    ProgressBar::new(len).with_style(style)
}

#[cfg(test)]
mod tests {
    use super::{rate, whole_rate};

    #[test]
    fn rates_read_as_a_person_reads_them() {
        assert_eq!(rate(0.3712), "0.37");
        assert_eq!(rate(12.345), "12.3");
        assert_eq!(rate(6_902_702.055_5), "6902702");
        assert_eq!(rate(-1.0), "0.00");
    }

    #[test]
    fn rates_are_whole_games_a_second() {
        assert_eq!(whole_rate(6_902_702.055_5), "6902702");
        assert_eq!(whole_rate(0.4), "0");
    }
}
