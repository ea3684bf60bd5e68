/**
 * Builds a run's learner from its algorithm's descriptor: the network the model settings
 * describe, then the update rule the descriptor loads, fed with the algorithm's own settings.
 */
import type { NetworkKind, NetworkModels } from '../config/algorithm';
import type { ExperimentConfig } from '../config/config';
import { modelSpecFor } from '../config/modelSpec';
import { descriptorOf } from '../config/registry';
import { paramsOf } from '../config/settings';
import type { Algorithm } from '../core/algorithm';
import { ActorCriticMlp, PolicyMlp, QMlp, type MlpSpec } from '../core/mlp';

const NETWORKS: { [N in NetworkKind]: (spec: MlpSpec, seed: number) => NetworkModels[N] } = {
  policy: (spec, seed) => new PolicyMlp(spec, seed),
  actorCritic: (spec, seed) => new ActorCriticMlp(spec, seed),
  q: (spec, seed) => new QMlp(spec, seed),
};

export interface BuiltLearner<N extends NetworkKind> {
  /** The trained network, typed by its kind (the loop reads its heads, e.g. V(s)). */
  model: NetworkModels[N];
  algorithm: Algorithm;
}

/** The network of kind `network` and the config's update rule on it; throws if the algorithm trains another kind. */
export async function buildLearner<N extends NetworkKind>(config: ExperimentConfig, network: N): Promise<BuiltLearner<N>> {
  const d = descriptorOf(config.settings.algorithm);
  const loaded = d.network === network ? await d.load?.() : undefined;
  if (loaded?.kind !== 'network') throw new Error(`algorithm ${d.id} does not train a ${network} network in this loop`);
  const seed = config.settings.seed;
  const model = NETWORKS[network](modelSpecFor(config, network), seed);
  const algorithm = loaded.create(model, paramsOf(config.settings, d), seed);
  return { model, algorithm };
}
