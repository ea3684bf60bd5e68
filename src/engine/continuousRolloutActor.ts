/**
 * ContinuousRolloutActor: the remote actor of the Box-action loops (DDPG, TD3, SAC, offline
 * evaluation). It owns a VectorEnv of a continuous env and acts with a typed-array copy of the
 * learner's actor network (continuousPolicy.ts), exploring with noise drawn from its own seeded
 * Rng: independent Gaussian draws, or an Ornstein-Uhlenbeck process per env copy (core/ouNoise.ts)
 * that starts over at each episode start; SAC with gSDE samples with an exploration matrix per env
 * copy (core/gsde.ts), drawn anew at the start of each segment (SB3's rollout start) and every
 * `net.sde.sampleFreq` steps within it when that is positive, and at each evaluation episode's
 * start. Off-policy loops get transitions, one message of typed arrays per segment (Ape-X style).
 */
import type { ActorSpec } from '../core/continuousMlp';
import type { GsdeExploration } from '../core/gsde';
import { OrnsteinUhlenbeckNoise } from '../core/ouNoise';
import { Rng, deriveSeed } from '../core/rng';
import { makeEnv } from '../envs/registry';
import type { BoxActionEnv, TimeLimitedEnv } from '../envs/types';
import { ContinuousPolicy, GREEDY, type ContinuousPolicyKind, type ExploreMode } from './continuousPolicy';
import { ActorVector, playGreedyEpisode, type GreedyEpisode } from './actorPlumbing';

export interface ContinuousRolloutActorOptions {
  envId: string;
  numEnvs: number;
  seed: number;
  actorIndex: number;
  policy: ContinuousPolicyKind;
  net: ActorSpec;
}

/** T steps of N env copies as transitions (s, a, r, s', terminated), row t·N + n. */
export interface ContinuousSegment {
  actorIndex: number;
  policyVersion: number;
  /** Transitions: T·N. */
  steps: number;
  obsDim: number;
  actionDim: number;
  obs: Float32Array;
  actions: Float32Array;
  rewards: Float32Array;
  /** The real next observation (the last one, not the reset one, where an episode ended). */
  nextObs: Float32Array;
  /** 1 where s' is terminal (not where the time limit cut the episode). */
  dones: Uint8Array;
  /** 1 where the episode ended here, terminal or cut by the time limit (GAE stops there). */
  ended: Uint8Array;
  /** log π(a|s) of the acting policy (Gaussian PPO; zeros for the off-policy actors). */
  logProbs: Float32Array;
  episodeReturns: Float32Array;
  episodeLengths: Int32Array;
  seconds: number;
}

/** Returns of whole episodes, and their transitions when asked for (datasets). */
export interface EpisodeRollout {
  returns: Float32Array;
  lengths: Int32Array;
  transitions: Pick<ContinuousSegment, 'steps' | 'obsDim' | 'actionDim' | 'obs' | 'actions' | 'rewards' | 'nextObs' | 'dones'> | null;
}

/** The env of a Box-action id, typed for vector actions. */
function makeBoxEnv(envId: string, seed?: number): BoxActionEnv {
  const env = makeEnv(envId, seed === undefined ? {} : { seed });
  if (!isBoxEnv(env)) throw new Error(`ContinuousRolloutActor: ${envId} does not have a Box action space`);
  return env;
}

function isBoxEnv(env: TimeLimitedEnv): env is BoxActionEnv {
  return env.actionSpace.kind === 'box' && typeof (env as Partial<BoxActionEnv>).stepInto === 'function';
}

/** Null when a segment from an actor is well formed; otherwise what is wrong. */
export function validateContinuousSegment(s: ContinuousSegment, obsDim: number, actionDim: number): string | null {
  if (!s || typeof s !== 'object') return 'not a segment';
  const n = s.steps;
  if (!Number.isInteger(n) || n < 1) return `steps must be a positive integer, got ${String(n)}`;
  if (s.obsDim !== obsDim || s.actionDim !== actionDim) return `sizes ${s.obsDim}/${s.actionDim}, expected ${obsDim}/${actionDim}`;
  const want: [string, ArrayLike<number> | undefined, number][] = [
    ['obs', s.obs, n * obsDim],
    ['nextObs', s.nextObs, n * obsDim],
    ['actions', s.actions, n * actionDim],
    ['rewards', s.rewards, n],
    ['dones', s.dones, n],
  ];
  for (const [name, arr, len] of want) {
    if (!arr || arr.length !== len) return `${name} has ${arr ? arr.length : 'no'} values, expected ${len}`;
    for (let i = 0; i < len; i++) if (!Number.isFinite(arr[i])) return `${name}[${i}] is not finite`;
  }
  return null;
}

