//! Every number of the selective search in one table, so that a tuner can
//! move them together: reduction and pruning margins, extensions and move
//! counts. Depths are in hundredths of a ply ([`ONE_PLY`]), margins in the
//! evaluation's units.

/// One ply in the search's depth units.
pub const ONE_PLY: i32 = 100;

macro_rules! params {
    ($( $(#[$doc:meta])* $name:ident = $default:expr, $min:expr, $max:expr; )*) => {
        /// The selective search's numbers (see the module documentation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[$doc])* pub $name: i32, )*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $( $name: $default, )* }
            }
        }

        impl Params {
            /// Every setting: name, default, least and greatest value.
            pub const TABLE: &'static [(&'static str, i32, i32, i32)] =
                &[ $( (stringify!($name), $default, $min, $max), )* ];

            /// The value of the setting `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }
        }
    };
}

// The defaults are the first SPSA round's (314 rounds of 16 games at
// 4,000 nodes a move, docs/engine-log.md "The selective search"), rounded,
// with set-ups made prunable (`lmp_setup`) and reductions at defending
// nodes and per ln(depth)·ln(move number) raised with them (+26 Elo at
// 100 ms against the round's own settings), and the policy-based
// reduction on (+16 Elo by pairs over 500 pairs at 6,000 to 12,000 nodes,
// docs/engine-log.md "Extensions and reductions"). The fail-high reduction is
// in the table but off: its games were noise. Reverse futility at every
// depth on the table-refined estimate, and the singular extension with its
// double extension and multi-cut, are on (issue 46: together +16, +56,
// +82 and +33 Elo by pairs at 6,000 to 15,000 nodes, docs/engine-log.md
// "Rapfi's reductions"). Since issue 55 the defaults are Rapfi's search
// rules together at Rapfi's values (profile B of docs/engine-log.md
// "Rapfi's last search rules, as settings": every move counted against
// the move count, Rapfi's reductions, extensions and margins): alone each
// was noise in self-play; together they moved the search's own figure
// against Rapfi from -122 to -83 Elo at equal nodes and the gate from
// -44 to -1 (docs/engine-log.md "Gate matches"). `threat_prune` stays off.
// Rapfi's move count and reductions read exactly (docs/engine-log.md
// "Where the two searches differ, counted"): moves numbered from one,
// the count at principal-variation nodes too, defences reduced by the
// node's kind, history worth about a ply: the search's own figure on the
// clock from -111 to -58 Elo, renju from -21 to -2, freestyle level
// (-3 against -1); on the principal variation our own fours stay.
params! {
    /// Reduction of every late move, hundredths of a ply.
    lmr_base = 100, 0, 300;
    /// Reduction per ln(depth)·ln(move number), hundredths of a ply.
    lmr_scale = 100, 0, 300;
    /// Less reduction at principal-variation nodes.
    lmr_pv = 200, 0, 300;
    /// More reduction at expected cut nodes.
    lmr_cut = 180, 0, 300;
    /// Less reduction where the static score improves on two plies ago.
    lmr_improving = 100, 0, 300;
    /// Less reduction for moves that make or stop a set-up (a three, a
    /// three with a two, two twos).
    lmr_setup = 0, 0, 300;
    /// Less reduction still for moves that make an open three or more
    /// (they force an answer).
    lmr_threat = 0, 0, 300;
    /// Reduction of late moves at a node that must answer a three or a
    /// fork (counter-fours, and defences past the first), as a share of the
    /// free nodes' reduction in percent (0: none).
    lmr_defence = 100, 0, 200;
    /// History score worth one ply less (or more) reduction (Rapfi's
    /// `statScore / 12267`; SPSA's 736 made history worth up to 22 plies).
    lmr_history = 12000, 500, 30000;
    /// Policy-based reduction: the gap in static ordering score (point
    /// values and class, `movepick::point_score` + `class_bonus`) below the
    /// node's best-scored move that is worth one ply more reduction of a
    /// late move at a free node; moves nearer the best than
    /// `lmr_policy_mid` are reduced less (0: off).
    lmr_policy = 0, 0, 5000;
    /// The gap below the best static ordering score at which the policy
    /// reduction is nothing: wider gaps reduce more, narrower less.
    lmr_policy_mid = 450, 0, 5000;
    /// Most the policy reduction adds or takes away, hundredths of a ply.
    lmr_policy_max = 200, 0, 400;
    /// Killers are spared the cut nodes' extra reduction (`lmr_cut`) when
    /// 1, as Rapfi's are.
    lmr_cut_killer = 1, 0, 1;
    /// Less reduction at a node the table remembers on a principal
    /// variation, hundredths (0: none).
    lmr_tt_pv = 97, 0, 300;
    /// More reduction of a counter-four, at a node that must answer a
    /// three or a fork, made farther than four lines from the threat's
    /// stone, hundredths (0: none).
    lmr_far_four = 0, 0, 300;
    /// Less reduction of a move that continues an attack: it forces an
    /// answer, the opponent's last move had to answer ours, and it lies
    /// within four lines of our last, hundredths (0: none).
    lmr_attack = 53, 0, 300;
    /// Once a move raises alpha without a cut, the later moves of the
    /// node are searched this much shallower, hundredths (0: none).
    raised_reduction = 100, 0, 300;
    /// A table move stored this many plies shallower than the node is
    /// stale: the node is searched a ply shallower, as without one
    /// (0: never).
    iir_stale = 0, 0, 20;
    /// Moves searched before quiet ones are pruned: base, hundredths.
    lmp_base = 300, 0, 2000;
    /// Moves before pruning per depth^(lmp_power/100), hundredths.
    lmp_scale = 100, 10, 1000;
    /// Set-up moves (a three with a two, two twos, a block of an open
    /// three to come) are pruned too once this many percent of the move
    /// count have been searched; moves that force an answer never are
    /// (0: set-ups are never pruned).
    lmp_setup = 100, 0, 1000;
    /// Exponent of the depth in the move count, hundredths.
    lmp_power = 132, 50, 250;
    /// Deepest remaining depth (plies) for reverse futility pruning.
    rfp_depth = 20, 0, 20;
    /// Reverse futility margin per ply of depth.
    rfp_margin = 46, 5, 500;
    /// Reverse futility on the best estimate of the node (1): the static
    /// score, or the table's score where its bound says the value lies
    /// beyond it, as Rapfi's is; 0: the static score alone.
    rfp_estimate = 1, 0, 1;
    /// Deepest remaining depth (plies) for razoring into the leaf VCF.
    razor_depth = 3, 0, 10;
    /// Razoring margin: fixed part.
    razor_base = 22, 0, 1000;
    /// Razoring margin: per ply of depth.
    razor_margin = 16, 0, 1000;
    /// Deepest remaining depth (plies) for futility pruning of quiet moves.
    futility_depth = 0, 0, 10;
    /// Futility margin per ply of depth.
    futility_margin = 63, 5, 1000;
    /// Fail-high reduction: at an expected cut node off the principal
    /// variation that need answer nothing and whose static score (or the
    /// table's score, where its bound says more) stands this much per ply
    /// of depth above beta, every move but a four is searched
    /// `fhr_reduction` shallower.
    fhr_margin = 17, 0, 500;
    /// Fail-high reduction, hundredths of a ply (0: off).
    fhr_reduction = 100, 0, 300;
    /// Least depth (plies) for the fail-high reduction.
    fhr_depth = 1, 1, 20;
    /// Least depth (plies) for null-move pruning; 0 turns it off.
    nmp_depth = 10, 0, 20;
    /// Null-move reduction: fixed part, hundredths of a ply.
    nmp_base = 367, 100, 800;
    /// Null-move reduction per ply of depth, hundredths.
    nmp_scale = 14, 0, 100;
    /// Least depth (plies) for internal iterative reduction without a table move.
    iir_depth = 6, 0, 20;
    /// Least depth (plies) for the singular extension of the table move
    /// (0: none).
    se_depth = 7, 0, 20;
    /// Singular extension's margin below the table's score, per ply of
    /// depth.
    se_margin = 1, 0, 500;
    /// Least depth (plies) for the singular extension of the table move at
    /// a node under threat: one that must answer an open three or a fork,
    /// or where the opponent has a four to make (0: these nodes follow
    /// `se_depth` like any other).
    se_four_depth = 0, 0, 20;
    /// Double singular extension: two plies when the search without the
    /// table move stays this much below the singular bound, in the
    /// evaluation's units (0: never).
    se_double = 28, 0, 1000;
    /// Multi-cut (1): when the search without the table move still
    /// reaches beta, the node is cut with that bound.
    se_multicut = 1, 0, 1;
    /// First aspiration window half-width; 0 searches every iteration with
    /// a full window.
    aspiration = 18, 0, 2000;
    /// Aspiration half-width past which a failing iteration is searched
    /// again with a full window.
    aspiration_max = 4000, 500, 100000;
    /// Depth a four's forced block costs, hundredths (100: a whole ply);
    /// below zero the block is a net extension, as Rapfi's is.
    block_cost = -30, -100, 100;
    /// Depth a four costs, hundredths.
    four_cost = 100, 0, 150;
    /// Depth a move that makes an open three (or a three-three) costs,
    /// hundredths: threats are followed further than quiet moves.
    three_cost = 100, 0, 150;
    /// Depth a defence against a three or a fork costs, hundredths.
    defence_cost = 100, 0, 150;
    /// Below this depth (hundredths; 0: never), a node off the principal
    /// variation that must answer an open three does not search its
    /// defences: it drops into the leaf VCF on its static evaluation, as
    /// Rapfi's shallow nodes do (the evaluation's threat mask knows the
    /// three).
    three_leaf_depth = 260, 0, 1000;
    /// Late move pruning at nodes that must answer an open three or a
    /// fork, in percent of the free nodes' move count (0: never; a
    /// defence that holds is searched first).
    lmp_defence = 100, 0, 1000;
    /// Late move pruning of our own threats (open threes, fours; a stop
    /// of the opponent's fork point never) at free nodes off the principal
    /// variation, past this percent of the quiet moves' count (0: never),
    /// as Rapfi's move count prunes every move: the leaf VCF still finds
    /// what fours win.
    lmp_forcing = 100, 0, 1000;
    /// Reverse futility and razoring also at nodes off the principal
    /// variation that must answer an open three or a fork (1; 0: at free
    /// nodes only), as Rapfi's steps 7 and 8 run at every node but one
    /// that blocks a five; a node under an open three (Rapfi's `oppo4`)
    /// then stands on its parent's static score negated, as Rapfi's does,
    /// rather than on an evaluation of its own that a pending threat makes
    /// unsure. The null move stays at free nodes.
    threat_prune = 0, 0, 1;
    /// Below this depth (hundredths; 0: never), once a move has not lost,
    /// a move that makes no two or three for either side is pruned at any
    /// node but the root, and at a node answering an open three a move
    /// that blocks no four point and lies more than four lines from
    /// both sides' last moves (a distraction), as Rapfi prunes its
    /// trivial and distract moves below 4.3 plies.
    trivial_depth = 430, 0, 1000;
    /// When a reduced search beats alpha, the full search goes a ply
    /// deeper if it beat alpha by this margin plus 11 a ply of the
    /// reduction, two if by ten times this plus 26 a ply, and a ply
    /// shallower if it stayed within the depth in plies of the node's best
    /// so far (Rapfi's `lmrExtension`, margin 34; 0: never). Past five
    /// plies of such extras in a line, one ply at most.
    lmr_deeper = 38, 0, 1000;
    /// Extension of the table move where no singular search ran,
    /// hundredths, on the principal variation; a third of it elsewhere, and
    /// as much again for a four within four lines of our last move (a fifth
    /// within six), as Rapfi's 0.25, 0.08, 0.24 and 0.05 (0: none).
    tt_extension = 25, 0, 100;
    /// More reduction, hundredths, at the nodes of the root's opponent
    /// once their best already refutes the root's alpha: a line that
    /// cannot improve the root needs less depth (Rapfi's 0.98; 0: none).
    lmr_no_alpha = 98, 0, 300;
    /// More reduction, hundredths, of a move that blocks no four point at
    /// a node answering an open three, when it lies more than four
    /// lines from the opponent's last move; half as much again when more
    /// than four from our own last (Rapfi's 1.93 and 0.96; 0: none).
    lmr_useless_defence = 193, 0, 400;
    /// Fours a leaf VCF plays in a row at most.
    vcf_fours = 10, 0, 40;
    /// Fours of a leaf line after which a plain four (a four that makes
    /// nothing else, [`crate::movepick::class::BLOCK4`]) is no longer
    /// played there, only fours with a three or a two (0: every four
    /// always), as Rapfi's leaf plays plain fours in its first two only.
    vcf_plain = 2, 0, 40;
    /// Fours after which the leaf VCF keeps only fours near the last one.
    vcf_near = 0, 0, 40;
    /// Node budget of a quick VCF at the root before the tree (0: none): a
    /// short win by fours is played without growing a tree for it.
    root_vcf_nodes = 3000, 0, 100000;
    /// Where the threat search by fours and threes ([`crate::vct`]) is
    /// asked for a win of the side to move, sharing the table (its wins
    /// stored there) and the node budget (its nodes counted) with the
    /// tree: 0 nowhere; 1 at the root, before the tree; N at the root and
    /// at the free nodes fewer than N plies from it.
    vct = 0, 0, 16;
    /// Threes (open threes, three-threes) a VCT line may make; fours are
    /// not counted.
    vct_threes = 4, 0, 20;
    /// Node budget of the root's VCT.
    vct_root_nodes = 5000, 0, 1000000;
    /// Whether the root's VCT remembers a side's last failure across the
    /// moves of a game (1) and probes a position grown from it only once
    /// the side's threat points have changed ([`crate::vct::Vct::probe_root`]).
    vct_remember = 1, 0, 1;
    /// Least threat points (moves making a three or a four) the side to
    /// move needs before the root or a node of the tree asks the VCT.
    vct_min_threats = 1, 1, 50;
    /// Node budget of a VCT at a node of the tree (each position asked
    /// once a game).
    vct_nodes = 300, 0, 100000;
    /// Least depth left, in plies, at which a node of the tree asks the
    /// VCT: a probe costs about what a shallow subtree does.
    vct_depth = 4, 1, 64;
    /// History bonus of a cut per squared ply of depth (capped at
    /// `history_max`).
    history_scale = 16, 1, 256;
    /// Greatest history bonus of one cut.
    history_max = 578, 100, 20000;
    /// Ordering weight of the history score, in 1/16.
    history_weight = 7, 0, 256;
    /// Ordering weight of what a move makes for us by its class (a set-up,
    /// a threat), hundredths of the class's step bonus times three.
    order_setup = 300, 0, 3000;
    /// Ordering weight of what a move takes from the opponent by its class.
    order_block = 150, 0, 3000;
    /// Ordering by the learned tables' point values (the board's
    /// [`crate::board::Board::learned_point`]: twice the point's value to
    /// us plus its value to the opponent) instead of the hand-set ones, in
    /// percent of them (0: the hand-set values).
    order_learned = 0, 0, 400;
    /// Ordering by the fine tables' move scores (the board's
    /// [`crate::board::Board::fine_order`], where the evaluation is by fine
    /// tables) instead of the point values, in percent of them (0: off).
    order_fine = 0, 0, 400;
    /// Ordering bonus of the quiet move that last cut at this ply (the
    /// first killer).
    order_killer = 500, 0, 5000;
    /// Ordering bonus of the second killer and of the counter move to the
    /// opponent's last.
    order_counter = 300, 0, 5000;
    /// Defend against the opponent's three-three as against a four-three
    /// (1) or not (0).
    defend_three_three = 1, 0, 1;
    /// Rapfi's move count (1): a move is pruned once its number counted
    /// from one reaches the count, whose parts are whole moves (Rapfi's
    /// `futilityMoveCount`); 0: once its number from zero does, so a
    /// node searches one move more.
    lmp_counted = 0, 0, 1;
    /// Depth left (hundredths) below which a node drops into the leaf
    /// search: a ply by default; Rapfi's 1 searches a node with any depth
    /// left, so that a fraction of a ply plays the node's first move.
    horizon = 100, 1, 100;
    /// Late move pruning by the move count at principal-variation nodes
    /// too (1), as Rapfi prunes every node but the root; 0: off the
    /// principal variation only.
    lmp_pv = 1, 0, 1;
    /// A defence against a three or a fork is reduced by the node's kind
    /// too (1: more at expected cut nodes, less on the principal
    /// variation or where the table remembers one), as Rapfi reduces
    /// every move; 0: by the move number's share and the far terms only.
    lmr_defence_all = 1, 0, 1;
    /// The reduction's move number counted from one (1), as Rapfi's
    /// `ln depth · ln moveCount`; 0: from zero, so the second move is
    /// reduced by the base alone.
    lmr_counted = 1, 0, 1;
    /// Reduction of a principal-variation node without a table move,
    /// hundredths (Rapfi's 0.32; 0: none). `iir_depth` reduces every node.
    iir_pv = 0, 0, 200;
    /// Reduction of a principal-variation node per ply its table move's
    /// search was shallower, hundredths of a ply, at most 3.6 plies
    /// (Rapfi's 0.28; 0: none).
    iir_pv_stale = 0, 0, 100;
}

