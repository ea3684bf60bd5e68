/**
 * RolloutActor: the remote class that collects experience (PaddlePaddle PARL's Actor, IMPALA's
 * actor). Each instance lives in its own Web Worker / worker thread and owns copies of an
 * environment. It works in one of three ways, chosen by the loop:
 *   - whole episodes with its own policy copy (REINFORCE): `rollEpisodes`;
 *   - fixed-length segments of a VectorEnv with its own policy copy (A2C, PPO, IMPALA, DQN):
 *     `sampleSegment`, one message per segment;
 *   - env stepping only, the learner choosing the actions (SEED-style central inference):
 *     `resetVector` / `stepVector`;
 * and it evaluates ES perturbations (`evaluateEs`), where only noise indices and returns travel.
 * Its own inference runs on a small tfjs backend (wasm or cpu). On wasm, small batches go through
 * a plain typed-array forward pass instead (core/fastMlp.ts), bit-identical to tfjs's wasm kernels,
 * so the same seed samples the same actions either way: below FAST_PATH_MAX_BATCH rows tfjs's
 * per-call overhead costs more than the arithmetic, above it XNNPACK's SIMD kernels win.
 * Once the typed-array pass runs in the wasm SIMD kernels (core/simd/) it wins at every batch size.
 */
import * as tf from '@tensorflow/tfjs';
import { categoricalRows } from '../core/agent';
import { chooseBackend } from '../core/backend';
import { FastMlp } from '../core/fastMlp';
import { ActorCriticMlp, PolicyMlp, buildModel, type MlpSpec } from '../core/mlp';
import type { Model, ModelOutput } from '../core/model';
import { log } from '../core/portableMath';
import { Rng, deriveSeed } from '../core/rng';
import { NoiseTable } from '../algorithms/noiseTable';
import { setFlatWeights } from '../algorithms/es';
import { makeEnv } from '../envs/registry';
import type { TimeLimitedEnv } from '../envs/types';
import { ActorVector, playGreedyEpisode, type GreedyEpisode } from './actorPlumbing';
import { SegmentWriter, type EpisodeBatch, type Segment, type VectorStepResult } from './segments';

export type { EpisodeBatch, Segment } from './segments';

/** Largest batch the typed-array forward pass takes (measured: `npm run bench -- env-throughput`). */
export const FAST_PATH_MAX_BATCH = 2;
/**
 * The same once that pass runs in the wasm SIMD kernels (core/simd/): every batch, as it beat
 * tfjs-wasm at every size measured (2x64 tanh head: 1.0 against 2.7 µs a row at 1,024 rows;
 * 2x256: 8.0 against 10.9; env-throughput at 256 copies 799k against 618k steps/s).
 */
export const SIMD_FAST_PATH_MAX_BATCH = Infinity;

/** The largest batch the typed-array pass takes by default: every batch with the SIMD kernels, else FAST_PATH_MAX_BATCH. */
export function defaultFastPathMaxBatch(simd: boolean): number {
  return simd ? SIMD_FAST_PATH_MAX_BATCH : FAST_PATH_MAX_BATCH;
}
export { validateEpisodeBatch, validateSegment } from './segments';

export type { GreedyEpisode } from './actorPlumbing';

export interface RolloutActorOptions {
  envId: string;
  numEnvs: number;
  seed: number;
  actorIndex: number;
  model: MlpSpec;
  /** Backend for the actor's own inference (small batches: wasm or cpu). */
  backend: 'wasm' | 'cpu';
  /** Browser only: where the app serves the tfjs wasm binaries. */
  wasmPaths?: string;
  /**
   * Batches of up to this many rows go through the typed-array forward pass when the backend is
   * wasm (default defaultFastPathMaxBatch(whether the SIMD kernels are loaded); 0 = always tfjs, Infinity = never tfjs: tests compare the
   * two, benchmarks measure both).
   */
  fastPathMaxBatch?: number;
}

/** A copy of the network to act with, and on wasm its typed-array twin. */
interface ActingNet {
  model: Model<ModelOutput>;
  fast: FastMlp | null;
}

