import { describe, expect, it } from 'vitest';
import { encodeCheckpoint } from '../../../src/core/checkpoint';
import { buildModel } from '../../../src/core/mlp';
import { resolveExperiment } from '../../../src/config/config';
import { modelSpecFor } from '../../../src/config/modelSpec';
import { canWatch } from '../../../src/config/watchable';
import { watchEpisode } from '../../../src/engine/watch';

function checkpointOf(preset: string, kind: 'policy' | 'actorCritic' | 'q', seed: number, overrides: Record<string, unknown> = {}) {
  const model = buildModel(modelSpecFor(resolveExperiment(preset, overrides), kind), seed);
  const specs = model.weightSpecs();
  const bytes = encodeCheckpoint({ weights: model.getWeights(), shapes: specs.map((s) => s.shape), meta: { update: 7 } });
  model.dispose();
  return bytes;
}

describe('watching saved weights', () => {
  it('plays one greedy episode with the checkpoint\'s network, the same every time', async () => {
    const config = resolveExperiment('ppo-cartpole', { seed: 4 });
    const bytes = checkpointOf('ppo-cartpole', 'actorCritic', 99);
    const a = await watchEpisode(config, bytes);
    expect(a).toMatchObject({ type: 'greedyEpisode', update: 7, envId: 'CartPole-v1', saved: true });
    expect(a.keys).toContain('theta');
    const length = a.episodeReturn; // CartPole pays 1 per step
    expect(a.frames.length).toBe(a.keys.length * Math.min(length, 500));
    expect(await watchEpisode(config, bytes)).toEqual(a);
    // Other weights act differently.
    const other = await watchEpisode(config, checkpointOf('ppo-cartpole', 'actorCritic', 5));
    expect(other.frames).not.toEqual(a.frames);
  });

  it('says what is wrong with weights of another shape, and with a swarm run', async () => {
    const config = resolveExperiment('quickstart');
    const wide = checkpointOf('quickstart', 'policy', 1, { 'model.hidden': 32 });
    await expect(watchEpisode(config, wide)).rejects.toThrow(/setWeights: weight 0 \(.*\) has shape \[4, 64\] = 256 values, got 128/);
    const swarm = resolveExperiment('swarm-annealed');
    expect(canWatch(swarm)).toBe(false);
    expect(canWatch(config)).toBe(true);
    await expect(watchEpisode(swarm, wide)).rejects.toThrow('has no environment to watch');
  });
});
