import { describe, expect, it } from 'vitest';
import { parlReward, parlRewardForOutcome } from '../../../src/swarm/parlReward';

const w = { lambda1: 0.5, lambda2: 0.3, parallelCap: 10 };

describe('parlReward', () => {
  it('works out a hand case', () => {
    // r_parallel = min(4, 10)/10 = 0.4; r_finish = 6/8 = 0.75; total = 0.2 + 0.225 + 0.6 = 1.025
    const r = parlReward({ rPerf: 0.6, nSubagents: 4, nAssigned: 8, nCompleted: 6, ...w });
    expect(r.rParallel).toBeCloseTo(0.4, 12);
    expect(r.rFinish).toBeCloseTo(0.75, 12);
    expect(r.total).toBeCloseTo(1.025, 12);
    expect(r.rFinishDefined).toBe(true);
  });

  it('bounds r_parallel at the cap', () => {
    expect(parlReward({ rPerf: 0, nSubagents: 10, nAssigned: 10, nCompleted: 10, ...w }).rParallel).toBe(1);
    expect(parlReward({ rPerf: 0, nSubagents: 100, nAssigned: 100, nCompleted: 100, ...w }).rParallel).toBe(1);
  });

  it('keeps r_finish neutral when nothing is assigned: no bonus for assigning as such', () => {
    const serial = parlReward({ rPerf: 0.7, nSubagents: 0, nAssigned: 0, nCompleted: 0, ...w, lambda1: 0 });
    const allDone = parlReward({ rPerf: 0.7, nSubagents: 5, nAssigned: 9, nCompleted: 9, ...w, lambda1: 0 });
    const someFail = parlReward({ rPerf: 0.7, nSubagents: 5, nAssigned: 9, nCompleted: 6, ...w, lambda1: 0 });
    expect(serial.rFinishDefined).toBe(false);
    expect(serial.rFinish).toBe(1);
    // with λ1 = 0 the serial episode and one whose assignments all complete get the same reward
    expect(serial.total).toBe(allDone.total);
    // failures lower it by λ2 · failed/assigned = 0.3 · 3/9 = 0.1
    expect(serial.total - someFail.total).toBeCloseTo(0.1, 12);
  });

  it('reduces to r_perf when both λ are 0', () => {
    expect(parlReward({ rPerf: 0.42, nSubagents: 3, nAssigned: 7, nCompleted: 2, lambda1: 0, lambda2: 0, parallelCap: 4 }).total).toBe(0.42);
  });

  it('rejects impossible counts', () => {
    const base = { rPerf: 0, ...w };
    expect(() => parlReward({ ...base, nSubagents: 1, nAssigned: 2, nCompleted: 3 })).toThrow(/nCompleted/);
    expect(() => parlReward({ ...base, nSubagents: 3, nAssigned: 2, nCompleted: 0 })).toThrow(/subagents/);
    expect(() => parlReward({ ...base, nSubagents: 0, nAssigned: 0, nCompleted: 0, parallelCap: 0 })).toThrow(/parallelCap/);
    expect(() => parlReward({ ...base, rPerf: NaN, nSubagents: 0, nAssigned: 0, nCompleted: 0 })).toThrow(/rPerf/);
  });

  it('reads an outcome', () => {
    // 0.5 · 2/10 + 0.3 · 1/2 + 1 = 0.1 + 0.15 + 1
    expect(parlRewardForOutcome({ rPerf: 1, nSubagents: 2, nAssigned: 2, nCompleted: 1 }, w).total).toBeCloseTo(1.25, 12);
  });
});