export class RolloutActor {
  /** Its remote-actor key (see src/core/remote/registry.ts); the worker hosts list the class in src/workers/actorClasses.ts. */
  static readonly actorKey: string = 'RolloutActor';
  private readonly envs: TimeLimitedEnv[];
  private readonly rng: Rng;
  private model: Model<ModelOutput> | null = null;
  /** The acting head as typed arrays, kept in step with `model` (wasm backend only). */
  private fast: FastMlp | null = null;
  private version = -1;
  private readonly training: ActorVector;
  private noise: NoiseTable | null = null;
  private greedyEnv: TimeLimitedEnv | null = null;
  /** The live view's greedy episodes act with this copy (made on first use). */
  private greedyNet: ActingNet | null = null;
  /** Whether init() chose the typed-array forward pass (wasm), for the greedy copy too. */
  private usesFastPath = false;

  constructor(private readonly options: RolloutActorOptions) {
    const { envId, numEnvs, seed, actorIndex } = options;
    this.envs = Array.from({ length: numEnvs }, (_, i) => makeEnv(envId, { seed: deriveSeed(seed, actorIndex, i) }));
    this.rng = new Rng(deriveSeed(seed, actorIndex, 0x5eed));
    this.training = new ActorVector(envId, numEnvs, seed, actorIndex);
  }

  /** Picks the actor's backend and builds its copy of the network. Returns the backend name. */
  async init(): Promise<string> {
    const choice = await chooseBackend({ preferred: this.options.backend, wasmPaths: this.options.wasmPaths });
    this.model = buildModel(this.options.model, this.options.seed);
    this.usesFastPath = choice.name === 'wasm' && (this.options.fastPathMaxBatch ?? FAST_PATH_MAX_BATCH) > 0;
    if (this.usesFastPath) {
      this.fast = new FastMlp(this.options.model);
      this.fast.setWeights(this.model.getWeights());
    }
    return choice.name;
  }

  setWeights(weights: Float32Array[], version: number): void {
    this.loadWeights(weights);
    this.version = version;
  }

  private loadWeights(weights: Float32Array[]): void {
    this.requireModel().setWeights(weights); // checks the count and every length
    this.fast?.setWeights(weights);
  }

  /** Load the given weights, then play one full episode on every env copy. */
  rollEpisodes(weights: Float32Array[], version: number): EpisodeBatch {
    this.setWeights(weights, version);
    const started = performance.now();
    const n = this.envs.length;
    const obsDim = this.options.model.obsDim;

    const obs: number[][] = Array.from({ length: n }, () => []);
    const actions: number[][] = Array.from({ length: n }, () => []);
    const rewards: number[][] = Array.from({ length: n }, () => []);
    const current = new Float32Array(n * obsDim);
    for (let i = 0; i < n; i++) current.set(this.envs[i].reset().obs, i * obsDim);

    let active = Array.from({ length: n }, (_, i) => i);
    while (active.length > 0) {
      // One batched forward pass for every env copy still running.
      const batch = new Float32Array(active.length * obsDim);
      active.forEach((envIndex, row) => batch.set(current.subarray(envIndex * obsDim, (envIndex + 1) * obsDim), row * obsDim));
      const { actions: chosen } = this.act(batch, active.length, 0);

      const stillActive: number[] = [];
      active.forEach((envIndex, row) => {
        const o = current.subarray(envIndex * obsDim, (envIndex + 1) * obsDim);
        for (let d = 0; d < obsDim; d++) obs[envIndex].push(o[d]);
        actions[envIndex].push(chosen[row]);
        const step = this.envs[envIndex].step(chosen[row]);
        rewards[envIndex].push(step.reward);
        current.set(step.obs, envIndex * obsDim);
        if (!step.terminated && !step.truncated) stillActive.push(envIndex);
      });
      active = stillActive;
    }

    const steps = actions.reduce((s, a) => s + a.length, 0);
    const out: EpisodeBatch = {
      actorIndex: this.options.actorIndex,
      policyVersion: this.version,
      steps,
      obsDim,
      obs: new Float32Array(steps * obsDim),
      actions: new Int32Array(steps),
      rewards: new Float32Array(steps),
      dones: new Uint8Array(steps),
      episodeReturns: new Float32Array(n),
      episodeLengths: new Int32Array(n),
      seconds: 0,
    };
    let t = 0;
    for (let i = 0; i < n; i++) {
      out.obs.set(obs[i], t * obsDim);
      out.actions.set(actions[i], t);
      out.rewards.set(rewards[i], t);
      t += actions[i].length;
      out.dones[t - 1] = 1;
      out.episodeReturns[i] = rewards[i].reduce((a, b) => a + b, 0);
      out.episodeLengths[i] = actions[i].length;
    }
    out.seconds = (performance.now() - started) / 1000;
    return out;
  }

