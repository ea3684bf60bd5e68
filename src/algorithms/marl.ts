/**
 * What the multi-agent update rules (MADDPG, QMIX / VDN / IQL) share: the task they learn, as
 * plain data; the batch of whole episodes their `learn` takes; the agent inputs of the recurrent
 * Q-network (built the same way on the learner and in the actors); the Gumbel noise; and the
 * module shape their descriptors load.
 *
 * Layouts (B episodes, T steps, A agents, S = Σ obsDims, the global state = all observations):
 *   state   [B, T + 1, S]   state[b, t] = (o_1 … o_A) at step t; t = T is the episode's last observation
 *   actions [B, T, A]       discrete action indices
 *   rewards [B, T, A]       each agent's own reward
 * MPE episodes never terminate (they are truncated after T steps), so every step bootstraps.
 */
import type { Algorithm } from '../core/algorithm';
import { log } from '../core/portableMath';
import type { Rng } from '../core/rng';

/** A multi-agent task as the learner sees it. */
export interface MarlTaskSpec {
  envId: string;
  agents: readonly string[];
  obsDims: readonly number[];
  obsOffsets: readonly number[];
  stateDim: number;
  /** Discrete actions of each agent. */
  actionSizes: readonly number[];
  /** Side (team) of each agent: 0 for everyone in cooperative tasks; simple_tag: 0 adversaries, 1 prey. */
  sides: readonly number[];
  /** Steps per episode (MPE's max_cycles). */
  episodeLength: number;
}

/** B whole episodes (see the layouts above). */
export interface MarlEpisodeBatch {
  numEpisodes: number;
  T: number;
  state: Float32Array;
  actions: Int32Array;
  rewards: Float32Array;
}

/** How the actors act, as plain data the actor's typed-array forward pass reads. */
export type MarlActingSpec =
  /** One MLP per agent on its own observation: obs → hidden (relu) … → logits; sample from softmax. */
  | { kind: 'mlpPerAgent'; hidden: number[] }
  /** One shared recurrent Q-network on `agentInputs` rows; ε-greedy over the available actions. */
  | { kind: 'rnnShared'; hidden: number }
  /**
   * One MLP shared by every agent on `sharedActorInput` rows (its own observation, and its one-hot
   * id when `agentId`): x → hidden (relu) … → logits over the largest action set; sample from the
   * softmax over the agent's own actions.
   */
  | { kind: 'mlpShared'; hidden: number[]; agentId: boolean };

/**
 * A multi-agent update rule: an Algorithm whose model is what the actors act with (MADDPG's
 * actors, QMIX's agent network), and which says how it acts and explores.
 */
export interface MarlAlgorithm<Batch> extends Algorithm<Batch> {
  readonly task: MarlTaskSpec;
  readonly acting: MarlActingSpec;
  /** Whole episodes the learner's replay keeps. */
  readonly replayEpisodes: number;
  /** Exploration the actors use after `envSteps` steps (ε for ε-greedy; 0 for sampling policies). */
  explorationAt(envSteps: number): number;
  /** The batch one gradient step takes, drawn from the stored episodes with the caller's Rng. */
  sampleBatch(replay: EpisodeSource, rng: Rng): Batch;
  /** Gradient steps due after a collection round (0 before learning starts). */
  gradientStepsDue(totalEnvSteps: number, newEnvSteps: number, storedEpisodes: number): number;
  /** Called once per collection round with the episode count so far (target-network schedules). */
  afterCollect(totalEpisodes: number): void;
}

/** Where batches come from (the learner's episode replay, src/engine/marlReplay.ts). */
export interface EpisodeSource {
  readonly size: number;
  readonly T: number;
  /** `count` whole episodes, uniformly with replacement. */
  sampleEpisodes(count: number, rng: Rng): MarlEpisodeBatch;
  /** `count` single steps (episode, t) uniformly, as 1-step episodes (T = 1, state holds s and s'). */
  sampleSteps(count: number, rng: Rng): MarlEpisodeBatch;
  /** The `count` episodes stored last, oldest first (on-policy rules learn from these only). */
  latestEpisodes(count: number): MarlEpisodeBatch;
}

export interface MarlAlgorithmModule<Params> {
  /** What kind of update rule `load` brings: a multi-agent one, built from the MPE task it learns. */
  readonly kind: 'marl';
  create(task: MarlTaskSpec, params: Params, seed: number): MarlAlgorithm<unknown>;
}

