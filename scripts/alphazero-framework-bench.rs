//! AlphaZero's Connect Four network (84 inputs -> 256 -> 256, ReLU, a policy of 7 and a tanh
//! value), trained with candle on the CPU: AlphaZero's loss at batch 256, Adam, and the forward
//! pass one position at a time, as the search calls it.
use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use rand::{Rng, SeedableRng};

fn main() -> candle_core::Result<()> {
    let positions: usize = std::env::args()
        .nth(1)
        .map_or(200_000, |n| n.parse().unwrap());
    let (inputs, hidden, moves, batch) = (84, 256, 7, 256);
    let device = Device::Cpu;
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
    let l1 = candle_nn::linear(inputs, hidden, vb.pp("l1"))?;
    let l2 = candle_nn::linear(hidden, hidden, vb.pp("l2"))?;
    let policy = candle_nn::linear(hidden, moves, vb.pp("policy"))?;
    let value = candle_nn::linear(hidden, 1, vb.pp("value"))?;
    let mut opt = AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: 0.002,
            weight_decay: 0.0,
            ..Default::default()
        },
    )?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    // Random positions: 20 discs of each side on 42 cells; random visit shares and results.
    let make = |rng: &mut rand::rngs::StdRng| {
        let mut x = vec![0f32; batch * inputs];
        let mut pi = vec![0f32; batch * moves];
        let mut z = vec![0f32; batch];
        for b in 0..batch {
            for _ in 0..20 {
                x[b * inputs + rng.gen_range(0..inputs)] = 1.0;
            }
            let shares: Vec<f32> = (0..moves).map(|_| rng.r#gen::<f32>()).collect();
            let total: f32 = shares.iter().sum();
            for m in 0..moves {
                pi[b * moves + m] = shares[m] / total;
            }
            z[b] = rng.gen_range(-1..=1) as f32;
        }
        (x, pi, z)
    };
    let batches = positions / batch;
    let data: Vec<_> = (0..batches.min(16)).map(|_| make(&mut rng)).collect();
    let forward = |x: &Tensor| -> candle_core::Result<(Tensor, Tensor)> {
        let h = l2.forward(&l1.forward(x)?.relu()?)?.relu()?;
        Ok((policy.forward(&h)?, value.forward(&h)?.tanh()?))
    };
    let started = std::time::Instant::now();
    for i in 0..batches {
        let (x, pi, z) = &data[i % data.len()];
        let x = Tensor::from_slice(x, (batch, inputs), &device)?;
        let pi = Tensor::from_slice(pi, (batch, moves), &device)?;
        let z = Tensor::from_slice(z, (batch, 1), &device)?;
        let (logits, v) = forward(&x)?;
        let log_p = candle_nn::ops::log_softmax(&logits, candle_core::D::Minus1)?;
        let policy_loss = (pi * log_p)?
            .sum(candle_core::D::Minus1)?
            .neg()?
            .mean_all()?;
        let value_loss = (v - z)?.sqr()?.mean_all()?;
        opt.backward_step(&(policy_loss + value_loss)?)?;
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "training: {} positions in {elapsed:.2} s: {:.0} positions/s",
        batches * batch,
        (batches * batch) as f64 / elapsed
    );
    let one = Tensor::from_slice(&data[0].0[..inputs], (1, inputs), &device)?;
    let calls = 20_000;
    let started = std::time::Instant::now();
    for _ in 0..calls {
        let (logits, v) = forward(&one)?;
        let _ = (logits.to_vec2::<f32>()?, v.to_vec2::<f32>()?);
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "inference: {calls} positions one at a time in {elapsed:.2} s: {:.1} us a position",
        elapsed * 1e6 / calls as f64
    );
    Ok(())
}
