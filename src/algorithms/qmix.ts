/**
 * QMIX (Rashid et al. 2018, "QMIX: Monotonic Value Function Factorisation for Deep Multi-Agent
 * RL"), with VDN (Sunehag et al. 2018) and independent Q-learning (IQL, Tan 1993) as baselines
 * that share everything but the mixer. Layout and defaults of pymarl / EPyMARL (src/learners/
 * q_learner.py, src/modules/agents/rnn_agent.py, src/config/algs/qmix.yaml).
 *
 * Agent network Q_θ: the recurrent model in src/core/rnnAgent.ts (fc1 → relu → GRU → fc2), shared
 * by every agent; this module is the update rule that trains it.
 *
 * Per learn(batch of B episodes, T steps), with the team reward r(t) = Σ_a r_a(t) and targets
 * from target copies θ⁻ (and mixer φ⁻), double Q (pymarl double_q): the next action is
 *     u'_a = argmax_u Q_θ(τ_a(t+1), u),   Q⁻_a(t+1) = Q_θ⁻(τ_a(t+1), u'_a)
 * (or max_u Q_θ⁻ without double Q). The mixers:
 *   qmix: Q_tot(t) = f_φ(Q_1(t, u_1) … Q_A(t, u_A); s(t))     (src/core/qmixMixer.ts, monotonic)
 *         y(t)     = r(t) + γ f_φ⁻(Q⁻_1(t+1) … Q⁻_A(t+1); s(t+1))
 *         L        = mean_{b,t} (Q_tot(t) − y(t))²
 *   vdn:  Q_tot(t) = Σ_a Q_a(t, u_a),   y(t) = r(t) + γ Σ_a Q⁻_a(t+1),   same L
 *   none: each agent on its own: y_a(t) = r(t) + γ Q⁻_a(t+1),  L = mean_{b,t,a} (Q_a(t, u_a) − y_a(t))²
 * MPE episodes are truncated, never terminated, so every step bootstraps (t = T−1 from the last
 * observation). With `standardiseRewards` (EPyMARL), r(t) is replaced by (r(t) − μ) / σ, the
 * running statistics of every team reward learned on so far (updated with the batch first).
 * Gradients are clipped to a global norm (grad_norm_clip 10); one Adam step.
 * Targets are hard copies every `targetUpdateEpisodes` episodes. Acting: ε-greedy, ε linear from
 * startE to endE over `epsilonAnnealSteps` environment steps.
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm } from '../core/algorithm';
import { FusedAdam } from '../core/fusedAdam';
import { Model } from '../core/model';
import { QmixMixer } from '../core/qmixMixer';
import { Rng } from '../core/rng';
import { RnnAgent } from '../core/rnnAgent';
import { readScalars } from '../core/tensorUtils';
import { agentInputDim, checkEpisodeBatch, episodeAgentInputs, type EpisodeSource, type MarlActingSpec, type MarlAlgorithm, type MarlAlgorithmModule, type MarlEpisodeBatch, type MarlTaskSpec } from './marl';

export type MixerKind = 'qmix' | 'vdn' | 'none';

export interface QmixParams {
  lr: number;
  gamma: number;
  /** GRU width (rnn_hidden_dim). */
  hidden: number;
  /** Episodes per gradient step. */
  batchSize: number;
  /** Episodes the replay keeps. */
  bufferSize: number;
  /** Episodes collected per gradient step. */
  trainEvery: number;
  targetUpdateEpisodes: number;
  startE: number;
  endE: number;
  epsilonAnnealSteps: number;
  gradClip: number;
  doubleQ: boolean;
  /**
   * Standardise the team reward by its running mean and standard deviation before the TD target
   * (EPyMARL's standardise_rewards: True in its qmix.yaml, vdn.yaml and iql.yaml; pymarl has no
   * such option). Absent or false: the raw team reward, as pymarl.
   */
  standardiseRewards?: boolean;
}

