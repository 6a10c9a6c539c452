//! `pbrain-inarow` as Yixin-board drives it: the Yixin-board extensions
//! of the Gomocup protocol (`YXNBEST`, `YXSTOP`, `YXHASHCLEAR`,
//! `YXSHOWINFO`, `INFO max_node`/`max_depth`/`show_detail`, realtime
//! messages), and a whole GUI session scripted from what Yixin-board's
//! source (`main.c` of accreator/Yixin-Board) sends, every reply checked.
//!
//! Nothing here times the brain: a think that must stop is stopped by a
//! command sent after the brain said it thinks, and answers are counted
//! and read, not clocked. Reading an answer waits at most [`GUARD`], only
//! so that a broken brain fails the test instead of hanging it.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use inarow_core::notation::parse_move;

/// How long a read waits for a line before the test gives up on the brain.
const GUARD: Duration = Duration::from_secs(120);

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-inarow");

/// The largest `INFO hash_size` the brain takes, as the power of two of
/// its KiB that `YXSHOWINFO` tells Yixin-board: 4 GiB.
const MAX_HASH_SIZE: u32 = 22;

/// The most threads the brain takes, as `YXSHOWINFO` tells Yixin-board:
/// the machine's cores, at most 64.
fn max_thread_num() -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(64)
}

/// A `pbrain-inarow` process driven line by line.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(BRAIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pbrain-inarow");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
        }
    }

    /// Sends these lines (Yixin-board writes its commands in lower case,
    /// one a line).
    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(text.as_bytes()).expect("the brain reads");
        stdin.flush().expect("the brain reads");
    }

    /// The next line the brain writes.
    fn next(&mut self) -> String {
        self.lines
            .recv_timeout(GUARD)
            .expect("the brain answers (or it hangs)")
    }

    /// The next line, which must be `want`.
    fn expect(&mut self, want: &str) {
        let got = self.next();
        assert_eq!(got, want);
    }

    /// Lines up to and including the first that is not a `MESSAGE`: the
    /// messages and that answer.
    fn until_answer(&mut self) -> (Vec<String>, String) {
        let mut messages = Vec::new();
        loop {
            let line = self.next();
            if line.starts_with("MESSAGE ") {
                messages.push(line);
            } else {
                return (messages, line);
            }
        }
    }

    /// Reads lines until one is a realtime info line (the brain is
    /// thinking), returning them.
    fn until_thinking(&mut self) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let thinking = info(&line).is_some();
            seen.push(line);
            if thinking {
                return seen;
            }
        }
    }

    /// Closes the input and waits for the brain to exit: success and the
    /// lines it wrote after what was read. A brain still running after
    /// [`GUARD`] is ended and fails the test.
    fn finish(mut self) -> (bool, Vec<String>) {
        drop(self.stdin.take());
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the brain runs") {
                break status;
            }
            if started.elapsed() > GUARD {
                let _ = self.child.kill();
                panic!("the brain did not exit");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(GUARD) {
            rest.push(line);
        }
        (status.success(), rest)
    }
}

/// A move `x,y` on 15x15.
fn xy(line: &str) -> (usize, usize) {
    parse_move(line, 15)
        .unwrap_or_else(|e| panic!("not a move {line:?}: {e}"))
        .xy(15)
}

/// An info line of the brain, its one form for people: `MESSAGE [line K]
/// depth D score S (MEANING) nodes N time T ms speed Vk/s pv NAMES...`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    depth: u32,
    /// `line K` of `YXNBEST`'s lines.
    multipv: Option<usize>,
    /// The score as Rapfi writes it: `+M5`, `-M4` or a number.
    score: String,
    nodes: u64,
    pv: Vec<(usize, usize)>,
}

