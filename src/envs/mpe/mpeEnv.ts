/**
 * An MPE scenario as a parallel multi-agent env: PettingZoo's SimpleEnv (simple_env.py) seen
 * through its parallel wrapper, with the same action encoding and time limit.
 *
 * Actions, per agent (PettingZoo `_set_action`):
 *   discrete, movable:      Discrete(5 · (silent ? 1 : dim_c)); a % 5 picks the move
 *                           0 none, 1 −x, 2 +x, 3 −y, 4 +y (u = ±1 on that axis), ⌊a / 5⌋ the symbol
 *   discrete, not movable:  Discrete(dim_c), the symbol (one-hot communication)
 *   continuous:             Box(0, 1, [5 (if movable) + dim_c (if not silent)]); the move is
 *                           u = (a[2] − a[1], a[4] − a[3]) (a[0] is "no-op"), the rest is the message;
 *                           out-of-range values are clipped to [0, 1] (ClipOutOfBoundsWrapper)
 *   force = u · sensitivity, sensitivity = agent.accel ?? 5.0
 * Every episode is truncated after `maxCycles` steps (25); no MPE task terminates.
 *
 * A flat path (`resetInto` / `stepFlat`) writes observations and rewards into caller arrays; the
 * record-based API and `MpeVectorEnv` are both built on it.
 */
import { Rng } from '../../core/rng';
import type { BoxSpace, Info, ResetOptions, Space } from '../types';
import type { Agent, World } from './core';
import { describeWorld, type MpeRenderFrame } from './render';
import type { Scenario } from './scenario';
import type { MpeAction, ParallelEnv, ParallelResetResult, ParallelStepResult, PerAgent } from './types';

export const MPE_DEFAULTS = {
  maxCycles: 25,
  /** PettingZoo's default action sensitivity when an agent has no `accel`. */
  sensitivity: 5.0,
  /** Number of discrete moves (none, −x, +x, −y, +y). */
  numMoves: 5,
} as const;

export interface MpeEnvOptions {
  /** Box actions in [0, 1] instead of Discrete (PettingZoo's `continuous_actions`). */
  continuousActions?: boolean;
  /** Episode length (PettingZoo's `max_cycles`, default 25). */
  maxCycles?: number;
  /** simple_spread's `local_ratio`; null for scenarios without a global reward. */
  localRatio?: number | null;
  /** Seed of the env's Rng until `reset({ seed })` replaces it (default 0). */
  seed?: number;
}

function unboundedBox(n: number): BoxSpace {
  return {
    kind: 'box',
    shape: [n],
    low: new Float32Array(n).fill(-Infinity),
    high: new Float32Array(n).fill(Infinity),
  };
}

export class MpeEnv implements ParallelEnv {
  readonly id: string;
  readonly world: World;
  readonly possibleAgents: readonly string[];
  readonly continuous: boolean;
  readonly maxCycles: number;
  readonly localRatio: number | null;
  /** Observation length of each agent, in `possibleAgents` order. */
  readonly obsDims: readonly number[];
  /** Where each agent's observation starts in `state()`. */
  readonly obsOffsets: readonly number[];
  readonly stateDim: number;
  /** Numbers per agent in a flat joint action: 1 (discrete) or the Box length (continuous). */
  readonly actionWidths: readonly number[];
  readonly actionOffsets: readonly number[];
  /** Length of a flat joint action. */
  readonly actionStride: number;
  readonly stateSpace: BoxSpace;
  private readonly obsSpaces: Map<string, BoxSpace>;
  private readonly actSpaces: Map<string, Space>;
  private readonly spaceList: readonly Space[];
  private readonly index: Map<string, number>;
  private rng: Rng;
  private live: readonly string[] = [];
  private started = false;
  private ended = false;
  private elapsed = 0;
  private readonly flatScratch: Float64Array;
  private readonly rewardScratch: Float32Array;
  lastTruncated = false;

