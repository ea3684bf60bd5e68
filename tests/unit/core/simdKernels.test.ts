import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { chooseBackend } from '../../../src/core/backend';
import { tanhF32 } from '../../../src/core/fastMlp';
import { ActorCriticMlp } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { Ppo } from '../../../src/algorithms/ppo';
import { assembleWat } from '../../../src/core/simd/assemble';
import { SimdKernels, kernelsWasmBytes, simdKernelsLoaded } from '../../../src/core/simd/kernels';
import { installSimdTanh, originalTanhKernel, simdTanhStats, uninstallSimdTanh } from '../../../src/core/simd/tanhKernel';
import { PPO_PARAMS } from '../algorithms/descriptorParams';

const fromBits = (u: ArrayLike<number>) => new Float32Array(Uint32Array.from(u).buffer);
const bitsOf = (x: Float32Array) => new Uint32Array(x.buffer, x.byteOffset, x.length);

beforeAll(async () => {
  expect((await chooseBackend({ preferred: 'wasm' })).name).toBe('wasm');
  // chooseBackend installs the override when the wasm backend starts.
  expect(simdKernelsLoaded()).toBe(true);
  expect(originalTanhKernel()).not.toBeNull();
});

/** tfjs-wasm's original Tanh kernel (musl's scalar tanhf) on these values. */
function originalTanh(x: Float32Array): Float32Array {
  const backend = tf.backend() as BackendWasm;
  const input = tf.tensor1d(x);
  const out = originalTanhKernel()!({ inputs: { x: { dataId: input.dataId, shape: input.shape, dtype: 'float32' } }, backend, attrs: {} });
  if (Array.isArray(out)) throw new Error('Tanh returned several outputs');
  const values = (backend.readSync(out.dataId) as Float32Array).slice();
  backend.disposeData(out.dataId);
  input.dispose();
  return values;
}

/** The SIMD kernel on these values, straight (no tfjs). */
function simdTanh(x: Float32Array): Float32Array {
  const k = SimdKernels.create()!;
  k.reserve(4 * x.length + 64);
  // An offset of 3 floats: the kernel must not depend on 16-byte alignment.
  k.heap.set(x, 3);
  k.tanh(12, x.length);
  return k.heap.slice(3, 3 + x.length);
}

/** Bit patterns around each of these (±`ulps` steps), both signs. */
function around(centres: number[], ulps: number): number[] {
  const out: number[] = [];
  for (const c of centres) for (let d = -ulps; d <= ulps; d++) for (const s of [0, 0x80000000]) out.push(((c + d) | s) >>> 0);
  return out;
}

/** The float32 nearest to x, as its bit pattern. */
const f32bits = (x: number) => bitsOf(Float32Array.of(x))[0];

/** Where expm1f's reduction k = trunc(2|x|/ln2 + 0.5) steps from n − 1 to n, as tanh inputs: |x| = (n − 0.5)·ln2/2. */
const kSteps = Array.from({ length: 29 }, (_, i) => f32bits(((i + 1.5) * Math.LN2) / 2));

const EDGE_BITS = [
  0, 0x80000000, 0x7f800000, 0xff800000, // ±0, ±Inf
  0x7fc00000, 0xffc00000, 0x7fc12345, 0x7fffffff, // quiet NaNs, with payloads
  0x00000001, 0x80000001, 0x00400000, 0x007fffff, 0x807fffff, // subnormals
  ...around([0x3f0c9f54, 0x3e82c578, 0x00800000, 0x41200000], 4), // tanhf's thresholds: ln(3)/2, ln(5/3)/2, 2^-126, 10
  // expm1f's thresholds on 2|x| (halved: one less in the exponent): ln2/2, 1.5·ln2, 2^-25, 27·ln2
  ...around([0x3e317218, 0x3f051592, 0x32800000, 0x4115b844], 4),
  ...around(kSteps, 3),
  ...around([f32bits(0.25), f32bits(1), f32bits(0.125)], 2),
];

describe('the SIMD kernels module', () => {
  it('is exactly what kernels.wat assembles to now', async () => {
    const wat = readFileSync(new URL('../../../src/core/simd/kernels.wat', import.meta.url), 'utf8');
    expect(Array.from(kernelsWasmBytes())).toEqual(Array.from(await assembleWat('kernels.wat', wat)));
  });
});

