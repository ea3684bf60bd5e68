// The probe times each run's own learner at the batch its descriptor declares: the real update
// rule of the continuous, offline and multi-agent families (not a discrete network standing in),
// and the batch follows the settings (one actor on a two-core machine halves QuickStart's).
import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { resolveExperiment } from '../../../src/config/config';
import { PRESET_NAMES } from '../../../src/config/presets';
import { ALGORITHM_DESCRIPTORS, descriptorOf } from '../../../src/config/registry';
import { chooseBackend } from '../../../src/core/backend';
import { probeTargetFor, updateBatchOf } from '../../../src/workers/probeTargets';

describe('update batch from the descriptor', () => {
  it('every preset declares a positive batch through its descriptor', () => {
    for (const name of PRESET_NAMES) {
      const config = resolveExperiment(name);
      const raw = descriptorOf(config.settings.algorithm).updateBatch(config.settings);
      expect(raw, name).toBeGreaterThan(0);
      expect(updateBatchOf(config), name).toBe(Math.round(raw));
    }
  });

  it('follows the settings: QuickStart with one actor is half its batch with two', () => {
    expect(updateBatchOf(resolveExperiment('quickstart', { actors: 1 }))).toBe(512);
    expect(updateBatchOf(resolveExperiment('quickstart', { actors: 2 }))).toBe(1024);
    expect(updateBatchOf(resolveExperiment('sac-pendulum', { 'sac.batchSize': 128 }))).toBe(128);
    expect(updateBatchOf(resolveExperiment('qmix-spread', { 'qmix.batchSize': 8 }))).toBe(8);
  });

  it('a different batch is a different learner to the probe', () => {
    const one = probeTargetFor(resolveExperiment('quickstart', { actors: 1 }));
    const two = probeTargetFor(resolveExperiment('quickstart', { actors: 2 }));
    expect(one.key).not.toBe(two.key);
    expect(probeTargetFor(resolveExperiment('quickstart', { actors: 1, seed: 9 })).key).toBe(one.key);
  });
});

describe('what the probe times', () => {
  it('the real update rule for every algorithm whose loop builds its own learner', () => {
    for (const d of ALGORITHM_DESCRIPTORS) {
      const preset = d.presets[0];
      if (!preset) continue;
      const target = probeTargetFor(resolveExperiment(preset.name));
      const ownLearner = d.family === 'marl' || d.actionSpace === 'box';
      expect(target.learner !== null, `${d.id}`).toBe(ownLearner);
      expect(target.key.startsWith(d.id) || !ownLearner, d.id).toBe(true);
    }
  });

  it.each(['sac-pendulum', 'td3-pendulum', 'ddpg-pendulum', 'ppo-continuous-pendulum', 'cql-pendulum', 'bc-pendulum', 'qmix-spread', 'maddpg-spread'])(
    '%s: its real update runs on wasm and leaks no tensor',
    async (name) => {
      await chooseBackend({ preferred: 'wasm' });
      const target = probeTargetFor(resolveExperiment(name));
      const learner = await target.learner!();
      // The first updates make the optimisers' state (TD3's actor only on its second).
      for (let i = 0; i < 3; i++) learner.update();
      const before = tf.memory().numTensors;
      learner.update();
      learner.update();
      expect(tf.memory().numTensors).toBe(before);
      learner.dispose();
    },
    60_000,
  );
});
