import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { FusedAdam } from '../../../src/core/fusedAdam';
import { simdKernelsLoaded } from '../../../src/core/simd/kernels';
import { clipScale, globalNorm, ScalarCache } from '../../../src/core/tensorUtils';
import { Rng } from '../../../src/core/rng';

const SHAPES: number[][] = [[5, 3], [3], [3, 2], [2], []];

/** The float32 bit patterns of every value of every variable (exact comparison, NaN and −0 included). */
const bits = (vars: tf.Variable[]) => vars.map((v) => Array.from(new Uint32Array(new Float32Array(v.dataSync()).buffer)));

/** Two identical sets of variables with seeded starting values. */
function twins(seed: number): [tf.Variable[], tf.Variable[]] {
  const rng = new Rng(seed);
  const init = SHAPES.map((s) => Float32Array.from({ length: s.reduce((a, b) => a * b, 1) }, () => rng.normal()));
  const make = () => SHAPES.map((s, i) => tf.variable(tf.tensor(init[i], s)));
  return [make(), make()];
}

/** Gradients of very different magnitudes (1e-7 … 1e3), some exactly 0. */
function randomGrads(rng: Rng): Float32Array[] {
  return SHAPES.map((s) =>
    Float32Array.from({ length: s.reduce((a, b) => a * b, 1) }, () => (rng.uniform() < 0.05 ? 0 : rng.normal() * 10 ** (rng.int(11) - 7))),
  );
}

describe.each(['cpu', 'wasm'] as const)('FusedAdam on %s', (backend) => {
  it('gives bit-identical weights to tf.train.adam over 300 steps (clipping scale, learning-rate changes)', async () => {
    await chooseBackend({ preferred: backend });
    expect(tf.getBackend()).toBe(backend);
    const [a, b] = twins(1);
    const lr = 3e-3;
    const eps = 1e-5;
    const ref: tf.Optimizer = tf.train.adam(lr, 0.9, 0.999, eps);
    const fused = new FusedAdam(lr, 0.9, 0.999, eps);
    const rng = new Rng(2);
    for (let step = 0; step < 300; step++) {
      if (step % 50 === 25) {
        // what Algorithm.setLearningRate does (annealing)
        const next = lr * (1 - step / 300);
        Reflect.set(ref, 'learningRate', next);
        Reflect.set(fused, 'learningRate', next);
      }
      const g = randomGrads(rng);
      const s = step % 3 === 0 ? Math.fround(0.1 + rng.uniform()) : null;
      tf.tidy(() => {
        const scale = s === null ? null : tf.scalar(s);
        const refGrads: tf.NamedTensorMap = {};
        const fusedGrads: tf.NamedTensorMap = {};
        a.forEach((v, i) => {
          const gi = tf.tensor(g[i], SHAPES[i]);
          refGrads[v.name] = scale ? tf.mul(gi, scale) : gi;
        });
        b.forEach((v, i) => (fusedGrads[v.name] = tf.tensor(g[i], SHAPES[i])));
        ref.applyGradients(refGrads);
        fused.applyGradients(fusedGrads, scale);
      });
    }
    expect(bits(b)).toEqual(bits(a));
    expect(fused.iterations).toBe(300);
    ref.dispose();
    fused.dispose();
    tf.dispose([...a, ...b]);
  });

  it('takes the first step by hand: θ − lr·g/(|g| + ε) with m̂ = g, v̂ = g²', async () => {
    await chooseBackend({ preferred: backend });
    const x = tf.variable(tf.tensor1d([1, -2, 0.5]));
    const opt = new FusedAdam(0.1, 0.9, 0.999, 1e-8);
    // bias correction: m̂ = (0.1·g) / 0.1 = g, v̂ = (0.001·g²) / 0.001 = g², so the step is −0.1·sign(g)
    tf.tidy(() => opt.applyGradients({ [x.name]: tf.tensor1d([0.5, -4, 2e-3]) }));
    const got = Array.from(x.dataSync());
    expect(got[0]).toBeCloseTo(0.9, 5); // float32 bias corrections: within a few ulps
    expect(got[1]).toBeCloseTo(-1.9, 5);
    expect(got[2]).toBeCloseTo(0.4, 5); // 2e-3 / (2e-3 + 1e-8) ≈ 1 − 5e-6
    opt.dispose();
    x.dispose();
  });

  it('runs fewer kernels than tf.train.adam, leaks nothing, frees its state on dispose', async () => {
    await chooseBackend({ preferred: backend });
    const [a, b] = twins(3);
    const ref: tf.Optimizer = tf.train.adam(1e-3);
    const fused = new FusedAdam(1e-3, 0.9, 0.999, 1e-7);
    const grads = (vars: tf.Variable[]): tf.NamedTensorMap => Object.fromEntries(vars.map((v) => [v.name, tf.onesLike(v)]));
    const kernels = async (f: () => void) => (await tf.profile(() => tf.tidy(f))).kernels.length;
    const before = tf.memory().numTensors;
    tf.tidy(() => fused.applyGradients(grads(b))); // the first step creates the moments
    tf.tidy(() => ref.applyGradients(grads(a)));
    const nRef = await kernels(() => ref.applyGradients(grads(a)));
    const afterFirst = tf.memory().numTensors;
    const nFused = await kernels(() => fused.applyGradients(grads(b)));
    // tfjs: ~14 kernels per variable; fused: ~14 in all plus a reshape and an add per variable
    expect(nFused).toBeLessThan(nRef / 1.5);
    for (let i = 0; i < 5; i++) tf.tidy(() => fused.applyGradients(grads(b)));
    expect(tf.memory().numTensors).toBe(afterFirst);
    fused.dispose();
    // tf.train.adam's 2 × 5 moments are still held; the fused one's β-powers (made before `before`) are gone too
    expect(tf.memory().numTensors).toBe(before + 10 - 2);
    ref.dispose();
    tf.dispose([...a, ...b]);
  });

  it('refuses a step over other variables than the first', async () => {
    await chooseBackend({ preferred: backend });
    const x = tf.variable(tf.zeros([2]));
    const y = tf.variable(tf.zeros([3]));
    const opt = new FusedAdam(0.1, 0.9, 0.999, 1e-8);
    tf.tidy(() => opt.applyGradients({ [x.name]: tf.ones([2]) }));
    expect(() => tf.tidy(() => opt.applyGradients({ [y.name]: tf.ones([3]) }))).toThrow(/other variables/);
    expect(() => tf.tidy(() => opt.applyGradients({ [x.name]: tf.ones([3]) }))).toThrow(/3 values/);
    opt.dispose();
    tf.dispose([x, y]);
  });
});

