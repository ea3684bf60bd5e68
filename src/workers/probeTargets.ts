/**
 * What the backend probe times for a run: its own learner at the batch its descriptor declares
 * (`updateBatch`). Networks the loop trains whole (the discrete families, the swarm's
 * set policy) are timed as they are, with asynchronous reads the probe can stop waiting for.
 * Update rules that read their metrics back synchronously (continuous actor-critic, offline,
 * multi-agent) are built as the run builds them and fed a synthetic batch of the right shape; a
 * network no larger than one part of their update stands in for them where a synchronous read
 * could block the probe for seconds (a software GPU adapter compiling its shaders).
 */
import * as tf from '@tensorflow/tfjs';
import type { ExperimentConfig } from '../config/config';
import { modelSpecFor } from '../config/modelSpec';
import { descriptorOf } from '../config/registry';
import { paramsOf } from '../config/settings';
import { buildModel, type MlpSpec } from '../core/mlp';
import type { Model, ModelOutput } from '../core/model';
import { Rng } from '../core/rng';
import { buildContinuousLearner, continuousNetFor } from '../engine/continuousLearner';
import { mpeTaskSpec } from '../engine/marlActor';
import { EpisodeReplay } from '../engine/marlReplay';
import { continuousEnvSpec } from '../envs/registry';
import { SP_OBS_DIM, SetPolicyModel } from '../swarm/setPolicy';

/** A network trained by one forward pass and one optimiser step on a batch of inputs. */
export interface ProbeNetwork {
  build(): Model<ModelOutput>;
  inputDim: number;
  batch: number;
}

/** One real update of the run's learner, read back before it returns. */
export interface ProbeLearner {
  update(): void;
  dispose(): void;
}

export interface ProbeTarget {
  algorithm: string;
  /** The batch one gradient step trains on (the descriptor's updateBatch). */
  batch: number;
  /** Cache key: the learner, its sizes and its batch. */
  key: string;
  /** The network timed asynchronously: the whole learner when `learner` is null, else a part of its update. */
  network: ProbeNetwork;
  /** Builds the run's own update rule on the active backend; null when `network` is the learner. */
  learner: (() => Promise<ProbeLearner>) | null;
  /**
   * Why a software GPU adapter is not timed for this learner (null: it is): the set policy's many
   * shaders keep SwiftShader's GPU process compiling for about a minute after the probe stops waiting,
   * and a page reloaded meanwhile waits for its adapter as long.
   */
  skipSoftwareAdapter?: string;
}

/** Batches outside this range are timed at its edge (a probe must stay short). */
const MIN_BATCH = 1;
const MAX_BATCH = 8192;

/** The batch one of the run's updates trains on, as its descriptor declares it. */
export function updateBatchOf(config: ExperimentConfig): number {
  const raw = descriptorOf(config.settings.algorithm).updateBatch(config.settings);
  if (!Number.isFinite(raw)) throw new Error(`${config.settings.algorithm}: its update batch is not a number (${raw})`);
  return Math.max(MIN_BATCH, Math.min(MAX_BATCH, Math.round(raw)));
}

function specKey(spec: MlpSpec): string {
  return `${spec.kind ?? 'policy'}:${spec.obsDim}-${spec.hidden.join('-')}-${spec.numActions}:${spec.activation}`;
}

function mlp(spec: MlpSpec, batch: number): ProbeNetwork {
  return { build: () => buildModel(spec, 1), inputDim: spec.obsDim, batch };
}

/** Deterministic values in [-1, 1]: only the shapes matter for timing. */
function filler(n: number, offset = 0): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (((i + offset) * 7919) % 2001) / 1000 - 1;
  return out;
}

/** What the probe times for `config`'s run. */
export function probeTargetFor(config: ExperimentConfig): ProbeTarget {
  const s = config.settings;
  const d = descriptorOf(s.algorithm);
  const batch = updateBatchOf(config);
  const base = { algorithm: d.id, batch };
  if (d.loop === 'swarm') {
    const hidden = s['swarm.hidden'] as number;
    const network = { build: () => new SetPolicyModel({ hidden, seed: 1 }), inputDim: SP_OBS_DIM, batch };
    return { ...base, key: `${d.id}:set-${SP_OBS_DIM}-${hidden}:b${batch}`, network, learner: null, skipSoftwareAdapter: 'not timed: a software adapter, where the set policy’s shaders take about a minute to compile' };
  }
  if (d.family === 'marl') {
    const task = mpeTaskSpec(s['marl.env']);
    const params = paramsOf(s, d);
    const hidden = typeof params.hidden === 'number' ? params.hidden : 64;
    // One agent's network on `batch` rows: a part of every multi-agent update.
    const part: MlpSpec = { obsDim: Math.max(...task.obsDims), numActions: Math.max(...task.actionSizes), hidden: [hidden], activation: 'relu' };
    return { ...base, key: `${d.id}:${task.envId}:${JSON.stringify(params)}:b${batch}`, network: mlp(part, batch), learner: () => marlLearner(config) };
  }
  if (d.actionSpace === 'box') {
    const net = continuousNetFor(config);
    const env = continuousEnvSpec(s['env.id']);
    // The actor network alone: a part of every actor-critic update.
    const part: MlpSpec = { obsDim: env.obsDim, numActions: env.actionDim, hidden: net.hidden, activation: net.activation };
    const learner = d.loop === 'onPolicyContinuous' ? () => onPolicyLearner(config, batch) : () => replayLearner(config, batch);
    return { ...base, key: `${d.id}:${env.obsDim}-${net.hidden.join('-')}-${env.actionDim}:${net.activation}:${JSON.stringify(paramsOf(s, d))}:b${batch}`, network: mlp(part, batch), learner };
  }
  const spec = modelSpecFor(config, d.network ?? 'policy');
  return { ...base, key: `${specKey(spec)}:b${batch}`, network: mlp(spec, batch), learner: null };
}