/**
 * Running mean and variance of a scalar stream, merged batch by batch (Chan et al.'s parallel
 * algorithm, as EPyMARL's RunningMeanStd in src/components/standarize_stream.py, started at
 * mean 0, variance 1, count 1e-4): for a batch of n values with mean m_b and unbiased variance v_b,
 *     δ = m_b − μ,   N = c + n,   μ' = μ + δ n / N,
 *     σ²' = (σ² c + v_b n + δ² c n / N) / N,   c' = N.
 */
export class RunningMeanStd {
  mean = 0;
  variance = 1;
  count = 1e-4;

  update(values: ArrayLike<number>): void {
    const n = values.length;
    if (n === 0) return;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[i];
    const batchMean = sum / n;
    let sq = 0;
    for (let i = 0; i < n; i++) sq += (values[i] - batchMean) ** 2;
    const batchVar = n > 1 ? sq / (n - 1) : 0; // torch.var: unbiased
    const delta = batchMean - this.mean;
    const total = this.count + n;
    this.variance = (this.variance * this.count + batchVar * n + (delta * delta * this.count * n) / total) / total;
    this.mean += (delta * n) / total;
    this.count = total;
  }

  /** (x − μ) / σ (EPyMARL divides by sqrt(var) with no epsilon; σ is floored here so a constant stream cannot divide by 0). */
  standardise(x: number): number {
    return (x - this.mean) / Math.sqrt(Math.max(this.variance, 1e-8));
  }
}

/** r(t) = Σ_a r_a(t) per episode and step, [B·T] from rewards [B, T, A]. */
export function teamRewards(batch: MarlEpisodeBatch, numAgents: number): Float32Array {
  const n = batch.numEpisodes * batch.T;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let a = 0; a < numAgents; a++) r += batch.rewards[i * numAgents + a];
    out[i] = r;
  }
  return out;
}

export interface QmixMixerParams {
  /** E, the mixing layer width (mixing_embed_dim). */
  embedDim: number;
  /** Hidden width of the hypernetworks (hypernet_embed). */
  hypernetEmbed: number;
}

/** A mixer of chosen-action values [N, A] (with states [N, S]) into team values [N]. */
interface Mixer {
  readonly kind: MixerKind;
  /** The online and target mixing networks (none for VDN and IQL). */
  readonly online: QmixMixer | null;
  readonly target: QmixMixer | null;
}

function makeMixer(kind: MixerKind, task: MarlTaskSpec, mixer: QmixMixerParams | null, seed: number): Mixer {
  if (kind !== 'qmix') return { kind, online: null, target: null };
  if (!mixer) throw new Error('QMIX needs its mixer settings (embedDim, hypernetEmbed)');
  const spec = { numAgents: task.agents.length, stateDim: task.stateDim, embedDim: mixer.embedDim, hypernetEmbed: mixer.hypernetEmbed };
  return { kind, online: new QmixMixer(spec, seed), target: new QmixMixer(spec, seed + 1) };
}

export class Qmix extends Algorithm<MarlEpisodeBatch, RnnAgent> implements MarlAlgorithm<MarlEpisodeBatch> {
  readonly acting: MarlActingSpec;
  readonly target: RnnAgent;
  readonly mixer: Mixer;
  protected override optimizer: FusedAdam;
  private readonly anyUnavailable: boolean;
  /** [A, maxActions]: 0 where the agent has the action, −1e9 where it does not. */
  private readonly unavailable: Float32Array;
  private readonly numActions: number;
  private episodesAtSync = 0;
  private episodesAtTrain = 0;
  /** The team reward's running statistics (used when params.standardiseRewards). */
  readonly rewardStats = new RunningMeanStd();

