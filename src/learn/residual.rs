//! AlphaZero's network as AlphaZero drew it, made small: a tower of residual convolutions over
//! the board's grid, then a policy head and a value head (Silver et al., Nature 2017, "Methods:
//! neural network architecture"; without batch normalisation, which a network asked one
//! position at a time would only fold back into its weights).
//!
//! ```text
//! planes (rows x columns x 4) -> 3x3 conv, ReLU -> [3x3 conv, ReLU, 3x3 conv, + skip, ReLU] x blocks
//!     -> policy: 1x1 conv to 2 planes, ReLU -> a logit per move id
//!     -> value:  1x1 conv to 2 planes, ReLU -> 64, ReLU -> tanh
//! ```
//!
//! A convolution sees what a perceptron of cells has to learn cell by cell: that four in a row
//! is four in a row wherever it lies. The input planes are the side to move's stones, its
//! opponent's (the game's [`network_inputs`], two a cell), a plane of ones (so that the zero
//! padding shows where the board ends) and a plane of the parity of the stones on the board (in
//! Connect Four, who moved first, which decides whose threats count; in Othello, the parity of
//! the empty squares at the end).
//!
//! Activations are kept a cell at a time, all channels of a cell side by side: a convolution is
//! then, for each cell, each of its nine neighbours and each input channel, one multiply-add of
//! a row of weights into the cell's outputs, a loop the compiler turns into vector instructions
//! (with AVX2's fused multiply-adds where the processor has them: the kernels are compiled twice
//! and chosen once, at run time). Inputs that are zero (half of a ReLU's, most of the stones')
//! are skipped.
//!
//! [`network_inputs`]: crate::game::Inputs::network_inputs

use rand::RngExt;

use crate::learn::LearnError;

/// Planes a position is given as: the side to move's stones, its opponent's, ones, parity.
pub const PLANES: usize = 4;
/// Planes of the policy head's and the value head's 1x1 convolutions.
const HEAD_PLANES: usize = 2;
/// The value head's hidden width.
pub const VALUE_HIDDEN: usize = 64;
/// The largest tower a file may declare.
pub const MAX_CHANNELS: usize = 256;
pub const MAX_BLOCKS: usize = 20;
/// The largest grid, a side (gomoku's 15 fits).
pub const MAX_SIDE: usize = 32;

/// The tower's shape: the grid it reads, its width and depth, and the policy's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tower {
    pub rows: usize,
    pub columns: usize,
    pub channels: usize,
    pub blocks: usize,
    pub moves: usize,
}

/// A convolution's weights in the tower's vector: `taps x inputs x outputs`, then `outputs` biases.
#[derive(Clone, Copy, Debug)]
struct Conv {
    at: usize,
    taps: usize,
    inputs: usize,
    outputs: usize,
}

impl Conv {
    fn len(&self) -> usize {
        self.taps * self.inputs * self.outputs + self.outputs
    }
    fn weights<'a>(&self, all: &'a [f32]) -> &'a [f32] {
        &all[self.at..self.at + self.taps * self.inputs * self.outputs]
    }
    fn biases<'a>(&self, all: &'a [f32]) -> &'a [f32] {
        let start = self.at + self.taps * self.inputs * self.outputs;
        &all[start..start + self.outputs]
    }
}

/// Where each part of the tower starts in the weights' vector.
#[derive(Clone, Copy, Debug)]
struct Layout {
    input: Conv,
    /// The first block's first convolution; each next one follows at `block_len` a block.
    block: Conv,
    policy_conv: Conv,
    /// `moves x (cells x 2)` weights, then `moves` biases.
    policy_fc: usize,
    value_conv: Conv,
    /// `64 x (cells x 2)`, then 64 biases.
    value_fc: usize,
    /// 64 weights, then 1 bias.
    value_out: usize,
    total: usize,
}

impl Tower {
    pub fn cells(&self) -> usize {
        self.rows * self.columns
    }

