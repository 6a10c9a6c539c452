//! The one rule for a bot's name, whoever gives it: a meta file's first
//! line, the organiser's `--rename FOLDER=NAME`, a part file read by
//! `inarow judge merge`, a results file the page reads back.
//!
//! A name travels in `EXIT NAME` lines, as the opponent's argument of every
//! bot, in the standings and in the names of the SGF files, so it is:
//!
//! - short: at most [`MAX_NAME_CHARS`] characters;
//! - plain ASCII: letters, digits, `-`, `_` and `.`, never starting with
//!   `-` (bots would read it as an option) nor `.` (a hidden file, `..`);
//! - never one of the protocol's own words ([`PROTOCOL_WORDS`]: `TIE`, so
//!   that `EXIT TIE` always means a tie), nor a name that looks like one;
//! - one of a kind: two names with the same [`skeleton`] look alike
//!   (`honest`, `HONEST`, `h0nest`) and are one name given twice.
//!
//! Every refusal is one line that quotes the name escaped
//! ([`crate::shown::quoted`]), never raw.
//!
//! The house bot of `inarow judge -d` is the judge's own player, not a
//! name a bot may lose: it is named `house`, or `house-judge` when the
//! debugged bot's name looks like `house` ([`house_name`]).

use crate::shown::quoted;

/// The most characters a bot's name may have: enough for any real name,
/// and few enough that every file name the judge builds from two of them
/// stays far within a file system's 255 bytes (see
/// [`crate::sgf::MAX_SGF_NAME_BYTES`]).
pub const MAX_NAME_CHARS: usize = 32;

/// The words of the protocol that can stand where a name stands: `EXIT
/// NAME` or `EXIT TIE`. A name that looks like one of them is refused.
/// The prompts' own words (`A`, `B`, `C`, `N`, `EXIT`) open a line, where
/// no name ever goes, so they stay free.
pub const PROTOCOL_WORDS: &[&str] = &["TIE"];

/// How many characters of a refused name a message quotes: a name may be
/// as long as its meta file (4 KiB), and a message stays one readable line.
const QUOTED_CHARS: usize = 40;

/// What is wrong with a name, quoting it escaped: one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameProblem {
    /// No name at all.
    #[error("is empty")]
    Empty,
    /// More than [`MAX_NAME_CHARS`] characters.
    #[error(
        "{} has {chars} characters; a name has at most {MAX_NAME_CHARS}",
        shown(name)
    )]
    TooLong {
        /// The name.
        name: String,
        /// Its length in characters.
        chars: usize,
    },
    /// A character other than ASCII letters, digits, `-`, `_` and `.`.
    #[error(
        "{} holds {}; use ASCII letters, digits, '-', '_' and '.'",
        shown(name),
        character(*bad)
    )]
    Holds {
        /// The name.
        name: String,
        /// The first character refused.
        bad: char,
    },
    /// A leading `-`.
    #[error("{} starts with '-', which bots would read as an option", shown(name))]
    Dash {
        /// The name.
        name: String,
    },
    /// A leading `.`.
    #[error("{} starts with '.', as hidden files and '..' do", shown(name))]
    Dot {
        /// The name.
        name: String,
    },
    /// One of the protocol's words, or a name that looks like one.
    #[error(
        "{} looks like {word}, the protocol's word in `EXIT {word}`; a name never does",
        shown(name)
    )]
    Protocol {
        /// The name.
        name: String,
        /// The word it looks like.
        word: &'static str,
    },
}

/// A name quoted for a message: escaped, and cut when it is long.
fn shown(name: &str) -> String {
    match name.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}...", quoted(&name[..cut])),
        None => quoted(name),
    }
}

/// A refused character as a message names it: printable ASCII between
/// quotes, anything else by its code point (`U+043E`), so that a Cyrillic
/// `о` is told from a Latin `o` and a control character is never raw.
fn character(c: char) -> String {
    if c.is_ascii_graphic() || c == ' ' {
        format!("'{c}'")
    } else {
        format!("U+{:04X}", c as u32)
    }
}