  constructor(
    readonly task: MarlTaskSpec,
    readonly params: QmixParams,
    mixerKind: MixerKind,
    mixerParams: QmixMixerParams | null,
    seed: number,
  ) {
    const D = agentInputDim(task);
    const numActions = Math.max(...task.actionSizes);
    super(new RnnAgent(D, params.hidden, numActions, seed));
    if (new Set(task.sides).size > 1) {
      throw new Error(`${mixerKind === 'none' ? 'IQL' : mixerKind.toUpperCase()} trains one team on the summed reward; ${task.envId} has competing sides (use MADDPG)`);
    }
    if (!(params.gamma >= 0 && params.gamma <= 1)) throw new Error(`gamma must be in [0, 1], got ${params.gamma}`);
    this.numActions = numActions;
    this.target = new RnnAgent(D, params.hidden, numActions, seed + 7);
    this.model.syncWeightsTo(this.target, 0);
    this.mixer = makeMixer(mixerKind, task, mixerParams, seed + 11);
    this.mixer.online?.syncWeightsTo(this.mixer.target as QmixMixer, 0);
    this.optimizer = new FusedAdam(params.lr, 0.9, 0.999, 1e-8); // = makeOptimizer('adam', lr, 1e-8), fused
    this.acting = { kind: 'rnnShared', hidden: params.hidden };
    const A = task.agents.length;
    this.unavailable = new Float32Array(A * numActions);
    for (let a = 0; a < A; a++) for (let u = task.actionSizes[a]; u < numActions; u++) this.unavailable[a * numActions + u] = -1e9;
    this.anyUnavailable = this.unavailable.some((v) => v !== 0);
  }

  override models(): Model[] {
    const mixers = this.mixer.online && this.mixer.target ? [this.mixer.online, this.mixer.target] : [];
    return [this.model, this.target, ...mixers];
  }

