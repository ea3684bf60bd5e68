import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import type { CheckpointRecord, RunRecord, UpdateRecord } from '../../../src/runs/records';
import { decodeCheckpoint } from '../../../src/core/checkpoint';
import { TrainingRun } from '../../../src/engine/trainer';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import type { TrainerPlatform } from '../../../src/engine/loops/types';


function collect(overrides: Record<string, unknown>, preset = 'quickstart', platform: TrainerPlatform = nodePlatform()) {
  const records: RunRecord[] = [];
  const run = new TrainingRun(resolveExperiment(preset, overrides), (r) => records.push(r), platform);
  const updates = () => records.filter((r): r is UpdateRecord => r.type === 'update');
  return { run, records, updates };
}

describe('TrainingRun (QuickStart, learner in Node, rollouts in worker threads)', () => {
  it('learns CartPole within a short fixed-seed budget', async () => {
    const { run, updates } = collect({ seed: 3, 'run.envSteps': 40_000, backend: 'wasm' });
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.envSteps).toBeGreaterThanOrEqual(40_000);
    expect(summary.backend).toBe('wasm');
    const u = updates();
    expect(u.length).toBe(summary.updates);
    // Untrained, CartPole episodes last about 20 steps; REINFORCE must do far better than that.
    expect(u[0].meanReturn20!).toBeLessThan(60);
    expect(summary.finalMeanReturn20!).toBeGreaterThan(150);
  });

  it('gives identical numbers for the same seed and config', async () => {
    const a = collect({ seed: 11, 'run.envSteps': 4_000, backend: 'wasm' });
    const b = collect({ seed: 11, 'run.envSteps': 4_000, backend: 'wasm' });
    await a.run.run();
    await b.run.run();
    const strip = (u: UpdateRecord) => ({ returns: u.returns, lengths: u.lengths, metrics: u.metrics, envSteps: u.envSteps });
    expect(a.updates().map(strip)).toEqual(b.updates().map(strip));
    const c = collect({ seed: 12, 'run.envSteps': 4_000, backend: 'wasm' });
    await c.run.run();
    expect(c.updates().map(strip)).not.toEqual(a.updates().map(strip));
    // The run ends with a checkpoint of the final weights: the same bits for the same seed.
    const last = (x: ReturnType<typeof collect>) => decodeCheckpoint(x.records.filter((r): r is CheckpointRecord => r.type === 'checkpoint').at(-1)!.bytes);
    const [wa, wb, wc] = [last(a), last(b), last(c)];
    expect(wa.meta).toMatchObject({ preset: 'quickstart', seed: 11, update: a.updates().length, envSteps: a.updates().at(-1)!.envSteps });
    expect(wa.weights).toEqual(wb.weights);
    expect(wc.weights).not.toEqual(wa.weights);
  });

  it('ends with a look inside the final network when the run is shorter than the inspection interval', async () => {
    const records: RunRecord[] = [];
    const run = new TrainingRun(resolveExperiment('quickstart', { seed: 5, 'run.envSteps': 3_000, backend: 'wasm' }), (r) => records.push(r), nodePlatform(), { inspectEveryMs: 3_600_000 });
    const summary = await run.run();
    const looks = records.filter((r) => r.type === 'inspect').map((r) => (r as { update: number }).update);
    expect(summary.updates).toBeGreaterThan(1);
    // One at the start (update 0), one at the end (the last update), none between.
    expect(looks).toEqual([0, summary.updates]);
  });

  it('checkpoints after every update when asked to, and the numbers stay the same (REINFORCE, and ES whose θ is copied out)', async () => {
    for (const [preset, steps] of [['quickstart', 3_000], ['es-cartpole', 3_000]] as const) {
      const plain = collect({ seed: 13, 'run.envSteps': steps, backend: 'wasm' }, preset);
      const often = collect({ seed: 13, 'run.envSteps': steps, backend: 'wasm' }, preset, { ...nodePlatform(), checkpointEveryMs: 0 });
      await plain.run.run();
      await often.run.run();
      const strip = (u: UpdateRecord) => ({ returns: u.returns, metrics: u.metrics, envSteps: u.envSteps });
      expect(often.updates().map(strip)).toEqual(plain.updates().map(strip));
      const ckpts = often.records.filter((r): r is CheckpointRecord => r.type === 'checkpoint');
      expect(ckpts.map((c) => c.update)).toEqual(often.updates().map((u) => u.update));
      expect(plain.records.filter((r) => r.type === 'checkpoint')).toHaveLength(1);
    }
  });

  it('replaces a crashed actor, counts what was lost, and keeps training', async () => {
    const { run, records, updates } = collect({ seed: 5, 'run.envSteps': 12_000, actors: 2, backend: 'wasm' });
    let crashed = false;
    const done = run.run();
    while (!crashed) {
      await new Promise((r) => setTimeout(r, 20));
      if (updates().length >= 2) {
        await run.crashActor(1);
        crashed = true;
      }
    }
    const summary = await done;
    expect(summary.stopReason).toBe('budget');
    expect(summary.actorRespawns).toBeGreaterThanOrEqual(1);
    const crashAt = 2;
    expect(updates().length).toBeGreaterThan(crashAt + 2);
    const notices = records.filter((r) => r.type === 'notice').map((r) => (r.type === 'notice' ? r.message : ''));
    expect(notices.some((m) => /died/.test(m))).toBe(true);
    expect(notices.some((m) => /replaced/.test(m))).toBe(true);
    expect(summary.lostSegments).toBe(updates().reduce((n, u) => n + u.lostSegments, 0));
    const lastActors = records.filter((r) => r.type === 'actors').pop();
    expect(lastActors?.type === 'actors' && lastActors.actors[1].respawns).toBe(1);
  });

  it('pauses between updates, single-steps, and stops on request', async () => {
    const { run, records, updates } = collect({ seed: 2, 'run.envSteps': 1_000_000, backend: 'wasm' });
    const done = run.run();
    while (updates().length < 1) await new Promise((r) => setTimeout(r, 10));
    run.pause();
    while (!records.some((r) => r.type === 'state' && r.state === 'paused')) await new Promise((r) => setTimeout(r, 10));
    const n = updates().length;
    await new Promise((r) => setTimeout(r, 300));
    expect(updates().length).toBe(n);
    run.step();
    while (updates().length < n + 1) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 300));
    expect(updates().length).toBe(n + 1);
    run.stop();
    const summary = await done;
    expect(summary.stopReason).toBe('stopped');
    expect(summary.updates).toBe(n + 1);
  });
});
