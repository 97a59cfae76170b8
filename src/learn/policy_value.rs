//! AlphaZero's network: a position's inputs in, two heads out, the policy (a logit for every
//! move id, the moves the search should look at first) and the value (the side to move's
//! expected result, in (-1, 1)). Two shapes:
//!
//! ```text
//! perceptron: inputs (0 or 1) -> hidden (ReLU) -> hidden (ReLU) -> policy logits (one per move id)
//!                                                                \-> value (tanh)
//! residual:   the board's planes -> a tower of residual 3x3 convolutions -> the same two heads
//! ```
//!
//! The perceptron is the first networks' shape: boards of 9 and 42 cells are learnt by it in
//! minutes on a CPU, and it answers in microseconds. Its first layer's weights are kept a row
//! per input, so that a position adds the rows of the inputs that are on (at most one a cell)
//! instead of multiplying a mostly empty vector. The residual tower is AlphaZero's own shape
//! ([`super::residual`]): slower to ask, it sees lines where the perceptron sees cells.
//!
//! The loss is AlphaZero's, (z - v)^2 - pi . log p, where z is the game's result, pi the search's
//! visits at the root and p the policy over the legal moves (the softmax of their logits alone:
//! an illegal move is never a target and never competes).
//!
//! The file: `SENTEPV1` (a perceptron) or `SENTEPV2` (a residual tower), the game's name (a byte
//! of length, then the name), then the sizes as little-endian `u32` (a perceptron's inputs,
//! hidden and moves; a tower's inputs, moves, rows, columns, channels and blocks), then every
//! weight as a little-endian `f32` in the order of the shape's layout.

use rand::RngExt;

use super::residual::{self, Tower, softmax};
use crate::learn::LearnError;

/// The network's shape and weights.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyValueNet {
    /// The game it reads (a net for one game is refused by another).
    pub game: String,
    pub inputs: usize,
    /// The policy's width: the game's move ids.
    pub moves: usize,
    pub shape: Shape,
    /// Every weight, in one vector so that an optimiser walks them at once: see [`Layout`]
    /// and [`Tower`].
    pub weights: Vec<f32>,
}

/// What lies between the inputs and the heads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Two fully connected layers of `hidden`.
    Perceptron { hidden: usize },
    /// A tower of residual convolutions over the board's grid.
    Residual(Tower),
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Shape::Perceptron { hidden } => write!(f, "a perceptron of two layers of {hidden}"),
            Shape::Residual(tower) => write!(
                f,
                "a residual tower of {} blocks of {} channels over {}x{}",
                tower.blocks, tower.channels, tower.rows, tower.columns
            ),
        }
    }
}

const MAGIC: &[u8; 8] = b"SENTEPV1";
const TOWER_MAGIC: &[u8; 8] = b"SENTEPV2";

/// The largest sizes a file may declare: a file is input, and its sizes allocate.
const MAX_INPUTS: usize = 1 << 14;
const MAX_HIDDEN: usize = 1 << 11;
const MAX_MOVES: usize = 1 << 12;

/// Whether a network of these sizes may be made and read: `inputs` and `moves` are a game's
/// (a game with more move ids than `MAX_MOVES`, chess or shogi, has no policy-value network).
pub fn fits(inputs: usize, hidden: usize, moves: usize) -> Result<(), LearnError> {
    for (what, size, max) in [
        ("inputs", inputs, MAX_INPUTS),
        ("hidden", hidden, MAX_HIDDEN),
        ("moves", moves, MAX_MOVES),
    ] {
        if !(1..=max).contains(&size) {
            return Err(LearnError::Weights(format!(
                "{size} {what}, where a policy-value network has 1 to {max}"
            )));
        }
    }
    Ok(())
}

/// Where each layer's weights start in [`PolicyValueNet::weights`].
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// `inputs x hidden`, a row per input.
    pub w1: usize,
    pub b1: usize,
    /// `hidden x hidden`, a row per output.
    pub w2: usize,
    pub b2: usize,
    /// `moves x hidden`, a row per move.
    pub wp: usize,
    pub bp: usize,
    /// `hidden`.
    pub wv: usize,
    pub bv: usize,
    pub total: usize,
}

