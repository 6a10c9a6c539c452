//! The engine as a Gomocup brain: [`Pbrain`] answers the commands that
//! `inarow_protocol::gomocup::run` reads, so both binaries and the tests
//! share one protocol loop. The adapter lives with its front, not in the
//! engine, so the engine stays free of wire formats.
//!
//! In freestyle and exact five the brain's own stones are kept as black and
//! the opponent's as white: there the colours differ only in who moves, and
//! the brain is always the side to move when asked to think. Under renju
//! the colours are the real ones: the brain is black after `BEGIN`, white
//! after a `TURN` on an empty board, and in a `BOARD` or `YXBOARD` block
//! the first stone's owner is black (as Rapfi reads it).
//!
//! Decisions where the protocol leaves room:
//! * Board sizes 5 to 20 are accepted.
//! * `INFO rule` sets the rule from then on, for the game in progress and
//!   every later one (`START` and `RESTART` keep it, as managers send it
//!   once): bit 4 plays renju, bit 1 (exactly five wins) exact five, no bit
//!   freestyle; bit 2 (continuous game) changes nothing here, except that
//!   `INFO rule 2` alone is renju, as Yixin-board sends it (and Rapfi reads
//!   it). A higher bit (caro, 8) is answered with one `ERROR` line and the
//!   rule of the lower bits is played.
//! * `YXSHOWFORBID` lists black's forbidden points when black is to move
//!   under renju (black is to move when the colours have as many stones).
//! * `BOARD` field 3 (a stone of a finished line in a continuous game) takes
//!   the point out of play for both sides.
//! * A move's search stops at the first limit reached: the time
//!   (`timeout_turn`, the match's time left), `INFO max_node` and `INFO
//!   max_depth`; `YXSTOP` and `END` stop it sooner.
//! * `YXNBEST n` gives at most 5 lines (the analysis's `MAX_LINES`), each
//!   as an info line numbered `line K` (see below), best first, whatever
//!   the `--quiet` setting; then the best move, played like `BOARD`'s
//!   answer. Stopped by `YXSTOP`, it gives the lines it found (one at
//!   least).
//! * Messages come in two kinds. For people, one form of info line
//!   ([`Figures::said`]): `MESSAGE [line K] depth D score S (MEANING) nodes
//!   N time T ms speed Vk/s pv h8 i9 ...`, the score as Rapfi writes it
//!   (`+M5` a win proven 5 plies to the five, `-M4` a loss; managers such
//!   as `inarow selfplay` read `score +Mn`), its meaning (`win rate 62%`,
//!   `win in 5`), the line in gomoku notation; before each move (unless
//!   `--quiet`), after each completed iteration while realtime messages
//!   are on, and for `YXNBEST`. For Yixin-board, the forms its source
//!   parses: the board marks `MESSAGE REALTIME REFRESH`, `BEST x,y`, `POS
//!   x,y`, `DONE x,y`, `LOSE x,y`, and `MESSAGE INFO MAX_THREAD_NUM n` and
//!   `MAX_HASH_SIZE n`. The marks keep the protocol's `x,y`: Yixin-board
//!   reads them with `sscanf("%d,%d")`, as it reads a move, so a mark in
//!   gomoku notation would be lost. Every other `MESSAGE` it shows as text.
//! * Realtime messages (after `YXSHOWINFO`, or `INFO show_detail` with bit
//!   1; `INFO show_detail 0` turns them off), while the brain thinks: each
//!   completed iteration's info line, and when thinking of a move,
//!   Yixin-board's marks after it: `MESSAGE REALTIME REFRESH` and `MESSAGE
//!   REALTIME BEST x,y`; a move that loses by force is marked `MESSAGE
//!   REALTIME LOSE x,y` before the answer. After `YXNBEST`, the lines are
//!   marked: the first `BEST`, the others `POS` then `DONE` (searched),
//!   those that lose by force `LOSE`.
//! * `INFO hash_size` (Yixin-board's, in KiB, as Rapfi reads it) sizes the
//!   table, up to 2^22 KiB (4 GiB); 0 goes back to `--settings tt_mb=`'s
//!   (32 MiB unless set). `INFO max_memory` keeps it within half the
//!   memory allowed.
//! * `INFO thread_num n` searches on n threads (lazy SMP sharing the
//!   table; 0 is 1), at most the machine's cores: more is answered with
//!   one `ERROR` line and the most are used. Unless set, one thread (or
//!   `--settings threads=`'s).
//! * `YXSHOWINFO` answers `MESSAGE inarow <version>`, `MESSAGE hash table
//!   <size>` (the table's size now), `MESSAGE search threads <n>` (the
//!   threads now), `MESSAGE INFO MAX_THREAD_NUM <cores>` (the most `INFO
//!   thread_num` takes: the machine's cores, at most 64) and `MESSAGE
//!   INFO MAX_HASH_SIZE 22` (the largest
//!   `INFO hash_size`, as a power of two of KiB: Yixin-board's hash slider
//!   goes up to it and sends `2^n`).