/// Checks `name` against the rule (see the [module](self)): the one check
/// every source of a name passes through.
pub fn check(name: &str) -> Result<(), NameProblem> {
    let owned = || name.to_string();
    if name.is_empty() {
        return Err(NameProblem::Empty);
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(NameProblem::TooLong {
            name: owned(),
            chars,
        });
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(NameProblem::Holds { name: owned(), bad });
    }
    if name.starts_with('-') {
        return Err(NameProblem::Dash { name: owned() });
    }
    if name.starts_with('.') {
        return Err(NameProblem::Dot { name: owned() });
    }
    let own = skeleton(name);
    if let Some(word) = PROTOCOL_WORDS.iter().find(|w| skeleton(w) == own) {
        return Err(NameProblem::Protocol {
            name: owned(),
            word,
        });
    }
    Ok(())
}

/// What a name looks like, for telling look-alikes apart: two names with
/// the same skeleton are one name. The map, applied in this order:
///
/// 1. ASCII letters to lower case (`HONEST` is `honest`);
/// 2. `0` to `o`; `1` and `i` to `l` (`he1lo`, `heilo`, `hello`);
/// 3. then, left to right, `rn` to `m`, `vv` to `w`, `cl` to `d`
///    (`rnoon` is `moon`, `vvin` is `win`, `clone` is `done`).
///
/// `-`, `_`, `.` and the other letters and digits are kept as they are.
/// Names outside the rule (non-ASCII) are refused before they are
/// compared, so the map needs no Unicode confusables.
pub fn skeleton(name: &str) -> String {
    let mapped: Vec<char> = name
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | 'i' => 'l',
            c => c,
        })
        .collect();
    let mut out = String::with_capacity(mapped.len());
    let mut i = 0;
    while i < mapped.len() {
        let pair = (mapped[i], mapped.get(i + 1).copied());
        let joined = match pair {
            ('r', Some('n')) => Some('m'),
            ('v', Some('v')) => Some('w'),
            ('c', Some('l')) => Some('d'),
            _ => None,
        };
        match joined {
            Some(c) => {
                out.push(c);
                i += 2;
            }
            None => {
                out.push(mapped[i]);
                i += 1;
            }
        }
    }
    out
}

/// Whether `a` and `b` are one name: the same [`skeleton`].
pub fn look_alike(a: &str, b: &str) -> bool {
    skeleton(a) == skeleton(b)
}

/// The first pair of `names` that are one name (the same or look-alikes),
/// as indices `(earlier, later)`; `None` when every name is its own.
pub fn first_twins<S: AsRef<str>>(names: &[S]) -> Option<(usize, usize)> {
    let skeletons: Vec<String> = names.iter().map(|n| skeleton(n.as_ref())).collect();
    (1..skeletons.len()).find_map(|j| {
        skeletons[..j]
            .iter()
            .position(|s| *s == skeletons[j])
            .map(|i| (i, j))
    })
}

