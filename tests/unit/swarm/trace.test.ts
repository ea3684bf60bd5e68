import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng';
import {
  OrchestrationSim,
  TaskGraphTask,
  exploreDriver,
  generateWideSearch,
  oracleDriver,
  randomDriver,
  type TaskGraph,
} from '../../../src/envs/swarm';
import { criticalSteps, totalSteps } from '../../../src/swarm/criticalSteps';
import { parlRewardForEpisode } from '../../../src/swarm/parlReward';
import { buildEpisodeTrace, stagesFromRecords } from '../../../src/swarm/trace';

const g = (spec: Array<[number[], number]>): TaskGraph => ({ nodes: spec.map(([deps, work], id) => ({ id, deps, work })) });

describe('buildEpisodeTrace', () => {
  it('matches the stages of a hand-worked diamond episode', () => {
    // 0 (work 2) -> {1 (work 5), 2 (work 3)} -> 3 (work 1), solved by the oracle in `work` steps
    const sim = new OrchestrationSim(new TaskGraphTask(g([[[], 2], [[0], 5], [[0], 3], [[1, 2], 1]]), 1));
    sim.assign([0], oracleDriver);
    sim.assign([1, 2], oracleDriver);
    sim.direct(3, oracleDriver);
    sim.finish();
    const trace = buildEpisodeTrace(sim.log());
    expect(trace.stages.map((s) => [s.action, s.subtaskIds, s.mainSteps, s.criticalStepsSoFar])).toEqual([
      ['assign', [0], 1, 3], // 1 + 2
      ['assign', [1, 2], 1, 9], // 3 + 1 + max(5, 3)
      ['direct', [3], 1, 10], // 9 + 1 (one direct step, no subagents)
      ['finish', [], 1, 11], // 10 + 1
    ]);
    expect(trace.criticalPath).toEqual([
      { stage: 0, action: 'assign', setBy: 'subagent', subtaskId: 0, steps: 3 },
      { stage: 1, action: 'assign', setBy: 'subagent', subtaskId: 1, steps: 6 },
      { stage: 2, action: 'direct', setBy: 'orchestrator', subtaskId: 3, steps: 1 },
      { stage: 3, action: 'finish', setBy: 'orchestrator', subtaskId: null, steps: 1 },
    ]);
    // total = (1 + 2) + (1 + 5 + 3) + 1 + 1 = 14; speedup = 11 / 11 = 1
    // subagents per stage 1, 2, 0, 0: launching mean 3/2, all-stage mean 3/4
    expect(trace.totals).toMatchObject({
      criticalSteps: 11,
      totalSteps: 14,
      serialBaseline: 11,
      lowerBound: 8,
      speedup: 1,
      rPerf: 1,
      nAssigned: 3,
      nCompleted: 3,
      finishRate: 1,
      nDirect: 1,
      nDirectCompleted: 1,
      numStages: 4,
      numParallelStages: 2,
      avgParallelismLaunching: 1.5,
      avgParallelismAllStages: 0.75,
      maxParallelism: 2,
    });
    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace);
  });

  it('agrees with criticalSteps on random episodes', () => {
    for (let seed = 0; seed < 10; seed++) {
      const rng = new Rng(seed);
      const task = generateWideSearch({ numItems: 1 + rng.int(40), difficulty: 'hard' }, seed);
      const sim = new OrchestrationSim(task, { subagentStepCap: 30, contextBudget: 80, maxSubagentsPerStage: 16 });
      const d = seed % 2 ? exploreDriver(rng.fork(1)) : randomDriver(rng.fork(2));
      while (sim.canAct()) {
        const ready = sim.readySubtasks();
        if (rng.uniform() < 0.2 && sim.canDirect()) sim.direct(ready[0], d);
        else {
          const n = Math.min(ready.length, 1 + rng.int(16), Math.floor(sim.contextLeft));
          if (n < 1) break;
          sim.assign(rng.shuffle([...ready]).slice(0, n), d);
        }
      }
      sim.finish();
      const log = sim.log();
      const trace = buildEpisodeTrace(log);
      const stages = stagesFromRecords(trace.stages);
      expect(stages).toEqual(sim.stages());
      trace.stages.forEach((s, i) => {
        expect(s.index).toBe(i);
        expect(s.criticalStepsSoFar).toBe(criticalSteps(stages.slice(0, i + 1)));
        expect(s.subagents.map((r) => r.subtaskId)).toEqual(s.action === 'assign' ? s.subtaskIds : []);
      });
      expect(trace.totals.criticalSteps).toBe(criticalSteps(stages));
      expect(trace.totals.totalSteps).toBe(totalSteps(stages));
      const runs = trace.stages.flatMap((s) => s.subagents);
      expect(trace.totals.nAssigned).toBe(runs.length);
      expect(trace.totals.nCompleted).toBe(runs.filter((r) => r.outcome === 'done').length);
      expect(trace.totals.contextUsed).toBeLessThanOrEqual(80);
      for (const r of runs) expect(r.steps).toBeLessThanOrEqual(30);
      expect(trace.criticalPath.map((c) => c.steps).reduce((a, b) => a + b, 0)).toBe(trace.totals.criticalSteps);
      const reward = parlRewardForEpisode(log, { lambda1: 0.1, lambda2: 0.1, parallelCap: 16 });
      expect(reward.rFinish).toBeCloseTo(trace.totals.finishRate, 12);
      expect(JSON.parse(JSON.stringify(trace))).toEqual(trace);
    }
  });

  it('rejects a log whose running critical steps were tampered with', () => {
    const sim = new OrchestrationSim(generateWideSearch({ numItems: 2 }, 0));
    sim.assign([0, 1], oracleDriver);
    sim.finish();
    const log = sim.log();
    log.stages[1].criticalStepsSoFar += 1;
    expect(() => buildEpisodeTrace(log)).toThrow(/disagree/);
  });
});