/// Nodes between two looks at the clock and the node budget: often enough
/// to stop within a millisecond, seldom enough to cost nothing.
pub const CLOCK_NODES: u64 = 1024;

impl Params {
    /// Whether the opponent's three-threes are answered as forks
    /// ([`Params::defend_three_three`] is 1).
    #[inline]
    pub fn defends_three_three(&self) -> bool {
        self.defend_three_three != 0
    }

    /// Sets `name` to `value`, or says why it cannot be.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), SettingError> {
        let (name, _, min, max) = *Params::TABLE
            .iter()
            .find(|row| row.0 == name)
            .ok_or_else(|| SettingError::Unknown(name.to_string()))?;
        if !(min..=max).contains(&value) {
            return Err(SettingError::OutOfRange {
                name,
                min,
                max,
                value,
            });
        }
        *self.slot(name).expect("every row has a field") = value;
        Ok(())
    }

    /// The settings as `name=value` lines, as [`Params::read`] reads them.
    pub fn write(&self) -> String {
        Params::TABLE
            .iter()
            .map(|row| format!("{}={}\n", row.0, self.get(row.0).expect("row")))
            .collect()
    }

    /// Sets `name` from the text `value` (a whole number), or says why
    /// it cannot be.
    pub fn set_text(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        let v = value
            .parse::<i32>()
            .map_err(|_| SettingError::not_a_number(name, value))?;
        self.set(name, v)
    }

    /// Settings from text: `name=value` pairs separated by commas or
    /// lines, `#` starting a comment; the rest keep their defaults.
    pub fn read(text: &str) -> Result<Params, SettingError> {
        let mut p = Params::default();
        for pair in pairs(text) {
            let (k, v) = pair?;
            p.set_text(k.trim(), v.trim())?;
        }
        Ok(p)
    }
}

