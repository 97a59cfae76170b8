//! What stops learning, by kind: the command line prints it, and a run's step that fails says
//! which of its files, settings or games is at fault.

use std::path::{Path, PathBuf};

use crate::files::FileError;

/// Why a training run, a weights' file or a generation of `sente learn` failed.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// Writing what a run makes (self-play's positions) to a stream failed.
    #[error("{what}: {source}")]
    Write {
        what: &'static str,
        source: std::io::Error,
    },
    /// A game the registry has not.
    #[error("no game called {game:?}; the games are {games}")]
    UnknownGame { game: String, games: String },
    /// A JSON file of the run's that does not parse as what it should be.
    #[error("{}: not {what} ({source})", path.display())]
    Json {
        path: PathBuf,
        what: String,
        source: serde_json::Error,
    },
    /// A position or an example that is not the training data the trainer reads.
    #[error("{0}")]
    Data(String),
    /// Bytes that are not the weights the game reads, or weights that do not fit it.
    #[error("{0}")]
    Weights(String),
    /// Options or settings out of their range, or at odds with each other.
    #[error("{0}")]
    Options(String),
    /// The loss stopped being a number.
    #[error(
        "the loss is not a finite number after epoch {epoch} (training {training}, validation \
         {validation}): the run diverged, so nothing was written; a smaller --learning-rate, or \
         another network to go on from, may do"
    )]
    Diverged {
        epoch: u32,
        training: f64,
        validation: f64,
    },
    /// A name the `weights` knob could not give.
    #[error("a weights' name is 1 to 64 letters, digits, '-', '_' and '.', got {0:?}")]
    BadName(String),
    #[error("weights called {0:?} are already read")]
    NameTaken(String),
    /// A game that learns nothing of the kind asked.
    #[error("{0}")]
    NotLearnt(String),
    /// A run's folder at odds with what is asked of it (a step taken out of turn, settings
    /// that differ from those it was begun with).
    #[error("{0}")]
    Run(String),
    /// One of the others, in the file at `path`.
    #[error("{}: {source}", path.display())]
    InFile {
        path: PathBuf,
        source: Box<LearnError>,
    },
    /// A tournament or self-play the run built, refused as a request (in the request's words).
    #[error("{0}")]
    Request(String),
}

impl LearnError {
    /// This error, said of the file at `path`.
    pub fn in_file(self, path: &Path) -> LearnError {
        LearnError::InFile {
            path: path.to_owned(),
            source: Box::new(self),
        }
    }

    /// The JSON file at `path` is not `what`, as `source` says.
    pub fn json(path: &Path, what: &str, source: serde_json::Error) -> LearnError {
        LearnError::Json {
            path: path.to_owned(),
            what: what.to_owned(),
            source,
        }
    }
}
