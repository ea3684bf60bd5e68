/**
 * Frozen subagents: small ItemSearch policies (obs 23 → hidden → 5 logits) trained offline with
 * the engine's PPO (`npm run subagents`, src/cli/trainSubagents.ts) and shipped as checkpoints in
 * public/subagents/. During orchestrator training their weights NEVER change: they are loaded
 * into a PolicyMlp that no optimizer ever sees, and `FrozenSubagent` only runs forward passes.
 *
 * Inference is SEED style: the learner gathers the observations of every active run of every
 * episode and calls `act` ONCE per simulation tick (one batched forward pass), counted in
 * `forwardCalls` so tests and benchmarks can check it.
 *
 * Action choice per row: sample a ~ softmax(logits / τ) (τ = temperature), or argmax when
 * greedy. Sampling uses the caller's Rng, never a tfjs random op.
 */
import * as tf from '@tensorflow/tfjs';
import { decodeCheckpoint, type Checkpoint } from '../core/checkpoint';
import { FastMlp, softmaxRowsF32 } from '../core/fastMlp';
import { simdKernelsLoaded } from '../core/simd/kernels';
import { PolicyMlp, type MlpSpec } from '../core/mlp';
import type { Rng } from '../core/rng';
import { ITEM_NUM_ACTIONS, ITEM_OBS_DIM } from '../envs/swarm/itemSearch';

export const SUBAGENT_SIZES = ['small', 'large'] as const;
export type SubagentSize = (typeof SUBAGENT_SIZES)[number];

/** Hidden layers per size. */
export const SUBAGENT_HIDDEN: Readonly<Record<SubagentSize, readonly number[]>> = { small: [16], large: [64, 64] };

export function subagentSpec(hidden: readonly number[]): MlpSpec {
  return { obsDim: ITEM_OBS_DIM, numActions: ITEM_NUM_ACTIONS, hidden: [...hidden], activation: 'tanh', kind: 'policy' };
}

/** The variable shapes a subagent policy of these hidden sizes must have. */
export function expectedSubagentShapes(hidden: readonly number[]): number[][] {
  const dims = [ITEM_OBS_DIM, ...hidden, ITEM_NUM_ACTIONS];
  const out: number[][] = [];
  for (let i = 0; i + 1 < dims.length; i++) out.push([dims[i], dims[i + 1]], [dims[i + 1]]);
  return out;
}

export class SubagentCheckpointError extends Error {
  override name = 'SubagentCheckpointError';
}

/**
 * Check a decoded checkpoint is an ItemSearch subagent policy and return its hidden sizes.
 * Throws SubagentCheckpointError naming what is wrong (before any training starts).
 */
