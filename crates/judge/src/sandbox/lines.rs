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
}
