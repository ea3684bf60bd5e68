import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import type { SwarmTraceRecord, RunRecord, SwarmUpdateRecord } from '../../../src/runs/records';
import { TrainingRun } from '../../../src/engine/trainer';

async function train(traceEvery: number): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  const config = resolveExperiment('swarm-annealed', { seed: 4, 'swarm.updates': 3, 'swarm.subtasks': 8, 'swarm.hidden': 8, envsPerActor: 2, actors: 1, backend: 'cpu', 'swarm.traceEvery': traceEvery });
  await new TrainingRun(config, (r) => records.push(r), nodePlatform()).run();
  return records;
}

describe('swarm loop traces', () => {
  it('emits a trace every swarm.traceEvery updates and leaves the training numbers as they were', async () => {
    const traced = await train(2);
    const plain = await train(0);
    const traces = traced.filter((r): r is SwarmTraceRecord => r.type === 'swarmTrace');
    // Updates 1..3 with traceEvery 2: only after update 2.
    expect(traces.map((r) => r.update)).toEqual([2]);
    expect(plain.some((r) => r.type === 'swarmTrace')).toBe(false);
    const t = traces[0].trace;
    expect(t.numSubtasks).toBe(8);
    expect(t.kinds).toEqual(['large', 'small', 'searcher']);
    expect(t.totals.criticalSteps).toBeLessThanOrEqual(t.totals.criticalBudget);
    expect(t.stages[t.stages.length - 1]).toMatchObject({ kind: 'finish', end: t.totals.criticalSteps });
    // The traced episode has its own task seed and random stream: training is not touched.
    const episodes = (rs: RunRecord[]) => rs.filter((r): r is SwarmUpdateRecord => r.type === 'swarm').map((r) => r.episodes);
    expect(episodes(traced)).toEqual(episodes(plain));
  }, 120_000);
});