use std::time::{Duration, Instant};

use inarow_core::notation::xy_name;
use inarow_core::swap2::Phase;
use inarow_core::{Player, Point, Rule};
use inarow_protocol::gomocup::{Brain, BrainError, Decision, Field, Info, Link, Swap2Move};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use inarow_engine::analysis;
use inarow_engine::board::{Board, Cell};
use inarow_engine::opening;
use inarow_engine::pos::Pos;
use inarow_engine::score::is_decided;

use crate::said::{Evaluation, ev};
use inarow_engine::search::{
    Found, Limits, MAX_THREADS, Options, Progress, Request, Searcher, Watcher,
};
use inarow_engine::time::{self, Clock};

/// Settings of a brain session.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Seed for the opening's random choices.
    pub seed: u64,
    /// Search options.
    pub options: Options,
    /// Print a `MESSAGE` line with the search figures before each move.
    pub messages: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 0,
            options: Options::default(),
            messages: true,
        }
    }
}

/// The engine's state between a manager's commands.
pub struct Pbrain {
    settings: Settings,
    board: Option<Board>,
    searcher: Searcher,
    rng: ChaCha8Rng,
    turn: Option<Duration>,
    match_total: Option<Duration>,
    time_left: Option<Duration>,
    rule: Rule,
    max_memory: Option<usize>,
    /// `INFO hash_size`: the table's size in KiB, when asked for.
    hash_kib: Option<u64>,
    /// `INFO thread_num`: search threads, when asked for.
    threads: Option<usize>,
    /// `INFO max_node`: nodes a move may search.
    max_nodes: Option<u64>,
    /// `INFO max_depth`: the deepest iteration.
    max_depth: Option<u64>,
    /// Realtime messages while thinking (`YXSHOWINFO`, `INFO show_detail`).
    realtime: bool,
    /// The session, once connected: the stop flag and the output.
    link: Option<Link>,
    /// The brain's colour: black except as renju's white.
    me: Player,
}

impl Pbrain {
    /// A brain with no board yet (the manager starts with `START`).
    pub fn new(settings: Settings) -> Pbrain {
        Pbrain {
            settings,
            board: None,
            searcher: Searcher::new(settings.options),
            rng: ChaCha8Rng::seed_from_u64(settings.seed),
            turn: None,
            match_total: None,
            time_left: None,
            rule: Rule::Freestyle,
            max_memory: None,
            hash_kib: None,
            threads: None,
            max_nodes: None,
            max_depth: None,
            realtime: false,
            link: None,
            me: Player::X,
        }
    }

    /// A searcher with these options.
    fn new_searcher(&self, options: Options) -> Searcher {
        Searcher::new(options)
    }

    /// The table's size: `INFO hash_size`'s, else the settings' (`tt_mb`),
    /// at most half of `INFO max_memory` (the rest for everything else).
    fn table_bytes(&self) -> usize {
        let asked = self.hash_kib.map_or(self.settings.options.tt_bytes, |kib| {
            usize::try_from(kib << 10).unwrap_or(usize::MAX)
        });
        self.max_memory.map_or(asked, |m| asked.min(m / 2))
    }

