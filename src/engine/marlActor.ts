/**
 * MarlActor: the remote actor of the multi-agent loop. It owns `numEnvs` copies of an MPE task
 * (MpeVectorEnv) and the actors' side of the policy (marlPolicy.ts, plain typed arrays, no tfjs).
 * Each `collectEpisodes` call loads the newest weights and plays ONE whole episode of every agent
 * on every copy (MPE episodes all last `maxCycles` steps, so the copies end together), and
 * returns it as one message of typed arrays in the replay's layout (src/algorithms/marl.ts).
 */
import type { MarlActingSpec, MarlTaskSpec } from '../algorithms/marl';
import { deriveSeed, Rng } from '../core/rng';
import { makeMpeEnv, MpeVectorEnv, type MpeEnv } from '../envs/mpe';
import { MarlPolicy } from './marlPolicy';

export interface MarlActorOptions {
  task: MarlTaskSpec;
  acting: MarlActingSpec;
  numEnvs: number;
  seed: number;
  actorIndex: number;
}

/** One round of whole episodes from one actor (E episodes, T steps, A agents, M metrics). */
export interface MarlEpisodeMessage {
  actorIndex: number;
  numEpisodes: number;
  T: number;
  /** [E, T + 1, S] */
  state: Float32Array;
  /** [E, T, A] */
  actions: Int32Array;
  /** [E, T, A] */
  rewards: Float32Array;
  /** [E, A] each agent's return. */
  returns: Float32Array;
  metricNames: string[];
  /** [E, M] the scenario's episode metrics (collisions, occupied landmarks, catches …). */
  metrics: Float32Array;
  seconds: number;
}

/** A greedy episode's frames for the live view: frame f's value of keys[k] is frames[f·keys.length + k]. */
export interface MarlGreedyEpisode {
  envId: string;
  keys: string[];
  frames: Float32Array;
  episodeReturn: number;
  length: number;
}

/** The task an MPE env id describes, as the learner and the actors see it. */
export function mpeTaskSpec(envId: string): MarlTaskSpec {
  const env = makeMpeEnv(envId);
  return {
    envId: env.id,
    agents: [...env.possibleAgents],
    obsDims: [...env.obsDims],
    obsOffsets: [...env.obsOffsets],
    stateDim: env.stateDim,
    actionSizes: env.possibleAgents.map((a) => {
      const s = env.actionSpace(a);
      if (s.kind !== 'discrete') throw new Error(`${envId}: agent "${a}" has a continuous action space; the multi-agent algorithms here take discrete actions`);
      return s.n;
    }),
    // simple_tag: adversaries (predators) are one side, the good agents (prey) the other.
    sides: env.world.agents.map((a) => (a.role === 'good' ? 1 : 0)),
    episodeLength: env.maxCycles,
  };
}

/** Render keys of one frame: per entity x, y, size, r, g, b, goal; per speaker its message values. */
export function mpeFrame(env: MpeEnv): Record<string, number> {
  const frame = env.render();
  const out: Record<string, number> = {};
  for (const e of frame.entities) {
    out[`${e.name}.x`] = e.x;
    out[`${e.name}.y`] = e.y;
    out[`${e.name}.size`] = e.size;
    [out[`${e.name}.r`], out[`${e.name}.g`], out[`${e.name}.b`]] = e.color;
    out[`${e.name}.goal`] = e.isGoal ? 1 : 0;
  }
  for (const m of frame.messages) m.values.forEach((v, k) => (out[`${m.from}.msg${k}`] = v));
  return out;
}

export class MarlActor {
  /** Its remote-actor key; listed in src/workers/actorClasses.ts. */
  static readonly actorKey: string = 'MarlActor';
  private readonly vec: MpeVectorEnv;
  private readonly copies: MarlPolicy[];
  private readonly rng: Rng;
  private obs: Float32Array | null = null;
  private resets = 0;
  private greedyEnv: MpeEnv | null = null;
  private greedyPolicy: MarlPolicy | null = null;

  constructor(private readonly options: MarlActorOptions) {
    const { task, numEnvs, acting } = options;
    this.vec = new MpeVectorEnv(task.envId, numEnvs);
    if (this.vec.stateDim !== task.stateDim || this.vec.numAgents !== task.agents.length) {
      throw new Error(`MarlActor: ${task.envId} has ${this.vec.numAgents} agents and state ${this.vec.stateDim}, the task says ${task.agents.length} and ${task.stateDim}`);
    }
    this.rng = new Rng(deriveSeed(options.seed, options.actorIndex, 0x3a21));
    // One policy per env copy: each keeps its own recurrent state and last actions.
    this.copies = Array.from({ length: numEnvs }, () => new MarlPolicy(task, acting));
  }

