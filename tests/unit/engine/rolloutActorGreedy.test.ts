import { beforeAll, describe, expect, it } from 'vitest';
import { chooseBackend } from '../../../src/core/backend';
import { buildModel, type MlpSpec } from '../../../src/core/mlp';
import { Rng } from '../../../src/core/rng';
import { RolloutActor, type RolloutActorOptions } from '../../../src/engine/rolloutActor';

beforeAll(async () => {
  await chooseBackend({ preferred: 'wasm' });
});

const SPEC: MlpSpec = { obsDim: 4, numActions: 2, hidden: [16, 16], activation: 'tanh', kind: 'actorCritic' };

/** Weights far from a uniform policy, so that two sets act differently. */
function weightsFrom(seed: number): Float32Array[] {
  const model = buildModel(SPEC, 1);
  const rng = new Rng(seed);
  const ws = model.getWeights().map((w) => Float32Array.from(w, () => rng.normal()));
  model.dispose();
  return ws;
}

describe('RolloutActor: the live view’s greedy episodes', () => {
  // Both ways an actor acts: the typed-array forward pass and tfjs.
  for (const [path, fastPathMaxBatch] of [
    ['typed-array path', Infinity],
    ['tfjs path', 0],
  ] as const) {
    const options: RolloutActorOptions = { envId: 'CartPole-v1', numEnvs: 4, seed: 5, actorIndex: 0, model: SPEC, backend: 'wasm', fastPathMaxBatch };

    it(`${path}: an episode with other weights leaves the training policy as the learner sent it`, async () => {
      const trained = weightsFrom(11);
      const shown = weightsFrom(12);
      const asked = new RolloutActor(options);
      const quiet = new RolloutActor(options);
      await asked.init();
      await quiet.init();
      asked.sampleSegment(trained.map((w) => w.slice()), 1, 20);
      quiet.sampleSegment(trained.map((w) => w.slice()), 1, 20);
      // The page asks for a greedy episode between two segments; the next segment keeps the learner's weights (null: no new version).
      asked.recordGreedyEpisode(shown.map((w) => w.slice()));
      const a = asked.sampleSegment(null, 1, 100);
      const b = quiet.sampleSegment(null, 1, 100);
      expect(Array.from(a.actions)).toEqual(Array.from(b.actions));
      expect(Array.from(a.logProbs)).toEqual(Array.from(b.logProbs));

      // And the episode itself is the one the shown weights play.
      const other = new RolloutActor(options);
      await other.init();
      other.setWeights(shown.map((w) => w.slice()), 2);
      const expected = other.recordGreedyEpisode(null);
      const fresh = new RolloutActor(options);
      await fresh.init();
      fresh.setWeights(trained.map((w) => w.slice()), 1);
      const episode = fresh.recordGreedyEpisode(shown.map((w) => w.slice()));
      expect(Array.from(episode.frames)).toEqual(Array.from(expected.frames));
      expect(episode.episodeReturn).toBe(expected.episodeReturn);
      for (const actor of [asked, quiet, other, fresh]) actor.dispose();
    });
  }
});
