//! The answer parser takes any bytes a bot may send: it never panics, and
//! whatever it accepts names points on the board that read back the same.
#![no_main]

use inarow_core::Point;
use inarow_core::swap2::Swap;
use inarow_protocol::koth;
use libfuzzer_sys::fuzz_target;

fn check(p: Point) {
    assert!(p.index() < 15 * 15);
    assert_eq!(koth::parse_move(&koth::format_point(p)), Ok(p));
}

fuzz_target!(|data: &[u8]| {
    let answer = String::from_utf8_lossy(data);
    if let Ok(points) = koth::parse_opening(&answer) {
        points.into_iter().for_each(check);
    }
    match koth::parse_swap(&answer) {
        Ok(Swap::White(p)) => check(p),
        Ok(Swap::Place { black, white }) => {
            check(black);
            check(white);
        }
        _ => {}
    }
    let _ = koth::parse_colour(&answer);
    if let Ok(p) = koth::parse_move(&answer) {
        check(p);
    }
    if let Ok(stones) = koth::parse_board(&answer) {
        stones.into_iter().for_each(|(p, _)| check(p));
    }
});