/// Reads an info line; `None` if `line` is not one. A line that starts as
/// one but is malformed, or whose meaning is not its score's, fails the
/// test.
fn info(line: &str) -> Option<Info> {
    let rest = line.strip_prefix("MESSAGE ")?;
    if !rest.starts_with("depth ") && !rest.starts_with("line ") {
        return None;
    }
    let bad = || -> ! { panic!("a malformed info line: {line:?}") };
    let num = |w: &str| w.parse::<u64>().unwrap_or_else(|_| bad());
    let (multipv, rest) = match rest.strip_prefix("line ") {
        Some(numbered) => {
            let (k, rest) = numbered.split_once(' ').unwrap_or_else(|| bad());
            (Some(num(k) as usize), rest)
        }
        None => (None, rest),
    };
    let rest = rest.strip_prefix("depth ").unwrap_or_else(|| bad());
    let (depth, rest) = rest.split_once(" score ").unwrap_or_else(|| bad());
    let (score, rest) = rest.split_once(" (").unwrap_or_else(|| bad());
    let (meaning, rest) = rest.split_once(") nodes ").unwrap_or_else(|| bad());
    let (nodes, rest) = rest.split_once(" time ").unwrap_or_else(|| bad());
    let (ms, rest) = rest.split_once(" ms speed ").unwrap_or_else(|| bad());
    let (speed, names) = rest.split_once(" pv ").unwrap_or_else(|| bad());
    num(ms);
    if speed != "-" {
        num(speed.strip_suffix("k/s").unwrap_or_else(|| bad()));
    }
    // The meaning is the score's: a proof's plies, or a win rate short of
    // certainty that leans the score's way.
    let meaning = meaning.strip_suffix(", VCF").unwrap_or(meaning);
    if let Some(plies) = score.strip_prefix("+M") {
        assert_eq!(meaning, format!("win in {}", num(plies)), "{line}");
    } else if let Some(plies) = score.strip_prefix("-M") {
        assert_eq!(meaning, format!("loss in {}", num(plies)), "{line}");
    } else {
        let s: i32 = score.parse().unwrap_or_else(|_| bad());
        let rate: i32 = meaning
            .strip_prefix("win rate ")
            .and_then(|r| r.strip_suffix('%'))
            .and_then(|r| r.parse().ok())
            .unwrap_or_else(|| bad());
        assert!((1..=99).contains(&rate), "{line}");
        assert!(
            s.signum() == 0 || (rate - 50).signum() != -s.signum(),
            "{line}"
        );
    }
    let pv: Vec<(usize, usize)> = names
        .split(' ')
        .map(|name| {
            assert!(
                name.chars().next().is_some_and(|c| c.is_ascii_lowercase()),
                "the line names points for people (h8): {line:?}"
            );
            xy(name)
        })
        .collect();
    Some(Info {
        depth: num(depth) as u32,
        multipv,
        score: score.to_string(),
        nodes: num(nodes),
        pv,
    })
}

/// The `x,y` of a realtime board mark `MESSAGE REALTIME <kind> x,y`,
/// written as Yixin-board reads it: two numbers, never a name like h8.
fn mark(line: &str, kind: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix(&format!("MESSAGE REALTIME {kind} "))?;
    let (x, y) = rest
        .split_once(',')
        .unwrap_or_else(|| panic!("a mark x,y: {line:?}"));
    let number = |t: &str| {
        t.parse::<usize>()
            .unwrap_or_else(|_| panic!("a mark x,y: {line:?}"))
    };
    Some((number(x), number(y)))
}

/// Checks a think's realtime messages before a move: each info line
/// followed by `REFRESH` and `BEST x,y` (the best so far), a `LOSE` only
/// for the move itself, the summary line last; returns the info lines.
fn check_realtime_move(messages: &[String], answer: (usize, usize)) -> Vec<Info> {
    let mut infos = Vec::new();
    let mut k = 0;
    let mut last_best = None;
    while k < messages.len() {
        let line = &messages[k];
        let iteration = messages
            .get(k + 1)
            .is_some_and(|next| next == "MESSAGE REALTIME REFRESH");
        if let Some(i) = info(line).filter(|_| iteration) {
            assert_eq!(i.multipv, None, "{line}");
            last_best = Some(mark(&messages[k + 2], "BEST").expect("BEST after REFRESH"));
            assert_eq!(
                last_best,
                Some(i.pv[0]),
                "the mark is the line's first move"
            );
            infos.push(i);
            k += 3;
        } else if let Some(p) = mark(line, "LOSE") {
            assert_eq!(p, answer, "{messages:#?}");
            k += 1;
        } else {
            // The summary: the same form as the iterations', unmarked.
            let summary = info(line).expect("only the summary is left");
            assert_eq!(summary.multipv, None, "{line}");
            assert_eq!(
                k,
                messages.len() - 1,
                "the summary comes last: {messages:#?}"
            );
            k += 1;
        }
    }
    assert!(!infos.is_empty(), "realtime messages while thinking");
    assert_eq!(
        last_best,
        Some(answer),
        "the last BEST mark is the move played"
    );
    infos
}

