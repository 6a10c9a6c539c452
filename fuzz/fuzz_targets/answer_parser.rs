//! The answer parser takes any bytes a bot may send: it never panics, and
//! whatever it accepts names points on the board that read back the same.
#![no_main]

use inarow_judge::protocol::{self, Swap, Xy};
use libfuzzer_sys::fuzz_target;

fn check(xy: Xy) {
    assert!(xy.x < 15 && xy.y < 15);
    assert_eq!(protocol::parse_move(&xy.to_string()), Ok(xy));
}

fuzz_target!(|data: &[u8]| {
    let answer = String::from_utf8_lossy(data);
    if let Ok(points) = protocol::parse_opening(&answer) {
        points.into_iter().for_each(check);
    }
    match protocol::parse_swap(&answer) {
        Ok(Swap::White(p)) => check(p),
        Ok(Swap::Choose(b, w)) => {
            check(b);
            check(w);
        }
        _ => {}
    }
    let _ = protocol::parse_colour(&answer);
    if let Ok(p) = protocol::parse_move(&answer) {
        check(p);
    }
    if let Ok(stones) = protocol::parse_board(&answer) {
        stones.into_iter().for_each(|(p, _)| check(p));
    }
});
