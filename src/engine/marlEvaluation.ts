/**
 * Evaluation of a multi-agent policy outside training: `episodes` whole episodes on env copies of
 * their own, with greedy actions (argmax Q for QMIX / VDN / IQL, the deterministic actor
 * argmax ℓ for MADDPG), or greedy for some agents only (simple_tag: greedy predators against the
 * prey's sampling policy). Nothing here touches a training stream: the episode starts come from
 * deriveSeed(seed, EVAL_STREAM, k), the same at every call so that points of a curve compare the
 * same starts, and the sampling agents draw from a stream of their own.
 *
 * Returns, per episode, Σ_t Σ_agents r (the env's rewards, PettingZoo's) and, on simple_spread,
 * the same episodes in EPyMARL's definition, from the env's reward parts (epymarlSpreadReward).
 */
import type { MarlActingSpec, MarlTaskSpec } from '../algorithms/marl';
import { deriveSeed, Rng } from '../core/rng';
import { epymarlSpreadReward, makeMpeEnv, SimpleSpreadScenario, spreadRewardParts } from '../envs/mpe';
import { MarlPolicy } from './marlPolicy';

const EVAL_STREAM = 0xe7a1;
const SAMPLING_STREAM = 0xe7a2;

export interface MarlEvaluationOptions {
  task: MarlTaskSpec;
  acting: MarlActingSpec;
  seed: number;
  episodes: number;
  /** Per agent: greedy (true) or acting as in training with ε = 0 (false). Default: all greedy. */
  greedy?: readonly boolean[];
}

export interface MarlEvaluation {
  episodes: number;
  /** Mean over episodes of the team return Σ_t Σ_agents r_t,a (the env's own rewards). */
  teamReturn: number;
  /** Each episode's team return. */
  teamReturns: number[];
  /** Mean return of each side (simple_tag: 0 predators, 1 prey), Σ over that side's agents. */
  sideReturns: number[];
  /** simple_spread: mean Σ_t R_epymarl,t and the shared reward counted once; null elsewhere. */
  epymarlReturn: number | null;
  sharedOnceReturn: number | null;
  /** Mean of the scenario's episode metrics (catches, collisions, occupied landmarks …). */
  metrics: Record<string, number>;
}

/** A scripted team: writes every agent's action for one global state at out[0 … A). */
export type ScriptedTeam = (state: Float32Array, out: Int32Array) => void;

/**
 * `weights`: the acting network's, or a baseline: 'random' (every agent uniformly at random, from
 * the sampling stream), 'still' (every agent always action 0, MPE's no-op), or a scripted team.
 */
export function evaluateMarl(weights: Float32Array[] | 'random' | 'still' | ScriptedTeam, options: MarlEvaluationOptions): MarlEvaluation {
  const { task, acting, seed, episodes } = options;
  if (!Number.isInteger(episodes) || episodes < 1) throw new Error(`evaluateMarl: episodes must be a positive integer, got ${episodes}`);
  const env = makeMpeEnv(task.envId);
  const A = task.agents.length;
  if (env.stateDim !== task.stateDim || env.world.agents.length !== A) throw new Error(`evaluateMarl: ${task.envId} does not match the task`);
  const greedy = options.greedy ?? task.agents.map(() => true);
  if (greedy.length !== A) throw new Error(`evaluateMarl: greedy needs one flag per agent (${A}), got ${greedy.length}`);
  const spread = env.scenario instanceof SimpleSpreadScenario;
  const policy = new MarlPolicy(task, acting);
  if (Array.isArray(weights)) policy.setWeights(weights);
  const rng = new Rng(deriveSeed(seed, SAMPLING_STREAM));
  const specs = env.scenario.metrics;
  const now = new Float64Array(specs.length);
  const metricSums = new Float64Array(specs.length);
  const state = new Float32Array(task.stateDim);
  const rewards = new Float64Array(A);
  const joint = new Int32Array(A);
  const sides = Math.max(...task.sides) + 1;
  const sideSums = new Float64Array(sides);
  const teamReturns: number[] = [];
  let epymarl = 0;
  let sharedOnce = 0;
  for (let k = 0; k < episodes; k++) {
    env.resetInto(state, 0, deriveSeed(seed, EVAL_STREAM, k));
    policy.resetEpisode();
    const episodeMetrics = new Float64Array(specs.length);
    let team = 0;
    while (!env.lastTruncated) {
      if (weights === 'still') joint.fill(0);
      else if (weights === 'random') for (let a = 0; a < A; a++) joint[a] = rng.int(task.actionSizes[a]);
      else if (typeof weights === 'function') weights(state, joint);
      else policy.act(state, 0, 0, rng, greedy, joint, 0);
      env.stepFlat(joint, 0, state, 0, rewards, 0);
      for (let a = 0; a < A; a++) {
        team += rewards[a];
        sideSums[task.sides[a]] += rewards[a];
      }
      if (spread) {
        const r = epymarlSpreadReward(spreadRewardParts(env.world));
        epymarl += r.epymarl;
        sharedOnce += r.sharedOnce;
      }
      env.measure(now);
      specs.forEach((m, i) => (episodeMetrics[i] = m.aggregate === 'sum' ? episodeMetrics[i] + now[i] : now[i]));
    }
    teamReturns.push(team);
    for (let i = 0; i < specs.length; i++) metricSums[i] += episodeMetrics[i];
  }
  const metrics: Record<string, number> = {};
  specs.forEach((m, i) => (metrics[m.name] = metricSums[i] / episodes));
  return {
    episodes,
    teamReturn: teamReturns.reduce((a, b) => a + b, 0) / episodes,
    teamReturns,
    sideReturns: Array.from(sideSums, (v) => v / episodes),
    epymarlReturn: spread ? epymarl / episodes : null,
    sharedOnceReturn: spread ? sharedOnce / episodes : null,
    metrics,
  };
}