impl Layout {
    fn of(inputs: usize, hidden: usize, moves: usize) -> Layout {
        let w1 = 0;
        let b1 = w1 + inputs * hidden;
        let w2 = b1 + hidden;
        let b2 = w2 + hidden * hidden;
        let wp = b2 + hidden;
        let bp = wp + moves * hidden;
        let wv = bp + moves;
        let bv = wv + hidden;
        Layout {
            w1,
            b1,
            w2,
            b2,
            wp,
            bp,
            wv,
            bv,
            total: bv + 1,
        }
    }
}

/// What one position's forward pass keeps for the backward pass: the outputs, whatever the
/// shape, and each shape's layers.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    pub logits: Vec<f32>,
    pub value: f32,
    hidden1: Vec<f32>,
    hidden2: Vec<f32>,
    tower: residual::Activations,
    scratch: residual::Scratch,
}

impl PolicyValueNet {
    /// A perceptron of this shape with small random weights (He's initialisation for the ReLU
    /// layers; the heads start near zero, so that the first policy is near uniform and the
    /// first value near a draw).
    pub fn random(
        game: &str,
        inputs: usize,
        hidden: usize,
        moves: usize,
        rng: &mut impl RngExt,
    ) -> PolicyValueNet {
        let layout = Layout::of(inputs, hidden, moves);
        let mut weights = vec![0.0f32; layout.total];
        let mut fill = |range: std::ops::Range<usize>, fan_in: usize, gain: f32| {
            let scale = gain * (2.0 / fan_in as f32).sqrt();
            for weight in &mut weights[range] {
                *weight = (rng.random::<f32>() * 2.0 - 1.0) * scale * 3f32.sqrt() / 2.0;
            }
        };
        fill(layout.w1..layout.b1, inputs.max(1), 1.0);
        fill(layout.w2..layout.b2, hidden, 1.0);
        fill(layout.wp..layout.bp, hidden, 0.1);
        fill(layout.wv..layout.bv, hidden, 0.1);
        PolicyValueNet {
            game: game.to_owned(),
            inputs,
            moves,
            shape: Shape::Perceptron { hidden },
            weights,
        }
    }

    /// A residual tower with random weights ([`Tower::random`]), reading `inputs` (two a cell
    /// of the tower's grid).
    pub fn random_tower(
        game: &str,
        inputs: usize,
        tower: Tower,
        rng: &mut impl RngExt,
    ) -> PolicyValueNet {
        PolicyValueNet {
            game: game.to_owned(),
            inputs,
            moves: tower.moves,
            shape: Shape::Residual(tower),
            weights: tower.random(rng),
        }
    }

    /// The perceptron's layout (of a tower: [`Tower`]'s own).
    pub fn layout(&self) -> Layout {
        match self.shape {
            Shape::Perceptron { hidden } => Layout::of(self.inputs, hidden, self.moves),
            Shape::Residual(_) => Layout::of(0, 0, 0),
        }
    }

    /// The number of weights.
    pub fn parameters(&self) -> usize {
        self.weights.len()
    }

    /// The forward pass on the inputs that are on (indices below `inputs`): the activations,
    /// the policy's logits (every move id's) and the value among them.
    pub fn forward(&self, active: &[u16], out: &mut Activations) {
        match self.shape {
            Shape::Perceptron { hidden } => self.perceptron_forward(hidden, active, out),
            Shape::Residual(tower) => {
                tower.planes(active, &mut out.tower);
                tower.forward(&self.weights, &mut out.tower);
                out.logits.clear();
                out.logits.extend_from_slice(&out.tower.logits);
                out.value = out.tower.value;
            }
        }
    }

