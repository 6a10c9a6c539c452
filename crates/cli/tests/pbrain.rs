//! Scripted sessions of the Gomocup brain protocol through both front ends
//! (`inarow pbrain` and `pbrain-inarow`): every command, and bad input
//! answered by one `ERROR` line without stopping the brain.

use crate::common;

/// Runs a brain binary on `input` and returns its exit success and output lines.
fn session_with(program: &str, args: &[&str], input: &str) -> (bool, Vec<String>) {
    let out = common::run(program, args, input);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.success(),
        text.lines().map(str::to_string).collect(),
    )
}

/// Runs `pbrain-inarow --quiet` (no MESSAGE lines). Inputs whose last
/// command thinks end without `END`: the brain reads ahead, and an `END`
/// stops every think before it at once; the end of input stops nothing.
fn session(input: &str) -> Vec<String> {
    let (ok, lines) = session_with(env!("CARGO_BIN_EXE_pbrain-inarow"), &["--quiet"], input);
    assert!(ok, "the brain exits cleanly");
    lines
}

fn xy(line: &str) -> (usize, usize) {
    let (x, y) = line
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {line:?}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

const FAST: &str = "INFO timeout_turn 150\nINFO timeout_match 100000\nINFO time_left 90000\n";

#[test]
fn a_game_with_every_ordinary_command() {
    let input = format!(
        "ABOUT\nSTART 15\n{FAST}INFO max_memory 83886080\nINFO game_type 1\nINFO rule 0\n\
         INFO folder /tmp\nINFO evaluate 3,4\nBEGIN\nTURN 8,8\nTAKEBACK 8,8\nRESTART\nBEGIN\nEND\n"
    );
    let lines = session(&input);
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert!(
        lines[0].starts_with("name=\"inarow\", version=\""),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "OK");
    assert_eq!(lines[2], "7,7", "an empty board opens in the centre");
    let reply = xy(&lines[3]);
    assert!(reply != (7, 7) && reply != (8, 8) && reply.0 < 15 && reply.1 < 15);
    assert_eq!(lines[4], "OK", "TAKEBACK");
    assert_eq!(lines[5], "OK", "RESTART");
    assert_eq!(lines[6], "7,7", "RESTART cleared the board");
}

#[test]
fn both_front_ends_speak_the_same_protocol() {
    let input = format!(
        "START 15\n{FAST}BOARD\n7,7,1\n8,7,1\n9,7,1\n10,7,1\n7,8,2\n8,8,2\n9,8,2\n10,8,2\nDONE\n"
    );
    let (ok, sub) = session_with(env!("CARGO_BIN_EXE_inarow"), &["pbrain"], &input);
    assert!(ok);
    let (ok, bin) = session_with(env!("CARGO_BIN_EXE_pbrain-inarow"), &[], &input);
    assert!(ok);
    assert_eq!(sub, bin);
    // Without --quiet the info line for people comes first: the five
    // is a win in 1, named in gomoku notation.
    assert!(sub[1].starts_with("MESSAGE depth "), "{sub:?}");
    assert!(sub[1].contains(" score +M1 (win in 1"), "{sub:?}");
    assert!(
        sub[1].ends_with(" pv g8") || sub[1].ends_with(" pv l8"),
        "{sub:?}"
    );
    assert!(
        ["6,7", "11,7"].contains(&sub[2].as_str()),
        "completes the five: {sub:?}"
    );
}

#[test]
fn board_makes_the_brain_win_or_block() {
    // Own four: complete it.
    let win = session(&format!(
        "START 15\n{FAST}BOARD\n3,3,1\n3,4,1\n3,5,1\n3,6,1\n9,9,2\n9,10,2\n10,9,2\nDONE\n"
    ));
    assert!(["3,2", "3,7"].contains(&win[1].as_str()), "{win:?}");
    // The opponent's four (field 2): block it. Field 3 marks a point out of play.
    let block = session(&format!(
        "START 15\n{FAST}BOARD\n5,5,2\n6,6,2\n7,7,2\n8,8,2\n4,4,1\n0,14,1\n14,0,3\nDONE\n"
    ));
    assert_eq!(block[1], "9,9", "{block:?}");
    // The same on a 20x20 board, the Gomocup tournament size.
    let big = session(&format!(
        "START 20\n{FAST}BOARD\n15,15,2\n16,16,2\n17,17,2\n18,18,2\n14,14,1\n0,0,1\nDONE\n"
    ));
    assert_eq!(big, vec!["OK", "19,19"]);
}

/// Reads an answer of `SWAP2BOARD`: `SWAP`, or points `x,y` separated by
/// one space, each free (not in `taken`) and named once.
fn swap2_answer(line: &str, taken: &[(usize, usize)]) -> Option<Vec<(usize, usize)>> {
    if line == "SWAP" {
        return None;
    }
    let points: Vec<(usize, usize)> = line.split(' ').map(xy).collect();
    for (k, p) in points.iter().enumerate() {
        assert!(p.0 < 15 && p.1 < 15, "on the board: {line}");
        assert!(
            !taken.contains(p) && !points[..k].contains(p),
            "free: {line}"
        );
    }
    Some(points)
}

/// The Swap2 opening as the Gomocup documentation has it (its 2020
/// experimental tournament): `SWAP2BOARD` with no stones asks for the first
/// three (black, white, black); with three, for `SWAP` (take black), the
/// fourth stone (stay white) or the fourth and fifth (white, black: the
/// opponent chooses); with five, for `SWAP` (take black) or the sixth
/// stone (stay white). The brain's own opening goes back to it, phase by
/// phase.
#[test]
fn swap2board_every_phase_as_gomocup_documents_it() {
    let open = session(&format!("START 15\n{FAST}INFO rule 1\nSWAP2BOARD\nDONE\n"));
    assert_eq!(open.len(), 2, "{open:?}");
    let three = swap2_answer(&open[1], &[]).expect("three stones, not SWAP");
    assert_eq!(three.len(), 3, "{open:?}");
    let block = |stones: &[(usize, usize)]| {
        let mut b = "SWAP2BOARD\n".to_string();
        for (x, y) in stones {
            b.push_str(&format!("{x},{y}\n"));
        }
        b + "DONE\n"
    };
    let answer = session(&format!("START 15\n{FAST}INFO rule 1\n{}", block(&three)));
    assert_eq!(answer.len(), 2, "{answer:?}");
    let five = match swap2_answer(&answer[1], &three) {
        // Took black, or stays white with the fourth stone.
        None => None,
        Some(p) if p.len() == 1 => None,
        Some(p) => {
            assert_eq!(p.len(), 2, "the fourth and fifth stones: {answer:?}");
            Some([three.clone(), p].concat())
        }
    };
    // Five stones: the brain's own when it placed two, a fixed five if not.
    let five = five.unwrap_or_else(|| vec![(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)]);
    let colour = session(&format!("START 15\n{FAST}INFO rule 1\n{}", block(&five)));
    assert_eq!(colour.len(), 2, "{colour:?}");
    if let Some(sixth) = swap2_answer(&colour[1], &five) {
        assert_eq!(sixth.len(), 1, "the sixth stone: {colour:?}");
    }
}

#[test]
fn swap2board_refusals_get_one_error_line_and_the_brain_goes_on() {
    let script = [
        ("SWAP2BOARD\nDONE", "ERROR no board yet: send START first"),
        ("START 15", "OK"),
        (
            "SWAP2BOARD\n7,7\nDONE",
            "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got 1",
        ),
        (
            "SWAP2BOARD\n7,7\n8,8\nDONE",
            "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got 2",
        ),
        (
            "SWAP2BOARD\n7,7\n8,8\n9,9\n6,6\nDONE",
            "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got 4",
        ),
        (
            "SWAP2BOARD\n1,1\n2,2\n3,3\n4,4\n5,5\n6,6\nDONE",
            "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got 6",
        ),
        (
            "SWAP2BOARD\n7,7\n8,8\n7,7\nDONE",
            "ERROR SWAP2BOARD: point 7,7 is already taken",
        ),
        (
            "SWAP2BOARD\n7,7\n15,3\n9,9\nDONE",
            "ERROR SWAP2BOARD: point 15,3 is off the board",
        ),
        (
            "SWAP2BOARD\n7,7\n7;8\n9,9\nDONE",
            "ERROR SWAP2BOARD: expected x,y but got \"7;8\"",
        ),
        (
            "SWAP2BOARD\n7,7,1\n8,8,2\n9,9,1\nDONE",
            "ERROR SWAP2BOARD: expected x,y but got \"7,7,1\"",
        ),
        ("ABOUT", "name=\"inarow\""),
        ("SWAP2BOARD\n7,7", "ERROR SWAP2BOARD ended without DONE"),
    ];
    let input: String = script.iter().map(|(c, _)| format!("{c}\n")).collect();
    let lines = session(&input);
    assert_eq!(lines.len(), script.len(), "{lines:#?}");
    for ((command, want), got) in script.iter().zip(&lines) {
        assert!(
            got.starts_with(want),
            "{command:?}: wanted {want:?}, got {got:?}"
        );
    }
}

/// A `BOARD` where the brain (field 1) has XXX.XX on row 7, filling the gap
/// makes five or more (a freestyle win) but six (nothing under exact five),
/// and the opponent's four on row 9 completes at 7,9 under both rules.
const OVERLINE_OR_BLOCK: &str = "BOARD\n3,7,1\n4,7,1\n5,7,1\n7,7,1\n8,7,1\n2,9,1\n\
                                 3,9,2\n4,9,2\n5,9,2\n6,9,2\n0,14,2\n14,0,2\nDONE\n";

#[test]
fn info_rule_sets_exact_five_for_this_game_and_the_next() {
    let play = |rules: &str| session(&format!("{rules}{OVERLINE_OR_BLOCK}"));
    let win = "6,7";
    let block = "7,9";
    assert_eq!(play(&format!("START 15\n{FAST}")), ["OK", win]);
    assert_eq!(play(&format!("START 15\n{FAST}INFO rule 0\n")), ["OK", win]);
    assert_eq!(
        play(&format!("START 15\n{FAST}INFO rule 1\n")),
        ["OK", block]
    );
    // Bit 2 (continuous game) changes nothing, but 2 alone is Yixin-board's
    // renju, where the six is forbidden to the brain (black: its stone
    // comes first).
    assert_eq!(
        play(&format!("START 15\n{FAST}INFO rule 3\n")),
        ["OK", block]
    );
    assert_eq!(
        play(&format!("START 15\n{FAST}INFO rule 2\n")),
        ["OK", block]
    );
    assert_eq!(
        session(
            "START 15\nINFO rule 2\nYXBOARD\n7,5,1\n0,0,2\n7,6,1\n1,0,2\n5,7,1\n3,0,2\n6,7,1\n5,0,2\nDONE\nYXSHOWFORBID\n"
        ),
        ["OK", "FORBID 0707."]
    );
    // Sent before START, and kept by RESTART.
    assert_eq!(
        play(&format!("{FAST}INFO rule 1\nSTART 15\n")),
        ["OK", block]
    );
    assert_eq!(
        play(&format!(
            "START 15\n{FAST}INFO rule 1\n{OVERLINE_OR_BLOCK}RESTART\n"
        )),
        ["OK", block, "OK", block]
    );
    // Back to freestyle; renju, where the brain is black (its stone comes
    // first) and six is forbidden to it; caro (8): one error line, then
    // the rule of the lower bits.
    assert_eq!(
        play(&format!("START 15\n{FAST}INFO rule 1\nINFO rule 0\n")),
        ["OK", win]
    );
    for renju in [4, 5] {
        assert_eq!(
            play(&format!("START 15\n{FAST}INFO rule {renju}\n")),
            ["OK", block]
        );
    }
    for (caro, playing, answer) in [(8, "freestyle", win), (9, "exact five", block)] {
        let lines = play(&format!("START 15\n{FAST}INFO rule {caro}\n"));
        assert_eq!(
            lines,
            [
                "OK".to_string(),
                format!(
                    "ERROR rule {caro} is not supported (only freestyle 0, exact five 1 and renju 4): playing {playing}"
                ),
                answer.to_string()
            ]
        );
    }
    // A rule changed in mid-game applies to the stones already there: the
    // brain (field 1) has six in a row, a finished game in freestyle only.
    let six = "BOARD\n2,7,1\n3,7,1\n4,7,1\n5,7,1\n6,7,1\n7,7,1\n2,9,2\nDONE\n";
    let lines = session(&format!(
        "START 15\n{FAST}INFO rule 1\n{six}INFO rule 0\nTURN 0,0\nINFO rule 1\nTURN 0,1\n"
    ));
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], "OK");
    let answer = xy(&lines[1]);
    assert!(answer.0 < 15 && answer.1 < 15, "{lines:?}");
    assert_eq!(lines[2], "ERROR the game is already over");
    let answer = xy(&lines[3]);
    assert!(answer.0 < 15 && answer.1 < 15, "{lines:?}");
}

