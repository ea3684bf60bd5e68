/**
 * PARL Playground as a library: the same pieces the playground and the CLI are built from.
 */

// core: PaddlePaddle PARL's Model / Algorithm / Agent, the RNG, backend choice, checkpoints
export { Model, type ModelOutput, type WeightSpec } from './core/model';
export { Algorithm } from './core/algorithm';
export { Agent, categoricalRows, type SaveOptions } from './core/agent';
export { PolicyMlp, ActorCriticMlp, QMlp, buildModel, buildPolicyModel, orthogonal, type MlpSpec } from './core/mlp';
export { Rng, deriveSeed } from './core/rng';
export { chooseBackend, isNode, type BackendChoice, type BackendName, type BackendAttempt } from './core/backend';
export { encodeCheckpoint, decodeCheckpoint, saveCheckpointFile, loadCheckpointFile, saveCheckpointIdb, loadCheckpointIdb, type Checkpoint } from './core/checkpoint';

// remote actors: remote_class on Web Workers / worker threads
export {
  remoteClass,
  registerActorClass,
  ActorPool,
  setActorSpawner,
  RemoteActorError,
  ActorDiedError,
  ActorCallTimeoutError,
  type RemoteActor,
  type RemoteClassHandle,
  type ActorPoolOptions,
  type PoolEvent,
  type PoolActorStatus,
} from './core/remote';

// environments
export { makeEnv, registerEnv, listEnvs, envSpec, VectorEnv, CartPoleEnv, AcrobotEnv, MountainCarEnv } from './envs';
export type { Env, StepResult, ResetResult, BoxSpace, DiscreteSpace, Space, EnvSpec, VectorStep } from './envs';

// algorithms
export { Reinforce, discountedReturns, type ReinforceConfig, type ReinforceBatch } from './algorithms/reinforce';
export { A2c, type A2cConfig } from './algorithms/a2c';
export { Ppo, type PpoConfig, type PpoBatch } from './algorithms/ppo';
export { Impala, type ImpalaConfig, type ImpalaBatch } from './algorithms/impala';
export { Dqn, linearEpsilon, type DqnConfig } from './algorithms/dqn';
export { EsLearner, centeredRanks, type EsConfig } from './algorithms/es';
export { NoiseTable } from './algorithms/noiseTable';
export { ReplayBuffer } from './algorithms/replayBuffer';
export { gae, type GaeResult } from './algorithms/gae';
export { vtrace, type VtraceInput, type VtraceResult } from './algorithms/vtrace';

// the agent swarm (Kimi K2.5's PARL)
export { criticalSteps, totalSteps, episodeLatencyStats } from './swarm/criticalSteps';
export { parlReward, type ParlRewardInput, type ParlRewardResult } from './swarm/parlReward';
export { scheduleValue, sampleSchedule, lambdasAt } from './swarm/schedules';
export type { ScheduleSpec, ScheduleKind, LatencyStats } from './swarm/types';

// experiments: algorithm descriptors, config, presets, shareable links, the training run
export { defineAlgorithm, defaultParams, type AlgorithmDescriptor, type LoopKind, type NetworkKind, type PresetDef } from './config/algorithm';
export { ALGORITHM_DESCRIPTORS, descriptorOf, type AlgorithmId } from './config/registry';
export { resolveExperiment, ConfigError, type ExperimentConfig } from './config/config';
export { PRESETS, getPreset, type Preset } from './config/presets';
export { SETTINGS, type ExperimentSettings, type SettingKey } from './config/settings';
export { encodeExperiment, decodeExperiment, experimentUrl, type DecodedExperiment } from './config/urlState';
export { TrainingRun } from './engine/trainer';
export type { RunRecord, UpdateRecord, SummaryRecord } from './runs/records';
