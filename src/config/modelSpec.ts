import type { MlpSpec } from '../core/mlp';
import { envSpec } from '../envs/registry';
import type { ExperimentConfig } from './config';

/** The network an experiment's settings describe, for a classic-control environment. */
export function modelSpecFor(config: ExperimentConfig, kind: NonNullable<MlpSpec['kind']>): MlpSpec {
  const s = config.settings;
  const spec = envSpec(s['env.id']);
  return {
    obsDim: spec.obsDim,
    numActions: spec.numActions,
    hidden: Array.from({ length: s['model.layers'] }, () => s['model.hidden']),
    activation: s['model.activation'],
    kind,
  };
}
