import { describe, expect, it } from 'vitest';
import type { SwarmEpisodeStats } from '../../../src/runs/records';
import { formatSwarmHeadline, swarmHeadline } from '../../../src/swarm/headline';

const ep = (criticalSteps: number, serialBaseline: number, rPerf: number, avgParallelism: number, finishRate: number, totalSteps: number): SwarmEpisodeStats => ({
  criticalSteps, totalSteps, serialBaseline, lowerBound: null, avgParallelism, maxParallelism: avgParallelism, finishRate, rPerf,
  rParallel: 0, rFinish: finishRate, lambda1: 0, lambda2: 0, shapedParallel: 0, shapedFinish: 0, total: rPerf,
});

describe('swarm headline (CLI summary line)', () => {
  it('averages the last update: ratio per episode, then the mean', () => {
    const h = swarmHeadline([ep(50, 200, 0.9, 4, 1, 300), ep(30, 100, 0.7, 2, 0.5, 100)]);
    // ratios 0.25 and 0.3 → 0.275; critical (50+30)/2 = 40; serial 150
    expect(h).toEqual({ criticalSteps: 40, serialBaseline: 150, criticalOverSerial: 0.275, rPerf: 0.8, parallelism: 3, finishRate: 0.75, totalCompute: 200, episodes: 2 });
    expect(formatSwarmHeadline(h as NonNullable<typeof h>)).toBe('critical 40.0 of serial 150.0 (×0.275), r_perf 0.800, parallelism 3.0, finish rate 0.75, total compute 200');
    expect(swarmHeadline([])).toBeNull();
  });
});
