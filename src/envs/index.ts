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
} from './types';
export { ClassicControlEnv } from './base';
export { CartPoleEnv, CARTPOLE } from './cartpole';
export { AcrobotEnv, ACROBOT } from './acrobot';
export { MountainCarEnv, MOUNTAIN_CAR } from './mountainCar';
export { makeEnv, registerEnv, listEnvs, envSpec } from './registry';
export type { EnvFactory, EnvMeta, EnvSpec } from './registry';
export { VectorEnv } from './vectorEnv';
export type { VectorStep, VectorEnvOptions } from './vectorEnv';