  /**
   * Run every env copy for T steps with the actor's own policy (weights null = keep the current
   * ones) and send the segment back, time-major [T, N]. Episodes continue across segments.
   * `epsilon` > 0 makes a Q-network act ε-greedily (DQN).
   */
  sampleSegment(weights: Float32Array[] | null, version: number, T: number, epsilon = 0): Segment {
    if (weights) this.setWeights(weights, version);
    const vec = this.training.get();
    const writer = new SegmentWriter(this.options.actorIndex, this.version, T, vec.numEnvs, vec.obsDim);
    let obs = this.training.obs;
    for (let t = 0; t < T; t++) {
      const { actions, logProbs } = this.act(obs, vec.numEnvs, epsilon);
      const step = vec.step(actions);
      writer.write(t, obs, actions, logProbs, step);
      obs = step.obs;
    }
    this.training.obs = obs;
    return writer.finish(obs);
  }

  /** Central inference: reset (only the first time) and return the current observations. */
  resetVector(): Float32Array {
    this.training.get();
    return this.training.obs.slice();
  }

  /** Central inference: step every env copy with the learner's actions. */
  stepVector(actions: Int32Array): VectorStepResult {
    const step = this.training.get().step(actions);
    this.training.obs = step.obs;
    return {
      obs: step.obs.slice(),
      rewards: step.rewards,
      terminated: step.terminated,
      truncated: step.truncated,
      finalObs: step.finalObs,
      episodeReturns: Float32Array.from(step.episodeReturns),
      episodeLengths: Int32Array.from(step.episodeLengths),
    };
  }

  /**
   * ES: for each noise index, play one episode with θ + σε and one with θ − σε (greedy actions).
   * Only the indices come in and only the returns go out; the noise table is rebuilt here from
   * its seed.
   */
  evaluateEs(theta: Float32Array, noiseIndices: Int32Array, sigma: number, noiseSeed: number): { returnPos: Float32Array; returnNeg: Float32Array; steps: number } {
    const model = this.requireModel();
    if (!this.noise || this.noise.seed !== noiseSeed) this.noise = new NoiseTable(noiseSeed);
    const returnPos = new Float32Array(noiseIndices.length);
    const returnNeg = new Float32Array(noiseIndices.length);
    const params = new Float32Array(theta.length);
    let steps = 0;
    for (let k = 0; k < noiseIndices.length; k++) {
      const eps = this.noise.get(noiseIndices[k], theta.length);
      for (const sign of [1, -1] as const) {
        for (let i = 0; i < theta.length; i++) params[i] = theta[i] + sign * sigma * eps[i];
        setFlatWeights(model, params);
        this.fast?.setFlatWeights(params);
        const { ret, length } = this.greedyReturn();
        steps += length;
        if (sign === 1) returnPos[k] = ret;
        else returnNeg[k] = ret;
      }
    }
    return { returnPos, returnNeg, steps };
  }

