import { describe, expect, it } from 'vitest';
import { parlReward, parlRewardForEpisode } from '../../../src/swarm/parlReward';
import { scheduleValue } from '../../../src/swarm/schedules';

describe('parlReward', () => {
  it('works out a hand case', () => {
    // r_parallel = min(5, 10) / 10 = 0.5; r_finish = 4 / 5 = 0.8
    // total = 0.5 * 0.5 + 0.3 * 0.8 + 0.6 = 0.25 + 0.24 + 0.6 = 1.09
    const r = parlReward({ rPerf: 0.6, nAssigned: 5, nCompleted: 4, lambda1: 0.5, lambda2: 0.3, parallelCap: 10 });
    expect(r.rParallel).toBeCloseTo(0.5, 12);
    expect(r.rFinish).toBeCloseTo(0.8, 12);
    expect(r.shapedParallel).toBeCloseTo(0.25, 12);
    expect(r.shapedFinish).toBeCloseTo(0.24, 12);
    expect(r.total).toBeCloseTo(1.09, 12);
    expect(r.rPerf).toBe(0.6);
  });

  it('bounds r_parallel at the cap', () => {
    // min(20, 10) / 10 = 1, and 1000 assignments pay no more
    expect(parlReward({ rPerf: 0, nAssigned: 20, nCompleted: 0, lambda1: 1, lambda2: 1, parallelCap: 10 }).rParallel).toBe(1);
    expect(parlReward({ rPerf: 0, nAssigned: 1000, nCompleted: 0, lambda1: 1, lambda2: 1, parallelCap: 10 }).total).toBe(1);
  });

  it('gives r_finish = 0 when nothing was assigned (serial episode earns only r_perf)', () => {
    const r = parlReward({ rPerf: 0.7, nAssigned: 0, nCompleted: 0, lambda1: 0.5, lambda2: 0.5, parallelCap: 10 });
    expect(r.rParallel).toBe(0);
    expect(r.rFinish).toBe(0);
    expect(r.total).toBe(0.7);
  });

  it('reduces to r_perf once the annealed lambdas reach 0 (t = H), and is fully shaped at t = 0', () => {
    const H = 100;
    const at = (t: number) =>
      parlReward({
        rPerf: 0.4,
        nAssigned: 8,
        nCompleted: 6,
        lambda1: scheduleValue({ kind: 'linear', start: 0.5, horizon: H }, t),
        lambda2: scheduleValue({ kind: 'cosine', start: 0.2, horizon: H }, t),
        parallelCap: 16,
      });
    // t = 0: 0.5 * 8/16 + 0.2 * 6/8 + 0.4 = 0.25 + 0.15 + 0.4 = 0.8
    expect(at(0).total).toBeCloseTo(0.8, 12);
    // t = H/2: λ1 = 0.25, λ2 = 0.1 -> 0.125 + 0.075 + 0.4 = 0.6
    expect(at(H / 2).total).toBeCloseTo(0.6, 12);
    expect(at(H).total).toBe(0.4);
    expect(at(2 * H).total).toBe(0.4);
  });

  it('rejects impossible counts', () => {
    const base = { rPerf: 0, lambda1: 1, lambda2: 1, parallelCap: 4 };
    expect(() => parlReward({ ...base, nAssigned: 2, nCompleted: 3 })).toThrow(/nCompleted/);
    expect(() => parlReward({ ...base, nAssigned: -1, nCompleted: 0 })).toThrow(/nAssigned/);
    expect(() => parlReward({ ...base, nAssigned: 1, nCompleted: 0, parallelCap: 0 })).toThrow(/parallelCap/);
    expect(() => parlReward({ ...base, nAssigned: 1, nCompleted: 0, rPerf: NaN })).toThrow(/rPerf/);
  });

  it('reads an episode log', () => {
    const r = parlRewardForEpisode({ rPerf: 1, nAssigned: 4, nCompleted: 2 }, { lambda1: 0.1, lambda2: 0.2, parallelCap: 8 });
    // 0.1 * 0.5 + 0.2 * 0.5 + 1 = 1.15
    expect(r.total).toBeCloseTo(1.15, 12);
  });
});