/// Checks `YXNBEST n`'s messages: realtime info lines while it thinks
/// (when on), then the `n` lines numbered best first, then (realtime) the
/// board marks; returns the numbered lines.
fn check_nbest(messages: &[String], n: usize, realtime: bool, answer: (usize, usize)) -> Vec<Info> {
    let infos: Vec<Info> = messages.iter().filter_map(|l| info(l)).collect();
    let (thinking, lines): (Vec<&Info>, Vec<&Info>) =
        infos.iter().partition(|i| i.multipv.is_none());
    assert_eq!(!thinking.is_empty(), realtime, "{messages:#?}");
    let numbers: Vec<usize> = lines.iter().filter_map(|i| i.multipv).collect();
    assert_eq!(numbers, (1..=n).collect::<Vec<_>>(), "{messages:#?}");
    let mut moves: Vec<(usize, usize)> = lines.iter().map(|i| i.pv[0]).collect();
    assert_eq!(moves[0], answer, "the first line's move is played");
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), n, "distinct moves: {messages:#?}");
    let first_mark = messages
        .iter()
        .position(|l| l.starts_with("MESSAGE REALTIME"));
    if realtime {
        let k = first_mark.expect("board marks");
        assert_eq!(messages[k], "MESSAGE REALTIME REFRESH");
        let mut marks = messages[k + 1..].iter();
        for (j, line) in lines.iter().enumerate() {
            let m = marks.next().expect("a mark a line");
            if line.score.starts_with("-M") {
                assert_eq!(mark(m, "LOSE"), Some(line.pv[0]), "{messages:#?}");
            } else if j == 0 {
                assert_eq!(mark(m, "BEST"), Some(line.pv[0]), "{messages:#?}");
            } else {
                assert_eq!(mark(m, "POS"), Some(line.pv[0]), "{messages:#?}");
                let done = marks.next().expect("DONE after POS");
                assert_eq!(mark(done, "DONE"), Some(line.pv[0]), "{messages:#?}");
            }
        }
        assert!(marks.next().is_none(), "{messages:#?}");
    } else {
        assert_eq!(first_mark, None, "{messages:#?}");
    }
    lines.into_iter().cloned().collect()
}

/// A renju position (x,y,field with black, the side to move, as 1):
/// black's double three at 7,7 (forbidden), white along the top edge.
const DOUBLE_THREE: [&str; 8] = [
    "7,5,1", "0,0,2", "7,6,1", "1,0,2", "5,7,1", "3,0,2", "6,7,1", "5,0,2",
];

/// A block's lines and its `done`.
fn block(stones: &[String]) -> String {
    let mut s = String::new();
    for st in stones {
        s.push_str(st);
        s.push('\n');
    }
    s.push_str("done\n");
    s
}

/// `stones` as the other side to move sees them (fields 1 and 2 swapped),
/// then `more` of the side that just moved.
fn after(stones: &[&str], more: &[(usize, usize)]) -> Vec<String> {
    let flip = |st: &&str| {
        let (xy, field) = st.rsplit_once(',').expect("x,y,field");
        format!("{xy},{}", if field == "1" { 2 } else { 1 })
    };
    let mut out: Vec<String> = stones.iter().map(flip).collect();
    out.extend(more.iter().map(|(x, y)| format!("{x},{y},2")));
    out
}

/// The stones as they are.
fn owned(stones: &[&str]) -> Vec<String> {
    stones.iter().map(|s| s.to_string()).collect()
}

