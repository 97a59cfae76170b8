//! The size of Sente's chess net (768 inputs a side -> 128, clipped ReLU, both sides -> 1),
//! trained with candle on the CPU: dense inputs, as a framework multiplies them. Time for an
//! epoch of N positions at batch 4096, Adam.
use candle_core::{DType, Device, Tensor};
use candle_nn::{AdamW, Module, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use rand::{Rng, SeedableRng};

fn main() -> candle_core::Result<()> {
    let positions: usize = std::env::args()
        .nth(1)
        .map_or(200_000, |n| n.parse().unwrap());
    let batch = 4096;
    let device = Device::Cpu;
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
    let l1 = candle_nn::linear(768, 128, vb.pp("l1"))?;
    let l2 = candle_nn::linear(256, 1, vb.pp("l2"))?;
    let mut opt = AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: 0.001,
            weight_decay: 0.0,
            ..Default::default()
        },
    )?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    // Random sparse positions: 32 of 768 inputs on, a side.
    let make = |rng: &mut rand::rngs::StdRng| {
        let mut us = vec![0f32; batch * 768];
        let mut them = vec![0f32; batch * 768];
        let mut target = vec![0f32; batch];
        for b in 0..batch {
            for _ in 0..32 {
                us[b * 768 + rng.gen_range(0..768)] = 1.0;
                them[b * 768 + rng.gen_range(0..768)] = 1.0;
            }
            target[b] = rng.r#gen::<f32>();
        }
        (us, them, target)
    };
    let batches = positions / batch;
    let data: Vec<_> = (0..batches.min(8)).map(|_| make(&mut rng)).collect();
    let started = std::time::Instant::now();
    for i in 0..batches {
        let (us, them, target) = &data[i % data.len()];
        let us = Tensor::from_slice(us, (batch, 768), &device)?;
        let them = Tensor::from_slice(them, (batch, 768), &device)?;
        let target = Tensor::from_slice(target, (batch, 1), &device)?;
        let a = l1.forward(&us)?.clamp(0f32, 1f32)?;
        let b = l1.forward(&them)?.clamp(0f32, 1f32)?;
        let out = l2.forward(&Tensor::cat(&[&a, &b], candle_core::D::Minus1)?)?;
        let loss = (candle_nn::ops::sigmoid(&out)? - target)?
            .sqr()?
            .mean_all()?;
        opt.backward_step(&loss)?;
    }
    let elapsed = started.elapsed();
    println!(
        "{} positions in {:.2} s: {:.0} positions/s",
        batches * batch,
        elapsed.as_secs_f64(),
        (batches * batch) as f64 / elapsed.as_secs_f64()
    );
    Ok(())
}
