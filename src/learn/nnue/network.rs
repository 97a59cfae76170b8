//! A net's weights, quantised, and the file they are kept in.
//!
//! The file is little-endian throughout: the game's magic ([`Features::MAGIC`]), the hidden
//! layer's width (u32), the first layer's weights input by input (`INPUTS x H` i16, or
//! `KING_BUCKETS x INPUTS x H` for a net whose inputs are read by their king, a bucket's rows
//! after another's: the file's length says which), its biases (`H` i16), the output's weights
//! for the side to move's half and then the opponent's (`2 x H` i16), and the output's bias
//! (i32). A game's shipped net is read into the binary ([`Slot`]), so that the service stays
//! one file.

use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

use super::{Features, QA};
use crate::learn::LearnError;
use crate::learn::weights::NamedWeights;

/// A quantised net of `F`'s inputs and `H` hidden neurons a side.
pub struct Network<F, const H: usize> {
    /// The first layer: a row of `H` weights per input, added to the sums while the input is
    /// on; with king buckets ([`Features::KING_BUCKETS`]), a set of rows for each bucket.
    pub w1: Box<[[i16; H]]>,
    pub b1: [i16; H],
    /// The output's weights: the side to move's half, then its opponent's.
    pub w2: [[i16; H]; 2],
    pub b2: i32,
    features: PhantomData<fn() -> F>,
}

// By hand: derived, they would ask the same of `F`, which is only a name for the inputs.
impl<F, const H: usize> Clone for Network<F, H> {
    fn clone(&self) -> Self {
        Network {
            w1: self.w1.clone(),
            b1: self.b1,
            w2: self.w2,
            b2: self.b2,
            features: PhantomData,
        }
    }
}

impl<F, const H: usize> PartialEq for Network<F, H> {
    fn eq(&self, other: &Self) -> bool {
        self.w1 == other.w1 && self.b1 == other.b1 && self.w2 == other.w2 && self.b2 == other.b2
    }
}

impl<F, const H: usize> std::fmt::Debug for Network<F, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({} x {H})", self.w1.len())
    }
}

impl<F: Features, const H: usize> Network<F, H> {
    /// The size of a net's file: the magic, the hidden width, the weights, the output's bias.
    pub const FILE_BYTES: usize = Self::file_bytes(1);

    /// The size of the file of a net of `buckets` king buckets.
    pub const fn file_bytes(buckets: usize) -> usize {
        12 + 2 * (buckets * F::INPUTS * H + 3 * H) + 4
    }

    /// A net of zeros, which evaluates every position as equal.
    pub fn zeros() -> Self {
        Self::zeros_in(1)
    }

    /// A net of zeros with `buckets` king buckets.
    pub fn zeros_in(buckets: usize) -> Self {
        Network {
            w1: vec![[0; H]; buckets * F::INPUTS].into_boxed_slice(),
            b1: [0; H],
            w2: [[0; H]; 2],
            b2: 0,
            features: PhantomData,
        }
    }

    /// A net of random weights, so that every input's row differs: what tests of the sums
    /// kept move by move compare against sums computed afresh.
    #[cfg(test)]
    pub fn random(rng: &mut crate::learn::SeededRng) -> Self {
        Self::random_in(rng, 1)
    }

    /// [`Network::random`] with `buckets` king buckets.
    #[cfg(test)]
    pub fn random_in(rng: &mut crate::learn::SeededRng, buckets: usize) -> Self {
        use rand::RngExt;
        let mut network = Self::zeros_in(buckets);
        for row in network.w1.iter_mut() {
            row.iter_mut()
                .for_each(|weight| *weight = rng.random_range(-300..300));
        }
        network
            .b1
            .iter_mut()
            .for_each(|bias| *bias = rng.random_range(-300..300));
        network
            .w2
            .iter_mut()
            .flatten()
            .for_each(|weight| *weight = rng.random_range(-64..64));
        network
    }

    /// How many king buckets its inputs are read in: 1 where they are not.
    pub fn buckets(&self) -> usize {
        self.w1.len() / F::INPUTS
    }

    /// The net written as its file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(Self::file_bytes(self.buckets()));
        bytes.extend_from_slice(F::MAGIC);
        bytes.extend_from_slice(&(H as u32).to_le_bytes());
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
    pub fn read(bytes: &[u8]) -> Result<Self, LearnError> {
        // The file's length says whether the net reads its inputs by their king.
        let buckets = if F::KING_BUCKETS > 1 && bytes.len() == Self::file_bytes(F::KING_BUCKETS) {
            F::KING_BUCKETS
        } else {
            1
        };
        let expected = Self::file_bytes(buckets);
        if bytes.get(..8) != Some(F::MAGIC) {
            return Err(LearnError::Weights(format!(
                "not a net of Sente's for this game: its file does not start with {}",
                String::from_utf8_lossy(F::MAGIC)
            )));
        }
        let hidden = bytes.get(8..12).map_or(0, |width| {
            u32::from_le_bytes(width.try_into().expect("4 bytes"))
        });
        if hidden as usize != H || bytes.len() != expected {
            let sizes = if F::KING_BUCKETS > 1 {
                format!(
                    "{expected} (or {} with its inputs in {} king buckets)",
                    Self::file_bytes(F::KING_BUCKETS),
                    F::KING_BUCKETS
                )
            } else {
                expected.to_string()
            };
            return Err(LearnError::Weights(format!(
                "a net of {hidden} hidden neurons in {} bytes; this build reads {H} in {sizes}",
                bytes.len()
            )));
        }
        let mut weights = bytes[12..bytes.len() - 4]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut network = Self::zeros_in(buckets);
        let rows = network.w1.iter_mut().flatten();
        for weight in rows
            .chain(&mut network.b1)
            .chain(network.w2.iter_mut().flatten())
        {
            *weight = weights.next().expect("the length was checked");
        }
        network.b2 = i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
        network.check_bounds()?;
        Ok(network)
    }

