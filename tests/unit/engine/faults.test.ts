// Fault injection for every segment/episode loop (issue 15): an actor that dies and cannot be
// replaced, and an actor that hangs. Either way the run must end cleanly, with its records, its
// last weights and the reason, and Stop must end it within a second. Before the fix the first
// case spun the learner without yielding (no Stop, no SIGINT) and the second never returned.
import { afterEach, describe, expect, it } from 'vitest';
import { nodeActorSpawner, nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { decodeCheckpoint } from '../../../src/core/checkpoint';
import { setActorSpawner, type ActorSpawner } from '../../../src/core/remote/spawner';
import type { TrainerPlatform } from '../../../src/engine/loops/types';
import { TrainingRun } from '../../../src/engine/trainer';
import type { CheckpointRecord, RunRecord, SummaryRecord, UpdateRecord } from '../../../src/runs/records';

const HANGING: TrainerPlatform = {
  ...nodePlatform(),
  actorModules: { RolloutActor: { module: new URL('./fixtures/faultyActor.ts', import.meta.url).href, key: 'HangingRolloutActor' } },
};

/** Spawns the first `n` workers, then refuses every later spawn (so no replacement can start). */
function spawnerFailingAfter(n: number): ActorSpawner {
  let spawned = 0;
  return {
    kind: 'failing-after',
    spawn(options) {
      spawned += 1;
      if (spawned > n) throw new Error(`spawn ${spawned} refused by the test`);
      return nodeActorSpawner.spawn(options);
    },
  };
}

function start(preset: string, overrides: Record<string, unknown>, platform: TrainerPlatform, onRecord?: (r: RunRecord, run: TrainingRun) => void) {
  const records: RunRecord[] = [];
  const config = resolveExperiment(preset, { backend: 'wasm', 'run.envSteps': 5_000_000, ...overrides });
  const run: TrainingRun = new TrainingRun(config, (r) => {
    records.push(r);
    onRecord?.(r, run);
  }, platform);
  return {
    run,
    records,
    updates: () => records.filter((r): r is UpdateRecord => r.type === 'update'),
    notices: () => records.flatMap((r) => (r.type === 'notice' ? [r.message] : [])),
    checkpoints: () => records.filter((r): r is CheckpointRecord => r.type === 'checkpoint'),
  };
}

/** The run kept its last weights: a decodable checkpoint of the last update it finished. */
function expectLastWeights(x: ReturnType<typeof start>, summary: SummaryRecord): void {
  const last = x.checkpoints().at(-1);
  expect(last?.update).toBe(summary.updates);
  expect(decodeCheckpoint(last!.bytes).weights.length).toBeGreaterThan(0);
}

const LOOPS = [
  { loop: 'episodic (REINFORCE)', preset: 'quickstart' },
  { loop: 'sync (PPO)', preset: 'ppo-cartpole' },
  { loop: 'async (IMPALA)', preset: 'impala-cartpole' },
  { loop: 'DQN', preset: 'dqn-cartpole' },
  { loop: 'ES', preset: 'es-cartpole' },
];

afterEach(() => setActorSpawner(nodeActorSpawner));

describe('a run whose every actor is gone for good ends, with its records, last weights and reason', () => {
  for (const { loop, preset } of LOOPS) {
    it(`${loop}: actor 0 crashes after update 3 and its replacements cannot start`, async () => {
      setActorSpawner(spawnerFailingAfter(1));
      let crashedAt = 0;
      const x = start(preset, { seed: 1, actors: 1 }, nodePlatform(), (r, run) => {
        if (r.type === 'update' && r.update === 3) {
          crashedAt = performance.now();
          void run.crashActor(0);
        }
      });
      const summary = await x.run.run();
      expect(crashedAt).toBeGreaterThan(0);
      // Three attempts with 100 ms and 200 ms between them, then the run ends (not retrying for ever; slack for a busy machine).
      expect(performance.now() - crashedAt).toBeLessThan(10_000);
      expect(summary.stopReason).toBe('error');
      expect(summary.error).toMatch(/^no actors left: every actor \(1\) is gone for good.*spawn \d refused by the test/);
      expect(x.notices().some((m) => /actor 0 is gone for good/.test(m))).toBe(true);
      expect(x.notices().some((m) => /^Training stopped: no actors left: .* ends after update \d+ with its records and its last weights/.test(m))).toBe(true);
      expect(summary.updates).toBeGreaterThanOrEqual(3);
      expect(x.updates()).toHaveLength(summary.updates);
      expect(x.records.at(-1)).toBe(summary);
      expectLastWeights(x, summary);
    }, 180_000); // a generous limit, not a speed bound: a worker thread starts slowly on a loaded machine
  }
});

describe('Stop ends a run within a second whatever its actors do', () => {
  for (const { loop, preset } of LOOPS) {
    it(`${loop}: the only actor hangs after two rounds of work`, async () => {
      const x = start(preset, { seed: 2, actors: 1 }, HANGING);
      const done = x.run.run();
      // Wait for the first update, then long enough for the actor to be stuck in its third call.
      while (x.updates().length === 0) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 500));
      const stoppedAt = performance.now();
      x.run.stop();
      const summary = await done;
      // Stop does not wait for a hung call: the bound is the behaviour, with slack for a busy machine.
      expect(performance.now() - stoppedAt).toBeLessThan(5_000);
      expect(summary.stopReason).toBe('stopped');
      expect(summary.updates).toBeGreaterThanOrEqual(1);
      expect(x.updates()).toHaveLength(summary.updates);
      expectLastWeights(x, summary);
    }, 180_000); // a generous limit, not a speed bound: a worker thread starts slowly on a loaded machine
  }

  for (const { loop, preset } of [LOOPS[0], LOOPS[2]]) {
    it(`${loop}: one of two actors is gone for good; training goes on with the other, and Stop still works`, async () => {
      setActorSpawner(spawnerFailingAfter(2));
      let goneAtUpdate = -1;
      const x = start(preset, { seed: 3, actors: 2 }, nodePlatform(), (r, run) => {
        if (r.type === 'update' && r.update === 2) void run.crashActor(1);
        if (r.type === 'notice' && /actor 1 is gone for good/.test(r.message)) goneAtUpdate = x.updates().length;
      });
      const done = x.run.run();
      while (goneAtUpdate < 0 || x.updates().length < goneAtUpdate + 3) await new Promise((r) => setTimeout(r, 20));
      const stoppedAt = performance.now();
      x.run.stop();
      const summary = await done;
      // Stop does not wait for a hung call: the bound is the behaviour, with slack for a busy machine.
      expect(performance.now() - stoppedAt).toBeLessThan(5_000);
      expect(summary.stopReason).toBe('stopped');
      expect(summary.updates).toBeGreaterThanOrEqual(goneAtUpdate + 3);
      expectLastWeights(x, summary);
    }, 180_000); // a generous limit, not a speed bound: a worker thread starts slowly on a loaded machine
  }
});