    /// Adds to `gradient` the loss's gradient for one position whose forward pass gave
    /// `acts`: `policy` is the target's share of each of `legal` (summing to 1), `result` the
    /// target value. Returns the position's loss.
    pub fn backward(
        &self,
        active: &[u16],
        acts: &mut Activations,
        legal: &[u16],
        policy: &[f32],
        result: f32,
        gradient: &mut [f32],
    ) -> f32 {
        match self.shape {
            Shape::Perceptron { hidden } => {
                self.perceptron_backward(hidden, active, acts, legal, policy, result, gradient)
            }
            Shape::Residual(tower) => tower.backward(
                &self.weights,
                &acts.tower,
                legal,
                policy,
                result,
                gradient,
                &mut acts.scratch,
            ),
        }
    }

    fn perceptron_forward(&self, hidden: usize, active: &[u16], out: &mut Activations) {
        let Layout {
            w1,
            b1,
            w2,
            b2,
            wp,
            bp,
            wv,
            bv,
            ..
        } = self.layout();
        let h = hidden;
        let weights = &self.weights;
        out.hidden1.clear();
        out.hidden1.extend_from_slice(&weights[b1..b1 + h]);
        for &input in active {
            let row = &weights[w1 + input as usize * h..][..h];
            for (sum, weight) in out.hidden1.iter_mut().zip(row) {
                *sum += weight;
            }
        }
        for sum in &mut out.hidden1 {
            *sum = sum.max(0.0);
        }
        out.hidden2.clear();
        out.hidden2.extend(
            (0..h).map(|j| {
                (weights[b2 + j] + dot(&weights[w2 + j * h..][..h], &out.hidden1)).max(0.0)
            }),
        );
        out.logits.clear();
        out.logits.extend(
            (0..self.moves)
                .map(|m| weights[bp + m] + dot(&weights[wp + m * h..][..h], &out.hidden2)),
        );
        out.value = (weights[bv] + dot(&weights[wv..wv + h], &out.hidden2)).tanh();
    }

    #[allow(clippy::too_many_arguments)]
    fn perceptron_backward(
        &self,
        hidden: usize,
        active: &[u16],
        acts: &Activations,
        legal: &[u16],
        policy: &[f32],
        result: f32,
        gradient: &mut [f32],
    ) -> f32 {
        let Layout {
            w1,
            b1,
            w2,
            b2,
            wp,
            bp,
            wv,
            bv,
            ..
        } = self.layout();
        let h = hidden;
        let weights = &self.weights;
        // The value head: d/dv (z - v)^2 = 2 (v - z), through tanh.
        let value_error = acts.value - result;
        let mut loss = value_error * value_error;
        let d_value_sum = 2.0 * value_error * (1.0 - acts.value * acts.value);
        let mut d_hidden2 = vec![0.0f32; h];
        for j in 0..h {
            gradient[wv + j] += d_value_sum * acts.hidden2[j];
            d_hidden2[j] += d_value_sum * weights[wv + j];
        }
        gradient[bv] += d_value_sum;
        // The policy head: the softmax over the legal moves; d/dlogit = p - pi.
        let probabilities = softmax(legal.iter().map(|&m| acts.logits[m as usize]));
        for ((&m, &p), &target) in legal.iter().zip(&probabilities).zip(policy) {
            if target > 0.0 {
                loss -= target * p.max(1e-12).ln();
            }
            let d_logit = p - target;
            let m = m as usize;
            let row = wp + m * h;
            for j in 0..h {
                gradient[row + j] += d_logit * acts.hidden2[j];
                d_hidden2[j] += d_logit * weights[row + j];
            }
            gradient[bp + m] += d_logit;
        }
        // The second hidden layer, through its ReLU.
        let mut d_hidden1 = vec![0.0f32; h];
        for j in 0..h {
            if acts.hidden2[j] <= 0.0 {
                continue;
            }
            let d = d_hidden2[j];
            let row = w2 + j * h;
            for (k, d_in) in d_hidden1.iter_mut().enumerate() {
                gradient[row + k] += d * acts.hidden1[k];
                *d_in += d * weights[row + k];
            }
            gradient[b2 + j] += d;
        }
        // The first, whose inputs are 0 or 1: only the rows of those that are on learn.
        for (j, d) in d_hidden1.iter_mut().enumerate() {
            if acts.hidden1[j] <= 0.0 {
                *d = 0.0;
            }
            gradient[b1 + j] += *d;
        }
        for &input in active {
            let row = w1 + input as usize * h;
            for (g, d) in gradient[row..row + h].iter_mut().zip(&d_hidden1) {
                *g += d;
            }
        }
        loss
    }