/// Renju's colours come from the order of the stones: the brain is white
/// when the opponent's stone comes first, and white's six wins.
#[test]
fn under_renju_the_brain_plays_the_colour_its_stones_are() {
    let white = "BOARD\n0,14,2\n3,7,1\n3,9,2\n4,7,1\n4,9,2\n5,7,1\n5,9,2\n7,7,1\n6,9,2\n\
                 8,7,1\n14,0,2\n2,9,1\n14,14,2\nDONE\n";
    let lines = session(&format!("START 15\n{FAST}INFO rule 4\n{white}"));
    assert_eq!(lines, ["OK", "6,7"]);
    // Black's double four at 7,7 wins under exact five and is forbidden
    // under renju.
    let double_four = "BOARD\n7,4,1\n7,3,2\n7,5,1\n3,7,2\n7,6,1\n7,9,2\n4,7,1\n9,7,2\n\
                       5,7,1\n0,14,2\n6,7,1\n14,14,2\nDONE\n";
    let exact = session(&format!("START 15\n{FAST}INFO rule 1\n{double_four}"));
    assert_eq!(exact, ["OK", "7,7"]);
    let renju = session(&format!("START 15\n{FAST}INFO rule 4\n{double_four}"));
    assert_eq!(renju.len(), 2, "{renju:?}");
    assert_ne!(renju[1], "7,7");
}

