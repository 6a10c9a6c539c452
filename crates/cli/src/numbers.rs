//! Numbers on the command line, and clap's refusals in one line.
//!
//! Every value-taking argument reads a negative number as a value, so
//! `--games -5` is refused for what it is rather than taken for an unknown
//! flag, and every numeric flag is read by a parser here, which refuses a
//! value out of its range in one line naming the flag, the value and what
//! is allowed: `inarow: --games must be a whole number of at least 1, got -5`.
//! The pbrain-inarow binary includes this file by path too.

use std::ffi::OsString;
use std::fmt;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// What a numeric flag allows, as its refusal says it ("a whole number of
/// at least 1"): the error of every parser here, which [`one_line`] turns
/// into `FLAG must be ALLOWED, got VALUE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowed(pub String);

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Allowed {}

/// A whole number of at least `least` (no upper bound but the type's).
pub fn whole<T>(least: u64) -> impl Fn(&str) -> Result<T, Allowed> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    whole_in(least, u64::MAX)
}

/// A whole number from `least` to `most`.
pub fn whole_in<T>(
    least: u64,
    most: u64,
) -> impl Fn(&str) -> Result<T, Allowed> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|n| (least..=most).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| {
                Allowed(if most == u64::MAX && least > 0 {
                    format!("a whole number of at least {least}")
                } else {
                    format!("a whole number from {least} to {most}")
                })
            })
    }
}

/// A seed: any whole number a 64-bit seed holds.
pub fn seed(text: &str) -> Result<u64, Allowed> {
    whole_in(0, u64::MAX)(text)
}

/// A number (decimals allowed) for which `within` holds, `allowed` saying
/// which those are ("a number of seconds above 0 and at most 3600").
pub fn real(
    allowed: &'static str,
    within: fn(f64) -> bool,
) -> impl Fn(&str) -> Result<f64, Allowed> + Clone + Send + Sync + 'static {
    move |text: &str| {
        text.parse::<f64>()
            .ok()
            .filter(|&x| x.is_finite() && within(x))
            .ok_or_else(|| Allowed(allowed.to_string()))
    }
}

/// `cmd` with every value-taking argument, in it and in its subcommands,
/// reading a value that looks like a negative number as a value: without
/// it clap takes `-5` in `--games -5` for a flag and says only that it
/// is unexpected.
pub fn reading_negative_numbers(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| {
        if arg.get_action().takes_values() {
            arg.allow_negative_numbers(true)
        } else {
            arg
        }
    })
    .mut_subcommands(reading_negative_numbers)
}

/// Reads `argv` (the program's name first) as `P`, negative numbers read
/// as values ([`reading_negative_numbers`]).
pub fn parse_from<P, I, T>(argv: I) -> Result<P, clap::Error>
where
    P: clap::Parser,
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut matches = reading_negative_numbers(P::command()).try_get_matches_from(argv)?;
    P::from_arg_matches_mut(&mut matches)
}

/// Whether `err` is help or the version asked for (or shown for want of a
/// subcommand), which clap prints whole, rather than a mistake.
pub fn is_display(err: &clap::Error) -> bool {
    matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    )
}

/// Ends the program on a failed parse: help and the version as clap prints
/// them, a mistake as one line `PROGRAM: WHAT` (exit code 2, clap's for a
/// usage error).
pub fn exit_on(err: clap::Error, program: &str) -> ! {
    if is_display(&err) {
        err.exit()
    }
    eprintln!("{program}: {}", one_line(&err));
    std::process::exit(2)
}

/// A mistake on the command line in one line: a numeric flag's refusal as
/// `FLAG must be ALLOWED, got VALUE`; any other of clap's errors as its
/// first paragraph joined into one line, with its tip (a similar argument)
/// but without the usage and the pointer to `--help`.
pub fn one_line(err: &clap::Error) -> String {
    if err.kind() == ErrorKind::ValueValidation {
        let allowed = std::error::Error::source(err).and_then(|e| e.downcast_ref::<Allowed>());
        if let (Some(ContextValue::String(arg)), Some(ContextValue::String(value)), Some(allowed)) = (
            err.get(ContextKind::InvalidArg),
            err.get(ContextKind::InvalidValue),
            allowed,
        ) {
            return format!("{} must be {allowed}, got {value}", arg_name(arg));
        }
    }
    let text = err.render().to_string();
    let mut paragraphs = text.split("\n\n");
    let words = |paragraph: &str| paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = words(paragraphs.next().unwrap_or_default());
    let mut line = first.strip_prefix("error: ").unwrap_or(&first).to_string();
    for tip in paragraphs.filter(|p| p.trim_start().starts_with("tip:")) {
        line.push_str(" (");
        line.push_str(&words(tip));
        line.push(')');
    }
    line
}

/// How a refusal names an argument clap writes as `--games <GAMES>`,
/// `-j, --jobs <JOBS>` or `[SEED]`: `--games`, `--jobs`, `SEED`.
fn arg_name(written: &str) -> String {
    let words: Vec<&str> = written
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .collect();
    match words.iter().find(|w| w.starts_with("--")) {
        Some(long) => long.to_string(),
        None => match words.first() {
            Some(first) if first.starts_with('-') => first.to_string(),
            Some(first) => first.trim_matches(['[', ']', '<', '>', '.']).to_string(),
            None => written.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_keep_to_their_range_and_say_it() {
        let at_least_one = whole::<usize>(1);
        assert_eq!(at_least_one("7"), Ok(7));
        for bad in ["0", "-5", "x", "1.5", ""] {
            assert_eq!(
                at_least_one(bad),
                Err(Allowed("a whole number of at least 1".into())),
                "{bad}"
            );
        }
        let port = whole_in::<u16>(0, 65_535);
        assert_eq!(port("0"), Ok(0));
        assert_eq!(port("65535"), Ok(65_535));
        assert_eq!(
            port("65536").unwrap_err().0,
            "a whole number from 0 to 65535"
        );
        assert_eq!(
            seed("-1").unwrap_err().0,
            format!("a whole number from 0 to {}", u64::MAX)
        );
        assert_eq!(seed(&u64::MAX.to_string()), Ok(u64::MAX));
    }

    #[test]
    fn real_numbers_are_finite_and_within() {
        let time = real("a number of seconds above 0", |s| s > 0.0);
        assert_eq!(time("0.25"), Ok(0.25));
        for bad in ["0", "-1", "inf", "NaN", "x"] {
            assert!(time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn arguments_are_named_as_written() {
        assert_eq!(arg_name("--games <GAMES>"), "--games");
        assert_eq!(arg_name("-j, --jobs <JOBS>"), "--jobs");
        assert_eq!(arg_name("-j <JOBS>"), "-j");
        assert_eq!(arg_name("[SEED]"), "SEED");
        assert_eq!(arg_name("<PARTS>..."), "PARTS");
    }
}
