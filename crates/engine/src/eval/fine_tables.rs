//! Evaluation tables over fine point codes ([`super::fine`]), in the shape
//! of the published classical models of Rapfi: for each table slot
//! (freestyle, exact five, renju's black, renju's white) a value for every
//! point code of that colour, a value for every eleven-bit threat mask of
//! the side to move, and two move-ordering scores for every code (for the
//! side that plays there and for the side that blocks there). A
//! position's score is the mean of this ply's and the last ply's point
//! sums (black's codes less white's, from the side to move), plus the
//! threat mask's value; `P(win) = 1 / (1 + e^(-score / scale))`.
//!
//! [`FineTables::from_classical_model`] reads the published model files
//! (`model220723.bin` and its kind; CC0 data), by their format: an LZ4
//! frame holding the scale as a little-endian `f64`, then every slot's
//! point values, every slot's threat values, and every slot's pairs of
//! ordering scores, all little-endian `i16`.

use std::io::Read;

use inarow_core::Rule;

use sha2::{Digest, Sha256};

use crate::eval::fine::{CODES, FINES, MASKS};

/// Number of table slots: freestyle, exact five, renju's black and white.
pub const SLOTS: usize = 4;

/// The largest score magnitude a model's evaluation gives (in its units);
/// the rest of the range is for proven wins.
pub const MODEL_CLAMP: i32 = 6000;

/// Length of a classical model once unpacked.
pub const MODEL_LEN: usize = 8 + 2 * SLOTS * (CODES + MASKS + 2 * CODES);

/// The tables file's first bytes (as the learned tables' files).
const MAGIC: &[u8; 8] = b"INAROWEV";
/// The version of the tables file that holds fine tables.
pub const FILE_VERSION: u16 = 3;
/// Length of a tables file of version 3: mark, five numbers, the model's
/// layout, the checksum.
const FILE_LEN: usize = 8 + 10 + MODEL_LEN + 32;

/// Tables over fine point codes; see the module's documentation.
#[derive(Clone, PartialEq)]
pub struct FineTables {
    /// The logistic scale of the model's units: `P(win) = 1 / (1 +
    /// e^(-score / scale))`.
    pub scale: f64,
    /// Per slot, the value of each point code for its colour.
    pub value: [Vec<i16>; SLOTS],
    /// Per slot, the value of each threat mask of the side to move.
    pub threat: [Vec<i16>; SLOTS],
    /// Per slot, each code's move-ordering scores: `[for the side that
    /// makes it, for the side that blocks it]`.
    pub order: [Vec<[i16; 2]>; SLOTS],
}

impl std::fmt::Debug for FineTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FineTables {{ scale: {} }}", self.scale)
    }
}

/// Why a classical model file or a tables file of version 3 was refused.
#[derive(Debug)]
pub enum ModelError {
    /// Not an LZ4 frame, or a damaged one (its checksum does not match).
    Frame(String),
    /// The unpacked model (or the tables file) has another length than the
    /// format's.
    Length(usize),
    /// The scale is not a positive number.
    Scale(f64),
    /// Not an evaluation tables file.
    NotTables,
    /// A tables file of another version.
    Version(u16),
    /// Tables of other sizes: what, found, this build's.
    Shape(&'static str, usize, usize),
    /// The file's checksum does not match its contents.
    Checksum,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Frame(e) => write!(f, "not a classical model (an LZ4 frame): {e}"),
            ModelError::Length(n) => write!(
                f,
                "classical model unpacks to {n} bytes, the format has {MODEL_LEN}"
            ),
            ModelError::Scale(s) => write!(f, "classical model's scale {s} is not positive"),
            ModelError::NotTables => write!(f, "not an evaluation tables file"),
            ModelError::Version(v) => write!(
                f,
                "evaluation tables file of version {v}, fine tables are version {FILE_VERSION}"
            ),
            ModelError::Shape(what, found, expected) => write!(
                f,
                "evaluation tables with {found} {what}, this build has {expected}"
            ),
            ModelError::Checksum => write!(
                f,
                "evaluation tables file is corrupt (its checksum does not match)"
            ),
        }
    }
}

impl std::error::Error for ModelError {}

impl FineTables {
    /// Tables of zeros, with the published models' scale.
    pub fn zero() -> FineTables {
        FineTables {
            scale: 250.0,
            value: std::array::from_fn(|_| vec![0; CODES]),
            threat: std::array::from_fn(|_| vec![0; MASKS]),
            order: std::array::from_fn(|_| vec![[0, 0]; CODES]),
        }
    }