/// `YXBOARD` sets a position without an answer; `YXSHOWFORBID` lists
/// black's forbidden points as `xxyy` when black is to move under renju.
#[test]
fn yxboard_and_yxshowforbid() {
    // Black's double three at 7,7; white's stones along the top edge.
    let double_three = "YXBOARD\n7,5,1\n0,0,2\n7,6,1\n1,0,2\n5,7,1\n3,0,2\n6,7,1\n5,0,2\nDONE\n";
    let lines = session(&format!(
        "YXSHOWFORBID\nSTART 15\nYXSHOWFORBID\nINFO rule 4\n{double_three}YXSHOWFORBID\n\
         INFO rule 0\nYXSHOWFORBID\nINFO rule 4\nYXSHOWFORBID\n\
         YXBOARD\n7,5,1\n0,0,2\n7,6,1\n1,0,2\n5,7,1\n3,0,2\n6,7,1\nDONE\nYXSHOWFORBID\n\
         YXBOARD\n7,5\nDONE\nYXBOARD\n7,5,1\n7,5,2\nDONE\n"
    ));
    assert_eq!(
        lines,
        [
            "ERROR no board yet: send START first",
            "OK",
            "FORBID .",
            "FORBID 0707.",
            "FORBID .",
            "FORBID 0707.",
            // Seven stones: white is to move.
            "FORBID .",
            "ERROR YXBOARD line \"7,5\": expected x,y,field",
            "ERROR YXBOARD: point 7,5 is already taken",
        ]
    );
    // After YXBOARD the brain plays on from the position.
    let lines = session(&format!(
        "START 15\n{FAST}INFO rule 4\n{double_three}TURN 7,9\n"
    ));
    assert_eq!(lines.len(), 2, "{lines:?}");
    let (x, y) = xy(&lines[1]);
    assert!((x, y) != (7, 7) && (x, y) != (7, 9), "{lines:?}");
}

