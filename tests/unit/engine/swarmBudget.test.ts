import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { budgetValue } from '../../../src/config/budget';
import { resolveExperiment } from '../../../src/config/config';
import { TrainingRun } from '../../../src/engine/trainer';

describe('a swarm run ends at its own budget, the orchestrator updates its progress bar counts', () => {
  it('an env-step budget left over from another algorithm (100 steps) does not cut it short', async () => {
    const config = resolveExperiment('swarm-annealed', { seed: 2, 'swarm.updates': 3, 'swarm.subtasks': 16, 'swarm.hidden': 8, 'swarm.traceEvery': 0, envsPerActor: 2, actors: 1, backend: 'cpu', 'run.envSteps': 100 });
    expect(budgetValue(config.settings)).toBe(3);
    const summary = await new TrainingRun(config, () => undefined, nodePlatform()).run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.envSteps).toBeGreaterThan(100);
    expect(summary.updates).toBe(3);
  }, 60_000);
});
