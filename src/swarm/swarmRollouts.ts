/**
 * Central inference and rollouts of the swarm (decomposition task, set policy).
 *
 * Every tick the learner answers EVERY waiting episode of EVERY actor with ONE forward pass of
 * the set policy (SEED style): the rows of all actors are concatenated, the pass runs once, and
 * each row samples a ~ π(·|s) = softmax(logits) (illegal actions have probability 0), recorded
 * with log π(a|s) and V(s) for PPO. `forwardCalls` and `ticks` count the passes and the ticks.
 */
import { log } from '../core/portableMath';
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../core/rng';
import type { SwarmEpisodeOutcome, SwarmPending } from './swarmActor';
import type { DecisionCreditParts } from './decisionCredit';
import { SP_NUM_ACTIONS, SP_OBS_DIM, SP_SEGMENTS, SP_TYPES, activeRowsOf, type SetPolicyModel } from './setPolicy';

/**
 * How a decision is drawn from π(·|s):
 *   sample     a ~ π                                   (training, and stochastic evaluation)
 *   typeArgmax t* = argmax_t π(t) = Σ_{a of type t} π(a), then a* = argmax_{a of type t*} π(a)
 *              (the mode of each level of the hierarchical policy)
 *   argmax     a* = argmax_a π(a) over the flat joint distribution
 * The flat argmax is NOT the policy's greedy version: a type whose mass is spread over many rows
 * (assignNew over 100 subtasks × 4 kinds) loses to a type with one action (launch, finish) even
 * when it is far more likely, so a policy that samples "assign" 60% of the time and "launch" 10%
 * would launch at every decision when played by flat argmax.
 */
export type DecisionMode = 'sample' | 'typeArgmax' | 'argmax';

/** The action of row `r` of `probs` [n · SP_NUM_ACTIONS] under a deterministic mode. */
export function modeAction(probs: Float32Array, r: number, mode: 'typeArgmax' | 'argmax'): number {
  const A = SP_NUM_ACTIONS;
  const o = r * A;
  let from = 0;
  let to = A;
  if (mode === 'typeArgmax') {
    let bestMass = -1;
    for (const t of SP_TYPES) {
      const { offset, length } = SP_SEGMENTS[t];
      let mass = 0;
      for (let j = offset; j < offset + length; j++) mass += probs[o + j];
      if (mass > bestMass) {
        bestMass = mass;
        from = offset;
        to = offset + length;
      }
    }
  }
  let a = from;
  for (let j = from + 1; j < to; j++) if (probs[o + j] > probs[o + a]) a = j;
  return a;
}

export interface SetDecisions {
  actions: Int32Array;
  logProbs: Float32Array;
  values: Float32Array;
}

export class SetInference {
  forwardCalls = 0;
  ticks = 0;
  /** Rows answered so far (all ticks). */
  rows = 0;

  constructor(
    readonly model: SetPolicyModel,
    private readonly rng: Rng,
    /** How each decision is drawn (evaluation may use a deterministic mode). */
    public mode: DecisionMode = 'sample',
  ) {}

  /** Decisions for `n` rows in one forward pass. */
  async decide(obs: Float32Array, n: number): Promise<SetDecisions> {
    const out: SetDecisions = { actions: new Int32Array(n), logProbs: new Float32Array(n), values: new Float32Array(n) };
    if (n === 0) return out;
    this.forwardCalls += 1;
    this.rows += n;
    this.model.activeRows = activeRowsOf(obs, n);
    // One readback per tick: π and V side by side, [n, A + 1] (on WebGPU each readback waits for the queue).
    const both = tf.tidy(() => {
      const o = this.model.forward(tf.tensor2d(obs, [n, SP_OBS_DIM]));
      return tf.concat([tf.softmax(o.logits), o.value.reshape([n, 1])], 1);
    });
    const flat = (await both.data()) as Float32Array;
    both.dispose();
    const A = SP_NUM_ACTIONS;
    const probs = new Float32Array(n * A);
    for (let i = 0; i < n; i++) probs.set(flat.subarray(i * (A + 1), i * (A + 1) + A), i * A);
    for (let i = 0; i < n; i++) {
      const a = this.mode === 'sample' ? this.rng.categorical(probs, i * A, A) : modeAction(probs, i, this.mode);
      out.actions[i] = a;
      out.logProbs[i] = log(Math.max(probs[i * A + a], 1e-30));
      out.values[i] = flat[i * (A + 1) + A];
    }
    return out;
  }

