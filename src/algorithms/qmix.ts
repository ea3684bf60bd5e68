/**
 * QMIX (Rashid et al. 2018, "QMIX: Monotonic Value Function Factorisation for Deep Multi-Agent
 * RL"), with VDN (Sunehag et al. 2018) and independent Q-learning (IQL, Tan 1993) as baselines
 * that share everything but the mixer. Layout and defaults of pymarl / EPyMARL (src/learners/
 * q_learner.py, src/modules/agents/rnn_agent.py, src/config/algs/qmix.yaml).
 *
 * Agent network Q_θ, shared by every agent (parameter sharing; the agent id is in the input):
 *     x_a(t) = [o_a(t), onehot(u_a(t−1)), onehot(a)]               (marl.ts: writeAgentInputs)
 *     h_a(t) = GRU(relu(W_1 x_a(t) + b_1), h_a(t−1)),  h_a(−1) = 0
 *     Q_a(τ_a(t), ·) = W_2 h_a(t) + b_2
 * GRU cell (torch.nn.GRUCell):
 *     r = σ(W_ir x + b_ir + W_hr h + b_hr),   z = σ(W_iz x + b_iz + W_hz h + b_hz)
 *     n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)),   h' = (1 − z) ⊙ n + z ⊙ h
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
 * observation). Gradients are clipped to a global norm (grad_norm_clip 10); one Adam step.
 * Targets are hard copies every `targetUpdateEpisodes` episodes. Acting: ε-greedy, ε linear from
 * startE to endE over `epsilonAnnealSteps` environment steps.
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm } from '../core/algorithm';
import { Dense } from '../core/mlp';
import { Model, type WeightSpec } from '../core/model';
import { QmixMixer } from '../core/qmixMixer';
import { Rng } from '../core/rng';
import { clipByGlobalNorm, readScalars } from '../core/tensorUtils';
import { makeOptimizer } from './common';
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
}

export interface QmixMixerParams {
  /** E, the mixing layer width (mixing_embed_dim). */
  embedDim: number;
  /** Hidden width of the hypernetworks (hypernet_embed). */
  hypernetEmbed: number;
}

/** One GRU cell; the gate weights are packed [r | z | n] along the output axis. */
class GruCell {
  readonly input: Dense;
  readonly recurrent: Dense;

  constructor(
    name: string,
    inDim: number,
    readonly units: number,
    rng: Rng,
  ) {
    this.input = new Dense(`${name}/input`, inDim, 3 * units, 1, rng.fork(1));
    this.recurrent = new Dense(`${name}/recurrent`, units, 3 * units, 1, rng.fork(2));
  }

  step(x: tf.Tensor2D, h: tf.Tensor2D): tf.Tensor2D {
    const H = this.units;
    const [xr, xz, xn] = tf.split(this.input.apply(x), [H, H, H], 1);
    const [hr, hz, hn] = tf.split(this.recurrent.apply(h), [H, H, H], 1);
    const r = tf.sigmoid(tf.add(xr, hr));
    const z = tf.sigmoid(tf.add(xz, hz));
    const n = tf.tanh(tf.add(xn, tf.mul(r, hn)));
    return tf.add(tf.mul(tf.sub(1, z), n), tf.mul(z, h)) as tf.Tensor2D;
  }

  variables(): tf.Variable[] {
    return [this.input.kernel, this.input.bias, this.recurrent.kernel, this.recurrent.bias];
  }

  specs(): WeightSpec[] {
    return [...this.input.specs(), ...this.recurrent.specs()];
  }
}

/**
 * pymarl's RNNAgent: fc1 → relu → GRUCell → fc2. `forward` is one step from a zero hidden state;
 * `unroll` runs whole sequences. Variables: fc1, gru input, gru recurrent, fc2 (kernel, bias each).
 */
export class RnnAgent extends Model<{ q: tf.Tensor2D }> {
  readonly fc1: Dense;
  readonly gru: GruCell;
  readonly fc2: Dense;

  constructor(
    readonly inputDim: number,
    readonly hidden: number,
    readonly numActions: number,
    seed: number,
  ) {
    super();
    const rng = new Rng(seed);
    this.fc1 = new Dense('agent/fc1', inputDim, hidden, Math.SQRT2, rng.fork(1));
    this.gru = new GruCell('agent/gru', hidden, hidden, rng.fork(2));
    this.fc2 = new Dense('agent/fc2', hidden, numActions, 1, rng.fork(3));
  }

  step(x: tf.Tensor2D, h: tf.Tensor2D): { q: tf.Tensor2D; h: tf.Tensor2D } {
    const h2 = this.gru.step(tf.relu(this.fc1.apply(x)), h);
    return { q: this.fc2.apply(h2), h: h2 };
  }

  forward(x: tf.Tensor2D): { q: tf.Tensor2D } {
    return tf.tidy(() => ({ q: this.step(x, tf.zeros([x.shape[0], this.hidden])).q }));
  }