  constructor(
    readonly scenario: Scenario,
    options: MpeEnvOptions = {},
  ) {
    this.id = scenario.id;
    this.continuous = options.continuousActions ?? false;
    this.maxCycles = options.maxCycles ?? MPE_DEFAULTS.maxCycles;
    if (!Number.isInteger(this.maxCycles) || this.maxCycles < 1) {
      throw new Error(`${this.id}: maxCycles must be a positive integer, got ${this.maxCycles}`);
    }
    this.localRatio = options.localRatio ?? null;
    if (this.localRatio !== null) {
      if (!scenario.globalReward) throw new Error(`${this.id}: localRatio needs a scenario with a global reward`);
      if (!(this.localRatio >= 0 && this.localRatio <= 1)) {
        throw new Error(`${this.id}: localRatio is a proportion in [0, 1], got ${this.localRatio}`);
      }
    }
    this.rng = new Rng(options.seed ?? 0);
    this.world = scenario.makeWorld();
    this.possibleAgents = this.world.agents.map((a) => a.name);
    this.index = new Map(this.possibleAgents.map((name, i) => [name, i]));
    // Observation lengths come from one observation of a reset world (as PettingZoo's __init__),
    // drawn from a throwaway stream so that the env's own stream is untouched.
    scenario.resetWorld(this.world, new Rng(0));
    const scratch = new Float32Array(4096);
    this.obsDims = this.world.agents.map((a) => scenario.observation(a, this.world, scratch, 0));
    this.obsOffsets = offsets(this.obsDims);
    this.stateDim = this.obsDims.reduce((s, d) => s + d, 0);
    this.stateSpace = unboundedBox(this.stateDim);
    this.obsSpaces = new Map(this.possibleAgents.map((name, i) => [name, unboundedBox(this.obsDims[i])]));
    const spaces = this.world.agents.map((a) => this.spaceOf(a));
    this.spaceList = spaces;
    this.actSpaces = new Map(this.possibleAgents.map((name, i) => [name, spaces[i]]));
    this.actionWidths = spaces.map((s) => (s.kind === 'box' ? s.shape[0] : 1));
    this.actionOffsets = offsets(this.actionWidths);
    this.actionStride = this.actionWidths.reduce((s, d) => s + d, 0);
    this.flatScratch = new Float64Array(this.actionStride);
    this.rewardScratch = new Float32Array(this.possibleAgents.length);
  }

  get agents(): readonly string[] {
    return this.live;
  }

  get numAgents(): number {
    return this.possibleAgents.length;
  }

  /** Steps taken in the current episode. */
  get elapsedSteps(): number {
    return this.elapsed;
  }

  observationSpace(agent: string): BoxSpace {
    const s = this.obsSpaces.get(agent);
    if (!s) throw this.unknownAgent(agent);
    return s;
  }

  actionSpace(agent: string): Space {
    const s = this.actSpaces.get(agent);
    if (!s) throw this.unknownAgent(agent);
    return s;
  }

  /** PettingZoo's SimpleEnv.__init__ action space of one agent. */
  private spaceOf(agent: Agent): Space {
    let dim = agent.movable ? this.world.dimP * 2 + 1 : this.continuous ? 0 : 1;
    if (!agent.silent) dim = this.continuous ? dim + this.world.dimC : dim * this.world.dimC;
    if (this.continuous) return { kind: 'box', shape: [dim], low: new Float32Array(dim), high: new Float32Array(dim).fill(1) };
    return { kind: 'discrete', n: dim };
  }

  // ---- flat path -------------------------------------------------------------------------

  /** Reset (reseeding when `seed` is given) and write the state (all observations) at `out[offset ..]`. */
  resetInto(out: Float32Array, offset: number, seed?: number): void {
    if (seed !== undefined) this.rng = new Rng(seed);
    this.scenario.resetWorld(this.world, this.rng);
    for (const a of this.world.agents) {
      a.actionU.fill(0);
      a.actionC.fill(0);
    }
    this.started = true;
    this.ended = false;
    this.elapsed = 0;
    this.lastTruncated = false;
    this.live = this.possibleAgents;
    this.writeState(out, offset);
  }