/// A user's session in Yixin-board, command for command as its `main.c`
/// sends them (lower case, `start w h`, the row written first: Yixin-board
/// writes `row,column` both ways, a mirror image on the diagonal that
/// changes nothing for the brain).
#[test]
fn a_yixin_board_session_analysing_playing_and_stopping() {
    let mut s = Session::start(&[]);
    let version = env!("CARGO_PKG_VERSION");

    // init_engine(): realtime details, the brain's info, the board, then
    // set_level() for a node level (level 2: 10000 nodes a move, the
    // clock set out of the way) and the other settings.
    s.send(
        "info show_detail 1\nyxshowinfo\nSTART 15 15\nINFO max_node 10000\n\
         INFO timeout_match 100000000\nINFO time_left 100000000\nINFO timeout_turn 2000000\n\
         INFO max_depth 225\nINFO time_increment 0\nINFO caution_factor 1\nINFO thread_num 1\n\
         INFO hash_size 0\nINFO pondering 0\nINFO vcthread 0\n",
    );
    s.expect(&format!("MESSAGE inarow {version}"));
    s.expect("MESSAGE hash table 32 MiB");
    s.expect("MESSAGE search threads 1");
    s.expect(&format!("MESSAGE INFO MAX_THREAD_NUM {}", max_thread_num()));
    s.expect(&format!("MESSAGE INFO MAX_HASH_SIZE {MAX_HASH_SIZE}"));
    s.expect("OK");

    // set_rule(): renju is Yixin-board's rule 2; then show_forbid() for
    // the empty board.
    s.send("INFO rule 2\nstart 15 15\nyxboard\ndone\nyxshowforbid\n");
    s.expect("OK");
    s.expect("FORBID .");

    // The user sets up a position and types `nbest 3`.
    let position = block(&owned(&DOUBLE_THREE));
    s.send(&format!(
        "info nbestsym 0\nstart 15 15\nyxboard\n{position}yxnbest 3\n"
    ));
    s.expect("OK");
    let (messages, answer) = s.until_answer();
    let best = xy(&answer);
    let lines = check_nbest(&messages, 3, true, best);
    assert!(
        lines.iter().all(|l| l.pv[0] != (7, 7)),
        "renju: black's double three is no candidate: {messages:#?}"
    );

    // show_forbid() for the position.
    s.send(&format!("start 15 15\nyxboard\n{position}yxshowforbid\n"));
    s.expect("OK");
    s.expect("FORBID 0707.");

    // The computer to move (black): time, an emptied table, the board.
    s.send(&format!(
        "INFO time_left 100000000\nyxhashclear\nstart 15 15\nboard\n{position}"
    ));
    s.expect("MESSAGE transposition table cleared");
    s.expect("OK");
    let (messages, answer) = s.until_answer();
    let black = xy(&answer);
    assert_ne!(black, (7, 7), "never a forbidden point");
    check_realtime_move(&messages, black);

    // The user answers with white's stone: no restart, just `turn`.
    let (wx, wy) = if black == (8, 8) { (9, 9) } else { (8, 8) };
    s.send(&format!(
        "INFO time_left 100000000\nyxhashclear\nturn {wx},{wy}\n"
    ));
    s.expect("MESSAGE transposition table cleared");
    let (messages, answer) = s.until_answer();
    let reply = xy(&answer);
    let taken = |p: (usize, usize)| {
        DOUBLE_THREE
            .iter()
            .any(|st| st.starts_with(&format!("{},{},", p.0, p.1)))
    };
    assert!(
        !taken(reply) && ![black, (wx, wy)].contains(&reply),
        "{answer}"
    );
    check_realtime_move(&messages, reply);

    // The user picks the unlimited level (set_level(0)) and lets the
    // computer think; once it says it thinks, the user takes a stone
    // back, which sends the position and the forbidden points, then
    // `yxstop`. The think answers at once; the commands that came while
    // it thought are answered after it, in order.
    s.send(
        "INFO max_node -1\nINFO timeout_match 100000000\nINFO time_left 100000000\n\
         INFO timeout_turn 2000000\nINFO max_depth 225\nINFO time_increment 0\n",
    );
    // White to move after black's stone: white's stones are 1 now.
    s.send(&format!(
        "INFO time_left 100000000\nyxhashclear\nstart 15 15\nboard\n{}",
        block(&after(&DOUBLE_THREE, &[black]))
    ));
    s.expect("MESSAGE transposition table cleared");
    s.expect("OK");
    let mut seen = s.until_thinking();
    s.send(&format!(
        "start 15 15\nyxboard\n{position}yxshowforbid\nyxstop\n"
    ));
    let (messages, answer) = s.until_answer();
    seen.extend(messages);
    let stopped = xy(&answer);
    assert!(
        !taken(stopped) && stopped != black,
        "the best move so far, on a free point: {answer}"
    );
    check_realtime_move(&seen, stopped);
    s.expect("OK");
    s.expect("FORBID 0707.");
    // yxstop with nothing to stop says nothing.
    s.send("yxstop\nyxshowforbid\n");
    s.expect("FORBID 0707.");

    // Piskvork's side of the protocol in the same session: a stone taken
    // back, a new game, black's first move.
    s.send("TAKEBACK 7,5\nINFO max_node 3000\nRESTART\nBEGIN\n");
    s.expect("OK");
    s.expect("OK");
    let (_, first) = s.until_answer();
    assert_eq!(first, "7,7", "black opens in the centre");

    // The user quits while the computer thinks: `end` stops the think
    // and the brain exits.
    s.send(&format!(
        "INFO max_node -1\nstart 15 15\nboard\n{}",
        block(&owned(&DOUBLE_THREE))
    ));
    s.expect("OK");
    s.until_thinking();
    s.send("end\n");
    let (ok, rest) = s.finish();
    assert!(ok, "a clean exit");
    let answers: Vec<&String> = rest.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert!(answers.len() <= 1, "at most the stopped move: {rest:?}");
}