    /// Search threads: `INFO thread_num`'s, else the settings'
    /// (`threads=`, 1 unless set).
    fn thread_count(&self) -> usize {
        self.threads.unwrap_or(self.settings.options.threads)
    }

    /// A new searcher when the table's size or the threads change, not
    /// otherwise: a manager's first `INFO max_memory` comes after
    /// `START`, and a fresh 32 MB table would cost the first move ~30 ms
    /// outside the search's clock.
    fn resize_table(&mut self) {
        let (bytes, threads) = (self.table_bytes(), self.thread_count());
        let now = self.searcher.options();
        if bytes != now.tt_bytes || threads != now.threads {
            let mut options = self.settings.options;
            options.tt_bytes = bytes;
            options.threads = threads;
            self.searcher = self.new_searcher(options);
        }
    }

    /// The logistic scale of the evaluation under the rule played: what
    /// its scores mean as win rates.
    fn scale(&self) -> f64 {
        self.settings.options.eval.logistic_scale(self.rule)
    }

    /// A search's request: a move's limits ([`Pbrain::limits`]), stopped
    /// when the session asks, and with realtime messages for a search on
    /// `b` when they are on (board marks too when `marks`).
    fn request(&self, watched: Option<(&Board, bool)>) -> Request {
        let watcher = match (&self.link, self.realtime, watched) {
            (Some(link), true, Some((b, marks))) => {
                Some(realtime(link.clone(), Geometry::of(b, self.scale()), marks))
            }
            _ => None,
        };
        Request::new(self.limits())
            .stopped_by(self.link.as_ref().map(Link::stop_flag))
            .watched(watcher, Duration::MAX)
    }

    /// A move's limits: the time budget, and the node and depth limits
    /// when set; the first reached stops the search.
    fn limits(&self) -> Limits {
        let mut limits = Limits::time(self.budget());
        if let Some(n) = self.max_nodes {
            limits.nodes = n;
        }
        if let Some(d) = self.max_depth {
            limits.depth = limits.depth.min(u32::try_from(d).unwrap_or(u32::MAX));
        }
        limits
    }

    /// Checks that the board has a move to think about: not over, not full.
    fn playable(&self) -> Result<(), BrainError> {
        let b = self.board.as_ref().ok_or(BrainError::NoBoard)?;
        if b.last_move_won() || has_five(b) {
            return Err(BrainError::GameOver);
        }
        if b.empty_count() == 0 {
            return Err(BrainError::BoardFull);
        }
        Ok(())
    }

    fn budget(&self) -> Duration {
        let match_left = self.time_left.or(self.match_total);
        time::budget(Clock {
            turn: self.turn,
            match_left,
        })
    }

    fn board(&mut self) -> Result<&mut Board, BrainError> {
        self.board.as_mut().ok_or(BrainError::NoBoard)
    }

    /// Thinks for the brain (the side to move) and plays the move.
    fn think(&mut self) -> Result<Decision, BrainError> {
        let me = self.me;
        self.playable()?;
        // Taken out while the searcher, beside it, searches.
        let mut b = self.board.take().ok_or(BrainError::NoBoard)?;
        b.set_to_move(me);
        let mut request = self.request(Some((&b, true)));
        let found = self.searcher.search(&mut b, &mut request);
        let geometry = Geometry::of(&b, self.scale());
        if let Some(link) = self.link.as_ref().filter(|_| self.realtime)
            && loses(found.score)
        {
            link.say(format!(
                "MESSAGE REALTIME LOSE {}",
                geometry.xy_text(found.best)
            ));
        }
        let message = self
            .settings
            .messages
            .then(|| Figures::of_found(&found).said(&geometry));
        let point = b.point(found.best);
        b.play_unchecked(found.best);
        b.set_to_move(me);
        self.board = Some(b);
        Ok(Decision { point, message })
    }