  /**
   * Play one episode greedily on a separate copy of the env (training streams untouched)
   * and return its render states, for the playground's live environment view. Given weights, it
   * acts with its own copy of the network: the training copy keeps the version the learner last
   * sent, so the segments do not depend on when the page asked for an episode.
   */
  recordGreedyEpisode(weights: Float32Array[] | null, maxFrames = 500): GreedyEpisode {
    let net: ActingNet | undefined;
    if (weights) {
      net = this.greedyNet ??= { model: buildModel(this.options.model, this.options.seed), fast: this.usesFastPath ? new FastMlp(this.options.model) : null };
      net.model.setWeights(weights); // checks the count and every length
      net.fast?.setWeights(weights);
    }
    if (!this.greedyEnv) this.greedyEnv = makeEnv(this.options.envId, { seed: deriveSeed(this.options.seed, this.options.actorIndex, 0xde70) });
    return playGreedyEpisode(this.greedyEnv, this.options.envId, maxFrames, (obs) => argmax(this.scores(obs, 1, this.options.model.kind !== 'q', net)));
  }


  private greedyReturn(): { ret: number; length: number } {
    const env = this.envs[0];
    let obs = env.reset().obs;
    let ret = 0;
    let length = 0;
    for (;;) {
      const step = env.step(argmax(this.scores(obs, 1)));
      ret += step.reward;
      length += 1;
      obs = step.obs;
      if (step.terminated || step.truncated) return { ret, length };
    }
  }

  /** Actions (and their log-probabilities) for a batch of observations. */
  private act(obs: Float32Array, batch: number, epsilon: number): { actions: Int32Array; logProbs: Float32Array } {
    const numActions = this.options.model.numActions;
    if (this.options.model.kind === 'q') {
      const q = this.scores(obs, batch);
      const actions = new Int32Array(batch);
      for (let i = 0; i < batch; i++) {
        if (this.rng.uniform() < epsilon) actions[i] = this.rng.int(numActions);
        else {
          let best = 0;
          for (let a = 1; a < numActions; a++) if (q[i * numActions + a] > q[i * numActions + best]) best = a;
          actions[i] = best;
        }
      }
      return { actions, logProbs: new Float32Array(batch) };
    }
    const probs = this.scores(obs, batch, true);
    const actions = categoricalRows(probs, batch, this.rng);
    const logProbs = new Float32Array(batch);
    // The portable log: engines differ in Math.log's last bit, and page and CLI must agree.
    for (let i = 0; i < batch; i++) logProbs[i] = log(Math.max(probs[i * numActions + actions[i]], 1e-12));
    return { actions, logProbs };
  }

  /**
   * Policy probabilities (softmax of the logits) or Q-values, [batch, numActions], from `net` (the
   * training copy when absent). On the fast path the result is a scratch view, valid until the next call.
   */
  private scores(obs: Float32Array, batch: number, softmax = false, net?: ActingNet): Float32Array {
    const fast = net ? net.fast : this.fast;
    if (fast && batch <= (this.options.fastPathMaxBatch ?? defaultFastPathMaxBatch(fast.usesSimd))) return softmax ? fast.probabilities(obs, batch) : fast.forward(obs, batch);
    const model = net ? net.model : this.requireModel();
    const d = this.options.model.obsDim;
    return tf.tidy(() => {
      const x = tf.tensor2d(obs, [batch, d]);
      // Acting needs only the policy stack: an actor-critic's value stack is skipped.
      const head = model instanceof ActorCriticMlp || model instanceof PolicyMlp ? model.policy.apply(x) : (model.forward(x).q as tf.Tensor2D);
      return (softmax ? tf.softmax(head) : head).dataSync() as Float32Array;
    });
  }

  /** Free the network's tensors (an actor used in-process, not in its own worker). */
  dispose(): void {
    this.model?.dispose();
    this.model = null;
    this.greedyNet?.model.dispose();
    this.greedyNet = null;
  }

  private requireModel(): Model<ModelOutput> {
    if (!this.model) throw new Error('RolloutActor: call init() before using the actor');
    return this.model;
  }
}

/** The index of the largest score (the first on ties). */
function argmax(scores: Float32Array): number {
  let best = 0;
  for (let a = 1; a < scores.length; a++) if (scores[a] > scores[best]) best = a;
  return best;
}
