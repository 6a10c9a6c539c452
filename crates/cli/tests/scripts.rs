//! The measuring scripts that have no external program in their way:
//! `scripts/sgf-score.sh`, which counts a c-gomoku-cli match from its SGF,
//! `inarow selfplay score`, which scores it by pairs, and the refusals of
//! `scripts/gate.sh`, the gate against Rapfi that plays through it.

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

#[test]
fn selfplay_score_counts_the_games_as_the_script_and_only_whole_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("games.sgf");
    std::fs::write(&sgf, MATCH).unwrap();
    let sgf = sgf.to_string_lossy().into_owned();
    // Pair 0 (games 1, 2) is a loss and a win; pair 1 has a void game;
    // pair 2 has no second game.
    let out = common::inarow(&["selfplay", "score", &sgf], "");
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_eq!(
        common::stdout(&out),
        "inarow: +1 =1 -2 over 4 games, score 37.5%; 1 void\n\
         by pair (points 0/0.5/1/1.5/2): 0 0 1 0 0  won 0 split 1 lost 0  \
         no Elo yet: 0 of 1 pair went to one side, and an interval needs at least 2 \
         (a pair that gives each side one point says nothing of which is stronger); 2 pairs left out\n"
    );
    let by_set = common::inarow(
        &["selfplay", "score", &sgf, "--name", "rapfi", "--sets", "2"],
        "",
    );
    let said = common::stdout(&by_set);
    assert!(
        said.starts_with("rapfi: +2 =1 -1 over 4 games, score 62.5%; 1 void\n"),
        "{said}"
    );
    assert!(
        said.contains("\nset 1 of 2 (pairs k with k mod 2 = 0):\n  rapfi: +1 =1 -1 over 3 games"),
        "{said}"
    );
    assert!(
        said.contains("\nset 2 of 2 (pairs k with k mod 2 = 1):\n  rapfi: +1 =0 -0 over 1 game,"),
        "{said}"
    );
}

#[test]
fn selfplay_score_refuses_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("games.sgf");
    std::fs::write(&sgf, MATCH).unwrap();
    let sgf = sgf.to_string_lossy().into_owned();
    let nobody = common::inarow(&["selfplay", "score", &sgf, "--name", "yixin"], "");
    assert_eq!(nobody.status.code(), Some(1));
    assert_eq!(
        common::stderr(&nobody),
        format!(
            "inarow: {sgf} is not a match to score: game GN[1] is rapfi against inarow: \"yixin\" plays neither side\n"
        )
    );
    std::fs::write(dir.path().join("cut.sgf"), &MATCH[..100]).unwrap();
    let cut = dir.path().join("cut.sgf").to_string_lossy().into_owned();
    let out = common::inarow(&["selfplay", "score", &cut], "");
    assert_eq!(
        common::stderr(&out),
        format!(
            "inarow: {cut} is not a match to score: the SGF ends inside game 1 (an unclosed '(' or '[')\n"
        )
    );
    let missing = common::inarow(&["selfplay", "score", "/no/such.sgf"], "");
    let said = common::stderr(&missing);
    assert!(
        said.starts_with("inarow: cannot read the SGF file /no/such.sgf: ")
            && said.lines().count() == 1,
        "{said}"
    );
}

#[test]
fn gate_refuses_what_it_cannot_play_in_one_line_before_building() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gate");
    let out = out.to_string_lossy();
    let gate = script("gate.sh");
    for (args, said) in [
        (
            vec!["/no/such/cli", "/bin/true", &*out],
            "gate: /no/such/cli is not an executable file\n",
        ),
        (
            vec!["/bin/true", "/bin/true", &*out, "", "many"],
            "gate: PAIRS must be a whole number of at least 2, not 'many'\n",
        ),
        (
            vec!["/bin/true", "/bin/true", &*out, "", "200", "0"],
            "gate: MS must be a whole number of milliseconds, not '0'\n",
        ),
        (
            vec!["/bin/true", "/bin/true", &*out, "", "200", "200", "go"],
            "gate: RULE must be freestyle or renju, not 'go'\n",
        ),
    ] {
        let run = common::run(&gate, &args, "");
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert_eq!(common::stderr(&run), said, "{args:?}");
    }
    // A node budget (the screen that load cannot change) must be a count.
    for nodes in ["lots", "0"] {
        let set = format!("GATE_NODES={nodes}");
        let run = common::run("env", &[&set, &gate, "/bin/true", "/bin/true", &out], "");
        assert_eq!(run.status.code(), Some(2), "{nodes}");
        assert_eq!(
            common::stderr(&run),
            format!("gate: GATE_NODES must be a whole number of nodes, not '{nodes}'\n")
        );
    }
    std::fs::create_dir(&*out).unwrap();
    let there = common::run(&gate, &["/bin/true", "/bin/true", &out], "");
    assert_eq!(
        common::stderr(&there),
        format!("gate: {out} already exists (a gate writes a new folder)\n")
    );
}