/** Whether a mode explores with an OU process (uniform warm-up actions and σ 0 draw none). */
function usesOu(mode: ExploreMode): boolean {
  return mode.process === 'ou' && !mode.random && mode.noise > 0;
}

export class ContinuousRolloutActor {
  static readonly actorKey: string = 'ContinuousRolloutActor';
  private readonly policy: ContinuousPolicy;
  /** The live view's greedy episodes act with this copy (made on first use). */
  private greedyPolicy: ContinuousPolicy | null = null;
  private readonly rng: Rng;
  private version = -1;
  private readonly training: ActorVector;
  /** The OU process of the training env copies (made on first use). */
  private trainingNoise: OrnsteinUhlenbeckNoise | null = null;
  /** gSDE's exploration matrices of the training env copies (made on first use). */
  private trainingSde: GsdeExploration | null = null;
  private evalEnv: BoxActionEnv | null = null;
  private evalEpisodes = 0;

  constructor(private readonly options: ContinuousRolloutActorOptions) {
    this.policy = new ContinuousPolicy(options.policy, options.net);
    this.rng = new Rng(deriveSeed(options.seed, options.actorIndex, 0xc0a7));
    this.training = new ActorVector(options.envId, options.numEnvs, options.seed, options.actorIndex);
  }

  /** Nothing to load: acting is plain TypeScript. */
  async init(): Promise<string> {
    return 'js';
  }

  setWeights(weights: Float32Array[], version: number): void {
    this.policy.setWeights(weights);
    this.version = version;
  }

  /** Run every env copy for T steps (weights null = keep the current ones) and send the transitions. */
  sampleTransitions(weights: Float32Array[] | null, version: number, T: number, mode: ExploreMode): ContinuousSegment {
    if (weights) this.setWeights(weights, version);
    const started = performance.now();
    const vec = this.training.get();
    const N = vec.numEnvs;
    const d = vec.obsDim;
    const A = vec.actionDim;
    const steps = T * N;
    const seg: ContinuousSegment = {
      actorIndex: this.options.actorIndex,
      policyVersion: this.version,
      steps,
      obsDim: d,
      actionDim: A,
      obs: new Float32Array(steps * d),
      actions: new Float32Array(steps * A),
      rewards: new Float32Array(steps),
      nextObs: new Float32Array(steps * d),
      dones: new Uint8Array(steps),
      ended: new Uint8Array(steps),
      logProbs: new Float32Array(steps),
      episodeReturns: new Float32Array(0),
      episodeLengths: new Int32Array(0),
      seconds: 0,
    };
    const returns: number[] = [];
    const lengths: number[] = [];
    let obs = this.training.obs;
    const sde = this.usesSde(mode) ? (this.trainingSde ??= this.policy.newExploration()) : undefined;
    const sampleFreq = this.options.net.sde?.sampleFreq ?? 0;
    for (let t = 0; t < T; t++) {
      if (sde && (t === 0 || (sampleFreq > 0 && t % sampleFreq === 0))) this.policy.resampleExploration(sde, this.rng, N);
      const noise = usesOu(mode) ? this.ouOfTraining(N, A).next(this.rng, mode.noise) : undefined;
      const actions = this.policy.act(obs, N, this.rng, mode, noise, sde);
      // Gaussian PPO's draws are unbounded: the env gets them clipped (CleanRL's ClipAction), the segment keeps them.
      const step = vec.step(this.options.policy === 'gaussian' ? this.clipped(actions) : actions);
      if (this.options.policy === 'gaussian') seg.logProbs.set(this.policy.lastLogProbs, t * N);
      seg.obs.set(obs, t * N * d);
      seg.actions.set(actions, t * N * A);
      seg.rewards.set(step.rewards, t * N);
      seg.nextObs.set(step.obs, t * N * d);
      for (let n = 0; n < N; n++) {
        if (step.terminated[n] || step.truncated[n]) seg.nextObs.set(step.finalObs.subarray(n * d, (n + 1) * d), (t * N + n) * d);
        seg.dones[t * N + n] = step.terminated[n];
        seg.ended[t * N + n] = step.terminated[n] | step.truncated[n];
        if (seg.ended[t * N + n]) this.trainingNoise?.reset(n);
      }
      returns.push(...step.episodeReturns);
      lengths.push(...step.episodeLengths);
      obs = step.obs;
    }
    this.training.obs = obs;
    seg.episodeReturns = Float32Array.from(returns);
    seg.episodeLengths = Int32Array.from(lengths);
    seg.seconds = (performance.now() - started) / 1000;
    return seg;
  }

