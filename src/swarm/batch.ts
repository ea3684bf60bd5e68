/**
 * From one update's finished episodes to the orchestrator's PPO batch (Kimi K2.5's PARL).
 *
 * Each episode gets the PARL reward (src/swarm/parlReward.ts) at the update's λ1, λ2:
 *   r = λ1·r_parallel + λ2·r_finish + r_perf
 * paid at its last decision (all earlier rewards 0). Advantages per episode by GAE(γ, λ):
 *   δ_t = r_t + γ V(s_{t+1})(1 − d_t) − V(s_t),  A_t = δ_t + γλ(1 − d_t) A_{t+1},  R_t = A_t + V(s_t)
 * The episode's figures, the shaped terms λ1·r_parallel and λ2·r_finish included, go to the
 * 'swarm' record exactly as the reward computed them.
 */
import { gae } from '../algorithms/gae';
import type { PpoBatch } from '../algorithms/ppo';
import type { EpisodeLog } from '../envs/swarm/types';
import type { SwarmEpisodeStats } from '../runs/records';
import { episodeLatencyStats } from './criticalSteps';
import { ORCH_OBS_DIM } from './orchestrator';
import { parlRewardForEpisode } from './parlReward';
import type { SwarmEpisode } from './rollouts';
import { stagesFromRecords } from './trace';

// Undiscounted Monte Carlo advantages (γ = λ = 1, A_t = R − V(s_t)), as for the report's
// outcome-rewarded episodes. A discount per decision would be a hidden cost per orchestrator
// decision, so plans with fewer, larger stages would be paid for their shape alone: a disguised
// r_parallel even in the unshaped preset (measured: with γ = 0.99 the unshaped runs left the
// serial start in 5/5 seeds while r_perf was still flat).
export const GAMMA = 1;
export const GAE_LAMBDA = 1;

/** The reward's weights at one update. */
export interface ParlWeights {
  lambda1: number;
  lambda2: number;
  parallelCap: number;
}

/** The figures of one episode, with the PARL reward at λ1, λ2. */
export function swarmEpisodeStats(log: EpisodeLog, w: ParlWeights): SwarmEpisodeStats {
  const lat = episodeLatencyStats(stagesFromRecords(log.stages), { serialBaseline: log.serialBaseline, lowerBound: log.lowerBound });
  const r = parlRewardForEpisode(log, w);
  return {
    criticalSteps: lat.criticalSteps,
    totalSteps: lat.totalSteps,
    serialBaseline: log.serialBaseline,
    lowerBound: log.lowerBound,
    avgParallelism: lat.avgParallelismLaunching,
    maxParallelism: lat.maxParallelism,
    finishRate: r.rFinish,
    rPerf: r.rPerf,
    rParallel: r.rParallel,
    rFinish: r.rFinish,
    lambda1: w.lambda1,
    lambda2: w.lambda2,
    shapedParallel: r.shapedParallel,
    shapedFinish: r.shapedFinish,
    total: r.total,
  };
}

export interface SwarmBatch {
  /** Every decision of every episode, episode after episode, in the episodes' order. */
  batch: PpoBatch;
  /** Per episode, in the same order. */
  stats: SwarmEpisodeStats[];
  /** Decisions per episode. */
  lengths: number[];
}

/** The zeroed rows of a PPO batch of `B` orchestrator decisions, filled row by row by the swarms' batch builders. */
export function emptyDecisionRows(B: number, obsDim: number) {
  return {
    obs: new Float32Array(B * obsDim),
    actions: new Int32Array(B),
    logProbs: new Float32Array(B),
    values: new Float32Array(B),
    advantages: new Float32Array(B),
    returns: new Float32Array(B),
  };
}

/** The PPO batch of the episodes (null when there are none). */
export function buildSwarmBatch(episodes: readonly SwarmEpisode[], w: ParlWeights): SwarmBatch | null {
  if (episodes.length === 0) return null;
  const B = episodes.reduce((n, e) => n + e.decisions.length, 0);
  const { obs, actions, logProbs, values, advantages, returns } = emptyDecisionRows(B, ORCH_OBS_DIM);
  const stats: SwarmEpisodeStats[] = [];
  const lengths: number[] = [];
  let row = 0;
  for (const { log, decisions } of episodes) {
    const st = swarmEpisodeStats(log, w);
    const T = decisions.length;
    const rew = new Float32Array(T);
    rew[T - 1] = st.total;
    const done = new Uint8Array(T);
    done[T - 1] = 1;
    const v = Float32Array.from(decisions, (d) => d.value);
    const g = gae(rew, v, done, new Float32Array(1), GAMMA, GAE_LAMBDA, 1);
    decisions.forEach((d, t) => {
      obs.set(d.obs, row * ORCH_OBS_DIM);
      actions[row] = d.action;
      logProbs[row] = d.logProb;
      values[row] = d.value;
      advantages[row] = g.advantages[t];
      returns[row] = g.returns[t];
      row += 1;
    });
    stats.push(st);
    lengths.push(T);
  }
  return { batch: { obs, actions, batchSize: B, logProbs, values, advantages, returns }, stats, lengths };
}

/** The update record's swarm metrics: means over the update's episodes. */
export function swarmUpdateMetrics(stats: readonly SwarmEpisodeStats[]): Record<string, number> {
  const mean = (f: (x: SwarmEpisodeStats) => number) => stats.reduce((a, x) => a + f(x), 0) / stats.length;
  return {
    rPerf: mean((x) => x.rPerf),
    finishRate: mean((x) => x.finishRate),
    avgParallelism: mean((x) => x.avgParallelism),
    criticalSteps: mean((x) => x.criticalSteps),
    criticalOverSerial: mean((x) => x.criticalSteps / Math.max(1, x.serialBaseline)),
  };
}