  /**
   * One step from a flat joint action (`actionStride` numbers from `actions[aOffset]`, agents in
   * `possibleAgents` order). Writes the state at `obsOut[obsOffset ..]` and the rewards at
   * `rewardsOut[rOffset ..]`. `where` prefixes error messages (e.g. "copy 3").
   */
  stepFlat(
    actions: ArrayLike<number>,
    aOffset: number,
    obsOut: Float32Array,
    obsOffset: number,
    rewardsOut: Float32Array | Float64Array,
    rOffset: number,
    where = '',
  ): void {
    if (!this.started) throw new Error(`${this.id}: step() called before reset(); call reset() first`);
    if (this.ended) throw new Error(`${this.id}: step() called after the episode ended; call reset() first`);
    if (actions.length < aOffset + this.actionStride) {
      throw new Error(`${this.id}: ${where}flat joint action needs ${this.actionStride} numbers from ${aOffset}, got ${actions.length}`);
    }
    const agents = this.world.agents;
    for (let i = 0; i < agents.length; i++) this.checkFlat(i, actions, aOffset + this.actionOffsets[i], where);
    for (let i = 0; i < agents.length; i++) this.setAction(agents[i], actions, aOffset + this.actionOffsets[i]);
    this.world.step();
    const globalReward = this.localRatio !== null && this.scenario.globalReward ? this.scenario.globalReward(this.world) : 0;
    for (let i = 0; i < agents.length; i++) {
      const r = this.scenario.reward(agents[i], this.world);
      rewardsOut[rOffset + i] = this.localRatio !== null ? globalReward * (1 - this.localRatio) + r * this.localRatio : r;
    }
    this.elapsed += 1;
    this.lastTruncated = this.elapsed >= this.maxCycles;
    if (this.lastTruncated) {
      this.ended = true;
      this.live = [];
    }
    this.writeState(obsOut, obsOffset);
  }

  private checkFlat(i: number, actions: ArrayLike<number>, off: number, where: string): void {
    const name = this.possibleAgents[i];
    const space = this.spaceList[i];
    if (space.kind === 'discrete') {
      const a = actions[off];
      if (!Number.isInteger(a) || a < 0 || a >= space.n) {
        throw new Error(`${this.id}: ${where}action of agent "${name}" must be an integer in [0, ${space.n - 1}], got ${String(a)}`);
      }
      return;
    }
    for (let j = 0; j < space.shape[0]; j++) {
      if (!Number.isFinite(actions[off + j])) {
        throw new Error(`${this.id}: ${where}action of agent "${name}" has a non-finite value at index ${j}: ${String(actions[off + j])}`);
      }
    }
  }

  /** PettingZoo's `_set_action` (the action is already checked). */
  private setAction(agent: Agent, actions: ArrayLike<number>, off: number): void {
    agent.actionU.fill(0);
    agent.actionC.fill(0);
    if (this.continuous) {
      // The Box is float32: clip in float32 and subtract in float32, as numpy does.
      const a = (j: number) => Math.fround(Math.min(1, Math.max(0, Math.fround(actions[off + j]))));
      let k = 0;
      if (agent.movable) {
        agent.actionU[0] = Math.fround(a(2) - a(1));
        agent.actionU[1] = Math.fround(a(4) - a(3));
        k = this.world.dimP * 2 + 1;
      }
      if (!agent.silent) for (let c = 0; c < this.world.dimC; c++) agent.actionC[c] = a(k + c);
    } else {
      let act = actions[off];
      if (agent.movable) {
        const moves = this.world.dimP * 2 + 1;
        const move = act % moves;
        act = Math.floor(act / moves);
        if (move === 1) agent.actionU[0] = -1;
        if (move === 2) agent.actionU[0] = +1;
        if (move === 3) agent.actionU[1] = -1;
        if (move === 4) agent.actionU[1] = +1;
      }
      if (!agent.silent) agent.actionC[act] = 1;
    }
    if (agent.movable) {
      const sensitivity = agent.accel ?? MPE_DEFAULTS.sensitivity;
      agent.actionU[0] *= sensitivity;
      agent.actionU[1] *= sensitivity;
    }
  }

  /** Every agent's observation, concatenated in `possibleAgents` order. */
  writeState(out: Float32Array, offset: number): void {
    const agents = this.world.agents;
    for (let i = 0; i < agents.length; i++) {
      const n = this.scenario.observation(agents[i], this.world, out, offset + this.obsOffsets[i]);
      if (n !== this.obsDims[i]) throw new Error(`${this.id}: observation of "${agents[i].name}" changed length ${this.obsDims[i]} → ${n}`);
    }
  }