/// Runs `pbrain-inarow ARGS` on piped `input` (no `END`, so that nothing
/// is stopped) and returns its lines.
fn piped(args: &[&str], input: &str) -> Vec<String> {
    let out = common::run(BRAIN, args, input);
    assert!(out.status.success(), "{}", common::stderr(&out));
    common::stdout(&out).lines().map(str::to_string).collect()
}

/// The clock out of the way: limits come from nodes or depth.
const NO_CLOCK: &str = "INFO timeout_turn 1000000\nINFO timeout_match 0\n";

/// A quiet position as a `YXBOARD` block: the brain's stones (field 1)
/// on h8 and h6, the opponent's (field 2) on i7.
const QUIET: &str = "YXBOARD\n7,7,1\n8,8,2\n7,9,1\nDONE\n";

#[test]
fn yxnbest_sends_the_best_lines_then_plays_the_best() {
    let lines = piped(
        &["--quiet"],
        &format!("START 15\n{NO_CLOCK}INFO max_node 9000\n{QUIET}YXNBEST 3\n"),
    );
    assert_eq!(lines[0], "OK");
    let answer = xy(lines.last().unwrap());
    let found = check_nbest(&lines[1..lines.len() - 1], 3, false, answer);
    assert_eq!(lines.len(), 5, "three lines and the move: {lines:#?}");
    for line in &found {
        assert!(line.depth >= 1 && !line.pv.is_empty(), "{line:?}");
        assert!(![(7, 7), (8, 8), (7, 9)].contains(&line.pv[0]), "{line:?}");
    }
    // The move was played: the point is taken now; more lines than the
    // analysis gives (5) are clamped; a four is finished, a win at once;
    // a finished game has nothing to analyse.
    let mut s = Session::start(&["--quiet"]);
    s.send(&format!(
        "START 15\n{NO_CLOCK}INFO max_node 9000\n{QUIET}YXNBEST 1\n"
    ));
    s.expect("OK");
    let (one, answer) = s.until_answer();
    let (x, y) = xy(&answer);
    check_nbest(&one, 1, false, (x, y));
    s.send(&format!("TURN {x},{y}\n{QUIET}YXNBEST 9\n"));
    s.expect(&format!("ERROR point {x},{y} is already taken"));
    let (five, answer) = s.until_answer();
    check_nbest(&five, 5, false, xy(&answer));
    s.send("YXBOARD\n3,7,1\n4,7,1\n5,7,1\n6,7,1\n3,9,2\n4,9,2\n5,9,2\nDONE\nYXNBEST 2\n");
    let (win, answer) = s.until_answer();
    let wins = check_nbest(&win, 2, false, xy(&answer));
    assert!(
        [(2, 7), (7, 7)].contains(&wins[0].pv[0]) && wins[0].score == "+M1",
        "{win:#?}"
    );
    s.send("YXBOARD\n3,7,1\n4,7,1\n5,7,1\n6,7,1\n7,7,1\nDONE\nYXNBEST 2\n");
    s.expect("ERROR the game is already over");
    let (ok, rest) = s.finish();
    assert!(ok && rest.is_empty(), "{rest:?}");
}

