//! Lines read with a bound: a writer that never ends its line costs its
//! reader at most the bound, and the rest is counted, not kept.

use std::io::{self, Read};

/// Longest line kept from a contestant's standard error; the rest of a
/// longer line is counted and dropped.
pub const MAX_STDERR_LINE: usize = 4096;

/// Cuts bytes, as they arrive, into lines of at most `max` bytes (the rest
/// of a longer line is counted, not kept).
#[derive(Debug)]
pub struct Cutter {
    max: usize,
    kept: Vec<u8>,
    cut: u64,
}

impl Cutter {
    /// A cutter keeping at most `max` bytes of a line.
    pub fn new(max: usize) -> Cutter {
        Cutter {
            max,
            kept: Vec::with_capacity(max.min(1024)),
            cut: 0,
        }
    }

    /// Takes `bytes`; calls `line` with each line they complete (lossily
    /// decoded, without its newline) and how many bytes of it were cut.
    pub fn feed(&mut self, mut bytes: &[u8], line: &mut impl FnMut(&str, u64)) {
        while !bytes.is_empty() {
            let end = bytes.iter().position(|&b| b == b'\n');
            let piece = &bytes[..end.unwrap_or(bytes.len())];
            let room = self.max.saturating_sub(self.kept.len());
            self.kept.extend_from_slice(&piece[..piece.len().min(room)]);
            self.cut += piece.len().saturating_sub(room) as u64;
            match end {
                Some(i) => {
                    line(&String::from_utf8_lossy(&self.kept), self.cut);
                    self.kept.clear();
                    self.cut = 0;
                    bytes = &bytes[i + 1..];
                }
                None => bytes = &[],
            }
        }
    }

    /// The input ended: a last line without a newline still counts.
    pub fn finish(&mut self, line: &mut impl FnMut(&str, u64)) {
        if !self.kept.is_empty() || self.cut > 0 {
            line(&String::from_utf8_lossy(&self.kept), self.cut);
            self.kept.clear();
            self.cut = 0;
        }
    }
}

/// The standard error one contestant may show in one game: lines are shown
/// until their bytes reach the budget, the rest is counted and dropped, so
/// a bot that floods its standard error costs the judge and the terminal
/// no more than the budget.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    left: u64,
    limit: u64,
    dropped: u64,
}

impl Budget {
    /// A budget of `limit` bytes.
    pub fn new(limit: u64) -> Budget {
        Budget {
            left: limit,
            limit,
            dropped: 0,
        }
    }

    /// Whether a line of `len` bytes (and `cut` more already cut from it)
    /// may still be shown; if not, its bytes are counted as dropped.
    pub fn allows(&mut self, len: usize, cut: u64) -> bool {
        let size = len as u64 + cut + 1;
        if size <= self.left {
            self.left -= size;
            true
        } else {
            self.left = 0;
            self.dropped += size;
            false
        }
    }

    /// The line that says how much was dropped, if anything was.
    pub fn dropped_note(&self) -> Option<String> {
        (self.dropped > 0).then(|| {
            format!(
                "[{} bytes of standard error dropped: over the {} a game]",
                self.dropped,
                crate::limits::format_size(self.limit)
            )
        })
    }
}

/// Calls `line` with each line of `reader` (without its newline, at most
/// `max` bytes of it, lossily decoded) and how many bytes of it were cut.
/// A last line without a newline counts as a line. Ends at end of input or
/// on a read error; memory stays within `max` plus one read.
pub fn each_line(mut reader: impl Read, max: usize, mut line: impl FnMut(&str, u64)) {
    let mut chunk = [0u8; 8192];
    let mut cutter = Cutter::new(max);
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => cutter.feed(&chunk[..n], &mut line),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    cutter.finish(&mut line);
}

/// A line as shown to people: the kept text, and how much was cut from it.
pub fn shown(text: &str, cut: u64) -> String {
    if cut == 0 {
        text.to_string()
    } else {
        format!("{text} [... {cut} more bytes cut]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8], max: usize) -> Vec<(String, u64)> {
        let mut lines = Vec::new();
        each_line(input, max, |l, cut| lines.push((l.to_string(), cut)));
        lines
    }

    #[test]
    fn long_lines_are_cut_and_counted() {
        assert_eq!(
            collect(b"short\nlonger line\nend", 6),
            [("short".into(), 0), ("longer".into(), 5), ("end".into(), 0)]
        );
        assert!(collect(b"", 6).is_empty());
        assert_eq!(collect(b"\n", 6), [(String::new(), 0)]);
    }

    #[test]
    fn an_endless_line_costs_only_the_bound() {
        // 64 MiB without a newline, produced lazily: the reader keeps 16 bytes.
        let endless = io::repeat(b'x').take(1 << 26);
        let mut lines = Vec::new();
        each_line(endless, 16, |l, cut| lines.push((l.len(), cut)));
        assert_eq!(lines, [(16, (1 << 26) - 16)]);
        assert_eq!(shown("abc", 7), "abc [... 7 more bytes cut]");
    }

    #[test]
    fn a_budget_shows_lines_until_it_is_spent_and_counts_the_rest() {
        let mut budget = Budget::new(10);
        assert!(budget.allows(4, 0));
        assert!(budget.allows(4, 0));
        assert_eq!(budget.dropped_note(), None);
        assert!(!budget.allows(4, 0));
        assert!(!budget.allows(1, 0), "nothing more once spent");
        assert!(!budget.allows(100, 900));
        let note = budget.dropped_note().unwrap();
        assert!(note.starts_with("[1008 bytes"), "{note}");
    }
}