export function validateSubagentCheckpoint(ckpt: Checkpoint, where: string): number[] {
  const meta = ckpt.meta as { kind?: unknown; hidden?: unknown };
  if (meta.kind !== 'swarm-subagent') {
    throw new SubagentCheckpointError(`${where}: not a swarm subagent checkpoint (meta.kind is ${JSON.stringify(meta.kind)}, expected "swarm-subagent")`);
  }
  const hidden = meta.hidden;
  if (!Array.isArray(hidden) || hidden.length < 1 || hidden.some((h) => !Number.isInteger(h) || (h as number) < 1)) {
    throw new SubagentCheckpointError(`${where}: meta.hidden must list the hidden layer sizes, got ${JSON.stringify(hidden)}`);
  }
  const want = expectedSubagentShapes(hidden as number[]);
  const got = ckpt.shapes ?? ckpt.weights.map((w) => [w.length]);
  const wantSizes = want.map((s) => s.reduce((a, b) => a * b, 1));
  const bad =
    ckpt.weights.length !== want.length ||
    ckpt.weights.some((w, i) => w.length !== wantSizes[i]) ||
    (ckpt.shapes !== undefined && ckpt.shapes.some((s, i) => s.join('x') !== want[i].join('x')));
  if (bad) {
    throw new SubagentCheckpointError(
      `${where}: wrong shape for an ItemSearch subagent (obs ${ITEM_OBS_DIM} → hidden [${(hidden as number[]).join(', ')}] → ${ITEM_NUM_ACTIONS} actions): ` +
        `expected weights ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
    );
  }
  for (const w of ckpt.weights) {
    for (let i = 0; i < w.length; i++) if (!Number.isFinite(w[i])) throw new SubagentCheckpointError(`${where}: the weights hold a non-finite value`);
  }
  return hidden as number[];
}

/** Decode checkpoint bytes and validate them (SubagentCheckpointError on anything wrong). */
export function decodeSubagentCheckpoint(bytes: Uint8Array | null | undefined, where: string): Checkpoint {
  if (!bytes || bytes.length === 0) throw new SubagentCheckpointError(`${where}: the subagent checkpoint is missing (run \`npm run subagents\` to create it)`);
  let ckpt: Checkpoint;
  try {
    ckpt = decodeCheckpoint(bytes, { requireFinite: true });
  } catch (e) {
    throw new SubagentCheckpointError(`${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
  validateSubagentCheckpoint(ckpt, where);
  return ckpt;
}

/**
 * Largest forward pass (rows × multiply-adds per row) the central inference runs on typed arrays
 * in JS instead of tfjs; only on wasm, whose arithmetic the typed-array pass repeats bit for bit, so
 * the choice changes the time and never a number. Measured on wasm at load 8: a tfjs pass with its
 * readback costs 0.1–0.4 ms for 1 to 64 rows of the large subagent, the JS pass about 7 ns per
 * multiply-add (40 µs per row of the large subagent, 20 µs per orchestrator row). Once the pass runs
 * in the wasm SIMD kernels (core/simd/) it beats tfjs at every size, so there is no limit.
 */
export const TYPED_ARRAY_PASS_MAX_MACS = 16_000;

let passLimitOverride: number | null = null;

/** Fix the limit (tests compare the two paths on the same rows); null goes back to the rule above. */
export function setTypedArrayPassLimit(macs: number | null): void {
  passLimitOverride = macs;
}

/** True when a pass of `macs` multiply-adds should skip tfjs (only on the wasm backend). */
export function typedArrayPassFits(macs: number): boolean {
  const limit = passLimitOverride ?? (simdKernelsLoaded() ? Infinity : TYPED_ARRAY_PASS_MAX_MACS);
  return tf.getBackend() === 'wasm' && macs <= limit;
}

/** A frozen subagent policy: forward passes only, counted. */
export class FrozenSubagent {
  readonly model: PolicyMlp;
  readonly hidden: number[];
  /** Batched forward passes run so far. */
  forwardCalls = 0;
  /** Rows (observations) run so far. */
  forwardRows = 0;

  /** The same policy on typed arrays (bit for bit tfjs's wasm arithmetic), for batches too small to pay tfjs's per-call cost. */
  private readonly fast: FastMlp;
  /** Multiply-adds per row of a forward pass. */
  readonly macsPerRow: number;

  constructor(
    ckpt: Checkpoint,
    readonly name: string,
  ) {
    this.hidden = validateSubagentCheckpoint(ckpt, name);
    const spec = subagentSpec(this.hidden);
    this.model = new PolicyMlp(spec, 0);
    this.model.setWeights(ckpt.weights);
    this.fast = new FastMlp(spec);
    this.fast.setWeights(ckpt.weights); // frozen: never needs copying again
    this.macsPerRow = this.fast.macsPerRow;
  }

  /**
   * Probabilities softmax(logits / τ), [n · 5] row-major, in one forward pass. Read back without
   * blocking, so on WebGPU the pass is queued and other work (the orchestrator's pass) overlaps it.
   */
  async probabilities(obs: Float32Array, n: number, temperature = 1): Promise<Float32Array> {
    if (n === 0) return new Float32Array(0);
    if (obs.length < n * ITEM_OBS_DIM) throw new Error(`FrozenSubagent.act: ${obs.length} obs values for ${n} rows of ${ITEM_OBS_DIM}`);
    this.forwardCalls += 1;
    this.forwardRows += n;
    const t = Math.max(temperature, 1e-3);
    if (typedArrayPassFits(n * this.macsPerRow)) return this.fastProbabilities(obs, n, t);
    const probs = tf.tidy(() => {
      const x = tf.tensor2d(obs.subarray(0, n * ITEM_OBS_DIM), [n, ITEM_OBS_DIM]);
      return tf.softmax(tf.div(this.model.forward(x).logits, t));
    });
    const p = new Float32Array(await probs.data());
    probs.dispose();
    return p;
  }

  /** softmax(fl(logits / fl(τ))) on typed arrays: tfjs's Div (one float32 rounding) and wasm softmax, bit for bit. */
  private fastProbabilities(obs: Float32Array, n: number, t: number): Float32Array {
    const logits = this.fast.forward(obs, n);
    const tf32 = Math.fround(t);
    const z = new Float32Array(logits.length);
    for (let i = 0; i < z.length; i++) z[i] = logits[i] / tf32;
    return softmaxRowsF32(z, n, ITEM_NUM_ACTIONS, z);
  }

  /** One action per row: sampled (or argmax for rows where greedy[i] is 1), one forward pass. */
  async act(obs: Float32Array, n: number, rng: Rng, options: { temperature?: number; greedy?: Uint8Array } = {}): Promise<Int32Array> {
    return this.choose(await this.probabilities(obs, n, options.temperature ?? 1), n, rng, options.greedy);
  }

  /** Actions from probabilities already read back (sampling with the caller's Rng, in row order). */
  choose(p: Float32Array, n: number, rng: Rng, greedy?: Uint8Array): Int32Array {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if (greedy?.[i]) {
        let best = 0;
        for (let a = 1; a < ITEM_NUM_ACTIONS; a++) if (p[i * ITEM_NUM_ACTIONS + a] > p[i * ITEM_NUM_ACTIONS + best]) best = a;
        out[i] = best;
      } else out[i] = rng.categorical(p, i * ITEM_NUM_ACTIONS, ITEM_NUM_ACTIONS);
    }
    return out;
  }


  getWeights(): Float32Array[] {
    return this.model.getWeights();
  }

  dispose(): void {
    this.model.dispose();
  }
}

/** Where the default checkpoints live: public/subagents/<size>.ckpt (served at /subagents/<size>.ckpt). */
export function subagentFileName(size: SubagentSize): string {
  return `${size}.ckpt`;
}
