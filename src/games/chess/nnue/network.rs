//! The net's weights, quantised, and the file they are kept in.
//!
//! The file is little-endian throughout: the magic `SENTENN1`, the hidden layer's width (u32),
//! the first layer's weights input by input (`INPUTS x HIDDEN` i16), its biases (`HIDDEN`
//! i16), the output's weights for the side to move's half and then the opponent's (`2 x
//! HIDDEN` i16), and the output's bias (i32). The shipped net is read into the binary, so that
//! the service stays one file.

use std::sync::{Arc, LazyLock, RwLock};

use shakmaty::Color;

use super::{Accumulator, HIDDEN, INPUTS, QA, QB, SCALE, side};

/// What a net's file starts with.
const MAGIC: &[u8; 8] = b"SENTENN1";

/// A quantised net.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The first layer: a row of `HIDDEN` weights per input, added to the sums while the
    /// input is on.
    pub w1: Box<[[i16; HIDDEN]; INPUTS]>,
    pub b1: [i16; HIDDEN],
    /// The output's weights: the side to move's half, then its opponent's.
    pub w2: [[i16; HIDDEN]; 2],
    pub b2: i32,
}

/// The net Sente ships, learnt as docs/chess.md#the-network says.
pub fn shipped() -> &'static Arc<Network> {
    static SHIPPED: LazyLock<Arc<Network>> = LazyLock::new(|| {
        Arc::new(Network::read(include_bytes!("sente.nnue")).expect("the shipped net reads"))
    });
    &SHIPPED
}

/// A net read from a file in place of the shipped one, for the whole process: what UCI's
/// `EvalFile` sets, so that a net in training can play matches before it is built in.
/// The size of a net's file: the magic, the hidden width, the weights, the output's bias.
const FILE_BYTES: usize = 12 + 2 * (INPUTS * HIDDEN + 3 * HIDDEN) + 4;

static LOADED: RwLock<Option<Arc<Network>>> = RwLock::new(None);

/// The net the engine plays with: the one loaded, else the shipped one.
pub fn current() -> Arc<Network> {
    let loaded = LOADED
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Arc::clone(loaded.as_ref().unwrap_or(shipped()))
}

/// Plays with the net in the file at `path` from now on, or with the shipped one again for
/// `None`.
pub fn load(path: Option<&std::path::Path>) -> Result<(), String> {
    let network = match path {
        Some(path) => {
            // Its size is fixed: a bigger file is refused after that many bytes, not read whole.
            let bytes = crate::files::read_at_most(path, FILE_BYTES as u64, "a net of this build")?;
            Some(Arc::new(
                Network::read(&bytes).map_err(|error| format!("{}: {error}", path.display()))?,
            ))
        }
        None => None,
    };
    *LOADED
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = network;
    Ok(())
}

impl Network {
    /// A net of zeros, which evaluates every position as equal.
    pub fn zeros() -> Network {
        Network {
            w1: Box::new([[0; HIDDEN]; INPUTS]),
            b1: [0; HIDDEN],
            w2: [[0; HIDDEN]; 2],
            b2: 0,
        }
    }

    /// The evaluation for `turn`, the side to move, in centipawns, from the sums of both sides.
    #[inline]
    pub fn evaluate(&self, sums: &Accumulator, turn: Color) -> i32 {
        let ours = &sums.values[side(turn)];
        let theirs = &sums.values[side(turn.other())];
        let output = self.b2 + dot(ours, &self.w2[0]) + dot(theirs, &self.w2[1]);
        output * SCALE / (QA * QB)
    }

    /// The net written as its file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(16 + 2 * (INPUTS * HIDDEN + 3 * HIDDEN) + 4);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let weights = self
            .w1
            .iter()
            .flatten()
            .chain(&self.b1)
            .chain(self.w2.iter().flatten());
        for weight in weights {
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        bytes.extend_from_slice(&self.b2.to_le_bytes());
        bytes
    }

    /// A net from its file; an error in words when it is not one of this shape.
    pub fn read(bytes: &[u8]) -> Result<Network, String> {
        let expected = FILE_BYTES;
        if bytes.get(..8) != Some(MAGIC) {
            return Err("not a net of Sente's: its file does not start with SENTENN1".into());
        }
        let hidden = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if hidden as usize != HIDDEN || bytes.len() != expected {
            return Err(format!(
                "a net of {hidden} hidden neurons in {} bytes; this build reads {HIDDEN} in \
                 {expected}",
                bytes.len()
            ));
        }
        let mut weights = bytes[12..bytes.len() - 4]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut network = Network::zeros();
        let rows = network.w1.iter_mut().flatten();
        for weight in rows
            .chain(&mut network.b1)
            .chain(network.w2.iter_mut().flatten())
        {
            *weight = weights.next().expect("the length was checked");
        }
        network.b2 = i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
        Ok(network)
    }
}

/// The hidden sums, clipped to [0, QA], times the output's weights.
#[inline]
fn dot(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    sums.iter()
        .zip(weights)
        .map(|(&sum, &weight)| i32::from(sum.clamp(0, QA as i16)) * i32::from(weight))
        .sum()
}
