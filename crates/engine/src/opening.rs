//! The Swap2 opening, decided by search.
//!
//! * The opener places two black stones and one white stone that leave the
//!   position as balanced as the search can tell: a few seeded candidate
//!   shapes near the centre are searched and the one scoring closest to
//!   zero is kept.
//! * The answerer (three stones on the board, white to move) weighs its
//!   three answers: play black (worth minus the white side's score), place
//!   the best white stone and play white (worth the white side's score), or
//!   place one more stone of each colour and let the opener choose (worth
//!   minus the absolute score of that position, since the opener takes the
//!   better side). Ties go to the simpler answer.
//! * The chooser (five stones, white to move) takes the colour the search
//!   prefers.
//!
//! Every search runs under the board's rule (the opener's under the rule it
//! is given), so exact five judges shapes by exact-five threats.

use inarow_core::swap2::Swap;
use inarow_core::{Player, Point, Rule};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::board::Board;
use crate::pos::Pos;
use crate::search::{Found, Request, Searcher};

/// Number of candidate opening shapes searched by the opener.
const OPENING_CANDIDATES: usize = 8;

/// The three opening stones `[black, black, white]` on an empty board of
/// side `size` under `rule`, chosen within `limits` using `rng`.
pub fn open(
    size: usize,
    rule: Rule,
    searcher: &mut Searcher,
    rng: &mut ChaCha8Rng,
    request: &mut Request,
) -> [Point; 3] {
    let c = size as i64 / 2;
    let reach = (size as i64 / 2).min(2);
    let mut best: Option<([(usize, usize); 3], i32)> = None;
    for _ in 0..OPENING_CANDIDATES {
        let mut stones: Vec<(usize, usize)> = vec![(c as usize, c as usize)];
        while stones.len() < 3 {
            let x = (c + rng.random_range(-reach..=reach)) as usize;
            let y = (c + rng.random_range(-reach..=reach)) as usize;
            if !stones.contains(&(x, y)) {
                stones.push((x, y));
            }
        }
        let shape = [stones[0], stones[1], stones[2]];
        let mut b = Board::with_rule(size, rule).expect("supported size");
        for (k, &(x, y)) in shape.iter().enumerate() {
            b.place(Pos::at(x, y), if k < 2 { Player::X } else { Player::O })
                .expect("distinct points");
        }
        b.set_to_move(Player::O);
        let found = request.shared(OPENING_CANDIDATES as u32, |r| searcher.search(&mut b, r));
        let balance = found.score.abs();
        if best.is_none_or(|(_, s)| balance < s) {
            best = Some((shape, balance));
        }
    }
    best.expect("at least one candidate")
        .0
        .map(|(x, y)| Point::at(x, y, size))
}

/// The answer to the opener's three stones (two black, one white, white to
/// move on `b`), within `request`'s limits.
pub fn answer(b: &mut Board, searcher: &mut Searcher, request: &mut Request) -> Swap {
    let (as_white, reply) = request.shared(2, |r| {
        let as_white: Found = searcher.search(b, r);
        b.play_unchecked(as_white.best);
        let reply = searcher.search(b, r);
        b.undo();
        (as_white, reply)
    });
    let white_value = as_white.score;
    let w = as_white.best;
    // After both stones white is to move again; the opener picks the better side.
    let place_value = -reply.score.abs();
    let options = [
        (-white_value, Swap::Black),
        (white_value, Swap::White(b.point(w))),
        (
            place_value,
            Swap::Place {
                black: b.point(reply.best),
                white: b.point(w),
            },
        ),
    ];
    options
        .iter()
        .fold(options[0], |acc, &o| if o.0 > acc.0 { o } else { acc })
        .1
}

/// The colour to play after the answerer placed two more stones (white to
/// move on `b`), and the search that decided it.
pub fn choose(b: &mut Board, searcher: &mut Searcher, request: &mut Request) -> (Player, Found) {
    let found = searcher.search(b, request);
    let colour = if found.score >= 0 {
        b.to_move()
    } else {
        b.to_move().opponent()
    };
    (colour, found)
}
