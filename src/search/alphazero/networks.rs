//! A game's networks for `alphazero`: those it ships ([`Declaration::networks`], read into the
//! binary and decoded once), the best first. The `net` knob names one, and its index here is
//! what the search is given; a network read from a file (`sente tournament --net NAME=FILE`)
//! is not kept here but carried by the search's settings
//! ([`AlphaZeroParams::read`](super::AlphaZeroParams::read)).
//!
//! [`Declaration::networks`]: crate::game::Declaration::networks

use std::sync::{Arc, Mutex};

use crate::files::FileError;
use crate::game::Game;
use crate::learn::LearnError;
use crate::learn::policy_value::PolicyValueNet;
use crate::learn::weights::{Learnt, NamedWeights};

/// A shipped network, decoded: where its bytes are, so that each is decoded once.
struct Decoded {
    at: usize,
    net: Arc<PolicyValueNet>,
}

/// Every shipped network decoded so far.
static DECODED: Mutex<Vec<Decoded>> = Mutex::new(Vec::new());

/// The names of `G`'s networks, the best first.
pub fn names<G: Game>() -> Vec<&'static str> {
    described::<G>().into_iter().map(|(name, _)| name).collect()
}

/// `G`'s networks' names and what each is, as [`names`] orders them.
pub fn described<G: Game>() -> Vec<(&'static str, &'static str)> {
    G::DECLARATION
        .networks
        .iter()
        .map(|network| (network.name, network.description))
        .collect()
}

/// Whether `G` ships a network to play `alphazero` with.
pub fn has_any<G: Game>() -> bool {
    !G::DECLARATION.networks.is_empty()
}

/// `G`'s network number `index` of [`names`].
pub fn network<G: Game>(index: usize) -> Result<Arc<PolicyValueNet>, LearnError> {
    let network = G::DECLARATION.networks.get(index).ok_or_else(|| {
        LearnError::NotLearnt(format!("{} has no network number {index}", G::NAME))
    })?;
    let at = network.bytes.as_ptr() as usize;
    let mut decoded = DECODED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = decoded.iter().find(|found| found.at == at) {
        return Ok(found.net.clone());
    }
    let net = Arc::new(check::<G>(PolicyValueNet::from_bytes(network.bytes)?)?);
    decoded.push(Decoded {
        at,
        net: net.clone(),
    });
    Ok(net)
}

/// The network of `G` in the file at `path`, checked, as the `net` knob plays it under `name`.
pub fn read<G: Game>(name: &str, path: &std::path::Path) -> Result<NamedWeights, LearnError> {
    let net = from_file::<G>(path)?;
    NamedWeights::of(Learnt::Network, name, G::NAME, Arc::new(net))
}

/// The network of `G` in the file at `path`; says in words, naming the file, what is wrong with
/// one that cannot be read or is another game's.
pub fn from_file<G: Game>(path: &std::path::Path) -> Result<PolicyValueNet, LearnError> {
    use std::io::Read;
    let file = crate::files::open(path)?;
    // The header says how big the file is: no more than that is read, whatever it holds.
    let mut bytes = Vec::new();
    let mut file = file.take(PolicyValueNet::MAX_HEADER_BYTES as u64);
    file.read_to_end(&mut bytes)
        .map_err(|error| FileError::io(path, error))?;
    let size = PolicyValueNet::file_size(&bytes).map_err(|error| error.in_file(path))?;
    let mut file = file.into_inner();
    (&mut file)
        .take((size + 1).saturating_sub(bytes.len()) as u64)
        .read_to_end(&mut bytes)
        .map_err(|error| FileError::io(path, error))?;
    PolicyValueNet::from_bytes(&bytes)
        .and_then(check::<G>)
        .map_err(|error| error.in_file(path))
}

/// Whether `G` can have a policy-value network at all: its inputs and move ids within what one
/// holds. Self-play and training ask first, so that neither writes what could never be read.
pub fn playable<G: Game>() -> Result<(), LearnError> {
    crate::learn::policy_value::fits(G::NETWORK_INPUTS, 1, G::MOVE_IDS).map_err(|error| {
        LearnError::NotLearnt(format!(
            "{} has no AlphaZero network: its moves and inputs do not fit one ({error})",
            G::NAME
        ))
    })
}

/// The plies of first moves a network is probed on beyond the start.
const PROBE_PLIES: usize = 4;

/// `net`, if it was trained for `G`: its game, its inputs and its moves, and finite outputs.
pub fn check<G: Game>(net: PolicyValueNet) -> Result<PolicyValueNet, LearnError> {
    if net.game != G::NAME {
        return Err(LearnError::Weights(format!(
            "the network was trained for {}, not {}",
            net.game,
            G::NAME
        )));
    }
    if net.inputs != G::NETWORK_INPUTS || net.moves != G::MOVE_IDS {
        return Err(LearnError::Weights(format!(
            "the network reads {} inputs and writes {} moves, where {} has {} and {}",
            net.inputs,
            net.moves,
            G::NAME,
            G::NETWORK_INPUTS,
            G::MOVE_IDS
        )));
    }
    // Finite weights can still overflow: probed on the start and the positions of a few first
    // moves (an empty board turns no input on), a network whose outputs are not numbers is
    // refused here rather than found out inside a search.
    let mut inputs = Vec::with_capacity(G::NETWORK_INPUTS);
    let mut activations = crate::learn::policy_value::Activations::default();
    let mut position = G::start();
    for ply in 0..=PROBE_PLIES {
        position.network_inputs(&mut inputs);
        net.forward(&inputs, &mut activations);
        let finite = activations.value.is_finite()
            && activations.logits.iter().all(|logit| logit.is_finite());
        if !finite {
            return Err(LearnError::Weights(format!(
                "the network's outputs are not finite numbers on the position {ply} plies from \
                 the start ({position}): its weights are out of range (a trained network's stay \
                 within 8)"
            )));
        }
        match position.legal_moves().next() {
            Some(mv) => position = position.play(mv),
            None => break,
        }
    }
    Ok(net)
}