    /// The network as its file holds it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(Self::MAX_HEADER_BYTES + 4 * self.weights.len());
        let sizes = match self.shape {
            Shape::Perceptron { hidden } => {
                bytes.extend_from_slice(MAGIC);
                vec![self.inputs, hidden, self.moves]
            }
            Shape::Residual(tower) => {
                bytes.extend_from_slice(TOWER_MAGIC);
                vec![
                    self.inputs,
                    self.moves,
                    tower.rows,
                    tower.columns,
                    tower.channels,
                    tower.blocks,
                ]
            }
        };
        bytes.push(self.game.len() as u8);
        bytes.extend_from_slice(self.game.as_bytes());
        for size in sizes {
            bytes.extend_from_slice(&(size as u32).to_le_bytes());
        }
        for weight in &self.weights {
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        bytes
    }

    /// The longest header a file may have: the magic, a name of up to 255 bytes, six sizes.
    pub const MAX_HEADER_BYTES: usize = 8 + 1 + 255 + 24;

    /// The header at the start of `bytes`: the game's name, the inputs, the moves and the
    /// shape, and the header's length.
    fn header(bytes: &[u8]) -> Result<(String, usize, usize, Shape, usize), LearnError> {
        let (rest, sizes) = if let Some(rest) = bytes.strip_prefix(MAGIC) {
            (rest, 3)
        } else if let Some(rest) = bytes.strip_prefix(TOWER_MAGIC) {
            (rest, 6)
        } else {
            return Err(LearnError::Weights(
                "not a policy-value network: a network's file starts with SENTEPV1 or \
                        SENTEPV2, and this one does not"
                    .to_owned(),
            ));
        };
        let (&length, rest) = rest
            .split_first()
            .ok_or_else(|| LearnError::Weights("the file ends in its header".to_owned()))?;
        let length = usize::from(length);
        if rest.len() < length + 4 * sizes {
            return Err(LearnError::Weights(
                "the file ends in its header".to_owned(),
            ));
        }
        let game = std::str::from_utf8(&rest[..length])
            .map_err(|_| {
                LearnError::Weights("the game's name in the header is not text".to_owned())
            })?
            .to_owned();
        let size = |index: usize| {
            let at = length + 4 * index;
            u32::from_le_bytes(rest[at..at + 4].try_into().unwrap()) as usize
        };
        let header = MAGIC.len() + 1 + length + 4 * sizes;
        let sizes_error =
            |error: LearnError| LearnError::Weights(format!("the header's sizes: {error}"));
        if sizes == 3 {
            let (inputs, hidden, moves) = (size(0), size(1), size(2));
            fits(inputs, hidden, moves).map_err(sizes_error)?;
            return Ok((game, inputs, moves, Shape::Perceptron { hidden }, header));
        }
        let (inputs, moves) = (size(0), size(1));
        let tower = Tower {
            rows: size(2),
            columns: size(3),
            channels: size(4),
            blocks: size(5),
            moves,
        };
        fits(inputs, 1, moves).map_err(sizes_error)?;
        tower.fits().map_err(sizes_error)?;
        Ok((game, inputs, moves, Shape::Residual(tower), header))
    }

    /// The number of weights of a network of this shape.
    fn weights_of(inputs: usize, moves: usize, shape: Shape) -> usize {
        match shape {
            Shape::Perceptron { hidden } => Layout::of(inputs, hidden, moves).total,
            Shape::Residual(tower) => tower.parameters(),
        }
    }

    /// The size of the whole file whose first bytes (at least its header) are `start`, as its
    /// header declares it: what a reader reads, and no more.
    pub fn file_size(start: &[u8]) -> Result<usize, LearnError> {
        let (_, inputs, moves, shape, header) = Self::header(start)?;
        Ok(header + 4 * Self::weights_of(inputs, moves, shape))
    }