describe('SIMD tanh', () => {
  it('gives the bits of tfjs-wasm\'s original Tanh and of tanhF32 at every edge and threshold', () => {
    const x = fromBits(EDGE_BITS);
    expect(x.length % 4).not.toBe(0);
    const want = bitsOf(originalTanh(x));
    const got = bitsOf(simdTanh(x));
    for (let i = 0; i < x.length; i++) expect(got[i], `x = ${x[i]} (0x${EDGE_BITS[i].toString(16)})`).toBe(want[i]);
    const ported = bitsOf(Float32Array.from(x, tanhF32));
    for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i])) expect(ported[i], `x = ${x[i]}`).toBe(want[i]);
    // What the values are, by the definitions: tanh(±0) = ±0, tanh(±Inf) = ±1, NaN stays NaN, and subnormals are returned unchanged.
    expect(Array.from(got.slice(0, 4))).toEqual([0, 0x80000000, f32bits(1), f32bits(-1)]);
    for (let i = 4; i < 8; i++) expect(Number.isNaN(fromBits([got[i]])[0])).toBe(true);
    expect(Array.from(got.slice(8, 13))).toEqual(EDGE_BITS.slice(8, 13));
  });

  it('gives the bits of the original kernel and of tanhF32 on 1M random bit patterns and 1M values in [−12, 12]', () => {
    const rng = new Rng(20261201);
    const n = 1_000_003;
    const random = new Uint32Array(n);
    for (let i = 0; i < n; i++) random[i] = (rng.int(0x10000) * 0x10000 + rng.int(0x10000)) >>> 0;
    const spread = Float32Array.from({ length: n }, () => (rng.uniform() * 2 - 1) * 12);
    for (const x of [new Float32Array(random.buffer), spread]) {
      const want = bitsOf(originalTanh(x));
      const got = bitsOf(simdTanh(x));
      let mismatches = 0;
      let portMismatches = 0;
      for (let i = 0; i < n; i++) {
        if (got[i] !== want[i]) mismatches++;
        if (!Number.isNaN(x[i]) && f32bits(tanhF32(x[i])) !== want[i]) portMismatches++;
      }
      expect(mismatches).toBe(0);
      expect(portMismatches).toBe(0);
    }
  });

  it('handles every length: the n mod 4 tail and nothing past n', () => {
    const rng = new Rng(3);
    for (let n = 0; n <= 9; n++) {
      const x = Float32Array.from({ length: n }, () => rng.normal() * 2);
      const k = SimdKernels.create()!;
      k.heap.fill(7, 0, 16);
      k.heap.set(x);
      k.tanh(0, n);
      expect(Array.from(bitsOf(k.heap.slice(0, n)))).toEqual(Array.from(bitsOf(originalTanh(x))));
      expect(Array.from(k.heap.slice(n, 16))).toEqual(new Array(16 - n).fill(7));
    }
  });

  it('is the Tanh kernel tfjs-wasm runs, and tf.tanh gives the original\'s bits for every shape', () => {
    const rng = new Rng(4);
    for (const shape of [[1], [3], [5, 7], [64, 64], [2, 3, 5]]) {
      const size = shape.reduce((a, d) => a * d, 1);
      const x = Float32Array.from({ length: size }, () => rng.normal() * 3);
      const before = simdTanhStats.calls;
      const y = tf.tidy(() => tf.tanh(tf.tensor(x, shape)).dataSync<'float32'>().slice());
      expect(simdTanhStats.calls).toBe(before + 1);
      expect(Array.from(bitsOf(y))).toEqual(Array.from(bitsOf(originalTanh(x))));
    }
  });

  it('leaves a PPO update\'s weights bit-identical to those made with tfjs\'s own Tanh', async () => {
    const learnWeights = () => {
      const spec = { obsDim: 4, numActions: 2, hidden: [64, 64], activation: 'tanh' as const, kind: 'actorCritic' as const };
      const model = new ActorCriticMlp(spec, 1);
      const ppo = new Ppo(model, { ...PPO_PARAMS, updateEpochs: 3, numMinibatches: 2, lr: 1e-3 });
      const B = 128;
      const rng = new Rng(9);
      const batch = {
        obs: Float32Array.from({ length: B * 4 }, () => rng.normal()),
        actions: Int32Array.from({ length: B }, () => rng.int(2)),
        batchSize: B,
        logProbs: new Float32Array(B).fill(-0.69),
        values: Float32Array.from({ length: B }, () => rng.normal()),
        advantages: Float32Array.from({ length: B }, () => rng.normal()),
        returns: Float32Array.from({ length: B }, () => rng.normal()),
      };
      ppo.learn(batch);
      ppo.learn(batch);
      const ws = model.getWeights().map((w) => Array.from(bitsOf(w)));
      model.dispose();
      return ws;
    };
    const before = simdTanhStats.calls;
    const withSimd = learnWeights();
    const routed = simdTanhStats.calls - before;
    // Two hidden tanh layers in each forward pass of each minibatch step.
    expect(routed).toBeGreaterThanOrEqual(2 * 3 * 2 * 2);
    uninstallSimdTanh();
    try {
      const withOriginal = learnWeights();
      expect(simdTanhStats.calls - before).toBe(routed);
      expect(withSimd).toEqual(withOriginal);
    } finally {
      expect(await installSimdTanh()).toBe(true);
    }
  });
});
