/**
 * RolloutActor: the remote class that collects experience (PaddlePaddle PARL's Actor, IMPALA's
 * actor). Each instance lives in its own Web Worker / worker thread, owns `numEnvs` copies of an
 * environment and a copy of the policy, and acts with it on its own small tfjs backend (wasm or
 * cpu). It sends whole episodes back as one message of transferable typed arrays.
 */
import * as tf from '@tensorflow/tfjs';
import { categoricalRows } from '../core/agent';
import { chooseBackend } from '../core/backend';
import { buildPolicyModel, type ActorCriticMlp, type MlpSpec, type PolicyMlp } from '../core/mlp';
import { registerActorClass } from '../core/remote/registry';
import { Rng, deriveSeed } from '../core/rng';
import { makeEnv } from '../envs/registry';
import type { TimeLimitedEnv } from '../envs/types';

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
}

/** Whole episodes, concatenated: episode i of env copy 0, then copy 1, ... */
export interface EpisodeBatch {
  actorIndex: number;
  /** Version of the weights that produced these actions (for the policy lag). */
  policyVersion: number;
  steps: number;
  obsDim: number;
  obs: Float32Array; // [steps, obsDim]
  actions: Int32Array; // [steps]
  rewards: Float32Array; // [steps]
  dones: Uint8Array; // [steps], 1 on the last step of each episode
  episodeReturns: Float32Array;
  episodeLengths: Int32Array;
  /** Wall time the actor spent on this batch. */
  seconds: number;
}

export class RolloutActor {
  private readonly envs: TimeLimitedEnv[];
  private readonly rng: Rng;
  private model: PolicyMlp | ActorCriticMlp | null = null;
  private version = -1;

  constructor(private readonly options: RolloutActorOptions) {
    const { envId, numEnvs, seed, actorIndex } = options;
    this.envs = Array.from({ length: numEnvs }, (_, i) => makeEnv(envId, { seed: deriveSeed(seed, actorIndex, i) }));
    this.rng = new Rng(deriveSeed(seed, actorIndex, 0x5eed));
  }

  /** Picks the actor's backend and builds its copy of the policy. Returns the backend name. */
  async init(): Promise<string> {
    const choice = await chooseBackend({ preferred: this.options.backend, wasmPaths: this.options.wasmPaths });
    this.model = buildPolicyModel(this.options.model, this.options.seed);
    return choice.name;
  }

  setWeights(weights: Float32Array[], version: number): void {
    this.requireModel().setWeights(weights);
    this.version = version;
  }

  /** Load the given weights, then play one full episode on every env copy. */
  rollEpisodes(weights: Float32Array[], version: number): EpisodeBatch {
    this.setWeights(weights, version);
    const started = performance.now();
    const model = this.requireModel();
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
      const probs = tf.tidy(() => tf.softmax(model.forward(tf.tensor2d(batch, [active.length, obsDim])).logits).dataSync());
      const chosen = categoricalRows(probs, active.length, this.rng);

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

  /** Crash this actor's worker on purpose (the playground's "crash an actor" button, and tests). */
  crash(message = 'crash requested'): void {
    setTimeout(() => {
      throw new Error(message);
    });
  }

  private requireModel(): PolicyMlp | ActorCriticMlp {
    if (!this.model) throw new Error('RolloutActor: call init() before using the actor');
    return this.model;
  }
}

registerActorClass('RolloutActor', RolloutActor);

/**
 * Checks an episode batch from an actor before the learner uses it. Returns null when it is
 * well formed, or a one-line reason.
 */
export function validateEpisodeBatch(b: EpisodeBatch, obsDim: number, numActions: number): string | null {
  if (!b || typeof b !== 'object') return 'not an object';
  if (b.obsDim !== obsDim) return `obsDim ${b.obsDim}, expected ${obsDim}`;
  if (!(b.steps > 0)) return `steps must be positive, got ${b.steps}`;
  if (!(b.obs instanceof Float32Array) || b.obs.length !== b.steps * obsDim) return `obs has ${b.obs?.length} values, expected ${b.steps * obsDim}`;
  if (!(b.actions instanceof Int32Array) || b.actions.length !== b.steps) return `actions has ${b.actions?.length} entries, expected ${b.steps}`;
  if (!(b.rewards instanceof Float32Array) || b.rewards.length !== b.steps) return `rewards has ${b.rewards?.length} entries, expected ${b.steps}`;
  if (!(b.dones instanceof Uint8Array) || b.dones.length !== b.steps || b.dones[b.steps - 1] !== 1) return 'dones must mark the end of the last episode';
  for (let i = 0; i < b.obs.length; i++) if (!Number.isFinite(b.obs[i])) return `obs[${i}] is not finite`;
  for (let i = 0; i < b.steps; i++) {
    if (!Number.isFinite(b.rewards[i])) return `rewards[${i}] is not finite`;
    if (b.actions[i] < 0 || b.actions[i] >= numActions) return `actions[${i}] = ${b.actions[i]} is out of range`;
  }
  return null;
}
