/**
 * An algorithm's descriptor: what the config, the engine and the page need to know about one
 * algorithm, declared once in its own module under src/config/algorithms/. From the descriptors
 * come the settings table, the zod schema, the CLI's `--set`, the URL codec, the config panel,
 * the preset gallery and the training loop a run uses.
 *
 * A descriptor is plain data plus `load`, which imports the update rule lazily: the page's first
 * bundle reads every descriptor and never carries tfjs.
 */
import type { Algorithm } from '../core/algorithm';
import type { ActorCriticMlp, PolicyMlp, QMlp } from '../core/mlp';
import type { Setting, SettingValue } from './settingKinds';
import type { SharedSettingValues } from './sharedSettings';
import type { MarlAlgorithmModule } from '../algorithms/marl';

/** How a run places its learner and actors (src/engine/loops/): one loop per kind. */
export type LoopKind = 'episodic' | 'sync' | 'async' | 'replay' | 'es' | ContinuousLoopKind | 'marl' | 'swarm';
/** Loops of Box-action algorithms: Ape-X style off-policy actors, synchronous on-policy segments, offline from a dataset. */
export type ContinuousLoopKind = 'offPolicyContinuous' | 'onPolicyContinuous' | 'offline';
/** The remote actor class the loop's actors are. */
export type ActorKind = 'RolloutActor' | 'ContinuousRolloutActor' | 'MarlActor' | 'SwarmActor';
/** What an algorithm's actions are: indices of a Discrete space, or vectors of a Box space. */
export type ActionSpaceKind = 'discrete' | 'box';
/** Classic control trains on a Gymnasium-style environment; the swarm has its own task. */
export type AlgorithmFamily = 'classic' | 'swarm' | 'marl';

/** The networks the engine builds from the model settings, by kind. */
export interface NetworkModels {
  policy: PolicyMlp;
  actorCritic: ActorCriticMlp;
  q: QMlp;
}
export type NetworkKind = keyof NetworkModels;

export type ParamsOf<S extends Record<string, Setting>> = { -readonly [K in keyof S]: SettingValue<S[K]> };
export type Prefixed<P extends string, S> = { [K in keyof S & string as `${P}.${K}`]: S[K] };
type PrefixedValues<P extends string, S extends Record<string, Setting>> = { [K in keyof S & string as `${P}.${K}`]: SettingValue<S[K]> };

/** A named starting point: one sentence on what it shows, and the settings it changes. */
export interface PresetDef<P extends string = string, S extends Record<string, Setting> = Record<string, Setting>> {
  name: string;
  title: string;
  description: string;
  settings: Partial<SharedSettingValues & PrefixedValues<P, S>>;
}

/**
 * What an algorithm module exports for the engine: build the update rule from the network the
 * settings describe and the algorithm's own settings (method syntax, so a registry of different
 * algorithms can hold them side by side).
 */
export interface AlgorithmModule<N extends NetworkKind, Params> {
  /** An update rule of the network the engine builds from the model settings (the descriptor's `network`). */
  readonly kind: 'network';
  create(model: NetworkModels[N], params: Params, seed: number): Algorithm;
}

/** What a descriptor's `load` brings: an update rule whose `kind` says which of the three shapes it has. */
export type LoadedAlgorithm<N extends NetworkKind, Params> = AlgorithmModule<N, Params> | ContinuousAlgorithmModule<Params> | MarlAlgorithmModule<Params>;
export type AlgorithmKind = LoadedAlgorithm<NetworkKind, unknown>['kind'];

export interface AlgorithmDescriptor<Id extends string = string, P extends string = string, S extends Record<string, Setting> = Record<string, Setting>, N extends NetworkKind = NetworkKind> {
  id: Id;
  /** Prefix of its setting keys: `ppo.lr` is setting `lr` of the algorithm with prefix `ppo`. */
  prefix: P;
  /** Short name for the page. */
  label: string;
  family: AlgorithmFamily;
  loop: LoopKind;
  actor: ActorKind;
  /** The network the learner trains from the model settings; null when the loop builds its own. */
  network: N | null;
  /** Its hyperparameters: names equal the update rule's config fields, one default each. */
  settings: S;
  presets: readonly PresetDef<P, S>[];
  /**
   * The update rule, imported on demand (loops that build their own learner leave it out). Its `kind`
   * says how the engine builds it: from the network (`network`), from a Box env's sizes and bounds
   * (`continuous`), or from a multi-agent task (`marl`).
   */
  load?: () => Promise<LoadedAlgorithm<N, ParamsOf<S>>>;
  /** The action space it acts in (default 'discrete'); the config refuses an env of the other kind. */
  actionSpace?: ActionSpaceKind;
  /**
   * What one gradient step of its update trains on, from the run's settings: transitions, rows of
   * a minibatch, or whole episodes for the recurrent multi-agent rules. "auto" times the learner at
   * this batch (src/workers/backendProbe.ts). Method syntax, so descriptors of different settings
   * sit side by side in the registry.
   */
  updateBatch(settings: UpdateBatchSettings<P, S>): number;
  /**
   * Its actors run no network (the learner answers their every tick), so they cost the page little
   * and their number is part of the experiment (the episodes of an update): the page runs a preset's
   * own count instead of one actor per spare core.
   */
  lightActors?: true;
}

/** The settings an update's batch size follows from: the shared ones and the algorithm's own. */
export type UpdateBatchSettings<P extends string, S extends Record<string, Setting>> = Readonly<SharedSettingValues & PrefixedValues<P, S>>;

/** The networks of a Box-action algorithm: sizes, the env's action bounds and the model settings. */
export interface ContinuousNetSpec {
  obsDim: number;
  actionDim: number;
  actionLow: number[];
  actionHigh: number[];
  hidden: number[];
  activation: 'tanh' | 'relu';
}

/** What a Box-action algorithm module exports: `create` builds its models and its update rule. */
export interface ContinuousAlgorithmModule<Params> {
  /** A Box-action update rule: it builds its own networks from the env (the descriptor's `network` is null). */
  readonly kind: 'continuous';
  create(net: ContinuousNetSpec, params: Params, seed: number): Algorithm;
  /** How the actors act with its actor network (see src/engine/continuousPolicy.ts). */
  readonly policy: 'deterministic' | 'squashedGaussian' | 'gaussian';
  /** Extra random draws its batches carry besides noise / nextNoise / targetNoise ([B·rows, A] each). */
  batchDraws?(params: Params): readonly BatchDraw[];
}

/** A tensor of random draws in a batch: `rows` per transition, standard-normal or uniform in (−1, 1). */
export interface BatchDraw {
  name: string;
  rows: number;
  kind: 'normal' | 'uniform';
}

/** Declare an algorithm; the identity function that fixes the descriptor's literal types. */
export function defineAlgorithm<const Id extends string, const P extends string, const S extends Record<string, Setting>, N extends NetworkKind>(
  d: AlgorithmDescriptor<Id, P, S, N>,
): AlgorithmDescriptor<Id, P, S, N> {
  return d;
}

/** The default of every setting of one algorithm, by field name (what `create` receives unchanged). */
export function defaultParams<S extends Record<string, Setting>>(settings: S): ParamsOf<S> {
  const out: Record<string, unknown> = {};
  for (const [k, setting] of Object.entries(settings)) out[k] = setting.default;
  return out as ParamsOf<S>;
}