#[test]
fn bad_input_gets_one_error_line_each_and_the_brain_goes_on() {
    let script = [
        ("TURN 7,7", "ERROR no board yet"),
        ("BEGIN", "ERROR no board yet"),
        ("RESTART", "ERROR no board yet"),
        ("START 3", "ERROR unsupported board size 3"),
        ("START 21", "ERROR unsupported board size 21"),
        ("START fifteen", "ERROR START needs a board size"),
        ("RECTSTART 15,20", "ERROR only square boards"),
        ("RECTSTART 15", "ERROR RECTSTART: expected x,y"),
        ("RECTSTART 15,15", "OK"),
        (
            "INFO timeout_turn soon",
            "ERROR INFO timeout_turn needs a whole number",
        ),
        ("INFO rule 1", ""),
        ("INFO rule 8", "ERROR rule 8 is not supported"),
        ("INFO rule 0", ""),
        ("INFO timeout_turn 100", ""),
        ("TURN 15,0", "ERROR point 15,0 is off the board"),
        ("TURN 1", "ERROR TURN: expected x,y"),
        ("TURN a,b", "ERROR TURN: expected x,y with whole numbers"),
        ("TAKEBACK 3,3", "ERROR no stone on 3,3"),
        ("TAKEBACK x", "ERROR TAKEBACK: expected x,y"),
        ("FLY 1,2", "UNKNOWN command FLY"),
        (
            "BOARD\n1,1,1\n2,2\n3,3,1\nDONE",
            "ERROR BOARD line \"2,2\": expected x,y,field",
        ),
        (
            "BOARD\n1,1,4\nDONE",
            "ERROR BOARD line \"1,1,4\": field must be 1, 2 or 3",
        ),
        (
            "BOARD\n1,1,1\n1,1,2\nDONE",
            "ERROR BOARD: point 1,1 is already taken",
        ),
        (
            "BOARD\n1,1,1\n99,1,2\nDONE",
            "ERROR BOARD: point 99,1 is off the board",
        ),
        (
            "BOARD\n0,0,2\n1,0,2\n2,0,2\n3,0,2\n4,0,2\nDONE",
            "ERROR the game is already over",
        ),
        (
            "SWAP2BOARD\n7,7\n7;8\nDONE",
            "ERROR SWAP2BOARD: expected x,y",
        ),
        (
            "SWAP2BOARD\n7,7\n7,7\n1,1\nDONE",
            "ERROR SWAP2BOARD: point 7,7 is already taken",
        ),
        ("BOARD\n7,7,2\nDONE", ""),
        ("TURN 7,7", "ERROR point 7,7 is already taken"),
        ("BEGIN", "ERROR BEGIN needs an empty board"),
    ];
    let mut input = String::new();
    for (command, _) in &script {
        input.push_str(command);
        input.push('\n');
    }
    input.push_str("END\nABOUT\n");
    let lines = session(&input);
    let mut k = 0;
    for (command, want) in &script {
        if command.starts_with("BOARD\n7,7,2") {
            // A legal position: the brain answers with a move.
            let (x, y) = xy(&lines[k]);
            assert!(x < 15 && y < 15 && (x, y) != (7, 7));
            k += 1;
            continue;
        }
        if want.is_empty() {
            continue;
        }
        assert!(
            lines[k].starts_with(want),
            "{command:?}: wanted {want:?}, got {:?}",
            lines[k]
        );
        k += 1;
    }
    assert_eq!(k, lines.len(), "nothing after END: {lines:?}");
}