/// The name of the house bot that `inarow judge -d` plays against the bot
/// `bot`: `house`, or `house-judge` when `bot` looks like `house`, so that
/// `EXIT NAME` always tells the two apart.
pub fn house_name(bot: &str) -> &'static str {
    if look_alike(bot, "house") {
        "house-judge"
    } else {
        "house"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-line message of refusing `name`, which must quote nothing raw.
    fn refused(name: &str) -> String {
        let line = check(name).unwrap_err().to_string();
        assert!(!line.contains(|c: char| c.is_control()), "{line:?}");
        assert!(!line.contains(['\u{202e}', '\u{2066}']), "{line:?}");
        line
    }

    #[test]
    fn plain_short_ascii_names_pass() {
        for good in [
            "alice",
            "bot-2",
            "deep_blue.v3",
            "a",
            "A.b_c-9",
            "tied",
            "house",
        ] {
            assert_eq!(check(good), Ok(()), "{good}");
        }
        assert_eq!(check(&"x".repeat(MAX_NAME_CHARS)), Ok(()));
    }

    #[test]
    fn an_empty_name_is_refused() {
        assert_eq!(check(""), Err(NameProblem::Empty));
    }

    #[test]
    fn a_long_name_is_refused_quoting_its_start() {
        let long = "a".repeat(250);
        let line = refused(&long);
        assert_eq!(
            line,
            format!(
                "\"{}\"... has 250 characters; a name has at most 32",
                "a".repeat(40)
            )
        );
        assert!(refused(&"x".repeat(MAX_NAME_CHARS + 1)).contains("33 characters"));
        // Characters, not bytes: 32 of them is the most, whatever they are.
        assert!(refused(&"é".repeat(33)).contains("33 characters"));
    }

    #[test]
    fn a_cyrillic_o_is_refused_by_its_code_point() {
        let line = refused("h\u{43e}nest");
        assert_eq!(
            line,
            "\"h\u{43e}nest\" holds U+043E; use ASCII letters, digits, '-', '_' and '.'"
        );
        assert!(refused("Åsa").contains("U+00C5"));
        assert!(refused("名人").contains("U+540D"));
    }

    #[test]
    fn control_characters_and_bidi_overrides_are_quoted_escaped() {
        let line = refused("a\x1b]0;t\x07b");
        assert!(
            line.starts_with(r#""a\x1b]0;t\x07b" holds U+001B"#),
            "{line}"
        );
        let line = refused("evil\u{202e}txt");
        assert!(
            line.contains(r"\u{202e}") && line.contains("U+202E"),
            "{line}"
        );
        for bad in ["a/b", "a;b", "$(x)", "a b", "\"q\"", "a=b"] {
            assert!(refused(bad).contains("use ASCII letters"), "{bad}");
        }
        assert!(refused("a b").contains("holds ' '"));
    }

    #[test]
    fn a_leading_dash_or_dot_is_refused() {
        assert!(refused("--help").contains("starts with '-'"));
        assert!(refused("-x").contains("option"));
        assert!(refused(".hidden").contains("starts with '.'"));
        assert!(refused("..").contains("starts with '.'"));
        assert_eq!(check("a-"), Ok(()));
        assert_eq!(check("a."), Ok(()));
    }

    #[test]
    fn tie_and_every_look_alike_of_it_is_refused() {
        for tie in ["TIE", "tie", "Tie", "T1E", "tIe", "TlE", "t1e"] {
            assert_eq!(
                refused(tie),
                format!(
                    "\"{tie}\" looks like TIE, the protocol's word in `EXIT TIE`; a name never does"
                )
            );
        }
        for free in ["TIES", "tied", "TIE2", "EXIT", "A", "B", "N"] {
            assert_eq!(check(free), Ok(()), "{free}");
        }
    }

    #[test]
    fn the_skeleton_folds_case_digits_and_letter_pairs() {
        for (name, skeleton_of) in [
            ("HONEST", "honest"),
            ("h0nest", "honest"),
            ("he1lo", "hello"),
            ("heIlo", "hello"),
            ("rnoon", "moon"),
            ("vvin", "win"),
            ("clone", "done"),
            ("c1one", "done"),
            ("RN-VV_CL.0", "m-w_d.o"),
        ] {
            assert_eq!(skeleton(name), skeleton(skeleton_of), "{name}");
            assert!(look_alike(name, skeleton_of), "{name}");
        }
        assert_eq!(skeleton("He1Lo_RN"), "hello_m");
        for (a, b) in [
            ("honest", "honest2"),
            ("ann", "anne"),
            ("a-b", "a_b"),
            ("a.b", "ab"),
        ] {
            assert!(!look_alike(a, b), "{a} {b}");
        }
    }

    #[test]
    fn twins_are_found_by_their_skeleton_in_order() {
        assert_eq!(first_twins(&["ann", "ben", "cat"]), None);
        assert_eq!(first_twins(&["ann", "honest", "HONEST"]), Some((1, 2)));
        assert_eq!(first_twins(&["he1lo", "x", "y", "hello"]), Some((0, 3)));
        assert_eq!(first_twins::<&str>(&[]), None);
    }

    #[test]
    fn the_house_bot_never_looks_like_the_bot_it_plays() {
        assert_eq!(house_name("ann"), "house");
        for alike in ["house", "HOUSE", "H0USE", "hoUse"] {
            assert_eq!(house_name(alike), "house-judge", "{alike}");
        }
        assert_eq!(house_name("house-judge"), "house");
    }
}
