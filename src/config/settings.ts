/**
 * Every setting of an experiment, in one table: its key, range, default and a one-line
 * explanation. The zod schema (config.ts), the CLI's `--set key=value`, the URL codec and the
 * UI's config panel are all derived from this table, so a setting is declared exactly once.
 *
 * Keys are flat and dotted (`reinforce.lr`) so that they read the same on the command line, in
 * a shared link and in the UI.
 */
import { ENGINE_SETTINGS } from './settingsEngine';
import { SWARM_SETTINGS } from './settingsSwarm';
import { choice, flag, int, num, only, type BoolSetting, type EnumSetting, type Setting } from './settingKinds';

export type { Setting, IntSetting, NumberSetting, EnumSetting, BoolSetting } from './settingKinds';


export const ENV_IDS = ['CartPole-v1', 'Acrobot-v1', 'MountainCar-v0'] as const;
export const ALGORITHMS = ['reinforce', 'a2c', 'ppo', 'impala', 'dqn', 'es', 'swarm-ppo'] as const;
/** Everything but the agent swarm, which has its own task, network and budget settings. */
const CLASSIC = ['reinforce', 'a2c', 'ppo', 'impala', 'dqn', 'es'];

export const BACKENDS = ['auto', 'webgpu', 'webgl', 'wasm', 'cpu'] as const;

const CORE_SETTINGS = {
  seed: int('run', 'Seed', 0, 2_147_483_647, 1, 'Seeds every random draw: weight init, resets, action sampling.'),
  'run.envSteps': only(CLASSIC, int('run', 'Budget (env steps)', 1_000, 5_000_000, 200_000, 'The run stops after this many environment steps in total.')),
  'run.targetReturn': only(CLASSIC, num('run', 'Target mean return', -1_000, 1_000, 475, 'The run reports when the mean return of the last 20 episodes first reaches this.')),
  'run.stopAtTarget': only(CLASSIC, flag('run', 'Stop at target', false, 'End the run as soon as the target mean return is reached.')),
  backend: choice('run', 'Learner backend', BACKENDS, 'auto', 'tfjs backend for the learner; auto tries webgpu, webgl, wasm, then cpu.'),
  'env.id': only(CLASSIC, choice('env', 'Environment', ENV_IDS, 'CartPole-v1', 'The Gymnasium-style task the agent learns.')),
  algorithm: choice('run', 'Algorithm', ALGORITHMS, 'reinforce', 'The update rule the learner applies.'),
  actors: int('parallel', 'Actors (workers)', 1, 16, 2, 'How many remote actors (Web Workers / worker threads) collect experience.'),
  envsPerActor: only(['reinforce', 'a2c', 'ppo', 'impala', 'dqn', 'swarm-ppo'], int('parallel', 'Envs per actor', 1, 64, 4, 'Environment copies each actor steps together with one batched forward pass.')),
  'model.hidden': only(CLASSIC, int('model', 'Hidden units', 4, 256, 64, 'Width of each hidden layer of the policy network.')),
  'model.layers': only(CLASSIC, int('model', 'Hidden layers', 1, 3, 1, 'Depth of the policy network.')),
  'model.activation': only(CLASSIC, choice('model', 'Activation', ['tanh', 'relu'] as const, 'tanh', 'Nonlinearity between layers.')),
  'reinforce.lr': num('reinforce', 'Learning rate', 1e-5, 0.1, 0.01, 'Adam step size.', true),
  'reinforce.gamma': num('reinforce', 'Discount γ', 0.8, 1, 0.99, 'How much future reward counts: G_t = Σ γ^k r_{t+k}.'),
  'reinforce.entropyCoef': num('reinforce', 'Entropy bonus', 0, 0.1, 0, 'Weight of the entropy term that keeps the policy exploring.'),
} as const satisfies Record<string, Setting>;

/** Every setting: the core ones above, the parallel engine's, and the agent swarm's. */
export const SETTINGS = { ...CORE_SETTINGS, ...ENGINE_SETTINGS, ...SWARM_SETTINGS } as const;

export type SettingKey = keyof typeof SETTINGS;

type ValueOf<S> = S extends EnumSetting<infer T> ? T : S extends BoolSetting ? boolean : number;

/** A complete experiment configuration: one value for every setting, plus the preset it came from. */
export type ExperimentSettings = { -readonly [K in SettingKey]: ValueOf<(typeof SETTINGS)[K]> };

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTINGS, key);
}

export function defaultSettings(): ExperimentSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) out[key] = SETTINGS[key].default;
  return out as ExperimentSettings;
}
