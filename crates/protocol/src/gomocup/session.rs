//! The brain's session: one thread reads the manager's lines (and acts on
//! `YXSTOP` and `END` as they arrive), the caller's thread parses and
//! answers them one after another, and one thread writes the answers.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use super::command::stops_thinking;
use super::dispatch::{Output, answer, refused};
use super::{Brain, Command, Link};

/// Which commands are asked to stop: `YXSTOP` and `END` stop every
/// command that came before them (by line number), thinking or queued.
struct Stops {
    /// The flag the brain's search watches.
    flag: Arc<AtomicBool>,
    /// Commands on lines before this one are to stop.
    before: Mutex<u64>,
}

impl Stops {
    /// A `YXSTOP` or `END` read on line `line`.
    fn ask(&self, line: u64) {
        // The flag changes under the lock, so that `arm` never undoes a
        // stop asked for after it looked.
        let mut before = self.before.lock().unwrap_or_else(|e| e.into_inner());
        *before = (*before).max(line);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// The command on line `line` is about to be answered.
    fn arm(&self, line: u64) {
        let before = self.before.lock().unwrap_or_else(|e| e.into_inner());
        self.flag.store(*before > line, Ordering::SeqCst);
    }
}

/// Runs a brain session: reads commands from `input` until `END` or the end
/// of input, writing answers to `output` (flushed after each line).
///
/// `input` is read on a thread of its own, so that `YXSTOP` and `END` reach
/// a brain while it thinks; that thread is left behind, blocked on its
/// read, when `END` ends the session first.
pub fn run<B, R, W>(brain: &mut B, input: R, output: W) -> io::Result<()>
where
    B: Brain + ?Sized,
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    let stops = Arc::new(Stops {
        flag: Arc::new(AtomicBool::new(false)),
        before: Mutex::new(0),
    });
    let (line_tx, line_rx) = mpsc::channel::<io::Result<(u64, String)>>();
    let reader_stops = Arc::clone(&stops);
    std::thread::spawn(move || {
        for (n, line) in (1..).zip(input.lines()) {
            let failed = line.is_err();
            if let Ok(l) = &line
                && stops_thinking(l)
            {
                reader_stops.ask(n);
            }
            if line_tx.send(line.map(|l| (n, l))).is_err() || failed {
                break;
            }
        }
    });
    let (out_tx, out_rx) = mpsc::channel::<Option<String>>();
    brain.connect(Link::new(Arc::clone(&stops.flag), out_tx.clone()));
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || write_lines(out_rx, output));
        let mut failure = None;
        let mut next = || match line_rx.recv() {
            Ok(Ok(line)) => Some(line),
            Ok(Err(e)) => {
                failure = Some(e);
                None
            }
            Err(_) => None,
        };
        while let Some((n, line)) = next() {
            stops.arm(n);
            let mut more = || next().map(|(_, l)| l);
            let size = brain.size();
            let output = match Command::parse(&line, size, &mut more) {
                Ok(command) => answer(brain, command, size),
                Err(e) => refused(&e),
            };
            match output {
                Output::Quit => break,
                Output::Lines(out) => {
                    for l in out {
                        let _ = out_tx.send(Some(l));
                    }
                }
            }
        }
        let _ = out_tx.send(None);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the thread writing the answers panicked")));
        match failure {
            Some(e) => Err(e),
            None => written,
        }
    })
}

