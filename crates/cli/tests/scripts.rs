//! The measuring scripts that have no external program in their way:
//! `scripts/sgf-score.sh`, which counts a c-gomoku-cli match from its SGF.

use crate::common;

use std::path::PathBuf;

fn script(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "scripts", name]
        .iter()
        .collect();
    path.to_string_lossy().into_owned()
}

/// A c-gomoku-cli SGF file of five games as it writes them: a win for
/// each side, a draw, a game voided before any move (Rapfi dropped the
/// START) and a real loss on time in the middle of a game.
const MATCH: &str = "\
(;FF[4]GM[4]GN[1]EV[rapfi x inarow]RO[1.1]RU[0]SZ[15]PB[rapfi]PW[inarow]RE[B+1]TE[Black win by five connection]
;B[hh]C[opening move];W[hf]C[opening move];B[gk]C[opening move]
;W[gg]C[205ms];B[hk]C[172ms];W[hg]C[183ms];B[ik]C[171ms];W[jk]C[181ms];B[fk]C[172ms];W[hi]C[180ms];B[ek]C[1ms])
(;FF[4]GM[4]GN[2]EV[inarow x rapfi]RO[1.2]RU[0]SZ[15]PB[inarow]PW[rapfi]RE[B+1]TE[Black win by five connection]
;B[hh]C[opening move];W[hf]C[opening move];B[gk]C[opening move]
;W[gg]C[170ms];B[hk]C[181ms];W[hg]C[171ms];B[ik]C[180ms];W[hi]C[172ms];B[jk]C[181ms];W[gf]C[2ms];B[fk]C[0ms];W[ie]C[3ms];B[ek]C[0ms])
(;FF[4]GM[4]GN[3]EV[rapfi x inarow]RO[1.3]RU[0]SZ[15]PB[rapfi]PW[inarow]RE[B+1]TE[Black win by time forfeit]
;B[hh]C[opening move];W[hi]C[opening move];B[gf]C[opening move])
(;FF[4]GM[4]GN[4]EV[inarow x rapfi]RO[1.4]RU[0]SZ[15]PB[inarow]PW[rapfi]RE[W+1]TE[White win by time forfeit]
;B[hh]C[opening move];W[hi]C[opening move];B[gf]C[opening move]
;W[gg]C[170ms];B[ii]C[3400ms])
(;FF[4]GM[4]GN[5]EV[rapfi x inarow]RO[1.5]RU[0]SZ[15]PB[rapfi]PW[inarow]RE[0]TE[Draw by adjudication]
;B[hh]C[opening move];W[hi]C[opening move];B[gf]C[opening move]
;W[gg]C[170ms];B[ii]C[172ms])
";

#[test]
fn sgf_score_leaves_out_void_games_only() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("games.sgf");
    std::fs::write(&sgf, MATCH).unwrap();
    let sgf = sgf.to_string_lossy().into_owned();
    let ours = common::run(&script("sgf-score.sh"), &[&sgf], "");
    assert!(ours.status.success(), "{}", common::stderr(&ours));
    assert_eq!(
        common::stdout(&ours),
        "inarow: 1 won, 1 drawn, 2 lost over 4 games (37.5%); 1 void\n"
    );
    let theirs = common::run(&script("sgf-score.sh"), &[&sgf, "rapfi"], "");
    assert_eq!(
        common::stdout(&theirs),
        "rapfi: 2 won, 1 drawn, 1 lost over 4 games (62.5%); 1 void\n"
    );
}

#[test]
fn sgf_score_refuses_a_missing_file_in_one_line() {
    let out = common::run(&script("sgf-score.sh"), &["/no/such/games.sgf"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        common::stderr(&out),
        "sgf-score: cannot read /no/such/games.sgf\n"
    );
}
