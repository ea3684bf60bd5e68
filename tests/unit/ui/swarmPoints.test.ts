import { describe, expect, it } from 'vitest';
import type { SwarmEpisodeStats, SwarmUpdateRecord } from '../../../src/runs/records';
import { applyRecords, usePlayground } from '../../../src/ui/store';

// The shaped terms travel in the records (λ1·r_parallel, λ2·r_finish), as the loop computed them.
function ep(over: Partial<SwarmEpisodeStats>): SwarmEpisodeStats {
  const e = {
    criticalSteps: 100, totalSteps: 120, serialBaseline: 90, lowerBound: null, avgParallelism: 0, maxParallelism: 0, finishRate: 0,
    rPerf: 0.8, rParallel: 0, rFinish: 0, lambda1: 0.5, lambda2: 0.5, total: 0.8, ...over,
  };
  return { shapedParallel: e.lambda1 * e.rParallel, shapedFinish: e.lambda2 * e.rFinish, ...e };
}

describe('swarm chart points', () => {
  it('carry the mean of their update (the trend line), per update, next to each episode', () => {
    const u1: SwarmUpdateRecord = {
      type: 'swarm', update: 1, trainSteps: 1,
      episodes: [ep({ criticalSteps: 100, rPerf: 0.8 }), ep({ criticalSteps: 40, rPerf: 1, avgParallelism: 16, rParallel: 0.5, rFinish: 1, finishRate: 1 })],
    };
    const u2: SwarmUpdateRecord = { type: 'swarm', update: 2, trainSteps: 2, episodes: [ep({ criticalSteps: 30, lambda1: 0.25, rParallel: 1 })] };
    const s0 = usePlayground.getState();
    const s1 = { ...s0, ...applyRecords(s0, [u1]) };
    const s2 = { ...s1, ...applyRecords(s1, [u2]) };
    const pts = s2.swarmPoints;
    expect(pts.map((p) => p.episode)).toEqual([1, 2, 3]);
    expect(pts[0].updateMean).toBe(pts[1].updateMean);
    expect(pts[0].updateMean.criticalSteps).toBe(70);
    expect(pts[0].updateMean.rPerf).toBeCloseTo(0.9, 12);
    expect(pts[0].updateMean.avgParallelism).toBe(8);
    // λ1·r_parallel and λ2·r_finish as drawn: (0 + 0.5·0.5) / 2 and (0 + 0.5·1) / 2.
    expect(pts[0].updateMean.shapedParallel).toBeCloseTo(0.125, 12);
    expect(pts[0].updateMean.shapedFinish).toBeCloseTo(0.25, 12);
    expect(pts[2].updateMean.criticalSteps).toBe(30);
    expect(pts[2].updateMean.shapedParallel).toBeCloseTo(0.25, 12);
  });
});