    /// Whether a tower of this shape may be made and read.
    pub fn fits(&self) -> Result<(), LearnError> {
        for (what, size, max) in [
            ("rows", self.rows, MAX_SIDE),
            ("columns", self.columns, MAX_SIDE),
            ("channels", self.channels, MAX_CHANNELS),
            ("blocks", self.blocks, MAX_BLOCKS),
        ] {
            if !(1..=max).contains(&size) {
                return Err(LearnError::Weights(format!(
                    "{size} {what}, where a residual network has 1 to {max}"
                )));
            }
        }
        Ok(())
    }

    fn layout(&self) -> Layout {
        let (c, cells) = (self.channels, self.cells());
        let conv = |at, taps, inputs, outputs| Conv {
            at,
            taps,
            inputs,
            outputs,
        };
        let input = conv(0, 9, PLANES, c);
        let block = conv(input.len(), 9, c, c);
        let blocks_end = block.at + 2 * self.blocks * block.len();
        let policy_conv = conv(blocks_end, 1, c, HEAD_PLANES);
        let policy_fc = policy_conv.at + policy_conv.len();
        let value_conv = conv(
            policy_fc + self.moves * (cells * HEAD_PLANES + 1),
            1,
            c,
            HEAD_PLANES,
        );
        let value_fc = value_conv.at + value_conv.len();
        let value_out = value_fc + VALUE_HIDDEN * (cells * HEAD_PLANES + 1);
        Layout {
            input,
            block,
            policy_conv,
            policy_fc,
            value_conv,
            value_fc,
            value_out,
            total: value_out + VALUE_HIDDEN + 1,
        }
    }

    /// The number of weights.
    pub fn parameters(&self) -> usize {
        self.layout().total
    }

    /// Block `k`'s two convolutions.
    fn block(&self, layout: &Layout, k: usize) -> (Conv, Conv) {
        let len = layout.block.len();
        let first = Conv {
            at: layout.block.at + 2 * k * len,
            ..layout.block
        };
        let second = Conv {
            at: first.at + len,
            ..layout.block
        };
        (first, second)
    }

    /// Random weights: He's initialisation, the second convolution of each block and the heads'
    /// last layers scaled down, so that each block starts near the identity, the first policy
    /// near uniform and the first value near a draw.
    pub fn random(&self, rng: &mut impl RngExt) -> Vec<f32> {
        let layout = self.layout();
        let mut weights = vec![0.0f32; layout.total];
        let mut fill = |at: usize, len: usize, fan_in: usize, gain: f32| {
            let scale = gain * (2.0 / fan_in.max(1) as f32).sqrt() * 3f32.sqrt() / 2.0;
            for weight in &mut weights[at..at + len] {
                *weight = (rng.random::<f32>() * 2.0 - 1.0) * scale;
            }
        };
        let conv_fill = |fill: &mut dyn FnMut(usize, usize, usize, f32), conv: Conv, gain| {
            fill(
                conv.at,
                conv.taps * conv.inputs * conv.outputs,
                conv.taps * conv.inputs,
                gain,
            )
        };
        conv_fill(&mut fill, layout.input, 1.0);
        for k in 0..self.blocks {
            let (first, second) = self.block(&layout, k);
            conv_fill(&mut fill, first, 1.0);
            conv_fill(&mut fill, second, 0.1);
        }
        let flat = self.cells() * HEAD_PLANES;
        conv_fill(&mut fill, layout.policy_conv, 1.0);
        fill(layout.policy_fc, self.moves * flat, flat, 0.1);
        conv_fill(&mut fill, layout.value_conv, 1.0);
        fill(layout.value_fc, VALUE_HIDDEN * flat, flat, 1.0);
        fill(layout.value_out, VALUE_HIDDEN, VALUE_HIDDEN, 0.1);
        weights
    }

