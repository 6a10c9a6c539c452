//! The `pbrain` subcommand (also the `pbrain-inarow` binary): the engine
//! speaking the Gomocup brain protocol on stdin and stdout.

use anyhow::Context;
// A path relative to this file: the `pbrain-inarow` binary includes this
// file by path too.
#[path = "pbrain/brain.rs"]
mod brain;

use brain::{Pbrain, Settings};
use inarow_protocol::gomocup;

/// What the brain is, for `--help` (`pbrain-inarow`'s first line).
pub const ABOUT: &str = "The inarow gomoku engine as a Gomocup brain: it speaks the Gomocup \
protocol, with the Swap2 and Yixin-board extensions, on stdin and stdout, for gomoku managers \
and boards such as Piskvork, c-gomoku-cli and Yixin-board.";

/// The protocol's commands the brain answers, for `--help`.
pub const COMMANDS: &str = "\
Commands, one a line on stdin (points x,y from 0,0 at the top left):
  START n, START n n, RECTSTART n,n  a new n x n board, 5 to 20 (OK)
  RESTART                            a new game on the same board (OK)
  INFO key value                     timeout_turn, timeout_match, time_left (ms),
                                     max_memory (bytes), rule (0 freestyle,
                                     1 exact five, 4 or 2 renju), max_node (nodes
                                     a move, -1 none), max_depth, show_detail
                                     (1: realtime messages), hash_size (the
                                     table in KiB, 0 the default), thread_num
                                     (search threads, at most MAX_THREAD_NUM),
                                     game_type
  BEGIN, TURN x,y, BOARD ... DONE    think and answer a move x,y (BOARD: x,y,field
                                     lines, 1 own, 2 the opponent's, 3 out of play)
  TAKEBACK x,y                       take a stone back (OK)
  SWAP2BOARD ... DONE                the Swap2 opening after 0, 3 or 5 stones
  YXBOARD ... DONE                   set a position without thinking
  YXNBEST n                          the best n moves (MESSAGE lines), then the
                                     best one played
  YXSTOP                             stop thinking: the best move so far
  YXHASHCLEAR                        forget what the searches learnt
  YXSHOWINFO                         the brain's info, realtime messages from now
  YXSHOWFORBID                       black's forbidden points (FORBID xxyy... .)
  ABOUT, END
A command it does not know gets one line UNKNOWN command NAME; one it knows
that cannot be done (a bad argument, no board yet) gets one ERROR line; the
brain goes on either way.

What it writes besides its answers, one a line:
  MESSAGE [line K] depth D score S (MEANING) nodes N time T ms speed Vk/s pv h8 i9 ...
      For people: the search's depth, its score for the brain (a number, or
      +Mn / -Mn: a win / a loss proven n plies to the five, as Rapfi writes
      it and managers read it), what that means (win rate 62%, win in n,
      loss in n; VCF: proven by the threat search), the nodes, the time,
      thousands of nodes a second, and the line expected, its points named
      as players write them (h8: the column's letter from a, the row
      counted from 1 at the bottom). Before each move (not with --quiet);
      after each iteration while thinking, once realtime messages are on;
      for YXNBEST, as line 1 (the best) to line n.
  MESSAGE REALTIME REFRESH, BEST x,y, POS x,y, DONE x,y, LOSE x,y
      For Yixin-board, which marks them on its board (realtime only): BEST
      the move so far, POS and DONE a YXNBEST line searched, LOSE a move that
      loses by force. Points are x,y as in TURN and the answers, not h8:
      Yixin-board reads these lines as two numbers, as it reads a move.
  MESSAGE INFO MAX_THREAD_NUM n, MESSAGE INFO MAX_HASH_SIZE n
      YXSHOWINFO's answer for Yixin-board's settings: the most search
      threads INFO thread_num takes (the machine's cores, at most 64), and
      the largest table as the power of two of its KiB (22:
      4 GiB) that Yixin-board's hash slider may send as INFO hash_size.
  MESSAGE inarow VERSION, MESSAGE hash table SIZE, MESSAGE search threads N
      YXSHOWINFO's answer for people: the brain, its table's size and its
      search threads now.
  FORBID xxyy... .      YXSHOWFORBID's answer: each point as two digits of x,
                        two of y.
  MESSAGE transposition table cleared      YXHASHCLEAR's answer.";

/// Options of `inarow pbrain`.
#[derive(clap::Args, Debug)]
#[command(long_about = ABOUT, after_help = COMMANDS)]
pub struct Args {
    /// Seed for the opening's random choices.
    #[arg(long, default_value_t = 0, value_parser = crate::numbers::seed)]
    pub seed: u64,
    /// Do not print the MESSAGE line with the search's figures before each
    /// move (YXNBEST's lines and realtime messages, asked for, still come).
    #[arg(long)]
    pub quiet: bool,
    /// Search settings, as `inarow selfplay --a` takes them (e.g.
    /// `lmr_base=40,tt_mb=64`); settings not named keep their defaults.
    #[arg(long, default_value = "", value_name = "SETTINGS")]
    pub settings: String,
    /// The evaluation: the tables of this file (written by `inarow eval
    /// fit`, learned or fine) instead of the embedded ones, or
    /// `rapfi:FILE`, a published classical model (Rapfi's
    /// `model220723.bin`); the same as `eval=...` in the settings.
    #[arg(long, value_name = "FILE")]
    pub eval: Option<std::path::PathBuf>,
}

/// Runs a brain session until `END` or the end of input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut options: inarow_engine::search::Options = args
        .settings
        .parse()
        .map_err(|e| anyhow::anyhow!("bad --settings: {e}"))?;
    if let Some(path) = &args.eval {
        let path = path.to_str().context("--eval: the path is not UTF-8")?;
        options.eval =
            inarow_engine::options::eval_file(path).map_err(|e| anyhow::anyhow!("--eval: {e}"))?;
    }
    let settings = Settings {
        seed: args.seed,
        options,
        messages: !args.quiet,
    };
    let mut brain = Pbrain::new(settings);
    // The session reads on a thread of its own, which takes its reader.
    let stdin = std::io::BufReader::new(std::io::stdin());
    gomocup::run(&mut brain, stdin, std::io::stdout()).context("brain protocol session failed")
}