  /** The scenario's metrics (`scenario.metrics` order) in the current state. */
  measure(out: Float64Array): void {
    this.scenario.measure(this.world, out);
  }

  // ---- parallel API ----------------------------------------------------------------------

  reset(options: ResetOptions = {}): ParallelResetResult {
    const state = new Float32Array(this.stateDim);
    this.resetInto(state, 0, options.seed);
    return { obs: this.split(state), infos: this.infos() };
  }

  step(actions: Readonly<PerAgent<MpeAction>>): ParallelStepResult {
    if (!this.started) throw new Error(`${this.id}: step() called before reset(); call reset() first`);
    if (this.ended) throw new Error(`${this.id}: step() called after the episode ended; call reset() first`);
    this.flatten(actions, this.flatScratch);
    const state = new Float32Array(this.stateDim);
    this.stepFlat(this.flatScratch, 0, state, 0, this.rewardScratch, 0);
    const rewards: PerAgent<number> = {};
    const terminations: PerAgent<boolean> = {};
    const truncations: PerAgent<boolean> = {};
    this.possibleAgents.forEach((name, i) => {
      rewards[name] = this.rewardScratch[i];
      terminations[name] = false;
      truncations[name] = this.lastTruncated;
    });
    return { obs: this.split(state), rewards, terminations, truncations, infos: this.infos() };
  }

  state(): Float32Array {
    const out = new Float32Array(this.stateDim);
    this.writeState(out, 0);
    return out;
  }

  render(): MpeRenderFrame {
    return describeWorld(this.world, this.id, this.elapsed, this.maxCycles, this.continuous);
  }

  /** Check a joint action record and write it as a flat joint action. */
  flatten(actions: Readonly<PerAgent<MpeAction>>, out: Float64Array | Float32Array, offset = 0): void {
    if (actions === null || typeof actions !== 'object') {
      throw new Error(`${this.id}: a joint action must be an object with one entry per agent (${this.possibleAgents.join(', ')})`);
    }
    for (const name of Object.keys(actions)) if (!this.index.has(name)) throw this.unknownAgent(name);
    this.possibleAgents.forEach((name, i) => {
      if (!Object.prototype.hasOwnProperty.call(actions, name) || actions[name] === undefined) {
        throw new Error(`${this.id}: joint action is missing agent "${name}" (expected one action for each of ${this.possibleAgents.join(', ')})`);
      }
      const a = actions[name];
      const space = this.spaceList[i];
      const off = offset + this.actionOffsets[i];
      if (space.kind === 'discrete') {
        if (typeof a !== 'number') {
          throw new Error(`${this.id}: action of agent "${name}" must be a number (Discrete(${space.n})), got an array of length ${a.length}`);
        }
        out[off] = a;
      } else {
        const want = space.shape[0];
        if (typeof a === 'number') {
          throw new Error(`${this.id}: action of agent "${name}" must be an array of length ${want} (Box(0, 1, [${want}])), got the number ${a}`);
        }
        if (a.length !== want) {
          throw new Error(`${this.id}: action of agent "${name}" has length ${a.length}, expected ${want}`);
        }
        for (let j = 0; j < want; j++) out[off + j] = a[j];
      }
    });
  }

  private split(state: Float32Array): PerAgent<Float32Array> {
    const obs: PerAgent<Float32Array> = {};
    this.possibleAgents.forEach((name, i) => {
      obs[name] = state.slice(this.obsOffsets[i], this.obsOffsets[i] + this.obsDims[i]);
    });
    return obs;
  }

  private infos(): PerAgent<Info> {
    const infos: PerAgent<Info> = {};
    this.world.agents.forEach((a) => {
      infos[a.name] = this.scenario.agentInfo ? this.scenario.agentInfo(a, this.world) : {};
    });
    return infos;
  }

  private unknownAgent(name: string): Error {
    return new Error(`${this.id}: unknown agent "${name}" (agents: ${this.possibleAgents.join(', ')})`);
  }
}

function offsets(sizes: readonly number[]): number[] {
  const out: number[] = [];
  let s = 0;
  for (const d of sizes) {
    out.push(s);
    s += d;
  }
  return out;
}
