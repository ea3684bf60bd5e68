import { describe, expect, it } from 'vitest';
import { parseTrainArgs } from '../../../src/cli/args';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment, type ExperimentConfig } from '../../../src/config/config';
import type { LiveChange } from '../../../src/config/liveSettings';
import { experimentUrl } from '../../../src/config/urlState';
import { TrainingRun } from '../../../src/engine/trainer';
import type { ChangeRecord, RunRecord, UpdateRecord } from '../../../src/runs/records';

/** QuickStart, small: cpu backend, one actor, one env copy, a few thousand steps. */
function small(overrides: Record<string, unknown> = {}): ExperimentConfig {
  return resolveExperiment('quickstart', { backend: 'cpu', actors: 1, envsPerActor: 2, 'run.envSteps': 3_000, seed: 7, ...overrides });
}

interface Ran {
  updates: UpdateRecord[];
  changes: ChangeRecord[];
  actors: number[];
}

/** Run to the end; `onUpdate` sees each update record as it is sent (the page's moment to change something). */
async function train(config: ExperimentConfig, changes: LiveChange[] = [], onUpdate?: (r: UpdateRecord, run: TrainingRun) => void): Promise<Ran> {
  const records: RunRecord[] = [];
  const run: TrainingRun = new TrainingRun(
    config,
    (r) => {
      records.push(r);
      if (r.type === 'update') onUpdate?.(r, run);
    },
    nodePlatform(),
    { changes },
  );
  await run.run();
  return {
    updates: records.flatMap((r) => (r.type === 'update' ? [r] : [])),
    changes: records.flatMap((r) => (r.type === 'change' ? [r] : [])),
    actors: records.flatMap((r) => (r.type === 'actors' ? [r.actors.length] : [])),
  };
}

const figures = (u: UpdateRecord) => ({ update: u.update, envSteps: u.envSteps, returns: u.returns, metrics: u.metrics });

describe('live changes', () => {
  it('a learning rate changed while training applies at the next update, and its link replays it exactly', async () => {
    const config = small();
    const K = 4;
    const plain = await train(config);
    // The page's way: change the setting while update K - 1 is being reported.
    const live = await train(config, [], (r, run) => {
      if (r.update === K - 1) run.change('reinforce.lr', 0.05);
    });
    expect(live.changes).toEqual([{ type: 'change', update: K, key: 'reinforce.lr', from: 0.01, to: 0.05 }]);
    expect(plain.updates.length).toBeGreaterThan(K + 1);

    // Update K's episodes and loss come before its gradient step: the records up to K are
    // unchanged. Its step was taken with the new rate, so from update K + 1 on the figures differ.
    expect(live.updates.slice(0, K).map(figures)).toEqual(plain.updates.slice(0, K).map(figures));
    expect(figures(live.updates[K])).not.toEqual(figures(plain.updates[K]));

    // The CLI's way: the link with the run's changes, through `npm run train -- --url`'s parser.
    const url = experimentUrl('http://localhost/', config, {}, live.changes.map((c) => ({ update: c.update, key: 'reinforce.lr', value: c.to })));
    const args = parseTrainArgs(['--url', url]);
    expect(args.changes).toEqual([{ update: K, key: 'reinforce.lr', value: 0.05 }]);
    const replay = await train(args.config, args.changes);
    expect(replay.changes).toEqual(live.changes);
    expect(replay.updates.map(figures)).toEqual(live.updates.map(figures));
  }, 120_000);

  it('MADDPG’s learning rates change while the multi-agent loop trains, at the next update, and a schedule replays them exactly', async () => {
    // 2 actors × 2 simple_spread copies × 25 steps = 100 env steps an update, 2 gradient steps an update from the first.
    const config = resolveExperiment('maddpg-spread', { backend: 'wasm', seed: 4, actors: 2, envsPerActor: 2, 'run.envSteps': 500, 'maddpg.batchSize': 32, 'maddpg.hidden': 16, 'maddpg.learningStarts': 100, 'maddpg.trainEvery': 50 });
    const K = 3;
    const plain = await train(config);
    const live = await train(config, [], (r, run) => {
      if (r.update !== K - 1) return;
      run.change('maddpg.actorLr', 0.05);
      run.change('maddpg.criticLr', 0.002);
    });
    expect(live.changes).toEqual([
      { type: 'change', update: K, key: 'maddpg.actorLr', from: 0.01, to: 0.05 },
      { type: 'change', update: K, key: 'maddpg.criticLr', from: 0.01, to: 0.002 },
    ]);
    expect(live.updates).toHaveLength(5);
    // Up to update K − 1 nothing changed; update K's gradient steps, and what they learned, took the new rates.
    expect(live.updates.slice(0, K - 1).map(figures)).toEqual(plain.updates.slice(0, K - 1).map(figures));
    for (const u of [K - 1, K]) expect(figures(live.updates[u]).metrics).not.toEqual(figures(plain.updates[u]).metrics);
    const schedule: LiveChange[] = [
      { update: K, key: 'maddpg.actorLr', value: 0.05 },
      { update: K, key: 'maddpg.criticLr', value: 0.002 },
    ];
    const replay = await train(config, schedule);
    expect(replay.changes).toEqual(live.changes);
    expect(replay.updates.map(figures)).toEqual(live.updates.map(figures));
  }, 120_000);

  it('the number of actors grows and shrinks at its update, the same way live and from the schedule', async () => {
    const config = small({ 'run.envSteps': 2_500 });
    const schedule: LiveChange[] = [
      { update: 3, key: 'actors', value: 2 },
      { update: 5, key: 'actors', value: 1 },
    ];
    const scheduled = await train(config, schedule);
    expect(scheduled.changes).toEqual([
      { type: 'change', update: 3, key: 'actors', from: 1, to: 2 },
      { type: 'change', update: 5, key: 'actors', from: 2, to: 1 },
    ]);
    expect(scheduled.updates.length).toBeGreaterThan(5);
    expect(scheduled.updates[3].actorStepsPerSecond).toHaveLength(2);
    expect(scheduled.updates[4].actorStepsPerSecond).toHaveLength(1);
    // Updates 1 and 2 had one actor, update 3 on both were collected by two.
    expect(scheduled.updates[1].actorStepsPerSecond).toHaveLength(1);
    expect(scheduled.updates[2].actorStepsPerSecond).toHaveLength(2);
    expect(scheduled.updates[2].actorStepsPerSecond.every((x) => x > 0)).toBe(true);
    expect(scheduled.actors).toContain(2);

    const live = await train(config, [], (r, run) => {
      if (r.update === 2) run.change('actors', 2);
      if (r.update === 4) run.change('actors', 1);
    });
    expect(live.updates.map(figures)).toEqual(scheduled.updates.map(figures));
  }, 120_000);

  it('refuses a setting that cannot change live, and an out-of-range value, naming the setting', () => {
    const run = new TrainingRun(small(), () => undefined, nodePlatform());
    expect(() => run.change('model.hidden', 32)).toThrow(/^change model\.hidden: cannot change while training/);
    expect(() => run.change('reinforce.gamma', 0.9)).toThrow(/fixed when the run starts/);
    expect(() => run.change('reinforce.lr', 5)).toThrow(/^reinforce\.lr: must be a number in \[0\.00001, 0\.1\]|^reinforce\.lr: must be a number in \[1e-05, 0\.1\]/);
    expect(() => new TrainingRun(small(), () => undefined, nodePlatform(), { changes: [{ update: 2, key: 'ppo.lr', value: 0.001 }] })).toThrow(/not a setting of REINFORCE/);
  });
});
