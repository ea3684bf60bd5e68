import { describe, expect, it } from 'vitest';
import { OrchestrationSim, TaskGraphTask, oracleDriver, type EpisodeLog, type TaskGraph } from '../../../src/envs/swarm';
import { buildSwarmBatch, swarmEpisodeStats, swarmUpdateMetrics } from '../../../src/swarm/batch';
import { ORCH_OBS_DIM } from '../../../src/swarm/orchestrator';
import type { SwarmDecision, SwarmEpisode } from '../../../src/swarm/rollouts';

const g = (spec: Array<[number[], number]>): TaskGraph => ({ nodes: spec.map(([deps, work], id) => ({ id, deps, work })) });

/** The diamond of trace.test.ts: 3 subagent runs (all done), 1 direct run, r_perf 1, 11 critical of 11 serial steps. */
function diamondLog(): EpisodeLog {
  const sim = new OrchestrationSim(new TaskGraphTask(g([[[], 2], [[0], 5], [[0], 3], [[1, 2], 1]]), 1));
  sim.assign([0], oracleDriver);
  sim.assign([1, 2], oracleDriver);
  sim.direct(3, oracleDriver);
  sim.finish();
  return sim.log();
}

/** One subtask of work 2 done directly, then finish: no assignment, 2 + 1 critical steps of 2 serial. */
function serialLog(): EpisodeLog {
  const sim = new OrchestrationSim(new TaskGraphTask(g([[[], 2]]), 1));
  sim.direct(0, oracleDriver);
  sim.finish();
  return sim.log();
}

const decision = (k: number, value: number): SwarmDecision => ({ obs: new Float32Array(ORCH_OBS_DIM).fill(k), action: k, logProb: -k / 10, value });

describe('swarm batch', () => {
  const w = { lambda1: 0.5, lambda2: 0.25, parallelCap: 4 };

  it('carries the shaped terms the reward used: λ1·r_parallel and λ2·r_finish', () => {
    const st = swarmEpisodeStats(diamondLog(), w);
    // r_parallel = min(3, 4) / 4 = 0.75, r_finish = 3 / 3 = 1
    expect(st).toMatchObject({ rParallel: 0.75, rFinish: 1, rPerf: 1, shapedParallel: 0.375, shapedFinish: 0.25, lambda1: 0.5, lambda2: 0.25 });
    expect(st.total).toBe(0.375 + 0.25 + 1);
    expect(st).toMatchObject({ criticalSteps: 11, totalSteps: 14, serialBaseline: 11, lowerBound: 8, avgParallelism: 1.5, maxParallelism: 2, finishRate: 1 });
    // Nothing assigned: both shaped terms are 0 whatever the λs.
    expect(swarmEpisodeStats(serialLog(), w)).toMatchObject({ shapedParallel: 0, shapedFinish: 0, total: 1 });
  });

  it('pays the PARL reward at the last decision: A_t = R − V(s_t) with γ = λ = 1', () => {
    const episodes: SwarmEpisode[] = [
      { actorIndex: 0, slot: 0, log: diamondLog(), decisions: [decision(1, 0.25), decision(2, 0.5), decision(3, 1)] },
      { actorIndex: 1, slot: 0, log: serialLog(), decisions: [decision(4, 0.75)] },
    ];
    const built = buildSwarmBatch(episodes, w);
    if (!built) throw new Error('expected a batch');
    const { batch, stats, lengths } = built;
    expect(batch.batchSize).toBe(4);
    expect(lengths).toEqual([3, 1]);
    expect(stats.map((s) => s.total)).toEqual([1.625, 1]);
    expect(Array.from(batch.actions)).toEqual([1, 2, 3, 4]);
    expect(Array.from(batch.logProbs)).toEqual([-0.1, -0.2, -0.3, -0.4].map(Math.fround));
    expect(Array.from(batch.values ?? [])).toEqual([0.25, 0.5, 1, 0.75]);
    // Every row of obs is its decision's observation, in order.
    for (let r = 0; r < 4; r++) expect(batch.obs.subarray(r * ORCH_OBS_DIM, (r + 1) * ORCH_OBS_DIM).every((x) => x === r + 1)).toBe(true);
    // Undiscounted Monte Carlo: R_t = the episode's total at every step, A_t = R − V_t.
    expect(Array.from(batch.returns ?? [])).toEqual([1.625, 1.625, 1.625, 1]);
    expect(Array.from(batch.advantages ?? [])).toEqual([1.375, 1.125, 0.625, 0.25]);
  });

  it('has no batch without episodes, and the update metrics are the episodes\' means', () => {
    expect(buildSwarmBatch([], w)).toBeNull();
    const m = swarmUpdateMetrics([swarmEpisodeStats(diamondLog(), w), swarmEpisodeStats(serialLog(), w)]);
    // finish rates 1 and 0; critical / serial = 11/11 and 3/2; parallelism 1.5 and 0
    expect(m).toEqual({ rPerf: 1, finishRate: 0.5, avgParallelism: 0.75, criticalSteps: 7, criticalOverSerial: 1.25 });
  });
});
