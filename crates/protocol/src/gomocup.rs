//! The Gomocup brain protocol ("new protocol" plus the Swap2 extension and
//! the Yixin-board extensions), both sides: [`run`] is the brain's loop,
//! reading a manager's commands and answering them with a [`Brain`];
//! [`manager`] writes the commands and reads a brain's replies.
//!
//! The brain's side, one idea a module: `brain` (the [`Brain`] trait, the
//! types it speaks and [`BrainError`]), `command` ([`Command::parse`], the
//! one reader of a line and its block, and [`CommandError`]), `dispatch`
//! (a [`Command`] applied to a [`Brain`], and the lines it answers) and
//! `session` ([`run`]: the threads, the stop flag, reading while the
//! brain thinks). [`RuleBits`] is `INFO rule` for both sides.
//!
//! Coordinates are `x,y` with `x` the column and `y` the row, from 0.
//!
//! Decisions where the protocol leaves room, on the brain's side:
//! * Only square boards are played (`RECTSTART` only when square; Yixin-
//!   board's `START w h` only when `w = h`).
//! * `BOARD` and `SWAP2BOARD` blocks are checked here: every point on the
//!   board and named once; a brain sees only valid blocks.
//! * Every malformed or impossible command gets one `ERROR <reason>` line;
//!   unknown commands get `UNKNOWN <command>`.
//! * Commands are answered one after another, in the order they came. One
//!   thread reads them while the brain works, so that `YXSTOP` and `END`
//!   reach a brain that thinks: each stops, at once, every think asked for
//!   before it (the answer is the best move found so far); `END` then ends
//!   the session when its turn comes. Other commands that arrive while the
//!   brain thinks wait for the answer. The end of input stops nothing: what
//!   came before it is answered, then the session ends.
//! * Of the Yixin-board extensions (as Yixin-board sends them and Rapfi
//!   answers them):
//!   - `YXBOARD`: a `BOARD` block that sets the position without thinking
//!     (no answer unless it is refused);
//!   - `YXSHOWFORBID`: `FORBID `, black's forbidden points as `xxyy` when
//!     black is to move under renju, then `.`;
//!   - `YXNBEST n` (n from 1): the brain thinks about the position and
//!     sends its best `n` moves as `MESSAGE` lines, then plays the best
//!     one, answered like `BOARD`;
//!   - `YXSTOP`: stops the think under way (see above); nothing is sent
//!     for it when the brain is idle;
//!   - `YXHASHCLEAR`: the brain forgets what it learnt (its table);
//!     answered `MESSAGE transposition table cleared`;
//!   - `YXSHOWINFO`: the brain's `MESSAGE` lines about itself (Yixin-board
//!     reads `MESSAGE INFO MAX_THREAD_NUM n` and `MESSAGE INFO
//!     MAX_HASH_SIZE n`), and realtime messages from then on;
//!   - `INFO max_node n` (a node limit per move; `-1` or `0` for none),
//!     `INFO max_depth n` (`0` for none), `INFO show_detail n` (bit 1:
//!     realtime messages) and `INFO hash_size n` (the table in KiB, as
//!     Rapfi reads it; `0` for the brain's own size).

mod brain;
mod command;
mod dispatch;
pub mod manager;
mod rule;
mod session;
mod xy;

pub use brain::{Brain, BrainError, Decision, Extension, Field, Info, Link, Swap2Move};
pub use command::{Command, CommandError, PointError};
pub use rule::RuleBits;
pub use session::run;
pub use xy::{XyError, format_xy, parse_xy};
