import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import type { RunRecord } from '../../../src/runs/records';
import { TrainingRun } from '../../../src/engine/trainer';
import { ACTOR_CLASSES } from '../../../src/workers/actorClasses';

describe('crash an actor', () => {
  it('crashes an actor of a swarm run, whose actor class declares no crash method, and the run goes on with its replacement', async () => {
    expect(ACTOR_CLASSES.some((Cls) => !('crash' in Cls.prototype))).toBe(true);
    const records: RunRecord[] = [];
    const config = resolveExperiment('swarm-annealed', { seed: 4, 'swarm.updates': 4, 'swarm.subtasks': 8, 'swarm.hidden': 8, envsPerActor: 2, actors: 2, backend: 'cpu' });
    const run = new TrainingRun(config, (r) => records.push(r), nodePlatform());
    const done = run.run();
    while (!records.some((r) => r.type === 'update' || r.type === 'summary')) await new Promise((r) => setTimeout(r, 10));
    await run.crashActor(1);
    const summary = await done;
    expect(summary.stopReason, `${summary.error}\n${records.flatMap((r) => (r.type === 'notice' ? [r.message] : [])).join('\n')}`).toBe('budget');
    expect(summary.actorRespawns).toBeGreaterThanOrEqual(1);
    const notices = records.flatMap((r) => (r.type === 'notice' ? [r.message] : []));
    expect(notices.some((m) => /SwarmActor.*died/.test(m)), notices.join('\n')).toBe(true);
  }, 120_000);

  it("a refused crash rejects for a caller that awaits it, and never becomes an unhandled rejection for one that does not", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const run = new TrainingRun(resolveExperiment('quickstart'), () => undefined, nodePlatform());
      void run.crashActor(0);
      void run.crashActor(-1);
      await expect(run.crashActor(0)).rejects.toThrow('no actors are running');
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