#[test]
fn unfinished_board_and_end_of_input() {
    // End of input inside a BOARD block and without END: one error, clean exit.
    let lines = session("START 15\nBOARD\n7,7,1\n");
    assert_eq!(lines, vec!["OK", "ERROR BOARD ended without DONE"]);
    let (ok, lines) = session_with(env!("CARGO_BIN_EXE_pbrain-inarow"), &["--seed"], "");
    assert!(!ok && lines.is_empty(), "a bad command line is refused");
}

#[test]
fn search_settings_from_the_command_line() {
    let input = format!("START 15\n{FAST}BOARD\n7,7,1\n8,7,1\n9,7,1\n10,7,1\nDONE\n");
    let (ok, lines) = session_with(
        env!("CARGO_BIN_EXE_pbrain-inarow"),
        &["--quiet", "--settings", "lmr_base=40,tt_mb=8"],
        &input,
    );
    assert!(ok, "{lines:?}");
    assert!(
        lines.contains(&"6,7".to_string()) || lines.contains(&"11,7".to_string()),
        "still completes the five: {lines:?}"
    );
    let out = common::run(
        env!("CARGO_BIN_EXE_pbrain-inarow"),
        &["--settings", "lmr_base=wide"],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.lines().count() == 1, "{err}");
    assert!(
        err.contains("bad --settings") && err.contains("lmr_base"),
        "{err}"
    );
}

