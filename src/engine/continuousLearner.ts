/**
 * Builds a Box-action run's learner from its descriptor: the env's sizes and bounds, the model
 * settings, and the Box-action update rule its descriptor's `load` imports (DDPG, TD3, SAC, CQL, BC).
 */
import type { ContinuousAlgorithmModule } from '../config/algorithm';
import type { ExperimentConfig } from '../config/config';
import { descriptorOf } from '../config/registry';
import { paramsOf } from '../config/settings';
import type { ActorSpec } from '../core/continuousMlp';
import { Rng, deriveSeed } from '../core/rng';
import { continuousEnvSpec, type ContinuousEnvSpec } from '../envs/registry';
import { ContinuousAgent } from './continuousAgent';

export type ContinuousParams = Record<string, number | string | boolean>;

export interface BuiltContinuousLearner {
  agent: ContinuousAgent;
  module: ContinuousAlgorithmModule<ContinuousParams>;
  net: ActorSpec;
  params: ContinuousParams;
  env: ContinuousEnvSpec;
}

/**
 * The actor network's description for a config (what the remote actors rebuild), with its gSDE
 * exploration when the algorithm has a `useSde` setting that is on (SAC).
 */
export function continuousNetFor(config: ExperimentConfig): ActorSpec {
  const s = config.settings;
  const env = continuousEnvSpec(s['env.id']);
  const params = paramsOf(s, descriptorOf(s.algorithm));
  const sde = params.useSde === true ? { sde: { logStdInit: numParam(params, 'logStdInit'), sampleFreq: numParam(params, 'sdeSampleFreq') } } : {};
  return {
    obsDim: env.obsDim,
    actionDim: env.actionDim,
    actionLow: env.actionLow,
    actionHigh: env.actionHigh,
    hidden: Array.from({ length: s['model.layers'] }, () => s['model.hidden']),
    activation: s['model.activation'],
    ...sde,
  };
}

export async function buildContinuousLearner(config: ExperimentConfig): Promise<BuiltContinuousLearner> {
  const s = config.settings;
  const d = descriptorOf(s.algorithm);
  const module = await d.load?.();
  if (module?.kind !== 'continuous') throw new Error(`algorithm ${d.id} is not a Box-action algorithm`);
  const net = continuousNetFor(config);
  const params = paramsOf(s, d);
  const algorithm = module.create(net, params, s.seed);
  const agent = new ContinuousAgent(algorithm, net.obsDim, net.actionDim, new Rng(deriveSeed(s.seed, 0xa9e7)), module.batchDraws?.(params));
  return { agent, module, net, params, env: continuousEnvSpec(s['env.id']) };
}

/** A number setting of the algorithm, by field name (throws if the descriptor lacks it). */
export function numParam(params: ContinuousParams, name: string): number {
  const v = params[name];
  if (typeof v !== 'number') throw new Error(`setting ${name} is missing or not a number`);
  return v;
}
