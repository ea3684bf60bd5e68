import { describe, expect, it } from 'vitest';
import { OrchestrationSim, generateWideSearch, oracleDriver, drive } from '../../../../src/envs/swarm';

describe('OrchestrationSim spurious subagents', () => {
  it('runs duplicates that cost steps and context but never complete', () => {
    const task = generateWideSearch({ numItems: 3 }, 2);
    const sim = new OrchestrationSim(task);
    const rec = drive(sim.beginAssignWithDuplicates([0, 1, 2], 5), oracleDriver);
    expect(rec.subagents.length).toBe(8);
    expect(rec.subagents.filter((s) => s.duplicate).every((s) => s.outcome === 'failed' && s.steps > 0)).toBe(true);
    sim.finish();
    const log = sim.log();
    expect(log).toMatchObject({ nAssigned: 8, nCompleted: 3, nSubtasksDone: 3, rPerf: 1, contextUsed: 8 });
    expect(sim.attempts(0)).toBe(1);
  });
});