  /** inputs [steps, rows, D] → Q [steps, rows, numActions] (call inside tf.tidy). */
  unroll(inputs: tf.Tensor3D): tf.Tensor3D {
    const [steps, rows] = inputs.shape;
    let h = tf.zeros([rows, this.hidden]) as tf.Tensor2D;
    const qs: tf.Tensor2D[] = [];
    const xs = tf.unstack(inputs, 0) as tf.Tensor2D[];
    for (let t = 0; t < steps; t++) {
      const out = this.step(xs[t], h);
      qs.push(out.q);
      h = out.h;
    }
    return tf.stack(qs, 0) as tf.Tensor3D;
  }

  variables(): tf.Variable[] {
    return [this.fc1.kernel, this.fc1.bias, ...this.gru.variables(), this.fc2.kernel, this.fc2.bias];
  }

  weightSpecs(): WeightSpec[] {
    return [...this.fc1.specs(), ...this.gru.specs(), ...this.fc2.specs()];
  }
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
  protected override optimizer: tf.Optimizer;
  /** [A, maxActions]: 0 where the agent has the action, −1e9 where it does not. */
  private readonly unavailable: Float32Array;
  private readonly numActions: number;
  private episodesAtSync = 0;
  private episodesAtTrain = 0;

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
    this.optimizer = makeOptimizer('adam', params.lr, 1e-8);
    this.acting = { kind: 'rnnShared', hidden: params.hidden };
    const A = task.agents.length;
    this.unavailable = new Float32Array(A * numActions);
    for (let a = 0; a < A; a++) for (let u = task.actionSizes[a]; u < numActions; u++) this.unavailable[a * numActions + u] = -1e9;
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
    const q = tf.reshape(net.unroll(inputs), [T + 1, B, A, this.numActions]);
    return tf.add(q, tf.tensor3d(this.unavailable, [1, A, this.numActions])) as tf.Tensor4D;
  }

  /** The loss of the header for one batch; call inside tf.tidy / variableGrads. */
  loss(batch: MarlEpisodeBatch): { loss: tf.Scalar; chosen: tf.Tensor3D; target: tf.Tensor } {
    const { numEpisodes: B, T } = batch;
    const A = this.task.agents.length;
    const S = this.task.stateDim;
    const D = agentInputDim(this.task);
    // [B, T+1, A, D] → time-major [T+1, B·A, D]
    const inputs = tf.reshape(tf.transpose(tf.tensor4d(episodeAgentInputs(this.task, batch), [B, T + 1, A, D]), [1, 0, 2, 3]), [T + 1, B * A, D]) as tf.Tensor3D;
    const actions = tf.transpose(tf.tensor3d(batch.actions, [B, T, A], 'int32'), [1, 0, 2]); // [T, B, A]
    const rewards = tf.transpose(tf.tensor3d(batch.rewards, [B, T, A]), [1, 0, 2]); // [T, B, A]
    const teamReward = tf.sum(rewards, 2); // [T, B]
    const states = tf.transpose(tf.tensor3d(batch.state, [B, T + 1, S]), [1, 0, 2]); // [T+1, B, S]

    const q = this.sequenceQ(this.model, inputs, B, T);
    const qNow = tf.slice(q, [0, 0, 0, 0], [T, B, A, this.numActions]);
    const chosen = tf.sum(tf.mul(qNow, tf.oneHot(actions, this.numActions)), 3) as tf.Tensor3D; // [T, B, A]

    const qTarget = this.sequenceQ(this.target, inputs, B, T);
    const qTargetNext = tf.slice(qTarget, [1, 0, 0, 0], [T, B, A, this.numActions]);
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
    const scalars = tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => {
        const out = this.loss(batch);
        kept.qTaken = tf.keep(tf.mean(out.chosen) as tf.Scalar);
        kept.targetMean = tf.keep(tf.mean(out.target) as tf.Scalar);
        const perAgent = tf.unstack(tf.mean(tf.reshape(out.chosen, [-1, A]), 0));
        this.task.agents.forEach((name, a) => (kept[`Q ${name}`] = tf.keep(perAgent[a] as tf.Scalar)));
        return out.loss;
      }, this.trainables());
      const clipped = clipByGlobalNorm(grads, this.params.gradClip);
      this.optimizer.applyGradients(clipped.grads);
      const out: Record<string, tf.Scalar> = { loss: value, gradNorm: clipped.norm };
      if (this.mixer.online) {
        const S = this.task.stateDim;
        const states = tf.reshape(tf.tensor3d(batch.state, [batch.numEpisodes, batch.T + 1, S]), [-1, S]) as tf.Tensor2D;
        const w = this.mixer.online.weightsFor(states);
        out['mixer |W1| mean'] = tf.mean(w.w1) as tf.Scalar;
        out['mixer |Wf| mean'] = tf.mean(w.wFinal) as tf.Scalar;
      }
      return out;
    });
    return readScalars({ ...scalars, ...kept });
  }
}

type QmixAllParams = QmixParams & QmixMixerParams;

/** The three baselines as modules for their descriptors (the mixer is the only difference). */
export const qmix: MarlAlgorithmModule<QmixAllParams> = {
  create: (task, params, seed) => new Qmix(task, params, 'qmix', params, seed),
};
export const vdn: MarlAlgorithmModule<QmixParams> = {
  create: (task, params, seed) => new Qmix(task, params, 'vdn', null, seed),
};
export const iql: MarlAlgorithmModule<QmixParams> = {
  create: (task, params, seed) => new Qmix(task, params, 'none', null, seed),
};