#[test]
fn realtime_messages_come_after_yxshowinfo_or_show_detail_and_go_with_show_detail_0() {
    let think = "INFO max_node 6000\nBOARD\n7,7,1\n8,8,2\n7,9,1\nDONE\n";
    let lines = piped(
        &[],
        &format!(
            "START 15\n{NO_CLOCK}{think}YXSHOWINFO\n{think}INFO show_detail 0\n{think}\
             INFO show_detail 1\n{think}{QUIET}YXNBEST 3\n"
        ),
    );
    let version = env!("CARGO_PKG_VERSION");
    let mut k = 1;
    let (quiet, _) = think_at(&lines, &mut k);
    assert_eq!(quiet.len(), 1, "only the summary: {quiet:#?}");
    assert!(
        quiet[0].contains(" score ") && quiet[0].contains(" pv "),
        "{quiet:?}"
    );
    assert_eq!(
        lines[k..k + 5],
        [
            format!("MESSAGE inarow {version}"),
            "MESSAGE hash table 32 MiB".to_string(),
            "MESSAGE search threads 1".to_string(),
            format!("MESSAGE INFO MAX_THREAD_NUM {}", max_thread_num()),
            format!("MESSAGE INFO MAX_HASH_SIZE {MAX_HASH_SIZE}"),
        ]
    );
    k += 5;
    let (messages, answer) = think_at(&lines, &mut k);
    let infos = check_realtime_move(&messages, answer);
    // Each completed iteration, then the search's end (its last again).
    let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert!(depths.len() >= 2, "{messages:#?}");
    let (off, _) = think_at(&lines, &mut k);
    assert_eq!(off.len(), 1, "show_detail 0: {off:#?}");
    let (on, answer) = think_at(&lines, &mut k);
    check_realtime_move(&on, answer);
    let (nbest, answer) = think_at(&lines, &mut k);
    check_nbest(&nbest, 3, true, answer);
    assert_eq!(k, lines.len());
}

/// One think from line `k` on: its messages and its move; `k` moves past.
fn think_at(lines: &[String], k: &mut usize) -> (Vec<String>, (usize, usize)) {
    let start = *k;
    while lines[*k].starts_with("MESSAGE") {
        *k += 1;
    }
    *k += 1;
    (lines[start..*k - 1].to_vec(), xy(&lines[*k - 1]))
}

/// White has two open threes apart: whatever the brain (black) does,
/// white makes an open four with the other.
const LOST: &str = "5,3,2\n0,14,1\n6,3,2\n14,14,1\n7,3,2\n0,7,1\n11,8,2\n14,7,1\n11,9,2\n\
                    2,12,1\n11,10,2\n12,1,1\nDONE\n";

#[test]
fn moves_that_lose_by_force_are_marked_lose() {
    let lines = piped(
        &[],
        &format!(
            "START 15\n{NO_CLOCK}INFO max_node 100000\nYXSHOWINFO\nBOARD\n{LOST}YXBOARD\n{LOST}\
             YXNBEST 3\n"
        ),
    );
    // After OK and YXSHOWINFO's five lines.
    let first = 6;
    let end = lines[first..]
        .iter()
        .position(|l| !l.starts_with("MESSAGE"))
        .unwrap()
        + first;
    let answer = xy(&lines[end]);
    let infos = check_realtime_move(&lines[first..end], answer);
    assert!(infos.last().unwrap().score.starts_with("-M"), "{lines:#?}");
    assert!(
        lines[first..end].contains(&format!("MESSAGE REALTIME LOSE {},{}", answer.0, answer.1)),
        "{lines:#?}"
    );
    let nbest = &lines[end + 1..lines.len() - 1];
    let found = check_nbest(nbest, 3, true, xy(lines.last().unwrap()));
    assert!(
        found.iter().all(|l| l.score.starts_with("-M")),
        "{nbest:#?}"
    );
}

/// The summary line before a move: its depth and nodes.
fn summary(line: &str) -> (u32, u64) {
    let i = info(line).unwrap_or_else(|| panic!("a summary: {line}"));
    assert_eq!(i.multipv, None, "{line}");
    (i.depth, i.nodes)
}