/// The `name=value` pairs of a settings text (each pair trimmed): commas or lines
/// separate them and `#` starts a comment, so a settings file (as the
/// tuner writes it) reads as well as a command-line list.
pub fn pairs(text: &str) -> impl Iterator<Item = Result<(&str, &str), SettingError>> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.split(','))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|pair| {
            pair.split_once('=')
                .ok_or_else(|| SettingError::NotAPair(pair.to_string()))
        })
}

/// Why a setting cannot be had: one line naming it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// No setting has this name.
    #[error("unknown setting {0:?}")]
    Unknown(String),
    /// The value lies outside the setting's bounds.
    #[error("{name} must be within {min} to {max}, got {value}")]
    OutOfRange {
        /// The setting.
        name: &'static str,
        /// Its least value.
        min: i32,
        /// Its greatest value.
        max: i32,
        /// The value given.
        value: i32,
    },
    /// The value is not a whole number.
    #[error("{name} needs a whole number, got {value:?}")]
    NotANumber {
        /// The setting.
        name: String,
        /// The text given.
        value: String,
    },
    /// A pair without its `=`.
    #[error("expected name=value, got {0:?}")]
    NotAPair(String),
}

impl SettingError {
    /// The error of `name` given the text `value`, not a whole number.
    pub fn not_a_number(name: &str, value: &str) -> SettingError {
        SettingError::NotANumber {
            name: name.to_string(),
            value: value.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_within_their_bounds_and_names_are_unique() {
        let p = Params::default();
        for (k, row) in Params::TABLE.iter().enumerate() {
            assert!((row.2..=row.3).contains(&row.1), "{}", row.0);
            assert_eq!(p.get(row.0), Some(row.1));
            assert!(Params::TABLE[..k].iter().all(|r| r.0 != row.0), "{}", row.0);
        }
    }

    #[test]
    fn settings_round_trip_through_text_and_bad_ones_are_named() {
        let mut p = Params::default();
        p.set("lmr_base", 77).unwrap();
        p.set("vcf_fours", 3).unwrap();
        assert_eq!(Params::read(&p.write()).unwrap(), p);
        let q = Params::read("lmr_base = 77 # comment\nvcf_fours=3").unwrap();
        assert_eq!(q, p);
        let said = |text| {
            let e = Params::read(text).unwrap_err();
            (e.clone(), e.to_string())
        };
        let (e, words) = said("speed=3");
        assert_eq!(e, SettingError::Unknown("speed".into()));
        assert_eq!(words, r#"unknown setting "speed""#);
        let (e, words) = said("lmr_base=-5");
        assert!(matches!(e, SettingError::OutOfRange { value: -5, .. }));
        assert_eq!(words, "lmr_base must be within 0 to 300, got -5");
        let (e, words) = said("lmr_base");
        assert_eq!(e, SettingError::NotAPair("lmr_base".into()));
        assert!(words.contains("name=value"));
        let (e, words) = said("lmr_base=x");
        assert_eq!(e, SettingError::not_a_number("lmr_base", "x"));
        assert_eq!(words, r#"lmr_base needs a whole number, got "x""#);
    }
}
