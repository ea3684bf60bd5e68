/**
 * The on-policy loops take a PPO update one minibatch at a time, and the DQN and multi-agent loops
 * their updates one gradient step at a time (UpdateSlicer): the event loop may turn before every Adam step
 * without changing a number, and a stop that comes in the middle of an update ends the run there,
 * its last checkpoint that of the update before.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import { decodeCheckpoint } from '../../../src/core/checkpoint';
import { FusedAdam } from '../../../src/core/fusedAdam';
import { TrainingRun } from '../../../src/engine/trainer';
import type { TrainerPlatform } from '../../../src/engine/loops/types';
import type { CheckpointRecord, RunRecord, UpdateRecord } from '../../../src/runs/records';

function run(preset: string, overrides: Record<string, unknown>, platform: TrainerPlatform = nodePlatform()) {
  const records: RunRecord[] = [];
  const training = new TrainingRun(resolveExperiment(preset, { backend: 'wasm', ...overrides }), (r) => records.push(r), platform);
  const updates = () => records.filter((r): r is UpdateRecord => r.type === 'update');
  const lastCheckpoint = () => records.filter((r): r is CheckpointRecord => r.type === 'checkpoint').at(-1)!;
  return { training, records, updates, lastCheckpoint };
}

/** What the update records say about the run, without the clock-based figures. */
function numbers(updates: UpdateRecord[]) {
  return updates.map(({ update, envSteps, episodes, returns, lengths, meanReturn20, metrics, lostSegments, policyLags }) => ({ update, envSteps, episodes, returns, lengths, meanReturn20, metrics, lostSegments, policyLags }));
}

/**
 * Watches the updates' Adam steps (one per PPO minibatch, one per DQN or QMIX gradient step): how many there were, and how many came
 * without a turn of the event loop since the one before. `onStep` runs inside each step.
 */
function watchAdamSteps(onStep: (step: number) => void = () => {}) {
  const seen = { steps: 0, withoutTurn: 0 };
  let turned = true;
  const clipAndApply = FusedAdam.prototype.clipAndApply;
  vi.spyOn(FusedAdam.prototype, 'clipAndApply').mockImplementation(function (this: FusedAdam, ...args: Parameters<FusedAdam['clipAndApply']>) {
    if (!turned) seen.withoutTurn += 1;
    turned = false;
    setImmediate(() => (turned = true));
    seen.steps += 1;
    onStep(seen.steps);
    return clipAndApply.apply(this, args);
  });
  return seen;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const CASES = [
  {
    preset: 'ppo-continuous-pendulum',
    // Two updates of 2 × 128 steps, 3 epochs × 4 minibatches each.
    overrides: { seed: 2, actors: 2, envsPerActor: 1, 'sampling.segmentLength': 128, 'model.hidden': 16, 'ppo-continuous.updateEpochs': 3, 'ppo-continuous.numMinibatches': 4, 'run.envSteps': 512 },
    minibatchesPerUpdate: 12,
  },
  {
    preset: 'ppo-cartpole',
    // Two updates of 2 × 2 × 32 steps, 3 epochs × 4 minibatches each.
    overrides: { seed: 2, actors: 2, envsPerActor: 2, 'sampling.segmentLength': 32, 'model.hidden': 16, 'ppo.updateEpochs': 3, 'ppo.numMinibatches': 4, 'run.envSteps': 256 },
    minibatchesPerUpdate: 12,
  },
  {
    preset: 'dqn-cartpole',
    // Two updates of 2 × 2 × 32 steps, learning from the first: 128 / 16 = 8 gradient steps each.
    overrides: { seed: 2, actors: 2, envsPerActor: 2, 'sampling.segmentLength': 32, 'model.hidden': 16, 'dqn.batchSize': 16, 'dqn.learningStarts': 128, 'dqn.trainFrequency': 16, 'run.envSteps': 256 },
    minibatchesPerUpdate: 8,
  },
  {
    preset: 'qmix-spread',
    // Two updates of 2 actors × 2 simple_spread episodes: a gradient step per episode from the first, on 4 whole episodes.
    overrides: { seed: 2, actors: 2, envsPerActor: 2, 'qmix.batchSize': 4, 'qmix.hidden': 16, 'qmix.trainEvery': 1, 'run.envSteps': 200 },
    minibatchesPerUpdate: 4,
  },
];

describe('an update in steps (PPO’s minibatches, DQN’s and QMIX’s gradient steps)', () => {
  for (const { preset, overrides, minibatchesPerUpdate } of CASES) {
    it(`${preset}: a turn of the event loop before every minibatch gives the same numbers`, async () => {
      const plain = run(preset, overrides);
      await plain.training.run();
      const seen = watchAdamSteps();
      // A turn of the event loop before every minibatch and every update.
      const sliced = run(preset, overrides, { ...nodePlatform(), sliceMs: 0 });
      await sliced.training.run();
      expect(plain.updates()).toHaveLength(2);
      expect(seen.steps).toBe(2 * minibatchesPerUpdate);
      expect(seen.withoutTurn).toBe(0);
      expect(numbers(sliced.updates())).toEqual(numbers(plain.updates()));
      expect(decodeCheckpoint(sliced.lastCheckpoint().bytes).weights).toEqual(decodeCheckpoint(plain.lastCheckpoint().bytes).weights);
    }, 120_000);

    it(`${preset}: a stop in the middle of an update ends the run there, its last checkpoint that of the update before`, async () => {
      // The weights after update 1 alone: a run whose budget is one update.
      const one = run(preset, { ...overrides, 'run.envSteps': overrides['run.envSteps'] / 2 });
      expect((await one.training.run()).updates).toBe(1);
      const afterOne = decodeCheckpoint(one.lastCheckpoint().bytes);

      const two = run(preset, overrides);
      // The stop comes during update 2's third minibatch, as a signal handler's would between two of its steps.
      watchAdamSteps((step) => {
        if (step === minibatchesPerUpdate + 3) two.training.stop();
      });
      const summary = await two.training.run();
      expect(summary.stopReason).toBe('stopped');
      expect(summary.updates).toBe(1);
      expect(two.updates().map((u) => u.update)).toEqual([1]);
      const last = decodeCheckpoint(two.lastCheckpoint().bytes);
      expect(last.meta.update).toBe(1);
      expect(last.weights).toEqual(afterOne.weights);
    }, 120_000);
  }
});