    /// The position of a `BOARD` or `YXBOARD` block: the brain's colour
    /// (renju's black is the first stone's owner) and the board.
    fn position(&mut self, stones: &[(Point, Field)]) -> Result<Board, BrainError> {
        let first = stones.iter().find(|&&(_, f)| f != Field::Wall);
        self.me = match first {
            Some(&(_, Field::Opponent)) if self.rule == Rule::Renju => Player::O,
            _ => Player::X,
        };
        let me = self.me;
        let mut b = self.fresh(stones.iter().map(|&(p, field)| {
            let stone = match field {
                Field::Own => Some(me),
                Field::Opponent => Some(me.opponent()),
                Field::Wall => None,
            };
            (p, stone)
        }))?;
        b.set_to_move(me);
        Ok(b)
    }

    /// After a change of rule: under renju the colours become the real
    /// ones (the brain white if the opponent has more stones), under the
    /// others the brain's stones are black again.
    fn recolour(&mut self) -> Result<(), BrainError> {
        let Some(b) = self.board.as_ref() else {
            return Ok(());
        };
        let (own, theirs) = (stones_of(b, self.me), stones_of(b, self.me.opponent()));
        let me = if self.rule == Rule::Renju && own < theirs {
            Player::O
        } else {
            Player::X
        };
        let old = self.me;
        let stones: Vec<(Point, Option<Player>)> = b
            .history()
            .iter()
            .map(|&i| {
                let stone = match b.cell(i) {
                    Cell::Stone(c) if c == old => Some(me),
                    Cell::Stone(_) => Some(me.opponent()),
                    _ => None,
                };
                (b.point(i), stone)
            })
            .collect();
        self.me = me;
        let mut fresh = self.fresh(stones)?;
        fresh.set_to_move(me);
        self.board = Some(fresh);
        Ok(())
    }

    /// A new board of the current size with `stones` placed in order (a
    /// colour's stone, or `None` for a point taken out of play).
    fn fresh(
        &self,
        stones: impl IntoIterator<Item = (Point, Option<Player>)>,
    ) -> Result<Board, BrainError> {
        let size = self
            .board
            .as_ref()
            .map(Board::size)
            .ok_or(BrainError::NoBoard)?;
        let mut b = Board::with_rule(size, self.rule).expect("size was accepted");
        for (point, stone) in stones {
            let p = b.pos_of(point).map_err(refused)?;
            match stone {
                Some(colour) => b.place(p, colour),
                None => b.wall(p),
            }
            .map_err(refused)?;
        }
        Ok(b)
    }
}

impl Brain for Pbrain {
    fn size(&self) -> Option<usize> {
        self.board.as_ref().map(Board::size)
    }

    fn start(&mut self, size: usize) -> Result<(), BrainError> {
        let b = Board::with_rule(size, self.rule).map_err(refused)?;
        self.board = Some(b);
        self.me = Player::X;
        self.searcher.clear();
        Ok(())
    }

    fn begin(&mut self) -> Result<Decision, BrainError> {
        if self.board()?.stones() > 0 {
            return Err(BrainError::BeginNotEmpty);
        }
        self.me = Player::X;
        self.think()
    }

    fn turn(&mut self, point: Point) -> Result<Decision, BrainError> {
        let renju = self.rule == Rule::Renju;
        let b = self.board.as_mut().ok_or(BrainError::NoBoard)?;
        if renju && b.stones() == 0 {
            // The opponent opened: it is black.
            self.me = Player::O;
            b.set_to_move(Player::X);
        }
        let p = b.pos_of(point).map_err(refused)?;
        b.place(p, self.me.opponent()).map_err(refused)?;
        self.think()
    }

    fn board(&mut self, stones: &[(Point, Field)]) -> Result<Decision, BrainError> {
        let b = self.position(stones).map_err(|e| e.within("BOARD"))?;
        self.board = Some(b);
        self.think()
    }