    /// Fine tables that say what `learned` says, as near as the shapes
    /// allow: each code's value is the mean of the learned values (for the
    /// side to move and for the opponent) of the nine-pattern shape its
    /// fine patterns fall into, in units of the published models' scale;
    /// threat masks and move scores zero. A prior for the fine fit: rare
    /// codes keep sensible values.
    pub fn from_learned(learned: &crate::eval::learned::Learned) -> FineTables {
        use crate::eval::fine::{Fine, code_patterns};
        use crate::pattern::{Pattern, combo_index, shape};
        let coarse = |f: Fine| match f {
            Fine::Dead | Fine::Overline => Pattern::Dead,
            Fine::Block1 | Fine::Flex1 => Pattern::Open,
            Fine::Block2 => Pattern::Block2,
            Fine::Flex2 | Fine::Flex2A | Fine::Flex2B => Pattern::Flex2,
            Fine::Block3 => Pattern::Block3,
            Fine::Flex3 | Fine::Flex3S => Pattern::Flex3,
            Fine::Block4 => Pattern::Block4,
            Fine::Flex4 => Pattern::Flex4,
            Fine::Five => Pattern::Five,
        };
        let mut t = FineTables::zero();
        for (slot, rule) in [Rule::Freestyle, Rule::Exact, Rule::Renju, Rule::Renju]
            .into_iter()
            .enumerate()
        {
            let tables = learned.tables(rule);
            let units = t.scale * learned.scale(rule);
            for code in 0..CODES as u16 {
                let s = usize::from(shape(combo_index(
                    code_patterns(code).map(|f| coarse(f) as u8),
                )));
                let mean = (f64::from(tables.mine[s]) + f64::from(tables.theirs[s])) / 2.0;
                t.value[slot][usize::from(code)] = (mean * units).round() as i16;
            }
        }
        t
    }

    /// Reads a published classical model file (see the module's
    /// documentation), or says in one line why not.
    pub fn from_classical_model(bytes: &[u8]) -> Result<FineTables, ModelError> {
        let mut raw = Vec::with_capacity(MODEL_LEN);
        lz4_flex::frame::FrameDecoder::new(bytes)
            // One byte more than the format tells a longer model apart.
            .take(MODEL_LEN as u64 + 1)
            .read_to_end(&mut raw)
            .map_err(|e| {
                let lz4 = e
                    .get_ref()
                    .and_then(|inner| inner.downcast_ref::<lz4_flex::frame::Error>());
                ModelError::Frame(match lz4 {
                    Some(lz4_flex::frame::Error::WrongMagicNumber) => {
                        "its first bytes are not an LZ4 frame's".to_string()
                    }
                    Some(lz4_flex::frame::Error::ContentChecksumError) => {
                        "its checksum does not match, the file is damaged".to_string()
                    }
                    Some(other) => format!("{other:?}"),
                    None => e.to_string(),
                })
            })?;
        if raw.len() != MODEL_LEN {
            return Err(ModelError::Length(raw.len()));
        }
        Self::from_raw(&raw)
    }

    /// The scale and tables as both files lay them out.
    fn from_raw(raw: &[u8]) -> Result<FineTables, ModelError> {
        let scale = f64::from_le_bytes(raw[..8].try_into().expect("eight bytes"));
        if !(scale.is_finite() && scale > 0.0) {
            return Err(ModelError::Scale(scale));
        }
        let mut words = raw[8..]
            .chunks_exact(2)
            .map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let value = std::array::from_fn(|_| take(CODES));
        let threat = std::array::from_fn(|_| take(MASKS));
        let order = std::array::from_fn(|_| {
            take(2 * CODES)
                .chunks_exact(2)
                .map(|p| [p[0], p[1]])
                .collect()
        });
        Ok(FineTables {
            scale,
            value,
            threat,
            order,
        })
    }

    /// The model file of these tables, as [`FineTables::from_classical_model`]
    /// reads it.
    pub fn to_classical_model(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(MODEL_LEN);
        self.write_raw(&mut raw);
        // With the content checksum, as the published files have it, so
        // that a damaged file is refused rather than read.
        let info = lz4_flex::frame::FrameInfo::new().content_checksum(true);
        let mut out = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
        std::io::Write::write_all(&mut out, &raw).expect("writing to memory");
        out.finish().expect("writing to memory")
    }