  /** Q from a zero hidden state [B, maxActions] (the first step of an episode). Caller disposes. */
  predict(x: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(x).q);
  }

  sample(x: tf.Tensor2D): tf.Tensor2D {
    return this.predict(x);
  }

  get replayEpisodes(): number {
    return this.params.bufferSize;
  }

  explorationAt(envSteps: number): number {
    const { startE, endE, epsilonAnnealSteps } = this.params;
    const frac = Math.min(1, envSteps / Math.max(1, epsilonAnnealSteps));
    return startE + (endE - startE) * frac;
  }

  sampleBatch(replay: EpisodeSource, rng: Rng): MarlEpisodeBatch {
    return replay.sampleEpisodes(this.params.batchSize, rng);
  }

  gradientStepsDue(_totalEnvSteps: number, _newEnvSteps: number, storedEpisodes: number): number {
    if (storedEpisodes < this.params.batchSize) {
      this.episodesAtTrain = storedEpisodes;
      return 0;
    }
    const due = Math.floor((storedEpisodes - this.episodesAtTrain) / this.params.trainEvery);
    this.episodesAtTrain += due * this.params.trainEvery;
    return due;
  }

  afterCollect(totalEpisodes: number): void {
    if (totalEpisodes - this.episodesAtSync >= this.params.targetUpdateEpisodes) {
      this.syncTarget(1);
      this.episodesAtSync = totalEpisodes;
    }
  }

  override syncTarget(tau = 1): void {
    this.model.syncWeightsTo(this.target, 1 - tau);
    if (this.mixer.online && this.mixer.target) this.mixer.online.syncWeightsTo(this.mixer.target, 1 - tau);
  }

  /** Q of every agent at every step 0..T: [T + 1, B, A, maxActions], unavailable actions at −1e9. */
  private sequenceQ(net: RnnAgent, inputs: tf.Tensor3D, B: number, T: number): tf.Tensor4D {
    const A = this.task.agents.length;
    const q = tf.reshape(net.unroll(inputs), [T + 1, B, A, this.numActions]) as tf.Tensor4D;
    return this.anyUnavailable ? (tf.add(q, tf.tensor3d(this.unavailable, [1, A, this.numActions])) as tf.Tensor4D) : q;
  }

  /**
   * A batch as time-major tensors, and the target network's Q⁻(τ(t + 1), ·) [T, B, A, n], which
   * takes no gradient: `learn` builds this before the gradient tape so that the target unroll
   * is not recorded. Call inside tf.tidy.
   */
  prepare(batch: MarlEpisodeBatch): PreparedBatch {
    const { numEpisodes: B, T } = batch;
    const A = this.task.agents.length;
    const S = this.task.stateDim;
    const D = agentInputDim(this.task);
    // [B, T+1, A, D] → time-major [T+1, B·A, D]
    const inputs = tf.reshape(tf.transpose(tf.tensor4d(episodeAgentInputs(this.task, batch), [B, T + 1, A, D]), [1, 0, 2, 3]), [T + 1, B * A, D]) as tf.Tensor3D;
    const actions = tf.transpose(tf.tensor3d(batch.actions, [B, T, A], 'int32'), [1, 0, 2]) as tf.Tensor3D; // [T, B, A]
    const team = teamRewards(batch, A); // [B, T]
    if (this.params.standardiseRewards) for (let i = 0; i < team.length; i++) team[i] = this.rewardStats.standardise(team[i]);
    const teamReward = tf.transpose(tf.tensor2d(team, [B, T])) as tf.Tensor2D; // [T, B]
    const states = tf.transpose(tf.tensor3d(batch.state, [B, T + 1, S]), [1, 0, 2]) as tf.Tensor3D; // [T+1, B, S]
    const qTarget = this.sequenceQ(this.target, inputs, B, T);
    const qTargetNext = tf.slice(qTarget, [1, 0, 0, 0], [T, B, A, this.numActions]);
    return { B, T, inputs, actions, teamReward, states, qTargetNext };
  }

  /** The loss of the header for one batch; call inside tf.tidy / variableGrads. */
  loss(batch: MarlEpisodeBatch, prepared: PreparedBatch = this.prepare(batch)): { loss: tf.Scalar; chosen: tf.Tensor3D; target: tf.Tensor } {
    const { B, T, inputs, actions, teamReward, states, qTargetNext } = prepared;
    const A = this.task.agents.length;
    const S = this.task.stateDim;
    const q = this.sequenceQ(this.model, inputs, B, T);
    const qNow = tf.slice(q, [0, 0, 0, 0], [T, B, A, this.numActions]);
    const chosen = tf.sum(tf.mul(qNow, tf.oneHot(actions, this.numActions)), 3) as tf.Tensor3D; // [T, B, A]

    let nextValue: tf.Tensor3D; // Q⁻_a(t+1), [T, B, A]
    if (this.params.doubleQ) {
      const greedy = tf.argMax(tf.slice(q, [1, 0, 0, 0], [T, B, A, this.numActions]), 3);
      nextValue = tf.sum(tf.mul(qTargetNext, tf.oneHot(greedy, this.numActions)), 3) as tf.Tensor3D;
    } else nextValue = tf.max(qTargetNext, 3) as tf.Tensor3D;
    const gamma = this.params.gamma;

    if (this.mixer.kind === 'none') {
      const y = tf.add(tf.expandDims(teamReward, 2), tf.mul(gamma, nextValue));
      return { loss: tf.mean(tf.square(tf.sub(chosen, y))) as tf.Scalar, chosen, target: y };
    }
    let qTot: tf.Tensor;
    let nextTot: tf.Tensor;
    if (this.mixer.kind === 'vdn') {
      qTot = tf.sum(chosen, 2);
      nextTot = tf.sum(nextValue, 2);
    } else {
      const online = this.mixer.online as QmixMixer;
      const target = this.mixer.target as QmixMixer;
      const sNow = tf.reshape(tf.slice(states, [0, 0, 0], [T, B, S]), [T * B, S]) as tf.Tensor2D;
      const sNext = tf.reshape(tf.slice(states, [1, 0, 0], [T, B, S]), [T * B, S]) as tf.Tensor2D;
      qTot = online.mix(tf.reshape(chosen, [T * B, A]) as tf.Tensor2D, sNow);
      nextTot = target.mix(tf.reshape(nextValue, [T * B, A]) as tf.Tensor2D, sNext);
      nextTot = tf.reshape(nextTot, [T, B]);
      qTot = tf.reshape(qTot, [T, B]);
    }
    const y = tf.add(teamReward, tf.mul(gamma, nextTot));
    return { loss: tf.mean(tf.square(tf.sub(qTot, y))) as tf.Scalar, chosen, target: y };
  }

  private trainables(): tf.Variable[] {
    return [...this.model.variables(), ...(this.mixer.online?.variables() ?? [])];
  }

  learn(batch: MarlEpisodeBatch): Record<string, number> {
    checkEpisodeBatch(this.task, batch, 'Qmix.learn');
    const A = this.task.agents.length;
    // Figures read inside the gradient closure are kept past its scope; readScalars frees them.
    const kept: Record<string, tf.Scalar> = {};
    // EPyMARL's q_learner updates the statistics with the batch, then standardises it.
    if (this.params.standardiseRewards) this.rewardStats.update(teamRewards(batch, A));
    const scalars = tf.tidy(() => {
      const prepared = this.prepare(batch);
      const { value, grads } = tf.variableGrads(() => {
        const out = this.loss(batch, prepared);
        kept.qTaken = tf.keep(tf.mean(out.chosen) as tf.Scalar);
        kept.targetMean = tf.keep(tf.mean(out.target) as tf.Scalar);
        const perAgent = tf.unstack(tf.mean(tf.reshape(out.chosen, [-1, A]), 0));
        this.task.agents.forEach((name, a) => (kept[`Q ${name}`] = tf.keep(perAgent[a] as tf.Scalar)));
        return out.loss;
      }, this.trainables());
      // Global-norm clipping folded into the fused Adam step (one scale of the flat gradient).
      const norm = this.optimizer.clipAndApply(grads, this.params.gradClip);
      const out: Record<string, tf.Scalar> = { loss: value, gradNorm: norm };
      if (this.mixer.online) {
        const w = this.mixer.online.weightsFor(tf.reshape(prepared.states, [-1, this.task.stateDim]) as tf.Tensor2D);
        out['mixer |W1| mean'] = tf.mean(w.w1) as tf.Scalar;
        out['mixer |Wf| mean'] = tf.mean(w.wFinal) as tf.Scalar;
      }
      return out;
    });
    return readScalars({ ...scalars, ...kept });
  }
}

/** A batch staged for `Qmix.loss` (see `Qmix.prepare`). */
export interface PreparedBatch {
  B: number;
  T: number;
  /** [T + 1, B·A, D] agent inputs. */
  inputs: tf.Tensor3D;
  /** [T, B, A] */
  actions: tf.Tensor3D;
  /** [T, B] r(t) = Σ_a r_a(t) */
  teamReward: tf.Tensor2D;
  /** [T + 1, B, S] */
  states: tf.Tensor3D;
  /** [T, B, A, n] the target network's Q at t + 1. */
  qTargetNext: tf.Tensor;
}

type QmixAllParams = QmixParams & QmixMixerParams;

/** The three baselines as modules for their descriptors (the mixer is the only difference). */
export const qmix: MarlAlgorithmModule<QmixAllParams> = {
  kind: 'marl',
  create: (task, params, seed) => new Qmix(task, params, 'qmix', params, seed),
};
export const vdn: MarlAlgorithmModule<QmixParams> = {
  kind: 'marl',
  create: (task, params, seed) => new Qmix(task, params, 'vdn', null, seed),
};
export const iql: MarlAlgorithmModule<QmixParams> = {
  kind: 'marl',
  create: (task, params, seed) => new Qmix(task, params, 'none', null, seed),
};