    fn swap2(&mut self, stones: &[Point], phase: Phase) -> Result<Swap2Move, BrainError> {
        let mut b = self
            .fresh(
                stones
                    .iter()
                    .enumerate()
                    .map(|(k, &p)| (p, Some([Player::X, Player::O][k % 2]))),
            )
            .map_err(|e| e.within("SWAP2BOARD"))?;
        b.set_to_move(if stones.len() % 2 == 0 {
            Player::X
        } else {
            Player::O
        });
        // The opening's searches are not a move's: no realtime messages.
        let mut request = self.request(None);
        Ok(match phase {
            Phase::Open => Swap2Move::Open(opening::open(
                b.size(),
                self.rule,
                &mut self.searcher,
                &mut self.rng,
                &mut request,
            )),
            Phase::Answer => {
                Swap2Move::Answer(opening::answer(&mut b, &mut self.searcher, &mut request))
            }
            Phase::Colour | Phase::Play | Phase::Over => {
                let (colour, found) = opening::choose(&mut b, &mut self.searcher, &mut request);
                if colour == b.to_move() {
                    Swap2Move::PlayWhite(b.point(found.best))
                } else {
                    Swap2Move::TakeBlack
                }
            }
        })
    }

    fn take_back(&mut self, point: Point) -> Result<(), BrainError> {
        let me = self.me;
        let b = self.board()?;
        let i = b.pos_of(point).map_err(refused)?;
        if b.is_empty(i) {
            let (x, y) = (point.col(b.size()), point.row(b.size()));
            return Err(BrainError::NothingToTakeBack { x, y });
        }
        b.remove(i);
        b.set_to_move(me);
        Ok(())
    }

    fn info(&mut self, info: Info) -> Result<(), BrainError> {
        match info {
            Info::TimeoutTurn(n) => self.turn = Some(Duration::from_millis(n)),
            // 0 means no limit for the match.
            Info::TimeoutMatch(n) => self.match_total = (n > 0).then(|| Duration::from_millis(n)),
            Info::TimeLeft(n) => self.time_left = Some(Duration::from_millis(n)),
            Info::MaxMemory(n) => {
                self.max_memory = (n > 0).then_some(n as usize);
                self.resize_table();
            }
            Info::HashSize(kib) => {
                if kib > 1 << MAX_HASH_LOG2_KIB {
                    return Err(BrainError::Refused(format!(
                        "INFO hash_size {kib} is more than the largest table, {} KiB (2^{MAX_HASH_LOG2_KIB}): the table stays {}",
                        1u64 << MAX_HASH_LOG2_KIB,
                        bytes_said(self.searcher.options().tt_bytes)
                    )));
                }
                self.hash_kib = (kib > 0).then_some(kib);
                self.resize_table();
            }
            Info::Rule(bits) => {
                self.rule = bits.rule();
                if let Some(b) = self.board.as_mut() {
                    b.set_rule(self.rule);
                }
                self.recolour()?;
                // Unknown bits still leave the rule of the known ones.
                if !bits.is_supported() {
                    return Err(BrainError::UnsupportedRule {
                        bits,
                        playing: self.rule,
                    });
                }
            }
            Info::ThreadNum(n) => {
                let most = max_threads();
                // 0 is taken as 1, as Rapfi takes it.
                let asked = usize::try_from(n).unwrap_or(usize::MAX).max(1);
                self.threads = Some(asked.min(most));
                self.resize_table();
                if asked > most {
                    return Err(BrainError::Refused(format!(
                        "INFO thread_num {n} is more than MAX_THREAD_NUM, {most}: searching on {most} threads"
                    )));
                }
            }
            Info::MaxNode(n) => self.max_nodes = n,
            Info::MaxDepth(d) => self.max_depth = d,
            Info::ShowDetail(n) => self.realtime = n & 1 != 0,
            Info::GameType(_) => {}
        }
        Ok(())
    }

    fn set_position(&mut self, stones: &[(Point, Field)]) -> Result<(), BrainError> {
        let b = self.position(stones)?;
        self.board = Some(b);
        Ok(())
    }

    fn forbidden_points(&mut self) -> Result<Vec<Point>, BrainError> {
        let b = self.board.as_ref().ok_or(BrainError::NoBoard)?;
        // Black moves when the colours have as many stones.
        if stones_of(b, Player::X) != stones_of(b, Player::O) {
            return Ok(Vec::new());
        }
        Ok(b.points()
            .iter()
            .copied()
            .filter(|&i| b.forbidden(i).is_some())
            .map(|i| b.point(i))
            .collect())
    }