    /// The forward pass on a position's planes ([`Tower::planes`]): every layer's output kept in
    /// `acts` for the backward pass, the logits and the value among them.
    pub fn forward(&self, weights: &[f32], acts: &mut Activations) {
        #[cfg(target_arch = "x86_64")]
        if fused() {
            // SAFETY: the processor has AVX2 and FMA, as `fused` checked.
            unsafe { self.forward_fused(weights, acts) };
            return;
        }
        self.forward_with::<false>(weights, acts);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn forward_fused(&self, weights: &[f32], acts: &mut Activations) {
        self.forward_with::<true>(weights, acts);
    }

    /// Fills `acts.planes` from the inputs that are on (`2 * cell` the side to move's stone,
    /// `2 * cell + 1` its opponent's), ready for [`Tower::forward`].
    pub fn planes(&self, active: &[u16], acts: &mut Activations) {
        let cells = self.cells();
        let parity = (active.len() % 2) as f32;
        acts.planes.clear();
        acts.planes.resize(cells * PLANES, 0.0);
        for cell in 0..cells {
            acts.planes[cell * PLANES + 2] = 1.0;
            acts.planes[cell * PLANES + 3] = parity;
        }
        for &input in active {
            let (cell, plane) = (usize::from(input) / 2, usize::from(input) % 2);
            if cell < cells {
                acts.planes[cell * PLANES + plane] = 1.0;
            }
        }
    }

    #[inline(always)]
    fn forward_with<const FUSED: bool>(&self, weights: &[f32], acts: &mut Activations) {
        let layout = self.layout();
        let (c, cells) = (self.channels, self.cells());
        let slab = cells * c;
        acts.trunk.clear();
        acts.trunk.resize((1 + 2 * self.blocks) * slab, 0.0);
        let grid = (self.rows, self.columns);
        conv::<FUSED>(
            grid,
            layout.input,
            weights,
            &acts.planes,
            &mut acts.trunk[..slab],
        );
        relu(&mut acts.trunk[..slab]);
        for k in 0..self.blocks {
            let (first, second) = self.block(&layout, k);
            let (done, rest) = acts.trunk.split_at_mut((2 * k + 1) * slab);
            let x = &done[2 * k * slab..];
            let (h, y) = rest.split_at_mut(slab);
            let y = &mut y[..slab];
            conv::<FUSED>(grid, first, weights, x, h);
            relu(h);
            conv::<FUSED>(grid, second, weights, h, y);
            for (out, skip) in y.iter_mut().zip(x) {
                *out = (*out + skip).max(0.0);
            }
        }
        let top = &acts.trunk[2 * self.blocks * slab..];
        let flat = cells * HEAD_PLANES;
        // Each head's 1x1 convolution to its planes, through a ReLU.
        let head = |conv: Conv, planes: &mut Vec<f32>| {
            planes.clear();
            planes.resize(flat, 0.0);
            self::conv::<FUSED>(grid, conv, weights, top, planes);
            relu(planes);
        };
        head(layout.policy_conv, &mut acts.policy_planes);
        head(layout.value_conv, &mut acts.value_planes);
        acts.logits.clear();
        acts.logits.extend((0..self.moves).map(|m| {
            let row = layout.policy_fc + m * flat;
            weights[layout.policy_fc + self.moves * flat + m]
                + dot::<FUSED>(&weights[row..row + flat], &acts.policy_planes)
        }));
        acts.value_hidden.clear();
        acts.value_hidden.extend((0..VALUE_HIDDEN).map(|j| {
            let row = layout.value_fc + j * flat;
            (weights[layout.value_fc + VALUE_HIDDEN * flat + j]
                + dot::<FUSED>(&weights[row..row + flat], &acts.value_planes))
            .max(0.0)
        }));
        let out = layout.value_out;
        acts.value = (weights[out + VALUE_HIDDEN]
            + dot::<FUSED>(&weights[out..out + VALUE_HIDDEN], &acts.value_hidden))
        .tanh();
    }

    /// Adds to `gradient` the loss's gradient for the position whose forward pass left `acts`:
    /// `policy` the target's share of each of `legal`, `result` the value's target. Returns the
    /// position's loss, AlphaZero's (z - v)^2 - pi . log p.
    #[allow(clippy::too_many_arguments)]
    pub fn backward(
        &self,
        weights: &[f32],
        acts: &Activations,
        legal: &[u16],
        policy: &[f32],
        result: f32,
        gradient: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if fused() {
            // SAFETY: the processor has AVX2 and FMA, as `fused` checked.
            return unsafe {
                self.backward_fused(weights, acts, legal, policy, result, gradient, scratch)
            };
        }
        self.backward_with::<false>(weights, acts, legal, policy, result, gradient, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn backward_fused(
        &self,
        weights: &[f32],
        acts: &Activations,
        legal: &[u16],
        policy: &[f32],
        result: f32,
        gradient: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        self.backward_with::<true>(weights, acts, legal, policy, result, gradient, scratch)
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn backward_with<const FUSED: bool>(
        &self,
        weights: &[f32],
        acts: &Activations,
        legal: &[u16],
        policy: &[f32],
        result: f32,
        gradient: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        let layout = self.layout();
        let (c, cells) = (self.channels, self.cells());
        let (slab, flat) = (cells * c, cells * HEAD_PLANES);
        let grid = (self.rows, self.columns);
        let top = &acts.trunk[2 * self.blocks * slab..];
        let d_top = &mut scratch.d_trunk;
        d_top.clear();
        d_top.resize(slab, 0.0);

        // The value head: d/dv (z - v)^2 = 2 (v - z), through tanh, the hidden layer and its conv.
        let value_error = acts.value - result;
        let mut loss = value_error * value_error;
        let d_value = 2.0 * value_error * (1.0 - acts.value * acts.value);
        let out = layout.value_out;
        gradient[out + VALUE_HIDDEN] += d_value;
        let d_planes = &mut scratch.d_planes;
        d_planes.clear();
        d_planes.resize(flat, 0.0);
        for j in 0..VALUE_HIDDEN {
            gradient[out + j] += d_value * acts.value_hidden[j];
            if acts.value_hidden[j] <= 0.0 {
                continue;
            }
            let d = d_value * weights[out + j];
            let row = layout.value_fc + j * flat;
            axpy::<FUSED>(&mut gradient[row..row + flat], d, &acts.value_planes);
            axpy::<FUSED>(d_planes, d, &weights[row..row + flat]);
            gradient[layout.value_fc + VALUE_HIDDEN * flat + j] += d;
        }
        mask(d_planes, &acts.value_planes);
        conv_backward::<FUSED>(
            grid,
            layout.value_conv,
            weights,
            top,
            d_planes,
            gradient,
            Some(&mut *d_top),
        );

        // The policy head: the softmax over the legal moves; d/dlogit = p - pi.
        let probabilities = softmax(legal.iter().map(|&m| acts.logits[usize::from(m)]));
        d_planes.clear();
        d_planes.resize(flat, 0.0);
        let biases = layout.policy_fc + self.moves * flat;
        for ((&m, &p), &target) in legal.iter().zip(&probabilities).zip(policy) {
            if target > 0.0 {
                loss -= target * p.max(1e-12).ln();
            }
            let d_logit = p - target;
            let row = layout.policy_fc + usize::from(m) * flat;
            axpy::<FUSED>(&mut gradient[row..row + flat], d_logit, &acts.policy_planes);
            axpy::<FUSED>(d_planes, d_logit, &weights[row..row + flat]);
            gradient[biases + usize::from(m)] += d_logit;
        }
        mask(d_planes, &acts.policy_planes);
        conv_backward::<FUSED>(
            grid,
            layout.policy_conv,
            weights,
            top,
            d_planes,
            gradient,
            Some(&mut *d_top),
        );

        // The tower, top down: y = relu(x + conv2(relu(conv1(x)))).
        let d_y = &mut scratch.d_trunk;
        let d_h = &mut scratch.d_hidden;
        let d_x = &mut scratch.d_below;
        for k in (0..self.blocks).rev() {
            let (first, second) = self.block(&layout, k);
            let x = &acts.trunk[2 * k * slab..][..slab];
            let h = &acts.trunk[(2 * k + 1) * slab..][..slab];
            let y = &acts.trunk[(2 * k + 2) * slab..][..slab];
            mask(d_y, y);
            d_h.clear();
            d_h.resize(slab, 0.0);
            conv_backward::<FUSED>(grid, second, weights, h, d_y, gradient, Some(&mut *d_h));
            mask(d_h, h);
            d_x.clear();
            d_x.extend_from_slice(d_y);
            conv_backward::<FUSED>(grid, first, weights, x, d_h, gradient, Some(&mut *d_x));
            std::mem::swap(d_y, d_x);
        }
        mask(d_y, &acts.trunk[..slab]);
        conv_backward::<FUSED>(
            grid,
            layout.input,
            weights,
            &acts.planes,
            d_y,
            gradient,
            None,
        );
        loss
    }
}

/// Whether this processor runs the fused kernels (AVX2 and FMA): asked once, then remembered.
#[cfg(target_arch = "x86_64")]
#[inline]
fn fused() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// What one position's forward pass keeps for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// `cells x PLANES`.
    pub planes: Vec<f32>,
    /// The input convolution's output, then each block's middle and output, `cells x channels`
    /// each.
    pub trunk: Vec<f32>,
    pub policy_planes: Vec<f32>,
    pub logits: Vec<f32>,
    pub value_planes: Vec<f32>,
    pub value_hidden: Vec<f32>,
    pub value: f32,
}

/// The backward pass's buffers, kept between positions.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    d_trunk: Vec<f32>,
    d_hidden: Vec<f32>,
    d_below: Vec<f32>,
    d_planes: Vec<f32>,
}

/// The offsets of a 3x3 convolution's taps, in the order of its weights; a 1x1 has the centre.
const TAPS: [(isize, isize); 9] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 0),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The cells `cell`'s taps read, each with its tap's number: those on the board (the padding
/// beyond it is zero, so it adds nothing).
#[inline(always)]
fn neighbours(
    (rows, columns): (usize, usize),
    taps: usize,
    cell: usize,
) -> impl Iterator<Item = (usize, usize)> {
    let (row, column) = ((cell / columns) as isize, (cell % columns) as isize);
    let offsets: &'static [(isize, isize)] = if taps == 1 { &[(0, 0)] } else { &TAPS };
    offsets
        .iter()
        .enumerate()
        .filter_map(move |(tap, &(dr, dc))| {
            let (r, c) = (row + dr, column + dc);
            (r >= 0 && c >= 0 && r < rows as isize && c < columns as isize)
                .then(|| (tap, r as usize * columns + c as usize))
        })
}

/// `out = conv(input)` (before any ReLU): each cell's outputs are its biases plus, for each
/// neighbour and input channel, the channel's value times that tap's row of weights. The usual
/// widths are compiled with the cell's outputs held in registers the whole time.
#[inline(always)]
fn conv<const FUSED: bool>(
    grid: (usize, usize),
    conv: Conv,
    all: &[f32],
    input: &[f32],
    out: &mut [f32],
) {
    match conv.outputs {
        16 => conv_fixed::<FUSED, 16>(grid, conv, all, input, out),
        32 => conv_fixed::<FUSED, 32>(grid, conv, all, input, out),
        64 => conv_fixed::<FUSED, 64>(grid, conv, all, input, out),
        _ => conv_any::<FUSED>(grid, conv, all, input, out),
    }
}

#[inline(always)]
fn conv_fixed<const FUSED: bool, const N: usize>(
    grid: (usize, usize),
    conv: Conv,
    all: &[f32],
    input: &[f32],
    out: &mut [f32],
) {
    let (weights, biases) = (conv.weights(all), conv.biases(all));
    let cin = conv.inputs;
    for cell in 0..grid.0 * grid.1 {
        let mut sums: [f32; N] = biases.try_into().expect("N outputs");
        for (tap, neighbour) in neighbours(grid, conv.taps, cell) {
            let values = &input[neighbour * cin..][..cin];
            let rows = &weights[tap * cin * N..][..cin * N];
            for (&x, row) in values.iter().zip(rows.chunks_exact(N)) {
                for (sum, &weight) in sums.iter_mut().zip(row) {
                    *sum = if FUSED {
                        x.mul_add(weight, *sum)
                    } else {
                        *sum + x * weight
                    };
                }
            }
        }
        out[cell * N..][..N].copy_from_slice(&sums);
    }
}

#[inline(always)]
fn conv_any<const FUSED: bool>(
    grid: (usize, usize),
    conv: Conv,
    all: &[f32],
    input: &[f32],
    out: &mut [f32],
) {
    let (weights, biases) = (conv.weights(all), conv.biases(all));
    let (cin, cout) = (conv.inputs, conv.outputs);
    for cell in 0..grid.0 * grid.1 {
        let row = &mut out[cell * cout..][..cout];
        row.copy_from_slice(biases);
        for (tap, neighbour) in neighbours(grid, conv.taps, cell) {
            let values = &input[neighbour * cin..][..cin];
            for (i, &x) in values.iter().enumerate() {
                axpy::<FUSED>(row, x, &weights[(tap * cin + i) * cout..][..cout]);
            }
        }
    }
}

/// The backward pass of [`conv`], given `d_out` (the loss's gradient at its output, through the
/// ReLU): the weights' and biases' gradients added into `gradient`, the input's into `d_input`.
#[inline(always)]
fn conv_backward<const FUSED: bool>(
    grid: (usize, usize),
    conv: Conv,
    all: &[f32],
    input: &[f32],
    d_out: &[f32],
    gradient: &mut [f32],
    mut d_input: Option<&mut Vec<f32>>,
) {
    let weights = conv.weights(all);
    let (cin, cout) = (conv.inputs, conv.outputs);
    let bias_at = conv.at + conv.taps * cin * cout;
    for cell in 0..grid.0 * grid.1 {
        let d = &d_out[cell * cout..][..cout];
        if d.iter().all(|&d| d == 0.0) {
            continue;
        }
        for (g, &d) in gradient[bias_at..bias_at + cout].iter_mut().zip(d) {
            *g += d;
        }
        for (tap, neighbour) in neighbours(grid, conv.taps, cell) {
            let values = &input[neighbour * cin..][..cin];
            for (i, &x) in values.iter().enumerate() {
                let at = (tap * cin + i) * cout;
                if x != 0.0 {
                    axpy::<FUSED>(&mut gradient[conv.at + at..][..cout], x, d);
                }
                if let Some(d_input) = d_input.as_deref_mut() {
                    d_input[neighbour * cin + i] += dot::<FUSED>(&weights[at..at + cout], d);
                }
            }
        }
    }
}

fn relu(values: &mut [f32]) {
    for value in values {
        *value = value.max(0.0);
    }
}

/// Zeroes the gradient where the ReLU's output was zero.
fn mask(d: &mut [f32], output: &[f32]) {
    for (d, &out) in d.iter_mut().zip(output) {
        if out <= 0.0 {
            *d = 0.0;
        }
    }
}

/// `y += a x`.
#[inline(always)]
fn axpy<const FUSED: bool>(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y = if FUSED { x.mul_add(a, *y) } else { *y + a * x };
    }
}

#[inline(always)]
fn dot<const FUSED: bool>(a: &[f32], b: &[f32]) -> f32 {
    // Eight sums side by side, so that the compiler keeps them in one vector register.
    let mut sums = [0.0f32; 8];
    let chunks = a.len() / 8 * 8;
    for (x, y) in a[..chunks].chunks_exact(8).zip(b[..chunks].chunks_exact(8)) {
        for lane in 0..8 {
            sums[lane] = if FUSED {
                x[lane].mul_add(y[lane], sums[lane])
            } else {
                sums[lane] + x[lane] * y[lane]
            };
        }
    }
    let mut sum: f32 = sums.iter().sum();
    for (x, y) in a[chunks..].iter().zip(&b[chunks..]) {
        sum += x * y;
    }
    sum
}

/// The softmax of `logits`: positive shares summing to 1.
pub fn softmax(logits: impl Iterator<Item = f32> + Clone) -> Vec<f32> {
    let max = logits.clone().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = logits.map(|logit| (logit - max).exp()).collect();
    let sum: f32 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const TOWER: Tower = Tower {
        rows: 3,
        columns: 4,
        channels: 5,
        blocks: 2,
        moves: 6,
    };

    fn loss(weights: &[f32], active: &[u16], legal: &[u16], policy: &[f32], z: f32) -> f32 {
        let mut acts = Activations::default();
        TOWER.planes(active, &mut acts);
        TOWER.forward(weights, &mut acts);
        let mut gradient = vec![0.0; weights.len()];
        TOWER.backward(
            weights,
            &acts,
            legal,
            policy,
            z,
            &mut gradient,
            &mut Scratch::default(),
        )
    }

    /// Each weight's gradient is the loss's slope along it, as finite differences measure it:
    /// the convolutions' taps at the board's edges, the skips and both heads.
    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut weights = TOWER.random(&mut rng);
        // Larger second convolutions and heads than a new network's, so that every part's
        // gradient is far from zero.
        for weight in &mut weights {
            *weight *= 1.5;
        }
        let (active, legal, policy, z) = (
            [0u16, 3, 8, 13, 22],
            [0u16, 2, 3, 5],
            [0.1f32, 0.5, 0.3, 0.1],
            -0.5,
        );
        let mut acts = Activations::default();
        TOWER.planes(&active, &mut acts);
        TOWER.forward(&weights, &mut acts);
        let mut gradient = vec![0.0; weights.len()];
        TOWER.backward(
            &weights,
            &acts,
            &legal,
            &policy,
            z,
            &mut gradient,
            &mut Scratch::default(),
        );
        let mut checked = 0;
        for (index, &computed) in gradient.iter().enumerate() {
            let step = 1e-2;
            let mut up = weights.clone();
            up[index] += step;
            let mut down = weights.clone();
            down[index] -= step;
            let slope = (loss(&up, &active, &legal, &policy, z)
                - loss(&down, &active, &legal, &policy, z))
                / (2.0 * step);
            assert!(
                (slope - computed).abs() < 3e-2 * (1.0 + slope.abs()),
                "weight {index}: measured {slope}, computed {computed}"
            );
            checked += usize::from(computed != 0.0);
        }
        assert!(checked > weights.len() / 3, "{checked} weights learnt");
    }

    /// The fused kernels and the plain ones compute the same network.
    #[test]
    fn both_kernels_agree() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let weights = TOWER.random(&mut rng);
        let mut plain = Activations::default();
        TOWER.planes(&[1, 4, 9], &mut plain);
        let mut fused = plain.clone();
        TOWER.forward_with::<false>(&weights, &mut plain);
        TOWER.forward(&weights, &mut fused);
        assert!((plain.value - fused.value).abs() < 1e-5);
        for (a, b) in plain.logits.iter().zip(&fused.logits) {
            assert!((a - b).abs() < 1e-4, "{a} against {b}");
        }
    }
}