  /**
   * Play `episodes` whole episodes on a separate evaluation env (training streams untouched) with
   * the given weights and exploration; keep their transitions when asked (datasets).
   */
  rollEpisodes(weights: Float32Array[] | null, episodes: number, mode: ExploreMode = GREEDY, keep = false): EpisodeRollout {
    if (weights) this.policy.setWeights(weights);
    if (!this.evalEnv) this.evalEnv = makeBoxEnv(this.options.envId);
    const env = this.evalEnv;
    const d = this.options.net.obsDim;
    const A = this.options.net.actionDim;
    const obsRows: number[] = [];
    const nextRows: number[] = [];
    const actRows: number[] = [];
    const rewards: number[] = [];
    const dones: number[] = [];
    const returns = new Float32Array(episodes);
    const lengths = new Int32Array(episodes);
    for (let e = 0; e < episodes; e++) {
      let obs = env.reset({ seed: deriveSeed(this.options.seed, this.options.actorIndex, 0xe7a1, this.evalEpisodes++) }).obs;
      const ou = usesOu(mode) ? new OrnsteinUhlenbeckNoise(1, A) : null;
      const sde = this.usesSde(mode) ? this.policy.newExploration() : undefined;
      const sampleFreq = this.options.net.sde?.sampleFreq ?? 0;
      for (let t = 0; ; t++) {
        if (sde && (t === 0 || (sampleFreq > 0 && t % sampleFreq === 0))) this.policy.resampleExploration(sde, this.rng, 1);
        const raw = this.policy.act(obs, 1, this.rng, mode, ou?.next(this.rng, mode.noise), sde);
        const a = this.options.policy === 'gaussian' ? this.clipped(raw) : raw;
        const step = env.step(a);
        returns[e] += step.reward;
        lengths[e] += 1;
        if (keep) {
          obsRows.push(...obs);
          actRows.push(...a);
          nextRows.push(...step.obs);
          rewards.push(step.reward);
          dones.push(step.terminated ? 1 : 0);
        }
        obs = step.obs;
        if (step.terminated || step.truncated) break;
      }
    }
    const transitions = keep
      ? {
          steps: rewards.length,
          obsDim: d,
          actionDim: A,
          obs: Float32Array.from(obsRows),
          actions: Float32Array.from(actRows),
          rewards: Float32Array.from(rewards),
          nextObs: Float32Array.from(nextRows),
          dones: Uint8Array.from(dones),
        }
      : null;
    return { returns, lengths, transitions };
  }

  /**
   * One greedy episode's render states for the page's live view. Given weights, it acts with its
   * own copy of the policy: the training policy keeps the version the learner last sent, so the
   * transitions do not depend on when the page asked for an episode.
   */
  recordGreedyEpisode(weights: Float32Array[] | null, maxFrames = 500): GreedyEpisode {
    let policy = this.policy;
    if (weights) {
      policy = this.greedyPolicy ??= new ContinuousPolicy(this.options.policy, this.options.net);
      policy.setWeights(weights);
    }
    const env = makeBoxEnv(this.options.envId, deriveSeed(this.options.seed, this.options.actorIndex, 0xde70));
    return playGreedyEpisode(env, this.options.envId, maxFrames, (obs) => {
      const raw = policy.act(obs, 1, this.rng, GREEDY);
      return this.options.policy === 'gaussian' ? this.clipped(raw) : raw;
    });
  }


  /** Whether acting in this mode samples from a gSDE actor (uniform warm-up and greedy actions do not). */
  private usesSde(mode: ExploreMode): boolean {
    return this.policy.sde && mode.sample && !mode.random;
  }

  private ouOfTraining(numEnvs: number, actionDim: number): OrnsteinUhlenbeckNoise {
    return (this.trainingNoise ??= new OrnsteinUhlenbeckNoise(numEnvs, actionDim));
  }

  private clipped(actions: Float32Array): Float32Array {
    const { actionLow: low, actionHigh: high, actionDim: A } = this.options.net;
    return actions.map((a, i) => Math.min(high[i % A], Math.max(low[i % A], a)));
  }
}