describe('ScalarCache (the kept constants of FusedAdam, Ppo and Dqn)', () => {
  it('gives what a JS number gives in an op, bit for bit, one tensor per value, freed on dispose', async () => {
    await chooseBackend({ preferred: 'wasm' });
    const c = new ScalarCache();
    const x = tf.tensor1d([3, -7.25, 1e-3, 0]);
    const before = tf.memory().numTensors;
    for (const v of [0.1, 1e-8, 1 / 3, 0.999, -0, 1 - 0.999]) {
      const [viaNumber, viaCache] = tf.tidy(() => [tf.mul(x, v), tf.mul(x, c.get(v))]);
      expect(Array.from(new Uint32Array(new Float32Array(viaCache.dataSync()).buffer))).toEqual(Array.from(new Uint32Array(new Float32Array(viaNumber.dataSync()).buffer)));
      tf.dispose([viaNumber, viaCache]);
    }
    expect(c.get(0.1)).toBe(c.get(0.1));
    expect(c.get(0)).not.toBe(c.get(-0)); // 0·(−1) is −0, (−0)·(−1) is +0
    expect(c.size).toBe(7);
    expect(tf.memory().numTensors).toBe(before + 7);
    c.dispose();
    expect(tf.memory().numTensors).toBe(before);
    x.dispose();
  });
});

describe.each([
  ['cpu', false],
  ['wasm', false],
  ['wasm', true],
] as const)('FusedAdam.clipAndApply on %s (SIMD kernels: %s)', (backend, simd) => {
  it('gives the bits of globalNorm + clipScale + applyGradients, clipped or not, with and without a limit', async () => {
    await chooseBackend({ preferred: backend });
    expect(tf.getBackend()).toBe(backend);
    if (simd) expect(simdKernelsLoaded()).toBe(true);
    const [a, b] = twins(3);
    const ref = new FusedAdam(2e-3, 0.9, 0.999, 1e-5);
    const fused = new FusedAdam(2e-3, 0.9, 0.999, 1e-5);
    fused.useSimdKernels = simd;
    const rng = new Rng(4);
    const constants = new ScalarCache();
    let clippedSteps = 0;
    for (let step = 0; step < 200; step++) {
      const maxNorm = step % 7 === 3 ? null : step % 2 === 0 ? 0.5 : 50;
      const g = randomGrads(rng);
      const [normRef, normFused] = tf.tidy(() => {
        const refGrads: tf.NamedTensorMap = {};
        const fusedGrads: tf.NamedTensorMap = {};
        a.forEach((v, i) => (refGrads[v.name] = tf.tensor(g[i], SHAPES[i])));
        b.forEach((v, i) => (fusedGrads[v.name] = tf.tensor(g[i], SHAPES[i])));
        const n = globalNorm(a.map((v) => refGrads[v.name]));
        ref.applyGradients(refGrads, clipScale(n, maxNorm, (x) => constants.get(x)));
        return [n.dataSync()[0], fused.clipAndApply(fusedGrads, maxNorm).dataSync()[0]];
      });
      expect(Object.is(normFused, normRef)).toBe(true);
      if (maxNorm !== null && normRef > maxNorm) clippedSteps++;
      expect(bits(b)).toEqual(bits(a));
    }
    expect(clippedSteps).toBeGreaterThan(20);
    constants.dispose();
    ref.dispose();
    fused.dispose();
    tf.dispose([...a, ...b]);
  });
});