  /** Answer every row of every pending with ONE forward pass. */
  async tick(pendings: readonly SwarmPending[]): Promise<SetDecisions[]> {
    this.ticks += 1;
    const n = pendings.reduce((a, p) => a + p.slots.length, 0);
    const obs = new Float32Array(n * SP_OBS_DIM);
    let r = 0;
    for (const p of pendings) {
      obs.set(p.obs, r * SP_OBS_DIM);
      r += p.slots.length;
    }
    const all = await this.decide(obs, n);
    r = 0;
    return pendings.map((p) => {
      const k = p.slots.length;
      const d = { actions: all.actions.slice(r, r + k), logProbs: all.logProbs.slice(r, r + k), values: all.values.slice(r, r + k) };
      r += k;
      return d;
    });
  }
}

/** One decision as PPO needs it. */
export interface SetDecision {
  obs: Float32Array;
  action: number;
  logProb: number;
  value: number;
}

export interface SwarmEpisode {
  actorIndex: number;
  slot: number;
  outcome: SwarmEpisodeOutcome;
  decisions: SetDecision[];
  /** What each decision produced (for per-decision credit); absent from actors that do not record it. */
  credit?: DecisionCreditParts;
}

/** The calls made to the actors (local SwarmActors or a pool of remote ones). */
export interface SwarmActors {
  readonly size: number;
  start(index: number, update: number, episodes: number, taskSeeds: number[] | null): Promise<SwarmPending>;
  advance(index: number, actions: Int32Array): Promise<SwarmPending>;
}

export interface SwarmRollouts {
  /** By actor, then slot. */
  episodes: SwarmEpisode[];
  /** Decisions made (all episodes). */
  decisions: number;
  ticks: number;
  /** Forward passes in this collection. */
  forwardCalls: number;
}

/**
 * Run one update's episodes on every actor to their end; `taskSeeds(i)` fixes actor i's task
 * seeds (evaluation), null draws them from the update. `keepObs` false drops the observations
 * (evaluation needs none).
 */
export async function collectSwarmRollouts(
  actors: SwarmActors,
  inference: SetInference,
  req: { update: number; episodesPerActor: number; taskSeeds?: (actorIndex: number) => number[]; keepObs?: boolean },
): Promise<SwarmRollouts> {
  const n = actors.size;
  const E = req.episodesPerActor;
  const keepObs = req.keepObs ?? true;
  const calls0 = inference.forwardCalls;
  const decisions = Array.from({ length: n }, () => Array.from({ length: E }, (): SetDecision[] => []));
  const outcomes = Array.from({ length: n }, () => new Array<SwarmEpisodeOutcome | null>(E).fill(null));
  const credits = Array.from({ length: n }, () => new Array<DecisionCreditParts | undefined>(E).fill(undefined));
  let pendings = await Promise.all(Array.from({ length: n }, (_, i) => actors.start(i, req.update, E, req.taskSeeds ? req.taskSeeds(i) : null)));
  let ticks = 0;
  for (;;) {
    pendings.forEach((p, i) =>
      p.finished.forEach((f) => {
        outcomes[i][f.slot] = f.outcome;
        credits[i][f.slot] = f.credit;
      }),
    );
    const active = pendings.map((p, i) => ({ p, i })).filter((x) => x.p.running > 0);
    if (active.length === 0) break;
    const answers = await inference.tick(active.map((x) => x.p));
    ticks += 1;
    active.forEach(({ p, i }, k) => {
      const d = answers[k];
      for (let r = 0; r < p.slots.length; r++) {
        decisions[i][p.slots[r]].push({
          obs: keepObs ? p.obs.slice(r * SP_OBS_DIM, (r + 1) * SP_OBS_DIM) : new Float32Array(0),
          action: d.actions[r],
          logProb: d.logProbs[r],
          value: d.values[r],
        });
      }
    });
    const next = await Promise.all(active.map(({ i }, k) => actors.advance(i, answers[k].actions)));
    pendings = pendings.map((p, i) => {
      const k = active.findIndex((x) => x.i === i);
      return k >= 0 ? next[k] : { ...p, finished: [] };
    });
  }
  const episodes: SwarmEpisode[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let slot = 0; slot < E; slot++) {
      const outcome = outcomes[i][slot];
      if (!outcome || decisions[i][slot].length === 0) continue;
      const credit = credits[i][slot];
      episodes.push({ actorIndex: i, slot, outcome, decisions: decisions[i][slot], ...(credit ? { credit } : {}) });
      total += decisions[i][slot].length;
    }
  }
  return { episodes, decisions: total, ticks, forwardCalls: inference.forwardCalls - calls0 };
}