    fn connect(&mut self, link: Link) {
        self.link = Some(link);
    }

    fn nbest(&mut self, n: usize) -> Result<Decision, BrainError> {
        let me = self.me;
        self.playable()?;
        let mut b = self.board.take().ok_or(BrainError::NoBoard)?;
        b.set_to_move(me);
        let mut request = self.request(Some((&b, false)));
        let started = Instant::now();
        let analysis = analysis::analyse(&mut self.searcher, &mut b, n, &mut request);
        let elapsed = started.elapsed();
        // Stopped, the analysis has the lines it found (one at least).
        let lines = analysis.lines;
        let geometry = Geometry::of(&b, self.scale());
        if let Some(link) = &self.link {
            for (k, line) in lines.iter().enumerate() {
                // Each line with the whole analysis's nodes and time.
                let figures = Figures {
                    line: Some(k + 1),
                    nodes: analysis.nodes,
                    elapsed,
                    vcf: false,
                    ..Figures::of_found(line)
                };
                link.say(format!("MESSAGE {}", figures.said(&geometry)));
            }
            if self.realtime {
                link.say("MESSAGE REALTIME REFRESH");
                for (k, line) in lines.iter().enumerate() {
                    let at = geometry.xy_text(line.best);
                    if loses(line.score) {
                        link.say(format!("MESSAGE REALTIME LOSE {at}"));
                    } else if k == 0 {
                        link.say(format!("MESSAGE REALTIME BEST {at}"));
                    } else {
                        link.say(format!("MESSAGE REALTIME POS {at}"));
                        link.say(format!("MESSAGE REALTIME DONE {at}"));
                    }
                }
            }
        }
        let best = lines[0].best;
        let point = b.point(best);
        b.play_unchecked(best);
        b.set_to_move(me);
        self.board = Some(b);
        Ok(Decision {
            point,
            message: None,
        })
    }

    fn clear_hash(&mut self) -> Result<(), BrainError> {
        self.searcher.clear();
        Ok(())
    }

    fn show_info(&mut self) -> Result<Vec<String>, BrainError> {
        self.realtime = true;
        Ok(vec![
            format!("inarow {}", env!("CARGO_PKG_VERSION")),
            format!(
                "hash table {}",
                bytes_said(self.searcher.options().tt_bytes)
            ),
            format!("search threads {}", self.searcher.options().threads),
            format!("INFO MAX_THREAD_NUM {}", max_threads()),
            format!("INFO MAX_HASH_SIZE {MAX_HASH_LOG2_KIB}"),
        ])
    }

    fn about(&self) -> String {
        format!(
            "name=\"inarow\", version=\"{}\", author=\"inarow developers\", country=\"-\", www=\"-\"",
            env!("CARGO_PKG_VERSION")
        )
    }
}

/// The engine's refusal of a size or a stone, in its words.
fn refused(e: impl std::fmt::Display) -> BrainError {
    BrainError::Refused(e.to_string())
}

/// How many stones `colour` has on `b`.
fn stones_of(b: &Board, colour: Player) -> usize {
    b.points()
        .iter()
        .filter(|&&i| b.cell(i) == Cell::Stone(colour))
        .count()
}

fn has_five(b: &Board) -> bool {
    b.history().iter().any(|&i| b.wins_through(i))
}

/// True if `score` is a loss by force.
fn loses(score: i32) -> bool {
    score < 0 && is_decided(score)
}

/// The most threads `INFO thread_num` may ask for, as `YXSHOWINFO` tells
/// Yixin-board (`MAX_THREAD_NUM`: its thread setting goes up to it): the
/// machine's cores, at most the engine's [`MAX_THREADS`].
fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(MAX_THREADS)
}

/// The largest table `INFO hash_size` may ask for, as the power of two
/// of its KiB that `YXSHOWINFO` tells Yixin-board (`MAX_HASH_SIZE`: its
/// hash slider goes to it): 2^22 KiB, 4 GiB.
const MAX_HASH_LOG2_KIB: u32 = 22;