#[test]
fn pbrain_inarow_help_describes_the_brain_and_its_commands() {
    let out = common::run(env!("CARGO_BIN_EXE_pbrain-inarow"), &["--help"], "");
    assert!(out.status.success());
    let help = common::stdout(&out);
    assert!(
        help.starts_with("The inarow gomoku engine as a Gomocup brain"),
        "{help}"
    );
    assert!(help.contains("Usage: pbrain-inarow [OPTIONS]"), "{help}");
    for option in ["--seed", "--quiet", "--settings", "--eval"] {
        assert!(help.contains(option), "{option}: {help}");
    }
    for command in [
        "START n",
        "RECTSTART",
        "RESTART",
        "INFO key value",
        "max_node",
        "show_detail",
        "thread_num",
        "BEGIN, TURN x,y, BOARD",
        "TAKEBACK",
        "SWAP2BOARD",
        "YXBOARD",
        "YXNBEST n",
        "YXSTOP",
        "YXHASHCLEAR",
        "YXSHOWINFO",
        "YXSHOWFORBID",
        "ABOUT, END",
    ] {
        assert!(help.contains(command), "{command}: {help}");
    }
    // What it says of bad commands is what the brain does.
    assert!(
        help.contains("A command it does not know gets one line UNKNOWN command NAME"),
        "{help}"
    );
    assert!(help.contains("gets one ERROR line"), "{help}");
    assert_eq!(
        session("FOO 1,2\nSTART 15\nTURN 99,0\nABOUT\nEND\n")[..3],
        [
            "UNKNOWN command FOO",
            "OK",
            "ERROR point 99,0 is off the board"
        ]
    );
    // Not the inarow program's description or usage.
    for other in ["MENACE", "k-in-a-row", "the gomoku judge", "Usage: inarow"] {
        assert!(!help.contains(other), "{other}: {help}");
    }
    // `inarow pbrain --help` lists the same commands.
    let out = common::inarow(&["pbrain", "--help"], "");
    let sub = common::stdout(&out);
    assert!(out.status.success() && sub.contains("YXNBEST n") && sub.contains("--eval"));
}

/// `--help` documents each form of message the brain writes: the one for
/// people, and those Yixin-board parses, with why its marks stay `x,y`.
#[test]
fn help_documents_every_message_form() {
    for (program, args) in [
        (env!("CARGO_BIN_EXE_pbrain-inarow"), &["--help"][..]),
        (env!("CARGO_BIN_EXE_inarow"), &["pbrain", "--help"][..]),
    ] {
        let out = common::run(program, args, "");
        assert!(out.status.success(), "{program}");
        let help = common::stdout(&out);
        for form in [
            "MESSAGE [line K] depth D score S (MEANING) nodes N time T ms speed Vk/s pv h8 i9 ...",
            "MESSAGE REALTIME REFRESH, BEST x,y, POS x,y, DONE x,y, LOSE x,y",
            "Yixin-board reads these lines as two numbers, as it reads a move",
            "MESSAGE INFO MAX_THREAD_NUM n, MESSAGE INFO MAX_HASH_SIZE n",
            "MESSAGE inarow VERSION, MESSAGE hash table SIZE, MESSAGE search threads N",
            "FORBID xxyy... .",
            "MESSAGE transposition table cleared",
            "hash_size (the",
        ] {
            assert!(help.contains(form), "{program}: {form}\n{help}");
        }
    }
}
