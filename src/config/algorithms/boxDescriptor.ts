/** Descriptor fields and preset blocks the Box-action descriptors share (DDPG, TD3, SAC, CQL, BC); their settings are in continuousShared.ts. */

/** A Box-action algorithm: classic family, ContinuousRolloutActor actors, networks built by its own module. */
export const BOX_ACTION_ALGORITHM = {
  family: 'classic',
  actor: 'ContinuousRolloutActor',
  network: null,
  actionSpace: 'box',
} as const;

/** The presets' small relu nets, [64, 64] (fast enough in wasm). */
export const SMALL_RELU_NET = {
  'model.hidden': 64,
  'model.layers': 2,
  'model.activation': 'relu',
} as const;

/** The MountainCarContinuous presets' run: one actor on one env, segments of 32, small nets, solved at a return of 90, 1e5 steps. */
export const MOUNTAINCAR_CONTINUOUS_RUN = {
  'env.id': 'MountainCarContinuous-v0',
  actors: 1,
  envsPerActor: 1,
  'sampling.segmentLength': 32,
  ...SMALL_RELU_NET,
  'run.targetReturn': 90,
  'run.envSteps': 100_000,
} as const;
