/**
 * Watch saved weights play: one greedy episode of a run's environment with the network from its
 * checkpoint, as a greedy-episode record for the live environment view. It runs where it is called (the
 * learner worker in the browser), on a small backend, never during a run.
 */
import { decodeCheckpoint } from '../core/checkpoint';
import type { ExperimentConfig } from '../config/config';
import { modelSpecFor } from '../config/modelSpec';
import type { GreedyEpisodeRecord } from '../runs/records';
import { RolloutActor } from './rolloutActor';
import { watchedNetwork } from '../config/watchable';

export async function watchEpisode(config: ExperimentConfig, checkpoint: Uint8Array, wasmPaths?: string): Promise<GreedyEpisodeRecord> {
  const kind = watchedNetwork(config);
  if (!kind) throw new Error(`a ${config.settings.algorithm} run has no environment to watch; its timeline shows its episodes`);
  const ckpt = decodeCheckpoint(checkpoint, { requireFinite: true });
  const model = modelSpecFor(config, kind);
  const actor = new RolloutActor({ envId: config.settings['env.id'], numEnvs: 1, seed: config.settings.seed, actorIndex: 0, model, backend: 'wasm', wasmPaths });
  await actor.init();
  try {
    const episode = actor.recordGreedyEpisode(ckpt.weights);
    const update = typeof ckpt.meta.update === 'number' ? ckpt.meta.update : 0;
    return { type: 'greedyEpisode', update, envId: episode.envId, keys: episode.keys, frames: Array.from(episode.frames), episodeReturn: episode.episodeReturn, saved: true };
  } finally {
    actor.dispose();
  }
}