/// Writes each line that comes until `None`, flushing after each; after a
/// failed write the rest is read and dropped, and the failure returned.
fn write_lines<W: Write>(lines: mpsc::Receiver<Option<String>>, mut output: W) -> io::Result<()> {
    let mut result = Ok(());
    while let Ok(Some(line)) = lines.recv() {
        if result.is_ok() {
            result = writeln!(output, "{line}").and_then(|()| output.flush());
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use inarow_core::Point;
    use inarow_core::swap2::{Phase, Swap};

    use super::*;
    use crate::gomocup::{BrainError, Decision, Field, Info, Swap2Move};

    /// A brain that answers from fixed points and remembers what it heard.
    /// With `thinking` set, `BEGIN` says so (through its link and on
    /// `thinking`) and waits for the stop flag before it answers.
    #[derive(Default)]
    struct Fixed {
        size: Option<usize>,
        heard: Vec<String>,
        link: Option<Link>,
        thinking: Option<mpsc::Sender<()>>,
    }

    impl Fixed {
        /// Whether the command being answered is asked to stop.
        fn stop_asked(&self) -> bool {
            self.link.as_ref().is_some_and(Link::stop_asked)
        }

        /// Waits for the stop flag, as a search watching it would: true if
        /// it came. The bound only keeps a broken session from hanging
        /// the tests; nothing depends on how long the wait takes.
        fn wait_for_stop(&self) -> bool {
            for _ in 0..20_000 {
                if self.stop_asked() {
                    return true;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            false
        }
    }

    fn at(x: usize, y: usize) -> Point {
        Point::at(x, y, 15)
    }

    impl Brain for Fixed {
        fn size(&self) -> Option<usize> {
            self.size
        }
        fn start(&mut self, size: usize) -> Result<(), BrainError> {
            self.size = Some(size);
            Ok(())
        }
        fn begin(&mut self) -> Result<Decision, BrainError> {
            if let Some(thinking) = &self.thinking {
                if let Some(link) = &self.link {
                    link.say("MESSAGE REALTIME BEST 7,7");
                }
                let _ = thinking.send(());
                let stopped = self.wait_for_stop();
                self.heard.push(format!("begin stopped {stopped}"));
            }
            Ok(Decision {
                point: at(7, 7),
                message: Some("thinking".into()),
            })
        }
        fn turn(&mut self, point: Point) -> Result<Decision, BrainError> {
            self.heard
                .push(format!("turn {point} stop {}", self.stop_asked()));
            Ok(Decision {
                point: at(1, 2),
                message: None,
            })
        }
        fn board(&mut self, stones: &[(Point, Field)]) -> Result<Decision, BrainError> {
            self.heard.push(format!("board {stones:?}"));
            self.begin()
        }
        fn swap2(&mut self, stones: &[Point], phase: Phase) -> Result<Swap2Move, BrainError> {
            self.heard.push(format!("swap2 {} {phase:?}", stones.len()));
            Ok(match phase {
                Phase::Open => Swap2Move::Open([at(7, 7), at(8, 8), at(7, 8)]),
                Phase::Answer => Swap2Move::Answer(Swap::Place {
                    black: at(1, 1),
                    white: at(2, 2),
                }),
                _ => Swap2Move::TakeBlack,
            })
        }
        fn take_back(&mut self, point: Point) -> Result<(), BrainError> {
            self.heard.push(format!("takeback {point}"));
            Ok(())
        }
        fn info(&mut self, info: Info) -> Result<(), BrainError> {
            self.heard.push(format!("{info:?}"));
            Ok(())
        }
        fn about(&self) -> String {
            "name=\"fixed\"".into()
        }
        fn connect(&mut self, link: Link) {
            self.link = Some(link);
        }
    }

    fn session(input: &str) -> (String, Vec<String>) {
        let mut brain = Fixed::default();
        let mut out = Vec::new();
        let input = io::Cursor::new(input.as_bytes().to_vec());
        run(&mut brain, input, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), brain.heard)
    }

    /// Input that arrives as a test sends it: a read waits for the next
    /// piece, and the input ends when the sender goes.
    struct Pipe {
        pieces: mpsc::Receiver<Vec<u8>>,
        piece: io::Cursor<Vec<u8>>,
    }

    impl io::Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            loop {
                let n = io::Read::read(&mut self.piece, buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                match self.pieces.recv() {
                    Ok(piece) => self.piece = io::Cursor::new(piece),
                    Err(_) => return Ok(0),
                }
            }
        }
    }

    #[test]
    fn commands_before_start_need_a_board() {
        let (out, _) = session("BEGIN\nTURN 1,1\nTAKEBACK x\nRESTART\nBOARD\nDONE\nEND\n");
        assert_eq!(out, "ERROR no board yet: send START first\n".repeat(5));
    }

    #[test]
    fn yixin_commands_a_brain_does_not_know_get_one_error_line() {
        let (out, _) = session(
            "YXSHOWFORBID\nYXNBEST 2\nYXSTOP\nSTART 15\nYXBOARD\n1,1,1\nDONE\nYXSHOWFORBID\n\
             YXBOARD\n1,1\nDONE\nYXNBEST 2\nYXNBEST 0\nYXNBEST two\nYXNBEST\nYXHASHCLEAR\n\
             YXSHOWINFO\nYXSTOP\nEND\n",
        );
        let nbest = "ERROR YXNBEST needs how many moves to show, a whole number from 1, got";
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "ERROR no board yet: send START first",
                "ERROR no board yet: send START first",
                // YXSTOP with nothing to stop says nothing.
                "OK",
                "ERROR YXBOARD: not supported by this brain",
                "ERROR YXSHOWFORBID is not supported by this brain",
                "ERROR YXBOARD line \"1,1\": expected x,y,field",
                "ERROR YXNBEST is not supported by this brain",
                &format!("{nbest} \"0\""),
                &format!("{nbest} \"two\""),
                &format!("{nbest} \"\""),
                "ERROR YXHASHCLEAR is not supported by this brain",
                "ERROR YXSHOWINFO is not supported by this brain",
            ]
        );
    }

    #[test]
    fn yixin_board_starts_with_width_and_height() {
        let (out, _) = session("START 15 15\nSTART 15 16\nSTART 15 x\nSTART\nSTART 1 2 3\n");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "OK",
                "ERROR only square boards are supported, not 15x16",
                "ERROR START needs a board size, got \"15 x\"",
                "ERROR START needs a board size, got \"\"",
                "ERROR START needs a board size, got \"1 2 3\"",
            ]
        );
    }

    #[test]
    fn yixin_infos_reach_the_brain_and_bad_values_get_one_error_line() {
        let (out, heard) = session(
            "INFO max_node -1\nINFO max_node 0\nINFO max_node 30000\nINFO MAX_NODE 5\n\
             INFO max_node -5\nINFO max_node lots\nINFO max_node\nINFO max_depth 0\n\
             INFO max_depth 12\nINFO max_depth -1\nINFO show_detail 1\nINFO show_detail on\n\
             INFO caution_factor 1\nINFO thread_num 1\nINFO hash_size 0\nINFO nbestsym 0\n",
        );
        let node = "ERROR INFO max_node needs a whole number of nodes (-1 or 0 for no limit), got";
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                &format!("{node} \"-5\""),
                &format!("{node} \"lots\""),
                &format!("{node} \"\""),
                "ERROR INFO max_depth needs a whole number, got \"-1\"",
                "ERROR INFO show_detail needs a whole number, got \"on\"",
            ]
        );
        assert_eq!(
            heard,
            [
                "MaxNode(None)",
                "MaxNode(None)",
                "MaxNode(Some(30000))",
                "MaxNode(Some(5))",
                "MaxDepth(None)",
                "MaxDepth(Some(12))",
                "ShowDetail(1)",
                "ThreadNum(1)",
                "HashSize(0)",
            ]
        );
    }

    /// Runs a session whose input is `first`, then, once the brain says it
    /// is thinking (in `BEGIN`), `then`: the output lines and what the
    /// brain heard.
    fn mid_think(first: &str, then: &str) -> (Vec<String>, Vec<String>) {
        let (pieces, pipe) = mpsc::channel::<Vec<u8>>();
        let (thinking, thinks) = mpsc::channel();
        let mut brain = Fixed {
            thinking: Some(thinking),
            ..Fixed::default()
        };
        pieces.send(first.as_bytes().to_vec()).unwrap();
        let then = then.as_bytes().to_vec();
        let feeder = std::thread::spawn(move || {
            thinks.recv().expect("the brain thinks");
            pieces.send(then).unwrap();
            // The input ends here.
        });
        let input = io::BufReader::new(Pipe {
            pieces: pipe,
            piece: io::Cursor::new(Vec::new()),
        });
        let mut out = Vec::new();
        run(&mut brain, input, &mut out).unwrap();
        feeder.join().unwrap();
        let out = String::from_utf8(out).unwrap();
        (out.lines().map(str::to_string).collect(), brain.heard)
    }

    #[test]
    fn yxstop_reaches_a_brain_while_it_thinks_and_stops_what_came_before_it() {
        let (out, heard) = mid_think("START 15\nBEGIN\n", "TURN 1,1\nYXSTOP\nTURN 2,2\n");
        assert_eq!(
            out,
            [
                "OK",
                // Said while thinking, before the answer.
                "MESSAGE REALTIME BEST 7,7",
                "MESSAGE thinking",
                "7,7",
                "1,2",
                "1,2",
            ]
        );
        assert_eq!(
            heard,
            [
                "begin stopped true".to_string(),
                // Queued before the YXSTOP: asked to stop too.
                format!("turn {} stop true", at(1, 1)),
                // After it: thinks in peace.
                format!("turn {} stop false", at(2, 2)),
            ]
        );
    }

    #[test]
    fn end_stops_a_think_and_ends_the_session() {
        let (out, heard) = mid_think("START 15\nBEGIN\n", "END\nTURN 1,1\n");
        assert_eq!(
            out,
            ["OK", "MESSAGE REALTIME BEST 7,7", "MESSAGE thinking", "7,7"]
        );
        assert_eq!(heard, ["begin stopped true"]);
    }

    #[test]
    fn the_end_of_input_stops_nothing() {
        let (out, heard) = session("START 15\nTURN 1,1\nTURN 2,2");
        assert_eq!(out, "OK\n1,2\n1,2\n");
        assert_eq!(
            heard,
            [
                format!("turn {} stop false", at(1, 1)),
                format!("turn {} stop false", at(2, 2)),
            ]
        );
    }

    #[test]
    fn swap2_stones_come_in_move_order_and_answers_go_back_in_it() {
        let (out, heard) = session(
            "START 15\nSWAP2BOARD\nDONE\nSWAP2BOARD\n7,7\n8,8\n6,7\nDONE\nSWAP2BOARD\n1,1\n2,2\n3,3\n4,4\n5,5\nDONE\nSWAP2BOARD\n1,1\nDONE\nSWAP2BOARD\n1,1\n1,1\n1,1\nDONE\n",
        );
        let want = [
            "OK",
            // Black, white, black.
            "7,7 7,8 8,8",
            // The fourth stone (white), then the fifth (black).
            "2,2 1,1",
            "SWAP",
            "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got 1",
            "ERROR SWAP2BOARD: point 1,1 is already taken",
        ];
        assert_eq!(out.lines().collect::<Vec<_>>(), want);
        assert_eq!(heard, ["swap2 0 Open", "swap2 3 Answer", "swap2 5 Colour"]);
    }

    #[test]
    fn moves_blocks_and_infos_reach_the_brain_checked() {
        let input = "START 15\nBEGIN\nTURN 3,4\nTURN 15,0\nTURN x\nBOARD\n1,1,1\n2,2,2\n3,3,3\nDONE\nBOARD\n1,1,4\nDONE\nBOARD\n1,1,1\n";
        let (out, heard) = session(input);
        let want = [
            "OK",
            "MESSAGE thinking",
            "7,7",
            "1,2",
            "ERROR point 15,0 is off the board",
            "ERROR TURN: expected x,y but got \"x\"",
            "MESSAGE thinking",
            "7,7",
            "ERROR BOARD line \"1,1,4\": field must be 1, 2 or 3",
            "ERROR BOARD ended without DONE",
        ];
        assert_eq!(out.lines().collect::<Vec<_>>(), want);
        assert_eq!(heard[0], format!("turn {} stop false", at(3, 4)));
        assert!(heard[1].starts_with("board [(Point(16), Own)"));
        let (out, heard) =
            session("INFO timeout_turn 500\nINFO folder /x\nINFO rule x\nABOUT\nFOO\n");
        assert_eq!(
            out,
            "ERROR INFO rule needs a whole number, got \"x\"\nname=\"fixed\"\nUNKNOWN command FOO\n"
        );
        assert_eq!(heard, ["TimeoutTurn(500)"]);
    }
}
