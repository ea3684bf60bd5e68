import { describe, expect, it } from 'vitest';
import { finalFigures, phenomena } from '../../../bench/swarm';
import type { SwarmEpisodeStats, SwarmUpdateRecord } from '../../../src/runs/records';

function episode(over: Partial<SwarmEpisodeStats>): SwarmEpisodeStats {
  return {
    criticalSteps: 100, totalSteps: 100, serialBaseline: 100, lowerBound: null, avgParallelism: 0, maxParallelism: 0,
    finishRate: 0, rPerf: 0.8, rParallel: 0, rFinish: 0, lambda1: 0, lambda2: 0, shapedParallel: 0, shapedFinish: 0, total: 0.8, ...over,
  };
}

function update(u: number, eps: SwarmEpisodeStats[]): SwarmUpdateRecord {
  return { type: 'swarm', update: u, trainSteps: u, episodes: eps };
}

const serialEp = episode({});
const parallelEp = episode({ criticalSteps: 25, avgParallelism: 20, maxParallelism: 32, finishRate: 0.9, rPerf: 0.97 });

describe('swarm-story figures', () => {
  it('a run that never launches subagents is a serial collapse and never left serial', () => {
    const recs = Array.from({ length: 20 }, (_, i) => update(i + 1, [serialEp, serialEp, serialEp, parallelEp]));
    const f = finalFigures(recs);
    expect(f.leftSerialAt).toBeNull();
    expect(f.serialFraction).toBeCloseTo(0.75, 12);
    expect(phenomena(f)).toEqual(['serial collapse']);
  });
  it('records the first update where half the episodes launch subagents, and r_perf at half time', () => {
    const recs = Array.from({ length: 20 }, (_, i) => update(i + 1, i + 1 < 7 ? [serialEp, serialEp] : [serialEp, parallelEp].slice(i + 1 < 11 ? 0 : 1)));
    const f = finalFigures(recs);
    expect(f.leftSerialAt).toBe(7);
    // Updates 6..10 (indices 5..9): one all-serial update, then four half-parallel ones.
    expect(f.rPerfMid).toBeCloseTo((0.8 * 2 + 4 * (0.8 + 0.97)) / 10, 12);
    expect(f.criticalOverSerial).toBeCloseTo(0.25, 12);
    expect(phenomena(f)).toEqual(['target met']);
  });
  it('flags spurious parallelism when subagents mostly do not finish', () => {
    const spur = episode({ criticalSteps: 10, avgParallelism: 64, maxParallelism: 64, finishRate: 0.47, rPerf: 0.96 });
    const f = finalFigures([update(1, [spur, spur])]);
    expect(phenomena(f)).toEqual(['spurious parallelism', 'target met']);
  });
});
