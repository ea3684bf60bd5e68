import { describe, expect, it } from 'vitest';
import { criticalSteps, episodeLatencyStats, stageCriticalSubSteps, totalSteps } from '../../../src/swarm/criticalSteps';
import type { Stage } from '../../../src/swarm/types';

describe('criticalSteps', () => {
  it('is 0 for no stages', () => {
    expect(criticalSteps([])).toBe(0);
    expect(totalSteps([])).toBe(0);
  });

  it('counts a stage with no subagents as its main steps (max over empty = 0)', () => {
    // 1 + max([]) = 1 + 0 = 1
    expect(criticalSteps([{ mainSteps: 1, subagentSteps: [] }])).toBe(1);
  });

  it('adds only the slowest subagent of a stage', () => {
    // uneven subagents [3, 7, 2]: 1 + max(3, 7, 2) = 1 + 7 = 8
    const s: Stage = { mainSteps: 1, subagentSteps: [3, 7, 2] };
    expect(stageCriticalSubSteps(s)).toBe(7);
    expect(criticalSteps([s])).toBe(8);
    // total: 1 + 3 + 7 + 2 = 13
    expect(totalSteps([s])).toBe(13);
  });

  it('sums direct-only stages like a serial run', () => {
    // (5 + 0) + (3 + 0) + (1 + 0) = 9; nothing ran in parallel, so total = critical
    const stages: Stage[] = [
      { mainSteps: 5, subagentSteps: [] },
      { mainSteps: 3, subagentSteps: [] },
      { mainSteps: 1, subagentSteps: [] },
    ];
    expect(criticalSteps(stages)).toBe(9);
    expect(totalSteps(stages)).toBe(9);
  });

  it('sums over mixed stages', () => {
    // (1 + 7) + (4 + 0) + (1 + max(5, 5)) + (1 + 0) = 8 + 4 + 6 + 1 = 19
    // total: (1+3+7+2) + 4 + (1+5+5) + 1 = 13 + 4 + 11 + 1 = 29
    const stages: Stage[] = [
      { mainSteps: 1, subagentSteps: [3, 7, 2] },
      { mainSteps: 4, subagentSteps: [] },
      { mainSteps: 1, subagentSteps: [5, 5] },
      { mainSteps: 1, subagentSteps: [] },
    ];
    expect(criticalSteps(stages)).toBe(19);
    expect(totalSteps(stages)).toBe(29);
  });

  it('rejects negative or non-finite steps, naming the stage', () => {
    expect(() => criticalSteps([{ mainSteps: -1, subagentSteps: [] }])).toThrow(/stage 0/);
    expect(() => criticalSteps([{ mainSteps: 1, subagentSteps: [] }, { mainSteps: 1, subagentSteps: [2, NaN] }])).toThrow(/stage 1/);
    expect(() => totalSteps([{ mainSteps: Infinity, subagentSteps: [] }])).toThrow(/non-negative/);
  });
});

describe('episodeLatencyStats', () => {
  it('reports speedup and both parallelism averages', () => {
    // critical = (1 + 7) + (4 + 0) + (1 + 5) + (1 + 0) = 8 + 4 + 6 + 1 = 19
    // total    = 13 + 4 + 6 + 1 = 24
    // subagents per stage: 3, 0, 1, 0 -> launching stages 2, mean over them (3 + 1) / 2 = 2,
    // mean over all 4 stages 4 / 4 = 1, max 3. speedup = 38 / 19 = 2.
    const stages: Stage[] = [
      { mainSteps: 1, subagentSteps: [3, 7, 2] },
      { mainSteps: 4, subagentSteps: [] },
      { mainSteps: 1, subagentSteps: [5] },
      { mainSteps: 1, subagentSteps: [] },
    ];
    const s = episodeLatencyStats(stages, { serialBaseline: 38, lowerBound: 9 });
    expect(s).toEqual({
      criticalSteps: 19,
      totalSteps: 24,
      serialBaseline: 38,
      lowerBound: 9,
      speedup: 2,
      numStages: 4,
      numParallelStages: 2,
      avgParallelismLaunching: 2,
      avgParallelismAllStages: 1,
      maxParallelism: 3,
    });
  });

  it('handles episodes with no subagents and no stages', () => {
    const direct = episodeLatencyStats([{ mainSteps: 6, subagentSteps: [] }], { serialBaseline: 6 });
    expect(direct.speedup).toBe(1);
    expect(direct.lowerBound).toBeNull();
    expect(direct.avgParallelismLaunching).toBe(0);
    expect(direct.avgParallelismAllStages).toBe(0);
    expect(direct.maxParallelism).toBe(0);
    const empty = episodeLatencyStats([], { serialBaseline: 10 });
    expect(empty.criticalSteps).toBe(0);
    expect(empty.speedup).toBe(0);
  });
});