    /// Reads a network's file; says in words what is wrong with one that is not.
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyValueNet, LearnError> {
        let (game, inputs, moves, shape, header) = Self::header(bytes)?;
        let total = Self::weights_of(inputs, moves, shape);
        let body = &bytes[header..];
        if body.len() != 4 * total {
            return Err(LearnError::Weights(format!(
                "the file holds {} bytes of weights where its sizes need {}",
                body.len(),
                4 * total
            )));
        }
        let weights = body
            .chunks_exact(4)
            .map(|chunk| f32::from_le_bytes(chunk.try_into().unwrap()))
            .collect::<Vec<f32>>();
        if weights.iter().any(|weight| !weight.is_finite()) {
            return Err(LearnError::Weights(
                "a weight is not a finite number".to_owned(),
            ));
        }
        Ok(PolicyValueNet {
            game,
            inputs,
            moves,
            shape,
            weights,
        })
    }
}

#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight sums side by side, so that the compiler keeps them in one vector register.
    let mut sums = [0.0f32; 8];
    let chunks = a.len() / 8 * 8;
    for (x, y) in a[..chunks].chunks_exact(8).zip(b[..chunks].chunks_exact(8)) {
        for lane in 0..8 {
            sums[lane] += x[lane] * y[lane];
        }
    }
    let mut sum: f32 = sums.iter().sum();
    for (x, y) in a[chunks..].iter().zip(&b[chunks..]) {
        sum += x * y;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn net() -> PolicyValueNet {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        PolicyValueNet::random("test", 6, 5, 4, &mut rng)
    }

    fn loss(net: &PolicyValueNet, active: &[u16], legal: &[u16], policy: &[f32], z: f32) -> f32 {
        let mut acts = Activations::default();
        net.forward(active, &mut acts);
        let mut gradient = vec![0.0; net.parameters()];
        net.backward(active, &mut acts, legal, policy, z, &mut gradient)
    }

    /// Each weight's gradient is the loss's slope along it, as finite differences measure it.
    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let net = net();
        let (active, legal, policy, z) = ([0u16, 3, 5], [0u16, 2, 3], [0.2f32, 0.5, 0.3], -0.5);
        let mut acts = Activations::default();
        net.forward(&active, &mut acts);
        let mut gradient = vec![0.0; net.parameters()];
        net.backward(&active, &mut acts, &legal, &policy, z, &mut gradient);
        let mut checked = 0;
        for (index, &computed) in gradient.iter().enumerate() {
            let step = 1e-2;
            let mut up = net.clone();
            up.weights[index] += step;
            let mut down = net.clone();
            down.weights[index] -= step;
            let slope = (loss(&up, &active, &legal, &policy, z)
                - loss(&down, &active, &legal, &policy, z))
                / (2.0 * step);
            assert!(
                (slope - computed).abs() < 2e-2 * (1.0 + slope.abs()),
                "weight {index}: measured {slope}, computed {computed}"
            );
            checked += usize::from(computed != 0.0);
        }
        assert!(checked > net.parameters() / 3, "{checked} weights learnt");
    }

    #[test]
    fn a_file_reads_back_and_a_bad_one_is_refused() {
        let net = net();
        assert_eq!(PolicyValueNet::from_bytes(&net.to_bytes()).unwrap(), net);
        let bytes = net.to_bytes();
        assert!(PolicyValueNet::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(PolicyValueNet::from_bytes(b"SENTEPV1").is_err());
        assert!(PolicyValueNet::from_bytes(b"nonsense").is_err());
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(4);
        let tower = Tower {
            rows: 2,
            columns: 3,
            channels: 4,
            blocks: 1,
            moves: 3,
        };
        let net = PolicyValueNet::random_tower("test", 12, tower, &mut rng);
        let bytes = net.to_bytes();
        assert_eq!(PolicyValueNet::file_size(&bytes).unwrap(), bytes.len());
        assert_eq!(PolicyValueNet::from_bytes(&bytes).unwrap(), net);
        assert!(PolicyValueNet::from_bytes(&bytes[..bytes.len() - 4]).is_err());
    }
}