#[test]
fn max_node_and_max_depth_limit_each_move_and_minus_one_lifts_the_node_limit() {
    // Each think on a fresh board and table (START), so the same limits
    // give the same search.
    let think = "START 15\nBOARD\n7,7,1\n8,8,2\n7,9,1\nDONE\n";
    let lines = piped(
        &[],
        &format!(
            "{NO_CLOCK}INFO max_depth 7\n{think}INFO max_node 1000\n{think}INFO max_node -1\n\
             {think}INFO max_node 0\n{think}INFO max_depth 0\nINFO max_node 3000\n{think}\
             INFO max_node 2.5\nINFO max_depth deep\n"
        ),
    );
    assert_eq!(lines.len(), 17, "{lines:#?}");
    let searches: Vec<(u32, u64)> = (0..5).map(|j| summary(&lines[3 * j + 1])).collect();
    let (depth_only, both, lifted, zero, nodes_only) = (
        searches[0],
        searches[1],
        searches[2],
        searches[3],
        searches[4],
    );
    assert_eq!(depth_only.0, 7, "{lines:#?}");
    // Both limits: the first reached stops. The nodes are checked every
    // 1024 nodes and between iterations.
    assert!(both.0 < 7 && both.1 < 1000 + 1024, "{both:?}");
    // -1 and 0 lift the node limit: the same search as before it.
    assert_eq!(lifted, depth_only);
    assert_eq!(zero, depth_only);
    assert!(
        nodes_only.1 < 3000 + 1024 && nodes_only.1 >= 3000,
        "{nodes_only:?}"
    );
    assert_eq!(
        lines[15..],
        [
            "ERROR INFO max_node needs a whole number of nodes (-1 or 0 for no limit), got \"2.5\"",
            "ERROR INFO max_depth needs a whole number, got \"deep\"",
        ]
    );
}

#[test]
fn yxhashclear_forgets_what_earlier_searches_learnt() {
    // The same search three times: the second finds the table of the
    // first (fewer nodes); after YXHASHCLEAR the third is the first again.
    let lines = piped(
        &[],
        &format!(
            "START 15\n{NO_CLOCK}INFO max_depth 7\n{QUIET}YXNBEST 1\n{QUIET}YXNBEST 1\n\
             YXHASHCLEAR\n{QUIET}YXNBEST 1\n"
        ),
    );
    assert_eq!(lines.len(), 8, "{lines:#?}");
    assert_eq!(lines[5], "MESSAGE transposition table cleared");
    let search = |k: usize| info(&lines[k]).expect("an info line");
    let (first, warm, cleared) = (search(1), search(3), search(6));
    assert!(warm.nodes < first.nodes, "{lines:#?}");
    assert_eq!(cleared, first, "{lines:#?}");
    assert_eq!(lines[7], lines[2]);
}

#[test]
fn end_stops_a_think_in_mid_search_and_the_brain_exits() {
    let mut s = Session::start(&["--quiet"]);
    s.send(&format!(
        "START 15\n{NO_CLOCK}INFO show_detail 1\nBOARD\n7,7,1\n8,8,2\n7,9,1\nDONE\n"
    ));
    s.expect("OK");
    s.until_thinking();
    s.send("END\nYXSHOWINFO\n");
    let (ok, rest) = s.finish();
    assert!(ok);
    assert!(
        rest.iter().all(|l| !l.contains("INFO MAX_THREAD_NUM")),
        "nothing after END is answered: {rest:?}"
    );
}

#[test]
fn yxstop_stops_yxnbest_and_the_lines_found_so_far_are_the_answer() {
    let mut s = Session::start(&["--quiet"]);
    s.send(&format!(
        "START 15\n{NO_CLOCK}INFO show_detail 1\n{QUIET}YXNBEST 3\n"
    ));
    s.expect("OK");
    let mut seen = s.until_thinking();
    s.send("YXSTOP\n");
    let (messages, answer) = s.until_answer();
    seen.extend(messages);
    let lines = seen
        .iter()
        .filter(|l| l.starts_with("MESSAGE line "))
        .count();
    assert!((1..=3).contains(&lines), "{seen:#?}");
    check_nbest(&seen, lines, true, xy(&answer));
    // The next command thinks in peace.
    s.send(&format!("INFO max_node 3000\n{QUIET}YXNBEST 2\n"));
    let (messages, answer) = s.until_answer();
    check_nbest(&messages, 2, true, xy(&answer));
    let (ok, _) = s.finish();
    assert!(ok);
}