    /// The tables file of version 3: the mark `INAROWEV`, the version, the
    /// sizes (fine patterns, codes, masks, slots), the scale as `f64`, the
    /// slots' point values, threat values and ordering pairs as
    /// little-endian `i16`, and the SHA-256 of all that.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(MAGIC);
        for n in [
            FILE_VERSION,
            FINES as u16,
            CODES as u16,
            MASKS as u16,
            SLOTS as u16,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        self.write_raw(&mut out);
        let sum = Sha256::digest(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// The scale and tables as both files lay them out ([`FineTables::from_raw`]
    /// reads them back).
    fn write_raw(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.scale.to_le_bytes());
        let mut put = |v: i16| out.extend_from_slice(&v.to_le_bytes());
        self.value.iter().flatten().for_each(|&v| put(v));
        self.threat.iter().flatten().for_each(|&v| put(v));
        self.order.iter().flatten().flatten().for_each(|&v| put(v));
    }

    /// Whether `bytes` begin as a tables file of version 3 does (its mark
    /// and version), rather than as the learned tables' versions 1 and 2.
    pub fn is_tables_file(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC) && bytes.get(8..10) == Some(&FILE_VERSION.to_le_bytes()[..])
    }

    /// Reads a tables file of version 3 ([`FineTables::to_bytes`]), or says
    /// in one line what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<FineTables, ModelError> {
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            return Err(ModelError::NotTables);
        }
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        if u16_at(8) != FILE_VERSION {
            return Err(ModelError::Version(u16_at(8)));
        }
        for (at, what, expected) in [
            (10, "fine patterns", FINES),
            (12, "codes", CODES),
            (14, "threat masks", MASKS),
            (16, "slots", SLOTS),
        ] {
            if usize::from(u16_at(at)) != expected {
                return Err(ModelError::Shape(what, usize::from(u16_at(at)), expected));
            }
        }
        if bytes.len() != FILE_LEN {
            return Err(ModelError::Length(bytes.len()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 32);
        if Sha256::digest(body).as_slice() != sum {
            return Err(ModelError::Checksum);
        }
        Self::from_raw(&body[18..])
    }

    /// The multiplier, in 1/65536ths, from the model's units to the
    /// engine's under `rule`: the engine's units are those of its learned
    /// evaluation (whose logistic scale is per unit), so that the search's
    /// margins keep their meaning whichever evaluation it uses.
    pub fn to_engine_units(&self, rule: Rule) -> i32 {
        let per_unit = crate::eval::learned::Learned::embedded().scale(rule);
        (65536.0 / (self.scale * per_unit)).round() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> FineTables {
        let ramp = |n: usize, k: i16| (0..n).map(|i| (i as i16 % 97) * k - 40).collect();
        FineTables {
            scale: 250.0,
            value: [
                ramp(CODES, 1),
                ramp(CODES, 2),
                ramp(CODES, 3),
                ramp(CODES, -1),
            ],
            threat: [
                ramp(MASKS, 5),
                ramp(MASKS, 6),
                ramp(MASKS, 7),
                ramp(MASKS, 8),
            ],
            order: std::array::from_fn(|s| (0..CODES).map(|i| [i as i16, -(s as i16)]).collect()),
        }
    }

    #[test]
    fn tables_files_round_trip_and_refuse_damage() {
        let t = sample();
        let bytes = t.to_bytes();
        assert_eq!(FineTables::from_bytes(&bytes).unwrap(), t);
        let mut bad = bytes.clone();
        bad[1000] ^= 1;
        assert!(matches!(
            FineTables::from_bytes(&bad),
            Err(ModelError::Checksum)
        ));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert_eq!(
            FineTables::from_bytes(&v2).unwrap_err().to_string(),
            "evaluation tables file of version 2, fine tables are version 3"
        );
        assert!(matches!(
            FineTables::from_bytes(&bytes[..bytes.len() - 1]),
            Err(ModelError::Length(_))
        ));
        assert!(matches!(
            FineTables::from_bytes(&t.to_classical_model()),
            Err(ModelError::NotTables)
        ));
    }

    #[test]
    fn models_round_trip_and_refuse_damage() {
        let t = sample();
        let bytes = t.to_classical_model();
        assert_eq!(FineTables::from_classical_model(&bytes).unwrap(), t);
        // A changed byte in the packed data breaks the frame's checksum or
        // its blocks.
        for at in [bytes.len() / 2, bytes.len() - 5] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x5a;
            assert!(FineTables::from_classical_model(&bad).is_err(), "byte {at}");
        }
        assert!(matches!(
            FineTables::from_classical_model(b"INAROWEV"),
            Err(ModelError::Frame(_))
        ));
        // A frame of the wrong length.
        let mut short = lz4_flex::frame::FrameEncoder::new(Vec::new());
        std::io::Write::write_all(&mut short, &[0u8; 100]).unwrap();
        let short = short.finish().unwrap();
        let e = FineTables::from_classical_model(&short).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("classical model unpacks to 100 bytes, the format has {MODEL_LEN}")
        );
        let mut zero = sample();
        zero.scale = 0.0;
        assert!(matches!(
            FineTables::from_classical_model(&zero.to_classical_model()),
            Err(ModelError::Scale(_))
        ));
    }
}
