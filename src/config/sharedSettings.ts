/**
 * Settings every algorithm shares (run, environment, actors, network, sampling), each with the
 * loops or families it applies to. An algorithm's own settings live in its descriptor.
 */
import { choice, flag, int, num, scoped, type Setting, type SettingValue } from './settingKinds';

export const ENV_IDS = ['CartPole-v1', 'Acrobot-v1', 'MountainCar-v0', 'Pendulum-v1', 'MountainCarContinuous-v0'] as const;
/** The env ids whose actions are vectors in a Box (the rest are Discrete); tests check this against the env registry. */
export const BOX_ENV_IDS: readonly string[] = ['Pendulum-v1', 'MountainCarContinuous-v0'];
/** The multi-agent particle worlds (src/envs/mpe; tests check this against MPE_ENV_IDS). */
export const MARL_ENV_IDS = ['simple_spread_v3', 'simple_tag_v3', 'simple_speaker_listener_v4'] as const;
export const BACKENDS = ['auto', 'webgpu', 'webgl', 'wasm', 'cpu'] as const;
export const INFERENCE_PLACEMENTS = ['actor', 'learner'] as const;

const CLASSIC = { families: ['classic'] };
const MARL = { families: ['marl'] };
/** Families whose returns have a target: classic control, and the particle worlds (src/config/returnScales.ts). */
const TARGETED = { families: ['classic', 'marl'] };
/** The runs budgeted in env steps (see budget.ts): not the swarms (updates) nor offline runs (gradient steps). */
const ENV_STEP_BUDGET = { loops: ['episodic', 'sync', 'async', 'replay', 'es', 'offPolicyContinuous', 'onPolicyContinuous', 'marl'] };
const SEGMENT_LOOPS = { loops: ['sync', 'async', 'replay', 'offPolicyContinuous', 'onPolicyContinuous'] };
const ASYNC = { loops: ['async'] };

export const SHARED_SETTINGS = {
  seed: int('run', 'Seed', 0, 2_147_483_647, 1, 'Seeds every random draw: weight init, resets, action sampling.'),
  'run.envSteps': scoped(ENV_STEP_BUDGET, int('run', 'Budget (env steps)', 100, 5_000_000, 200_000, 'The run stops after this many environment steps in total (in a multi-agent world one step moves every agent).')),
  'run.targetReturn': scoped(TARGETED, num('run', 'Target mean return', -1_000, 1_000, 475, 'The run reports when the mean return of the last 20 episodes first reaches this.')),
  'run.stopAtTarget': scoped(TARGETED, flag('run', 'Stop at target', false, 'End the run as soon as the target mean return is reached.')),
  backend: choice('run', 'Learner backend', BACKENDS, 'auto', 'tfjs backend for the learner; auto times this network on each available backend and picks the fastest (a software WebGPU or WebGL adapter is never chosen when wasm is faster).'),
  'env.id': scoped(CLASSIC, choice('env', 'Environment', ENV_IDS, 'CartPole-v1', 'The Gymnasium-style task the agent learns.')),
  actors: int('parallel', 'Actors (workers)', 1, 16, 2, 'How many remote actors (Web Workers / worker threads) collect experience.'),
  envsPerActor: scoped({ loops: ['episodic', 'sync', 'async', 'replay', 'offPolicyContinuous', 'onPolicyContinuous', 'marl', 'swarm'] }, int('parallel', 'Envs per actor', 1, 64, 4, 'Environment copies each actor steps together with one batched forward pass.')),
  'model.hidden': scoped(CLASSIC, int('model', 'Hidden units', 4, 256, 64, 'Width of each hidden layer of the policy network.')),
  'model.layers': scoped(CLASSIC, int('model', 'Hidden layers', 1, 3, 1, 'Depth of the policy network.')),
  'model.activation': scoped(CLASSIC, choice('model', 'Activation', ['tanh', 'relu'] as const, 'tanh', 'Nonlinearity between layers.')),
  inference: scoped({ loops: ['sync', 'async'] }, choice('parallel', 'Inference placement', INFERENCE_PLACEMENTS, 'actor', 'actor: each actor acts with its own policy copy (IMPALA style); learner: actors only step envs and the learner runs one batched forward pass for all (SEED style).')),
  'sampling.segmentLength': scoped(SEGMENT_LOOPS, int('parallel', 'Segment length T', 4, 1_024, 128, 'Steps each env copy runs per segment before the actor sends it (one message per segment).')),
  'sampling.broadcastInterval': scoped(ASYNC, int('parallel', 'Broadcast interval', 1, 100, 1, 'Async mode: the learner sends new weights to the actors every this many updates.')),
  'sampling.queueCapacity': scoped(ASYNC, int('parallel', 'Queue capacity', 1, 64, 4, 'Async mode: segments waiting for the learner; a full queue makes actors wait (backpressure).')),
  'sampling.segmentsPerBatch': scoped(ASYNC, int('parallel', 'Segments per batch', 1, 16, 2, 'Async mode: segments the learner takes from the queue for one update.')),
  'sampling.updateToData': scoped({ loops: ['offPolicyContinuous'] }, num('parallel', 'Update-to-data ratio', 0.05, 8, 1, 'Off-policy actors: gradient steps the learner takes per environment step collected; actors wait when they get this far ahead.')),
  'marl.env': scoped(MARL, choice('env', 'Multi-agent environment', MARL_ENV_IDS, 'simple_spread_v3', 'The particle world (PettingZoo MPE, discrete actions, 25-step episodes) the agents learn in.')),
} as const satisfies Record<string, Setting>;

export type SharedSettingValues = { -readonly [K in keyof typeof SHARED_SETTINGS]: SettingValue<(typeof SHARED_SETTINGS)[K]> };
