import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import type { RunRecord, UpdateRecord } from '../../../src/runs/records';
import { TrainingRun } from '../../../src/engine/trainer';
import type { TrainerPlatform } from '../../../src/engine/loops/types';

function start(preset: string, overrides: Record<string, unknown>, platform: TrainerPlatform = nodePlatform()) {
  const records: RunRecord[] = [];
  const run = new TrainingRun(resolveExperiment(preset, { backend: 'cpu', ...overrides }), (r) => records.push(r), { ...platform, checkpointEveryMs: 0 });
  const updates = () => records.filter((r): r is UpdateRecord => r.type === 'update');
  const notices = () => records.flatMap((r) => (r.type === 'notice' ? [r.message] : []));
  return { run, records, updates, notices };
}

// 2 actors × 2 copies × 25 steps = 100 env steps per update.
const SMALL = { actors: 2, envsPerActor: 2, 'run.envSteps': 400 };

describe('multi-agent loop (learner in Node, MarlActors in worker threads)', () => {
  it('QMIX on simple_spread: whole episodes from every actor, gradient steps once the replay holds a batch, per-agent and mixer charts', async () => {
    const { run, updates, records } = start('qmix-spread', { ...SMALL, seed: 1, 'qmix.batchSize': 4, 'qmix.hidden': 16, 'qmix.trainEvery': 2 });
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.updates).toBe(4);
    expect(summary.episodes).toBe(16);
    const u = updates();
    expect(u.map((x) => x.envSteps)).toEqual([100, 200, 300, 400]);
    // 4 episodes per update, 25 steps each; team return = Σ of the three agents' returns
    for (const x of u) {
      expect(x.returns).toHaveLength(4);
      expect(x.lengths).toEqual([25, 25, 25, 25]);
      const perAgent = x.metrics['return agent_0'] + x.metrics['return agent_1'] + x.metrics['return agent_2'];
      expect(perAgent).toBeCloseTo(x.returns.reduce((a, b) => a + b, 0) / 4, 3);
      expect(x.metrics.occupiedLandmarks).toBeGreaterThanOrEqual(0);
      expect(x.metrics.occupiedLandmarks).toBeLessThanOrEqual(3);
      expect(x.metrics.collisions).toBeGreaterThanOrEqual(0);
    }
    // the first update has 4 episodes = one batch: 2 gradient steps (trainEvery 2), then 2 per update
    expect(u.map((x) => x.metrics.gradientSteps)).toEqual([2, 4, 6, 8]);
    expect(u[3].metrics).toHaveProperty('loss');
    expect(u[3].metrics).toHaveProperty('Q agent_2');
    expect(u[3].metrics['mixer |W1| mean']).toBeGreaterThan(0);
    expect(u[3].metrics.epsilon).toBeLessThan(1);
    const ckpt = records.filter((r) => r.type === 'checkpoint');
    expect(ckpt.length).toBeGreaterThan(0);
  }, 120_000);

  it('MADDPG on simple_tag: one learner per side, catches per episode recorded', async () => {
    const { run, updates } = start('maddpg-tag', { ...SMALL, seed: 2, 'maddpg.batchSize': 32, 'maddpg.hidden': 16, 'maddpg.learningStarts': 100, 'maddpg.trainEvery': 50 });
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    const u = updates();
    expect(u.map((x) => x.metrics.gradientSteps)).toEqual([2, 4, 6, 8]);
    for (const key of ['criticLoss side 0', 'criticLoss side 1', 'actorLoss side 0', 'Q agent_0', 'return adversary_0', 'return agent_0', 'catches']) {
      expect(u[3].metrics, key).toHaveProperty([key]);
    }
    expect(u[3].metrics.catches).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it('MAPPO on simple_spread: one update per 8 fresh episodes, with its PPO metrics', async () => {
    const { run, updates } = start('mappo-spread', { ...SMALL, 'run.envSteps': 600, seed: 3, 'mappo.hidden': 16, 'mappo.epochs': 2 });
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    const u = updates();
    // 4 episodes a round: an update every second round
    expect(u.map((x) => x.metrics.gradientSteps)).toEqual([0, 1, 1, 2, 2, 3]);
    for (const x of [u[1], u[3], u[5]]) {
      for (const key of ['policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFrac', 'explainedVariance']) expect(x.metrics, key).toHaveProperty([key]);
      expect(x.metrics.entropy).toBeGreaterThan(0);
      expect(x.metrics.entropy).toBeLessThanOrEqual(Math.log(5) + 1e-6);
    }
    expect(u[0].metrics).not.toHaveProperty('policyLoss');
  }, 120_000);

  it('QMIX on simple_tag ends with an error that says why', async () => {
    const { run, notices } = start('qmix-spread', { ...SMALL, 'marl.env': 'simple_tag_v3' });
    const summary = await run.run();
    expect(summary.stopReason).toBe('error');
    expect(notices().join('\n')).toMatch(/competing sides.*MADDPG/);
  }, 60_000);

  it('a joint action the env refuses (agent_1 out of range) is reported naming the agent, and training goes on', async () => {
    const platform: TrainerPlatform = {
      ...nodePlatform(),
      actorModules: { MarlActor: { module: new URL('./fixtures/faultyMarlActor.ts', import.meta.url).href, key: 'FaultyMarlActor' } },
    };
    const { run, notices } = start('vdn-spread', { ...SMALL, 'run.envSteps': 300, 'vdn.hidden': 8, 'vdn.batchSize': 2 }, platform);
    const summary = await run.run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.lostSegments).toBeGreaterThan(0);
    expect(notices().join('\n')).toMatch(/action of agent "agent_1" must be an integer in \[0, 4\], got 7/);
  }, 120_000);
});