/// A table's size in bytes as people read it: `32 MiB`, `512 KiB`.
fn bytes_said(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// What a search found, or one line of an analysis, as the brain's one
/// form of info line says it to people ([`Figures::said`]).
struct Figures<'a> {
    /// The line's rank among `YXNBEST`'s, 1 the best; none for a move.
    line: Option<usize>,
    depth: u32,
    /// For the brain, the side to move.
    score: i32,
    /// Proven by the threat search before any tree.
    vcf: bool,
    nodes: u64,
    elapsed: Duration,
    /// The line expected, its move first.
    pv: &'a [Pos],
}

impl<'a> Figures<'a> {
    fn of_found(found: &'a Found) -> Figures<'a> {
        Figures {
            line: None,
            depth: found.depth,
            score: found.score,
            vcf: found.vcf,
            nodes: found.nodes,
            elapsed: found.elapsed,
            pv: &found.pv,
        }
    }

    /// `[line K] depth D score S (MEANING) nodes N time T ms speed Kk/s
    /// pv h8 i9 ...`: the score as Rapfi writes it (`+M5`: a win proven 5
    /// plies to the five; the number otherwise, which `score` keeps for
    /// managers that read `score +Mn`), what it means for the brain
    /// (`win in 5`, `win rate 62%`), thousands of nodes a second, and the
    /// line's points named as players write them.
    fn said(&self, geometry: &Geometry) -> String {
        let rank = self.line.map_or(String::new(), |k| format!("line {k} "));
        let meaning = Evaluation::of(self.score, geometry.scale);
        let vcf = if self.vcf { ", VCF" } else { "" };
        let ms = self.elapsed.as_millis();
        let speed = match u128::from(self.nodes).checked_div(ms) {
            Some(per_ms) => format!("{per_ms}k/s"),
            None => "-".to_string(),
        };
        format!(
            "{rank}depth {} score {} ({meaning}{vcf}) nodes {} time {ms} ms speed {speed} pv {}",
            self.depth,
            ev(self.score),
            self.nodes,
            geometry.names(self.pv)
        )
    }
}

/// Names of a board's points, kept apart from the board for a watcher
/// that runs while the board is searched (see [`Pos::xy_on`]): the
/// brain's one crossing from the engine's points to `(x, y)`; and what
/// its scores mean, by the evaluation's logistic scale.
struct Geometry {
    size: usize,
    scale: f64,
}

impl Geometry {
    fn of(b: &Board, scale: f64) -> Geometry {
        Geometry {
            size: b.size(),
            scale,
        }
    }

    fn xy(&self, i: Pos) -> (usize, usize) {
        i.xy_on(self.size)
            .expect("the search names points of the board")
    }

    /// The protocol's `x,y` of `i`.
    fn xy_text(&self, i: Pos) -> String {
        let (x, y) = self.xy(i);
        format!("{x},{y}")
    }

    /// Points as gomoku names (`h8 i9`), for people to read.
    fn names(&self, moves: &[Pos]) -> String {
        moves
            .iter()
            .map(|&i| {
                let (x, y) = self.xy(i);
                xy_name(x, y, self.size)
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The watcher of realtime messages: each completed iteration (and the
/// search's end) as an info line, with Yixin-board's board marks after it
/// when `marks`.
fn realtime(link: Link, geometry: Geometry, marks: bool) -> Watcher {
    Box::new(move |p: &Progress<'_>| {
        if !p.iteration {
            return;
        }
        let figures = Figures {
            line: None,
            depth: p.depth,
            score: p.score,
            vcf: false,
            nodes: p.nodes,
            elapsed: p.elapsed,
            pv: p.pv,
        };
        link.say(format!("MESSAGE {}", figures.said(&geometry)));
        if marks {
            link.say("MESSAGE REALTIME REFRESH");
            link.say(format!(
                "MESSAGE REALTIME BEST {}",
                geometry.xy_text(p.best)
            ));
        }
    })
}