/// Yixin-board's thread setting (issue 55): `YXSHOWINFO` says the threads
/// now and the most (`MAX_THREAD_NUM`, the machine's cores); `INFO
/// thread_num` sets them, 0 as 1; more than the most is answered in one
/// line and the most are used; a think on them answers.
#[test]
fn info_thread_num_sets_the_threads_that_yxshowinfo_tells() {
    let most = max_thread_num();
    let lines = piped(
        &[],
        &format!(
            "YXSHOWINFO\nINFO thread_num 2\nYXSHOWINFO\nINFO thread_num 0\nYXSHOWINFO\n\
             INFO thread_num 1000\nYXSHOWINFO\nINFO thread_num 2\nSTART 15\n{NO_CLOCK}\
             INFO max_node 3000\nBOARD\n7,7,1\n8,8,2\n7,9,1\nDONE\n"
        ),
    );
    let said = |prefix: &str| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with(prefix))
            .cloned()
            .collect()
    };
    let threads = |n: usize| format!("MESSAGE search threads {n}");
    assert_eq!(
        said("MESSAGE search threads "),
        [threads(1), threads(2.min(most)), threads(1), threads(most)],
        "{lines:#?}"
    );
    assert_eq!(
        said("MESSAGE INFO MAX_THREAD_NUM "),
        vec![format!("MESSAGE INFO MAX_THREAD_NUM {most}"); 4]
    );
    let over = format!(
        "ERROR INFO thread_num 1000 is more than MAX_THREAD_NUM, {most}: searching on {most} threads"
    );
    assert!(lines.contains(&over), "{lines:#?}");
    // The think on two threads (or the machine's one) answers a move.
    let answer = xy(lines.last().expect("an answer"));
    assert!(![(7, 7), (8, 8), (7, 9)].contains(&answer), "{lines:#?}");
}

/// Yixin-board's hash slider: `YXSHOWINFO` says the largest table (as the
/// power of two of its KiB) and the size now; `INFO hash_size` (KiB) sets
/// it, within half of `INFO max_memory`; 0 goes back to the settings'
/// size; more than the largest is refused in one line, the table kept.
#[test]
fn info_hash_size_sets_the_table_that_yxshowinfo_tells() {
    let table = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("MESSAGE hash table "))
            .cloned()
            .collect()
    };
    let lines = piped(
        &[],
        "YXSHOWINFO\nINFO hash_size 1024\nYXSHOWINFO\nINFO hash_size 8388608\nYXSHOWINFO\n\
         INFO hash_size 0\nYXSHOWINFO\nINFO hash_size 65536\nINFO max_memory 104857600\n\
         YXSHOWINFO\nINFO max_memory 0\nYXSHOWINFO\nINFO hash_size 512\nYXSHOWINFO\n",
    );
    assert_eq!(
        table(&lines),
        [
            "MESSAGE hash table 32 MiB",
            "MESSAGE hash table 1 MiB",
            "MESSAGE hash table 1 MiB",
            "MESSAGE hash table 32 MiB",
            // 64 MiB asked, within half of 100 MiB.
            "MESSAGE hash table 50 MiB",
            "MESSAGE hash table 64 MiB",
            "MESSAGE hash table 512 KiB",
        ],
        "{lines:#?}"
    );
    assert!(
        lines.contains(
            &"ERROR INFO hash_size 8388608 is more than the largest table, 4194304 KiB (2^22): the table stays 1 MiB"
                .to_string()
        ),
        "{lines:#?}"
    );
    let largest = format!("MESSAGE INFO MAX_HASH_SIZE {MAX_HASH_SIZE}");
    assert_eq!(lines.iter().filter(|l| **l == largest).count(), 7);
    // The table found at the largest size Yixin-board's slider sends
    // is the one the brain searches with: a think after it answers.
    let lines = piped(
        &["--quiet"],
        &format!("START 15\n{NO_CLOCK}INFO max_node 2000\nINFO hash_size 2048\nBEGIN\n"),
    );
    assert_eq!(lines, ["OK", "7,7"]);
}
