import { describe, expect, it } from 'vitest';
import { swarmCurve } from '../../../src/cli/benchmarks/ui';

const episode = (rPerf: number, criticalSteps: number, serialBaseline: number, maxParallelism: number, finishRate: number) => ({ rPerf, criticalSteps, serialBaseline, maxParallelism, finishRate });

describe('ui --mode time-to-target: a swarm run file as a curve', () => {
  it('one point per swarm record: medians over its episodes, the most subagents at once; other records skipped', () => {
    const file = {
      format: 'parl-run',
      version: 1,
      run: { records: [
        { type: 'backend', name: 'wasm' },
        { type: 'swarm', update: 1, trainSteps: 10, episodes: [episode(0.2, 900, 1000, 3, 0.5), episode(0.6, 300, 1000, 40, 1), episode(0.4, 500, 1000, 7, 0.75)] },
        { type: 'update', update: 1 },
        { type: 'swarm', update: 2, trainSteps: 20, episodes: [episode(0.95, 200, 1000, 90, 1), episode(0.91, 400, 1000, 100, 0.9)] },
        { type: 'swarm', update: 3, trainSteps: 30, episodes: [] },
      ] },
    };
    const curve = swarmCurve(file);
    expect(curve).toHaveLength(2);
    // Update 1: r_perf {0.2, 0.4, 0.6} → 0.4; critical ÷ serial {0.9, 0.5, 0.3} → 0.5; finish {0.5, 0.75, 1} → 0.75.
    expect(curve[0]).toEqual({ update: 1, episodes: 3, rPerf: 0.4, criticalOverSerial: 0.5, maxParallelism: 40, finishRate: 0.75 });
    // Update 2: two episodes, medians are the means of the pair.
    expect(curve[1].rPerf).toBeCloseTo(0.93, 12);
    expect(curve[1].criticalOverSerial).toBeCloseTo(0.3, 12);
    expect(curve[1].maxParallelism).toBe(100);
  });

  it('a file without records gives an empty curve', () => {
    expect(swarmCurve({})).toEqual([]);
    expect(swarmCurve({ run: {} })).toEqual([]);
    expect(swarmCurve(null)).toEqual([]);
  });
});