  /** Nothing to set up (no tfjs); kept so every actor pool can await init(). */
  init(): string {
    return 'js';
  }

  /**
   * Load `weights`, play one episode on every copy with exploration `epsilon`, return it. A round
   * that throws (a refused joint action) leaves its copies mid-episode: the next one resets them.
   */
  collectEpisodes(weights: Float32Array[], epsilon: number): MarlEpisodeMessage {
    try {
      return this.playRound(weights, epsilon);
    } catch (err) {
      this.obs = null;
      throw err;
    }
  }

  private playRound(weights: Float32Array[], epsilon: number): MarlEpisodeMessage {
    const started = performance.now();
    const { task } = this.options;
    const E = this.vec.numEnvs;
    const T = this.vec.maxCycles;
    const A = task.agents.length;
    const S = task.stateDim;
    for (const p of this.copies) {
      p.setWeights(weights);
      p.resetEpisode();
    }
    let obs = this.obs ?? this.vec.reset(deriveSeed(this.options.seed, this.options.actorIndex, this.resets++));
    const state = new Float32Array(E * (T + 1) * S);
    const actions = new Int32Array(E * T * A);
    const rewards = new Float32Array(E * T * A);
    const returns = new Float32Array(E * A);
    const M = this.vec.metricNames.length;
    const metrics = new Float32Array(E * M);
    const joint = new Int32Array(E * A);
    for (let t = 0; t < T; t++) {
      for (let e = 0; e < E; e++) {
        state.set(obs.subarray(e * S, (e + 1) * S), (e * (T + 1) + t) * S);
        this.copies[e].act(obs, e * S, epsilon, this.rng, false, joint, e * A);
      }
      const step = this.stepEnvs(joint);
      for (let e = 0; e < E; e++) {
        actions.set(joint.subarray(e * A, (e + 1) * A), (e * T + t) * A);
        rewards.set(step.rewards.subarray(e * A, (e + 1) * A), (e * T + t) * A);
      }
      const last = t === T - 1;
      if (last !== (step.episodes.length === E)) throw new Error(`MarlActor: ${task.envId} copies did not all end after ${T} steps`);
      if (last) {
        for (let e = 0; e < E; e++) state.set(step.finalObs.subarray(e * S, (e + 1) * S), (e * (T + 1) + T) * S);
        for (const ep of step.episodes) {
          returns.set(ep.returns, ep.copy * A);
          this.vec.metricNames.forEach((name, m) => (metrics[ep.copy * M + m] = ep.metrics[name]));
        }
      }
      obs = step.obs;
    }
    this.obs = obs;
    return { actorIndex: this.options.actorIndex, numEpisodes: E, T, state, actions, rewards, returns, metricNames: [...this.vec.metricNames], metrics, seconds: (performance.now() - started) / 1000 };
  }

  /** One step of every copy with the joint actions [E, A] (tests' stand-ins corrupt them here). */
  protected stepEnvs(joint: Int32Array) {
    return this.vec.step(joint);
  }

  /** A greedy episode on a separate copy (training streams untouched), as frames for the live view. */
  recordGreedyEpisode(weights: Float32Array[] | null): MarlGreedyEpisode {
    const { task, acting, seed, actorIndex } = this.options;
    if (!this.greedyEnv) this.greedyEnv = makeMpeEnv(task.envId, { seed: deriveSeed(seed, actorIndex, 0xde70) });
    if (!this.greedyPolicy) this.greedyPolicy = new MarlPolicy(task, acting);
    const env = this.greedyEnv;
    const policy = this.greedyPolicy;
    if (weights) policy.setWeights(weights);
    policy.resetEpisode();
    const S = task.stateDim;
    const A = task.agents.length;
    const state = new Float32Array(S);
    const rewards = new Float32Array(A);
    const joint = new Int32Array(A);
    env.resetInto(state, 0);
    const first = mpeFrame(env);
    const keys = Object.keys(first);
    const frames: number[] = keys.map((k) => first[k]);
    let ret = 0;
    let length = 0;
    while (!env.lastTruncated) {
      policy.act(state, 0, 0, this.rng, true, joint, 0);
      env.stepFlat(joint, 0, state, 0, rewards, 0);
      for (let a = 0; a < A; a++) ret += rewards[a];
      length += 1;
      const f = mpeFrame(env);
      for (const k of keys) frames.push(f[k] ?? 0);
    }
    return { envId: task.envId, keys, frames: Float32Array.from(frames), episodeReturn: ret, length };
  }

}
