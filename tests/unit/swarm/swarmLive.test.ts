import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { TrainingRun } from '../../../src/engine/trainer';
import type { RunRecord, SwarmUpdateRecord } from '../../../src/runs/records';

describe('the swarm while it trains', () => {
  it('takes a new λ1 and schedule at the next update, and records the change', async () => {
    const config = resolveExperiment('swarm-annealed', { seed: 5, 'swarm.updates': 4, 'swarm.subtasks': 8, 'swarm.hidden': 8, 'swarm.traceEvery': 0, envsPerActor: 2, actors: 1, backend: 'cpu' });
    const records: RunRecord[] = [];
    const run = new TrainingRun(config, (r) => records.push(r), nodePlatform(), {
      changes: [
        { update: 3, key: 'swarm.lambda1', value: 1.5 },
        { update: 3, key: 'swarm.lambda1Schedule', value: 'constant' },
      ],
    });
    await run.run();
    const lambda1 = records.filter((r): r is SwarmUpdateRecord => r.type === 'swarm').map((r) => r.episodes[0].lambda1);
    // Linear from 0.3 to 0 over the anneal horizon H: λ1(t) = 0.3 · (1 − t/H) at t = 0, 1; then constant 1.5.
    const H = config.settings['swarm.annealUpdates'];
    expect(lambda1[0]).toBeCloseTo(0.3, 9);
    expect(lambda1[1]).toBeCloseTo(0.3 * (1 - 1 / H), 9);
    expect(lambda1.slice(2)).toEqual([1.5, 1.5]);
    expect(records.filter((r) => r.type === 'change').map((r) => r.type === 'change' && [r.update, r.key, r.to])).toEqual([
      [3, 'swarm.lambda1', 1.5],
      [3, 'swarm.lambda1Schedule', 'constant'],
    ]);
  }, 120_000);
});
