//! Renju's forbidden points written from the rule alone, by windows of the
//! line, slow and plain: the definition the core's check is tested
//! against. Not the core's method (runs and completion points): fours are
//! counted as distinct sets of four stones, threes as the straight-four
//! windows a stone can make.

use inarow_core::Player;

/// Cells of a board, row by row, with its size.
#[derive(Clone)]
pub struct Cells {
    /// What each point holds.
    pub cells: Vec<Option<Player>>,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
}

const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl Cells {
    fn at(&self, r: isize, c: isize) -> Option<Option<Player>> {
        (r >= 0 && c >= 0 && r < self.rows as isize && c < self.cols as isize)
            .then(|| self.cells[r as usize * self.cols + c as usize])
    }

    fn black(&self, r: isize, c: isize) -> bool {
        self.at(r, c) == Some(Some(Player::X))
    }

    fn empty(&self, r: isize, c: isize) -> bool {
        self.at(r, c) == Some(None)
    }

    fn set(&mut self, r: isize, c: isize, v: Option<Player>) {
        self.cells[r as usize * self.cols + c as usize] = v;
    }

    /// The longest black run through (r, c) along d, counting (r, c).
    fn run(&self, r: isize, c: isize, (dr, dc): (isize, isize)) -> usize {
        let mut start = 0;
        while self.black(r - (start + 1) * dr, c - (start + 1) * dc) {
            start += 1;
        }
        let mut end = 0;
        while self.black(r + (end + 1) * dr, c + (end + 1) * dc) {
            end += 1;
        }
        (start + end + 1) as usize
    }

    /// Whether a black stone on (r, c) makes exactly five somewhere.
    pub fn five(&self, r: isize, c: isize) -> bool {
        DIRECTIONS.iter().any(|&d| self.run(r, c, d) == 5)
    }

    /// Fours through black (r, c) along d: five-point windows holding it
    /// with four black and one empty whose filling makes exactly five,
    /// counted by their four stones (a straight four's two windows hold
    /// the same four).
    fn fours(&mut self, r: isize, c: isize, (dr, dc): (isize, isize)) -> usize {
        let mut sets: Vec<Vec<isize>> = Vec::new();
        for start in -4..=0 {
            let cells: Vec<isize> = (start..start + 5).collect();
            let empties: Vec<isize> = cells
                .iter()
                .copied()
                .filter(|&s| self.empty(r + s * dr, c + s * dc))
                .collect();
            let blacks: Vec<isize> = cells
                .iter()
                .copied()
                .filter(|&s| self.black(r + s * dr, c + s * dc))
                .collect();
            if blacks.len() != 4 || empties.len() != 1 {
                continue;
            }
            let e = empties[0];
            self.set(r + e * dr, c + e * dc, Some(Player::X));
            let exact = self.run(r, c, (dr, dc)) == 5;
            self.set(r + e * dr, c + e * dc, None);
            if exact && !sets.contains(&blacks) {
                sets.push(blacks);
            }
        }
        sets.len()
    }

    /// Whether black (r, c) is in a three along d: some empty point of the
    /// line, black there, leaves a straight four `.XXXX.` holding (r, c)
    /// and that point, each end making exactly five, and that point is
    /// itself neither a five nor forbidden.
    fn three(&mut self, r: isize, c: isize, (dr, dc): (isize, isize)) -> bool {
        for q in -4isize..=4 {
            let (qr, qc) = (r + q * dr, c + q * dc);
            if q == 0 || !self.empty(qr, qc) || self.five(qr, qc) {
                continue;
            }
            self.set(qr, qc, Some(Player::X));
            let mut straight = false;
            // The four stones are s..s+4; the ends s-1 and s+4.
            for s in -3isize..=0 {
                let holds = (s..s + 4).contains(&0) && (s..s + 4).contains(&q);
                if !holds || !(s..s + 4).all(|t| self.black(r + t * dr, c + t * dc)) {
                    continue;
                }
                let ends = [s - 1, s + 4];
                if ends.iter().all(|&e| {
                    self.empty(r + e * dr, c + e * dc) && {
                        self.set(r + e * dr, c + e * dc, Some(Player::X));
                        let five = self.run(r, c, (dr, dc)) == 5;
                        self.set(r + e * dr, c + e * dc, None);
                        five
                    }
                }) {
                    straight = true;
                }
            }
            self.set(qr, qc, None);
            if straight && self.forbidden(qr, qc).is_none() {
                return true;
            }
        }
        false
    }

    /// Why a black stone on empty (r, c) is forbidden: "overline",
    /// "double four" or "double three"; `None` if it is not (or makes five).
    pub fn forbidden(&mut self, r: isize, c: isize) -> Option<&'static str> {
        if !self.empty(r, c) || self.five(r, c) {
            return None;
        }
        if DIRECTIONS.iter().any(|&d| self.run(r, c, d) >= 6) {
            return Some("overline");
        }
        self.set(r, c, Some(Player::X));
        let fours: Vec<usize> = DIRECTIONS.iter().map(|&d| self.fours(r, c, d)).collect();
        let why = if fours.iter().sum::<usize>() >= 2 {
            Some("double four")
        } else {
            let threes = (0..4)
                .filter(|&k| fours[k] == 0 && self.three(r, c, DIRECTIONS[k]))
                .count();
            (threes >= 2).then_some("double three")
        };
        self.set(r, c, None);
        why
    }
}