/** Width of one agent input row of the shared recurrent network: max obs + max actions + A. */
export function agentInputDim(task: MarlTaskSpec): number {
  return Math.max(...task.obsDims) + Math.max(...task.actionSizes) + task.agents.length;
}

/**
 * pymarl's agent inputs (obs_last_action, obs_agent_id): for agent a at step t,
 *     x = [o_a(t) zero-padded to max obs, onehot(u_a(t − 1)) (zeros at t = 0), onehot(a)].
 * Writes rows for `steps` steps of one episode: out[(t · A + a) · D ..]. `actions` holds
 * [steps, A] (the action at step t − 1 feeds row t), `state` [steps, S].
 */
export function writeAgentInputs(
  task: MarlTaskSpec,
  state: Float32Array,
  stateOffset: number,
  prevActions: Int32Array | null,
  prevOffset: number,
  out: Float32Array,
  outOffset: number,
): void {
  const A = task.agents.length;
  const D = agentInputDim(task);
  const maxObs = Math.max(...task.obsDims);
  const maxAct = Math.max(...task.actionSizes);
  for (let a = 0; a < A; a++) {
    const row = outOffset + a * D;
    out.fill(0, row, row + D);
    out.set(state.subarray(stateOffset + task.obsOffsets[a], stateOffset + task.obsOffsets[a] + task.obsDims[a]), row);
    if (prevActions) out[row + maxObs + prevActions[prevOffset + a]] = 1;
    out[row + maxObs + maxAct + a] = 1;
  }
}

/** Agent inputs of every step 0..T of B episodes: [B, T + 1, A, D]. */
export function episodeAgentInputs(task: MarlTaskSpec, batch: MarlEpisodeBatch): Float32Array {
  const { numEpisodes: B, T } = batch;
  const A = task.agents.length;
  const S = task.stateDim;
  const D = agentInputDim(task);
  const out = new Float32Array(B * (T + 1) * A * D);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t <= T; t++) {
      const prev = t === 0 ? null : batch.actions;
      writeAgentInputs(task, batch.state, (b * (T + 1) + t) * S, prev, (b * T + t - 1) * A, out, ((b * (T + 1) + t) * A) * D);
    }
  }
  return out;
}

/** Width of one row of a shared actor's input: max obs (+ A for the one-hot agent id). */
export function sharedActorInputDim(task: MarlTaskSpec, agentId: boolean): number {
  return Math.max(...task.obsDims) + (agentId ? task.agents.length : 0);
}

/**
 * A shared actor's input row of agent a: x = [o_a zero-padded to max obs, onehot(a) when agentId],
 * from the global state at state[stateOffset ..], written at out[outOffset ..].
 */
export function writeSharedActorInput(task: MarlTaskSpec, agentId: boolean, state: Float32Array, stateOffset: number, a: number, out: Float32Array, outOffset: number): void {
  const maxObs = Math.max(...task.obsDims);
  out.fill(0, outOffset, outOffset + sharedActorInputDim(task, agentId));
  const o = stateOffset + task.obsOffsets[a];
  out.set(state.subarray(o, o + task.obsDims[a]), outOffset);
  if (agentId) out[outOffset + maxObs + a] = 1;
}

/** Standard Gumbel draws g = −log(−log u), u ~ U(0, 1), from a seeded Rng. */
export function gumbelNoise(n: number, rng: Rng): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const u = Math.min(Math.max(rng.uniform(), 1e-10), 1 - 1e-10);
    out[i] = -log(-log(u)); // the portable log: the same bits in every engine
  }
  return out;
}

/** Throw unless the batch's arrays have the layout of the header comment. */
export function checkEpisodeBatch(task: MarlTaskSpec, b: MarlEpisodeBatch, who: string): void {
  const A = task.agents.length;
  const { numEpisodes: B, T } = b;
  const want: [string, number, number][] = [
    ['state', b.state.length, B * (T + 1) * task.stateDim],
    ['actions', b.actions.length, B * T * A],
    ['rewards', b.rewards.length, B * T * A],
  ];
  for (const [name, got, expected] of want) {
    if (got !== expected) throw new Error(`${who}: batch.${name} must hold ${expected} values (B ${B}, T ${T}, A ${A}), got ${got}`);
  }
  for (let i = 0; i < b.actions.length; i++) {
    const a = i % A;
    const u = b.actions[i];
    if (!Number.isInteger(u) || u < 0 || u >= task.actionSizes[a]) {
      throw new Error(`${who}: action of agent "${task.agents[a]}" must be an integer in [0, ${task.actionSizes[a] - 1}], got ${u}`);
    }
  }
}