describe('actor start-up is not all or nothing', () => {
  it('starts with the actors that come up, reports the others and starts them in the background', async () => {
    let spawned = 0;
    setActorSpawner({
      kind: 'second-spawn-fails',
      spawn(options) {
        spawned += 1;
        if (spawned === 2) throw new Error('spawn 2 refused by the test');
        return nodeActorSpawner.spawn(options);
      },
    });
    const x = start('quickstart', { seed: 4, actors: 2, 'run.envSteps': 3_000 }, nodePlatform());
    const summary = await x.run.run();
    expect(summary.stopReason).toBe('budget');
    const notices = x.notices();
    const failed = notices.findIndex((m) => /^actor \d did not start: spawn 2 refused by the test; the pool keeps trying to start it in the background$/.test(m));
    expect(failed).toBeGreaterThanOrEqual(0);
    expect(notices.findIndex((m) => /started late \(actor \d\)$/.test(m))).toBeGreaterThan(failed);
    // Both actors sent episodes in the end.
    expect(x.updates().at(-1)!.actorStepsPerSecond.every((v) => v > 0)).toBe(true);
  }, 30_000);

  it('fails with a clear message, as a summary and not a throw, only when no actor comes up', async () => {
    setActorSpawner(spawnerFailingAfter(0));
    const x = start('quickstart', { seed: 5, actors: 3 }, nodePlatform());
    const summary = await x.run.run();
    expect(summary).toMatchObject({ stopReason: 'error', updates: 0 });
    expect(summary.error).toMatch(/^none of the 3 actors started \(first error: spawn \d refused by the test\)$/);
    expect(x.notices()).toContain(`Training could not start: ${summary.error}`);
  }, 30_000);
});
