/**
 * Named starting points. A preset is a name, one sentence on what it shows, and the settings it
 * changes from the defaults. Hyperparameters cite where they came from.
 */
import type { ExperimentSettings } from './settings';
import { ENGINE_PRESETS } from './presetsEngine';
import { SWARM_PRESETS } from './presetsSwarm';

export interface Preset {
  name: string;
  title: string;
  /** One sentence on what the preset shows. */
  description: string;
  settings: Partial<ExperimentSettings>;
}

const CORE_PRESETS: readonly Preset[] = [
  {
    name: 'quickstart',
    title: 'QuickStart: REINFORCE on CartPole',
    description:
      'PaddlePaddle PARL\'s QuickStart: a policy gradient learns to balance a pole from whole episodes collected by remote actors.',
    // PARL's QuickStart uses one episode per update, lr 1e-3 and a 4-20-2 tanh net. With a batch of
    // episodes from several actors per update, a larger step (1e-2) and 64 hidden units converge in
    // far fewer updates; the return normalisation keeps the step size stable.
    settings: {
      algorithm: 'reinforce',
      'env.id': 'CartPole-v1',
      actors: 2,
      envsPerActor: 4,
      'model.hidden': 64,
      'model.layers': 1,
      'model.activation': 'tanh',
      'reinforce.lr': 0.01,
      'reinforce.gamma': 0.99,
      'run.envSteps': 300_000,
    },
  },
];

/** Every preset: QuickStart, the parallel engine's, and the agent swarm's. */
export const PRESETS: readonly Preset[] = [...CORE_PRESETS, ...ENGINE_PRESETS, ...SWARM_PRESETS];

export const PRESET_NAMES: readonly string[] = PRESETS.map((p) => p.name);

export function getPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