    /// Refuses weights no training makes and the integer sums cannot hold (a file of the right
    /// size filled with anything else): a hidden sum of the most inputs a position turns on
    /// ([`Features::MAX_ACTIVE`]), each at its largest weight, must fit in an `i16`, and the
    /// output of every hidden neuron at its clipped largest must fit in an `i32`. Within these
    /// bounds no position's evaluation wraps around.
    fn check_bounds(&self) -> Result<(), LearnError> {
        let mut largest = vec![[0u16; H]; F::MAX_ACTIVE.max(1)];
        for row in self.w1.iter() {
            for (neuron, &weight) in row.iter().enumerate() {
                // Insertion into the neuron's largest few, kept in falling order.
                let mut magnitude = weight.unsigned_abs();
                for slot in largest.iter_mut() {
                    if magnitude > slot[neuron] {
                        std::mem::swap(&mut magnitude, &mut slot[neuron]);
                    }
                }
            }
        }
        for (neuron, bias) in self.b1.iter().enumerate() {
            let reach: u32 = u32::from(bias.unsigned_abs())
                + largest
                    .iter()
                    .map(|slot| u32::from(slot[neuron]))
                    .sum::<u32>();
            if reach > i16::MAX as u32 {
                return Err(LearnError::Weights(format!(
                    "hidden neuron {neuron}'s weights could sum to {reach}, past the {} a sum \
                     holds: not a trained net",
                    i16::MAX
                )));
            }
        }
        let output: u64 = u64::from(self.b2.unsigned_abs())
            + self
                .w2
                .iter()
                .flatten()
                .map(|&weight| u64::from(weight.unsigned_abs()) * QA as u64)
                .sum::<u64>();
        if output > i32::MAX as u64 {
            return Err(LearnError::Weights(format!(
                "the output's weights could sum to {output}, past the {} it holds: not a trained \
                 net",
                i32::MAX
            )));
        }
        Ok(())
    }
}

/// A game's shipped net, read into the binary ([`Slot::shipped`]) and decoded once, and the
/// nets read from files beside it ([`Slot::load`]), which a search carries in its settings
/// (the `weights` knob, UCI's `EvalFile`) and plays with in its place. Each game keeps one as
/// a `static`.
pub struct Slot<F, const H: usize> {
    game: &'static str,
    bytes: &'static [u8],
    shipped: OnceLock<Arc<Network<F, H>>>,
}

impl<F: Features, const H: usize> Slot<F, H> {
    /// The slot of `game`'s net whose file is `bytes` (`include_bytes!`).
    pub const fn new(game: &'static str, bytes: &'static [u8]) -> Self {
        Slot {
            game,
            bytes,
            shipped: OnceLock::new(),
        }
    }

    /// The net the game ships.
    pub fn shipped(&self) -> &Arc<Network<F, H>> {
        self.shipped
            .get_or_init(|| Arc::new(Network::read(self.bytes).expect("the shipped net reads")))
    }

    /// The net a search plays with: the one its settings carry, else the shipped one.
    pub fn playing(&self, weights: Option<&NamedWeights>) -> Arc<Network<F, H>> {
        // The `weights` knob offers a game only its own nets: another's falls back, unplayed.
        match weights.and_then(NamedWeights::get::<Arc<Network<F, H>>>) {
            Some(network) => Arc::clone(network),
            None => Arc::clone(self.shipped()),
        }
    }

    /// Reads the net in the file at `path`, checked, under `name`.
    pub fn load(&self, name: &str, path: &std::path::Path) -> Result<NamedWeights, LearnError> {
        NamedWeights::new(name, self.game, Self::read_file(path)?)
    }

    fn read_file(path: &std::path::Path) -> Result<Arc<Network<F, H>>, LearnError> {
        // Its size is fixed: a bigger file is refused after that many bytes, not read whole.
        let bytes = crate::files::read_at_most(
            path,
            Network::<F, H>::file_bytes(F::KING_BUCKETS) as u64,
            "a net of this build",
        )?;
        Ok(Arc::new(
            Network::read(&bytes).map_err(|error| error.in_file(path))?,
        ))
    }
}
