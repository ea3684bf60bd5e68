export type {
  BoxSpace,
  DiscreteSpace,
  Space,
  Info,
  ResetResult,
  StepResult,
  ResetOptions,
  Env,
  TimeLimitedEnv,
  InPlaceEnv,
  EnvOptions,
  Action,
  BoxActionEnv,
} from './types';
export { ClassicControlEnv } from './base';
export { CartPoleEnv, CARTPOLE } from './cartpole';
export { AcrobotEnv, ACROBOT } from './acrobot';
export { MountainCarEnv, MOUNTAIN_CAR } from './mountainCar';
export { ContinuousControlEnv } from './continuousBase';
export { PendulumEnv, PENDULUM, angleNormalize } from './pendulum';
export { MountainCarContinuousEnv, MOUNTAIN_CAR_CONTINUOUS } from './mountainCarContinuous';
export { makeEnv, registerEnv, listEnvs, envSpec, continuousEnvSpec, actionKind } from './registry';
export type { EnvFactory, EnvMeta, EnvSpec, ContinuousEnvSpec } from './registry';
export { VectorEnv } from './vectorEnv';
export type { VectorStep, VectorEnvOptions } from './vectorEnv';
export {
  MpeEnv,
  MpeVectorEnv,
  makeMpeEnv,
  isMpeEnvId,
  MPE_ENV_IDS,
  MPE_DEFAULTS,
  describeWorld as describeMpeWorld,
} from './mpe';
export type {
  MpeAction,
  MpeEnvId,
  MakeMpeOptions,
  MpeEpisode,
  MpeVectorStep,
  MpeRenderFrame,
  MpeRenderEntity,
  MpeMessage,
  ParallelEnv,
  ParallelResetResult,
  ParallelStepResult,
  PerAgent,
} from './mpe';
