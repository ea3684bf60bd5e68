import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { TrainingRun } from '../../../src/engine/trainer';
import type { RunRecord, SwarmUpdateRecord, TraceRecord } from '../../../src/runs/records';
import { NUM_ORCH_ACTIONS } from '../../../src/swarm/orchestrator';

describe('the swarm while it trains', () => {
  it('takes a new λ1 and schedule at the next update, and its traces carry the orchestrator’s π at each stage', async () => {
    const config = resolveExperiment('swarm-annealed', { seed: 5, 'swarm.updates': 4, 'swarm.traceEvery': 2, 'swarm.items': 8, envsPerActor: 3, actors: 1, backend: 'cpu' });
    const records: RunRecord[] = [];
    const run = new TrainingRun(config, (r) => records.push(r), nodePlatform(), {
      changes: [
        { update: 3, key: 'swarm.lambda1', value: 1.5 },
        { update: 3, key: 'swarm.lambda1Schedule', value: 'constant' },
      ],
    });
    await run.run();
    const lambda1 = records.filter((r): r is SwarmUpdateRecord => r.type === 'swarm').map((r) => r.episodes[0].lambda1);
    // Linear from 0.5 to 0 over 30 updates: λ1(t) = 0.5 · (1 − t/30) at t = 0, 1; then constant 1.5.
    expect(lambda1[0]).toBeCloseTo(0.5, 9);
    expect(lambda1[1]).toBeCloseTo(0.5 * (1 - 1 / 30), 9);
    expect(lambda1.slice(2)).toEqual([1.5, 1.5]);
    expect(records.filter((r) => r.type === 'change').map((r) => r.type === 'change' && [r.update, r.key, r.to])).toEqual([
      [3, 'swarm.lambda1', 1.5],
      [3, 'swarm.lambda1Schedule', 'constant'],
    ]);

    const traces = records.filter((r): r is TraceRecord => r.type === 'trace');
    expect(traces.length).toBeGreaterThan(0);
    for (const t of traces) {
      expect(t.actionNames).toHaveLength(NUM_ORCH_ACTIONS);
      expect(t.stageProbs).toHaveLength(t.trace.stages.length);
      t.stageProbs!.forEach((p, i) => {
        expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
        // The action it took had probability above zero (masked actions have none).
        expect(p[t.stageActions![i]]).toBeGreaterThan(0);
      });
      // The last stage of a finished episode is its finish.
      if (t.trace.finished) expect(t.actionNames![t.stageActions![t.stageActions!.length - 1]]).toBe('finish');
    }
  }, 120_000);
});
