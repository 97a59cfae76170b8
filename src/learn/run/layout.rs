//! Where a run's files are, each written whole or not at all:
//!
//! ```text
//! DIR/learn.json                          the settings, as the first command wrote them
//! DIR/report.md, DIR/elo.svg              a row a generation, the Elo curve
//! DIR/generation-001/selfplay/piece-0003.json   a piece of self-play (its games or report)
//! DIR/generation-001/selfplay/piece-0003.txt    its positions (a policy-value network's)
//! DIR/generation-001/positions.txt        the generation's positions, for training
//! DIR/generation-001/weights.nnue         the candidate (generation 0's: the shipped best)
//! DIR/generation-001/training.json        how it was trained: data, epochs, losses, time
//! DIR/generation-001/sprt/piece-0000.json a piece of the SPRT's games
//! DIR/generation-001/generation.json      the generation's row: it is finished
//! ```

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Settings;
use super::report::Row;
use crate::files::FileError;
use crate::learn::LearnError;

/// The settings' file.
pub const SETTINGS: &str = "learn.json";
/// The largest of a run's JSON files read: a piece of self-play with its records.
const MAX_JSON_BYTES: u64 = 1 << 30;

/// A run's directory.
#[derive(Clone, Debug)]
pub struct Layout {
    pub dir: PathBuf,
}

impl Layout {
    pub fn new(dir: &Path) -> Layout {
        Layout {
            dir: dir.to_owned(),
        }
    }

    pub fn generation(&self, generation: u32) -> PathBuf {
        self.dir.join(format!("generation-{generation:03}"))
    }

    /// Piece `piece` of a step (`selfplay`, `sprt`) of `generation`, with `extension`.
    pub fn piece(&self, generation: u32, step: &str, piece: u64, extension: &str) -> PathBuf {
        self.generation(generation)
            .join(step)
            .join(format!("piece-{piece:04}.{extension}"))
    }

    pub fn positions(&self, generation: u32) -> PathBuf {
        self.generation(generation).join("positions.txt")
    }

    pub fn training(&self, generation: u32) -> PathBuf {
        self.generation(generation).join("training.json")
    }

    fn row_file(&self, generation: u32) -> PathBuf {
        self.generation(generation).join("generation.json")
    }

    /// Generation `generation`'s row, if it is finished.
    pub fn row(&self, generation: u32) -> Result<Option<Row>, LearnError> {
        read_if_there(&self.row_file(generation), "a generation's row")
    }

    /// The finished generations' rows, from generation 0, up to the first not finished.
    pub fn rows(&self) -> Result<Vec<Row>, LearnError> {
        let mut rows = Vec::new();
        while let Some(row) = self.row(rows.len() as u32)? {
            rows.push(row);
        }
        Ok(rows)
    }

    pub fn write_row(&self, row: &Row) -> Result<(), LearnError> {
        write_json(&self.row_file(row.generation), row)
    }

    pub fn read_settings(&self) -> Result<Option<Settings>, LearnError> {
        read_if_there(&self.dir.join(SETTINGS), "a run's settings")
    }

    pub fn write_settings(&self, settings: &Settings) -> Result<(), LearnError> {
        write_json(&self.dir.join(SETTINGS), settings)
    }
}

/// The JSON file at `path` read as `T`, or `None` where there is none.
pub fn read_if_there<T: DeserializeOwned>(
    path: &Path,
    what: &str,
) -> Result<Option<T>, LearnError> {
    if !path.exists() {
        return Ok(None);
    }
    let bytes = crate::files::read_at_most(path, MAX_JSON_BYTES, what)?;
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|error| LearnError::json(path, what, error))
}

/// `value` as pretty JSON at `path`, its directory made if missing, whole or not at all.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), LearnError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|error| FileError::io(parent, error))?;
    }
    let mut text = serde_json::to_vec_pretty(value)
        .map_err(|error| LearnError::json(path, "what was to be written", error))?;
    text.push(b'\n');
    Ok(crate::files::write_bytes(path, &text)?)
}
