//! Text from outside made safe to show: the one gate every program the
//! project did not write, and every file such a program or its author
//! made, passes through before the organiser's terminal, a record or a
//! file.
//!
//! A judge's bot, a Gomocup brain, a meta file and a part file are all
//! written by others: what they say reaches standard error, results files,
//! SGF comments and match part files. A terminal obeys control characters:
//! ESC starts sequences that clear the screen, set the window title or
//! write the clipboard (OSC 52), and the bidirectional overrides reorder
//! what follows them, standings included. So every byte from outside is
//! shown through [`escape`] first (or [`quoted`], for a name or a line
//! quoted in a message). The judge re-exports this module as
//! `inarow_judge::shown`.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must not reach a terminal as it is: a control character
/// (C0 with ESC and BEL, DEL, C1 such as CSI U+009B), or a bidirectional
/// embedding, override or isolate (U+202A..U+202E, U+2066..U+2069).
fn unsafe_to_show(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every control character written out as `\xHH` (`\x1b`,
/// `\x07`, `\x7f`; a tab as `\t`), every C1 control and bidirectional
/// override or isolate as `\u{..}` (`\u{9b}`, `\u{202e}`); everything else,
/// UTF-8 text included, is kept. Borrowed when nothing needs escaping; a
/// backslash is kept as it is, so escaping twice changes nothing.
pub fn escape(text: &str) -> Cow<'_, str> {
    let Some(first) = text.find(unsafe_to_show) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        match c {
            '\t' => out.push_str("\\t"),
            c if !unsafe_to_show(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// `text` escaped ([`escape`]) between double quotes: how a message quotes
/// a name, a command or a line that came from outside, so that what was
/// refused is seen and nothing in it reaches the terminal raw.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", escape(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_and_bell_are_written_out() {
        assert_eq!(escape("\x1b[2Jgone"), "\\x1b[2Jgone");
        assert_eq!(escape("ding\x07"), "ding\\x07");
        assert_eq!(escape("a\x00b\x7f"), "a\\x00b\\x7f");
        assert_eq!(escape("a\tb\rc\n"), "a\\tb\\x0dc\\x0a");
    }

    #[test]
    fn osc_and_csi_sequences_lose_their_escape() {
        // The window title and a clipboard write (OSC 52), ended by BEL or ST.
        assert_eq!(escape("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");
        assert_eq!(
            escape("\x1b]52;c;cHduZWQ=\x1b\\"),
            "\\x1b]52;c;cHduZWQ=\\x1b\\"
        );
        assert_eq!(escape("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
        // CSI as one C1 character, and the C1 string terminator.
        assert_eq!(escape("\u{9b}2J\u{9c}"), "\\u{9b}2J\\u{9c}");
        assert!(!escape("\x1b]52;c;cHduZWQ=\x07").contains(['\x1b', '\x07']));
    }

    #[test]
    fn bidirectional_overrides_and_isolates_are_written_out() {
        assert_eq!(escape("1 \u{202e}tob\u{202c}"), "1 \\u{202e}tob\\u{202c}");
        assert_eq!(
            escape("\u{202a}\u{202b}\u{202d}\u{2066}\u{2067}\u{2068}\u{2069}"),
            "\\u{202a}\\u{202b}\\u{202d}\\u{2066}\\u{2067}\\u{2068}\\u{2069}"
        );
    }

    #[test]
    fn plain_and_utf8_text_is_borrowed_unchanged() {
        for text in [
            "",
            "(7,7)",
            "fake bot 12 starting against ann",
            "Åsa vs 名人: ½ point, emoji 🎉",
            r"a backslash \x1b stays as written",
        ] {
            assert!(
                matches!(escape(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
    }

    #[test]
    fn quoted_text_is_escaped_between_quotes() {
        assert_eq!(quoted("ann"), "\"ann\"");
        assert_eq!(quoted("h\u{43e}nest"), "\"h\u{43e}nest\"");
        assert_eq!(quoted("\x1b]0;t\x07\u{202e}"), r#""\x1b]0;t\x07\u{202e}""#);
    }

    #[test]
    fn escaping_twice_changes_nothing() {
        let once = escape("\x1b]0;t\x07 \u{202e} \u{9b}").into_owned();
        assert!(matches!(escape(&once), Cow::Borrowed(_)));
    }
}