/** Off-policy and offline actor-critic: the run's Agent, fed a replay sample of `batch` transitions. */
async function replayLearner(config: ExperimentConfig, batch: number): Promise<ProbeLearner> {
  const { agent, net } = await buildContinuousLearner(config);
  const sample = {
    batchSize: batch,
    obs: filler(batch * net.obsDim),
    nextObs: filler(batch * net.obsDim, 1),
    actions: filler(batch * net.actionDim, 2).map((a, i) => a * Math.abs(net.actionHigh[i % net.actionDim])),
    rewards: filler(batch, 3),
    dones: new Uint8Array(batch),
  };
  return { update: () => void agent.learn(sample), dispose: () => agent.dispose() };
}

/** Gaussian PPO: its update rule on one minibatch, one epoch (what one gradient step of the run sees). */
async function onPolicyLearner(config: ExperimentConfig, batch: number): Promise<ProbeLearner> {
  const s = config.settings;
  const d = descriptorOf(s.algorithm);
  const module = await d.load?.();
  if (module?.kind !== 'continuous') throw new Error(`algorithm ${d.id} is not a Box-action algorithm`);
  const net = continuousNetFor(config);
  const algorithm = module.create(net, { ...paramsOf(s, d), numMinibatches: 1, updateEpochs: 1, annealLr: false }, s.seed);
  const data = {
    batchSize: batch,
    obs: filler(batch * net.obsDim),
    actions: filler(batch * net.actionDim, 1),
    logProbs: filler(batch, 2).map((v) => v - 1),
    advantages: filler(batch, 3),
    returns: filler(batch, 4),
  };
  return { update: () => void algorithm.learn(data), dispose: () => algorithm.dispose() };
}

/** Multi-agent: the run's update rule, fed the batch it samples itself from one stored episode. */
async function marlLearner(config: ExperimentConfig): Promise<ProbeLearner> {
  const s = config.settings;
  const d = descriptorOf(s.algorithm);
  const loaded = await d.load?.();
  if (loaded?.kind !== 'marl') throw new Error(`algorithm ${d.id} is not a multi-agent algorithm`);
  const task = mpeTaskSpec(s['marl.env']);
  const algorithm = loaded.create(task, paramsOf(s, d), s.seed);
  const T = task.episodeLength;
  const agents = task.agents.length;
  const replay = new EpisodeReplay(1, T, task.stateDim, agents);
  replay.add({ numEpisodes: 1, T, state: filler((T + 1) * task.stateDim), actions: new Int32Array(T * agents), rewards: filler(T * agents, 1) });
  const rng = new Rng(s.seed);
  return { update: () => void algorithm.learn(algorithm.sampleBatch(replay, rng)), dispose: () => algorithm.dispose() };
}

/** One forward pass and one Adam step of `model` on `x`; resolves when the device is done. */
export async function forwardAndUpdate(model: Model<ModelOutput>, x: tf.Tensor2D, optimizer: tf.Optimizer): Promise<void> {
  const forward = tf.tidy(() => Object.values(model.forward(x))[0]);
  const cost = optimizer.minimize(
    () => {
      const out = Object.values(model.forward(x));
      return tf.addN(out.map((t) => tf.mean(tf.square(t)))) as tf.Scalar;
    },
    true,
    model.variables(),
  );
  // Reading back waits for the device: what one update really costs.
  await Promise.all([forward.data(), cost?.data()]);
  forward.dispose();
  cost?.dispose();
}

/** The inputs of a ProbeNetwork, as a tensor on the active backend. */
export function networkInputs(network: ProbeNetwork): tf.Tensor2D {
  return tf.tensor2d(filler(network.batch * network.inputDim), [network.batch, network.inputDim]);
}
