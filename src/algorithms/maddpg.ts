/**
 * MADDPG (Lowe et al. 2017, "Multi-Agent Actor-Critic for Mixed Cooperative-Competitive
 * Environments"), for discrete actions through the Gumbel-softmax, as the authors' code
 * (openai/maddpg: maddpg/trainer/maddpg.py, train.py) and EPyMARL's maddpg_learner.py.
 *
 * Agent i has a decentralised actor μ_i (its own observation o_i → action logits ℓ_i) and a
 * centralised critic Q_i(x, a_1 … a_N) that sees the global state x = (o_1 … o_N) and every
 * agent's action (one-hot), with target copies μ'_i, Q'_i. Agents are grouped by side: one
 * learner per side (simple_tag: predators and prey), each with its own optimizers; every critic
 * still sees all agents.
 *
 * Gumbel-softmax (Jang et al. 2017) with Gumbel noise g drawn in JS from a seeded Rng:
 *     y_soft = softmax(ℓ + g),   y_hard = onehot(argmax(ℓ + g))
 *     straight-through: y = y_hard + y_soft − stopgrad(y_soft)   (forward y_hard, gradient of y_soft)
 *
 * Per learn(batch of transitions (x, a, r, x')), for every agent i:
 * 1. Critic target, no gradient:  y_i = r_i + γ Q'_i(x', a'_1 … a'_N),  a'_j = onehot(argmax(ℓ'_j(o'_j) + g'_j))
 *    (MPE episodes are truncated, never terminated: no (1 − d) factor.)
 * 2. Critic: L_Q = mean (Q_i(x, a) − y_i)², one Adam step, gradients clipped to norm 0.5.
 * 3. Actor: a_i replaced by the straight-through Gumbel-softmax sample of μ_i(o_i), the others'
 *    actions from the replay:
 *        L_μ = −mean Q_i(x, a_1 … y_i … a_N) + piReg · mean ℓ_i²
 *    (the reference's 1e-3 penalty on the logits), one Adam step, clipped to 0.5.
 * 4. Targets (Polyak): θ' ← τθ + (1 − τ)θ' for every actor and critic.
 * Acting: sample u_i ~ softmax(ℓ_i) (the same distribution as argmax(ℓ_i + g)).
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm } from '../core/algorithm';
import { DenseStack } from '../core/mlp';
import { Model, type WeightSpec } from '../core/model';
import { Rng } from '../core/rng';
import { readScalars } from '../core/tensorUtils';
import { FusedAdam } from '../core/fusedAdam';
import { applyStack } from '../core/qmixMixer';
import { setLiveNumber } from './liveChange';
import { setOptimizerLr } from './offPolicy';
import { checkEpisodeBatch, gumbelNoise, type EpisodeSource, type MarlActingSpec, type MarlAlgorithm, type MarlAlgorithmModule, type MarlEpisodeBatch, type MarlTaskSpec } from './marl';

export interface MaddpgParams {
  actorLr: number;
  criticLr: number;
  gamma: number;
  tau: number;
  /** Width of both hidden layers of every actor and critic (num_units). */
  hidden: number;
  /** Transitions per gradient step. */
  batchSize: number;
  /** Episodes the replay keeps. */
  bufferSize: number;
  /** Environment steps before the first gradient step. */
  learningStarts: number;
  /** Environment steps per gradient step. */
  trainEvery: number;
  gradClip: number;
  /** Weight of the penalty on the actor's logits. */
  piReg: number;
}

/** A batch of B transitions (1-step episodes: state holds x and x') and the Gumbel noise for it. */
export interface MaddpgBatch extends MarlEpisodeBatch {
  /** [B, Σ actionSizes] g' for the target actors' next actions. */
  noiseNext: Float32Array;
  /** [B, Σ actionSizes] g for the actors' own Gumbel-softmax samples. */
  noiseNow: Float32Array;
}

/** Every agent's actor: forward(x [B, S]) → logits [B, Σ actionSizes], agent after agent. */
export class MaddpgActors extends Model<{ logits: tf.Tensor2D }> {
  readonly nets: DenseStack[];

  constructor(
    readonly task: MarlTaskSpec,
    hidden: number,
    seed: number,
  ) {
    super();
    const rng = new Rng(seed);
    this.nets = task.agents.map((name, i) => new DenseStack(`actor/${name}`, task.obsDims[i], [hidden, hidden], task.actionSizes[i], 'relu', 0.01, rng.fork(i)));
  }

  /** ℓ_i(o_i) [B, n_i] of agent i from global states x [B, S]. */
  agentLogits(i: number, x: tf.Tensor2D): tf.Tensor2D {
    const o = tf.slice(x, [0, this.task.obsOffsets[i]], [x.shape[0], this.task.obsDims[i]]);
    return applyStack(this.nets[i], o);
  }

  forward(x: tf.Tensor2D): { logits: tf.Tensor2D } {
    return tf.tidy(() => ({ logits: tf.concat(this.nets.map((_, i) => this.agentLogits(i, x)), 1) as tf.Tensor2D }));
  }

  variables(): tf.Variable[] {
    return this.nets.flatMap((n) => n.variables());
  }

  weightSpecs(): WeightSpec[] {
    return this.nets.flatMap((n) => n.specs());
  }
}

/** Every agent's centralised critic Q_i(x, a_1 … a_N): [S + Σ actionSizes] → 1. */
export class MaddpgCritics extends Model<{ q: tf.Tensor2D }> {
  readonly nets: DenseStack[];

  constructor(
    readonly task: MarlTaskSpec,
    hidden: number,
    seed: number,
  ) {
    super();
    const rng = new Rng(seed);
    const inDim = task.stateDim + task.actionSizes.reduce((s, n) => s + n, 0);
    this.nets = task.agents.map((name, i) => new DenseStack(`critic/${name}`, inDim, [hidden, hidden], 1, 'relu', 1, rng.fork(i)));
  }

  /** Q_i [B] for states x [B, S] and joint one-hot actions [B, Σ n]. */
  value(i: number, x: tf.Tensor2D, joint: tf.Tensor2D): tf.Tensor1D {
    return tf.reshape(applyStack(this.nets[i], tf.concat([x, joint], 1) as tf.Tensor2D), [-1]) as tf.Tensor1D;
  }

  /** Input [B, S + Σ n] → every critic's Q as [B, N]. */
  forward(input: tf.Tensor2D): { q: tf.Tensor2D } {
    return tf.tidy(() => ({ q: tf.concat(this.nets.map((n) => applyStack(n, input)), 1) as tf.Tensor2D }));
  }

  variables(): tf.Variable[] {
    return this.nets.flatMap((n) => n.variables());
  }

  weightSpecs(): WeightSpec[] {
    return this.nets.flatMap((n) => n.specs());
  }
}

/** Straight-through Gumbel-softmax sample: forward one-hot, gradient of softmax(ℓ + g). */
export function gumbelSoftmaxHard(logits: tf.Tensor2D, noise: tf.Tensor2D): tf.Tensor2D {
  const soft = tf.softmax(tf.add(logits, noise)) as tf.Tensor2D;
  const hard = tf.oneHot(tf.argMax(tf.add(logits, noise), 1), logits.shape[1]).toFloat();
  return tf.add(tf.sub(hard, stopGradient(soft)), soft) as tf.Tensor2D;
}

/** The identity with a zero gradient (tfjs has no stop_gradient op). */
const stopGradient = tf.customGrad((...inputs) => {
  const x = inputs[0];
  if (!(x instanceof tf.Tensor)) throw new Error('stopGradient takes one tensor');
  return { value: tf.clone(x), gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy) };
});

/** A batch as tensors: states x, x' [B, S], one-hot joint actions, rewards [B, N], noise [B, Σ n]. */
export interface Staged {
  x: tf.Tensor2D;
  xNext: tf.Tensor2D;
  joint: tf.Tensor2D;
  rewards: tf.Tensor2D;
  gNext: tf.Tensor2D;
  gNow: tf.Tensor2D;
}

/** One side's learner: its agents' actor and critic optimizers. */
interface Side {
  index: number;
  agents: number[];
  actorOptimizer: FusedAdam;
  criticOptimizer: FusedAdam;
}

export class Maddpg extends Algorithm<MaddpgBatch, MaddpgActors> implements MarlAlgorithm<MaddpgBatch> {
  readonly acting: MarlActingSpec;
  readonly critics: MaddpgCritics;
  readonly actorTargets: MaddpgActors;
  readonly criticTargets: MaddpgCritics;
  readonly sides: Side[];
  /** Start of agent i's one-hot block in a joint action. */
  private readonly actionOffsets: number[];
  private readonly actionTotal: number;
  private stepsAtTrain = 0;

  constructor(
    readonly task: MarlTaskSpec,
    readonly params: MaddpgParams,
    seed: number,
  ) {
    super(new MaddpgActors(task, params.hidden, seed));
    if (!(params.tau > 0 && params.tau <= 1)) throw new Error(`tau must be in (0, 1], got ${params.tau}`);
    this.critics = new MaddpgCritics(task, params.hidden, seed + 1);
    this.actorTargets = new MaddpgActors(task, params.hidden, seed + 2);
    this.criticTargets = new MaddpgCritics(task, params.hidden, seed + 3);
    this.model.syncWeightsTo(this.actorTargets, 0);
    this.critics.syncWeightsTo(this.criticTargets, 0);
    this.actionOffsets = [];
    let off = 0;
    for (const n of task.actionSizes) {
      this.actionOffsets.push(off);
      off += n;
    }
    this.actionTotal = off;
    const sideIds = [...new Set(task.sides)].sort((a, b) => a - b);
    this.sides = sideIds.map((index) => ({
      index,
      agents: task.sides.flatMap((s, i) => (s === index ? [i] : [])),
      // = makeOptimizer('adam', lr, 1e-8), as one fused step over the side's variables
      actorOptimizer: new FusedAdam(params.actorLr, 0.9, 0.999, 1e-8),
      criticOptimizer: new FusedAdam(params.criticLr, 0.9, 0.999, 1e-8),
    }));
    this.acting = { kind: 'mlpPerAgent', hidden: [params.hidden, params.hidden] };
  }

  override models(): Model[] {
    return [this.model, this.critics, this.actorTargets, this.criticTargets];
  }

  predict(x: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.forward(x).logits);
  }

  sample(x: tf.Tensor2D): tf.Tensor2D {
    return this.predict(x);
  }

  get replayEpisodes(): number {
    return this.params.bufferSize;
  }

  explorationAt(): number {
    return 0;
  }

  sampleBatch(replay: EpisodeSource, rng: Rng): MaddpgBatch {
    const b = replay.sampleSteps(this.params.batchSize, rng);
    const n = b.numEpisodes * this.actionTotal;
    return { ...b, noiseNext: gumbelNoise(n, rng), noiseNow: gumbelNoise(n, rng) };
  }

  gradientStepsDue(totalEnvSteps: number, newEnvSteps: number): number {
    if (totalEnvSteps < this.params.learningStarts) {
      this.stepsAtTrain = totalEnvSteps;
      return 0;
    }
    const due = Math.floor((totalEnvSteps - this.stepsAtTrain) / this.params.trainEvery);
    this.stepsAtTrain += due * this.params.trainEvery;
    void newEnvSteps;
    return due;
  }

  afterCollect(): void {
    // Targets follow by Polyak averaging after every gradient step.
  }

  override syncTarget(tau = this.params.tau): void {
    this.model.syncWeightsTo(this.actorTargets, 1 - tau);
    this.critics.syncWeightsTo(this.criticTargets, 1 - tau);
  }

  /** The replay's one-hot joint actions [B, Σ n]. */
  private jointOneHot(actions: tf.Tensor2D): tf.Tensor2D {
    const cols = this.task.agents.map((_, i) => tf.oneHot(tf.reshape(tf.slice(actions, [0, i], [-1, 1]), [-1]) as tf.Tensor1D, this.task.actionSizes[i]).toFloat());
    return tf.concat(cols, 1) as tf.Tensor2D;
  }

  /** Agent i's block of a [B, Σ n] tensor. */
  private block(t: tf.Tensor2D, i: number): tf.Tensor2D {
    return tf.slice(t, [0, this.actionOffsets[i]], [-1, this.task.actionSizes[i]]);
  }

  /** The joint action with agent i's block replaced by `mine`. */
  private withAction(joint: tf.Tensor2D, i: number, mine: tf.Tensor2D): tf.Tensor2D {
    const parts = this.task.agents.map((_, j) => (j === i ? mine : this.block(joint, j)));
    return tf.concat(parts, 1) as tf.Tensor2D;
  }

  /** Staged tensors of a batch (call inside tf.tidy). */
  stage(batch: MaddpgBatch): Staged {
    const B = batch.numEpisodes;
    const S = this.task.stateDim;
    const A = this.task.agents.length;
    const both = tf.tensor3d(batch.state, [B, 2, S]);
    const x = tf.reshape(tf.slice(both, [0, 0, 0], [B, 1, S]), [B, S]) as tf.Tensor2D;
    const xNext = tf.reshape(tf.slice(both, [0, 1, 0], [B, 1, S]), [B, S]) as tf.Tensor2D;
    const joint = this.jointOneHot(tf.tensor2d(batch.actions, [B, A], 'int32'));
    const rewards = tf.tensor2d(batch.rewards, [B, A]);
    const gNext = tf.tensor2d(batch.noiseNext, [B, this.actionTotal]);
    const gNow = tf.tensor2d(batch.noiseNow, [B, this.actionTotal]);
    return { x, xNext, joint, rewards, gNext, gNow };
  }

  /** Step 1: y_i for every agent, [B, N] (no gradient is taken through it). */
  targets(staged: Staged): tf.Tensor2D {
    return tf.tidy(() => {
      const { xNext, rewards, gNext } = staged;
      const nextLogits = this.actorTargets.forward(xNext).logits;
      const nextJoint = tf.concat(
        this.task.agents.map((_, j) => tf.oneHot(tf.argMax(tf.add(this.block(nextLogits, j), this.block(gNext, j)), 1), this.task.actionSizes[j]).toFloat()),
        1,
      ) as tf.Tensor2D;
      const qNext = tf.stack(this.task.agents.map((_, i) => this.criticTargets.value(i, xNext, nextJoint)), 1);
      return tf.add(rewards, tf.mul(this.params.gamma, qNext)) as tf.Tensor2D;
    });
  }

  /** Step 2's loss for agent i given the targets y [B, N]; call inside tf.tidy. */
  criticLoss(staged: Staged, i: number, y: tf.Tensor2D): tf.Scalar {
    const { x, joint } = staged;
    const yi = tf.reshape(tf.slice(y, [0, i], [-1, 1]), [-1]);
    return tf.mean(tf.square(tf.sub(this.critics.value(i, x, joint), yi))) as tf.Scalar;
  }

  /** Step 3's loss for agent i; call inside tf.tidy. */
  actorLoss(staged: Staged, i: number): tf.Scalar {
    const { x, joint, gNow } = staged;
    const logits = this.model.agentLogits(i, x);
    const mine = gumbelSoftmaxHard(logits, this.block(gNow, i));
    const q = this.critics.value(i, x, this.withAction(joint, i, mine));
    return tf.add(tf.neg(tf.mean(q)), tf.mul(this.params.piReg, tf.mean(tf.square(logits)))) as tf.Scalar;
  }

  learn(batch: MaddpgBatch): Record<string, number> {
    checkEpisodeBatch(this.task, batch, 'Maddpg.learn');
    if (batch.T !== 1) throw new Error(`Maddpg.learn: a batch of transitions has T = 1, got ${batch.T}`);
    const want = batch.numEpisodes * this.actionTotal;
    if (batch.noiseNext.length !== want || batch.noiseNow.length !== want) {
      throw new Error(`Maddpg.learn: noiseNext and noiseNow must hold ${want} Gumbel draws, got ${batch.noiseNext.length} and ${batch.noiseNow.length}`);
    }
    const scalars = tf.tidy(() => {
      const staged = this.stage(batch);
      const y = this.targets(staged);
      const out: Record<string, tf.Scalar> = {};
      for (const side of this.sides) {
        const criticVars = side.agents.flatMap((i) => this.critics.nets[i].variables());
        const critic = tf.variableGrads(() => tf.addN(side.agents.map((i) => this.criticLoss(staged, i, y))) as tf.Scalar, criticVars);
        side.criticOptimizer.clipAndApply(critic.grads, this.params.gradClip).dispose();
        const actorVars = side.agents.flatMap((i) => this.model.nets[i].variables());
        const actor = tf.variableGrads(() => tf.addN(side.agents.map((i) => this.actorLoss(staged, i))) as tf.Scalar, actorVars);
        side.actorOptimizer.clipAndApply(actor.grads, this.params.gradClip).dispose();
        const name = this.sides.length > 1 ? ` side ${side.index}` : '';
        const n = side.agents.length;
        out[`criticLoss${name}`] = tf.div(critic.value, n) as tf.Scalar;
        out[`actorLoss${name}`] = tf.div(actor.value, n) as tf.Scalar;
      }
      const { x, joint } = staged;
      this.task.agents.forEach((agent, i) => (out[`Q ${agent}`] = tf.mean(this.critics.value(i, x, joint)) as tf.Scalar));
      out.targetMean = tf.mean(y) as tf.Scalar;
      return out;
    });
    this.syncTarget(this.params.tau);
    return readScalars(scalars);
  }

  /** A live change between updates (src/engine/liveChanges.ts): actorLr or criticLr, for every side's optimizers. False for a name this rule does not change live. */
  applyChange(name: string, value: number | string | boolean): boolean {
    if (!setLiveNumber(this.params, ['actorLr', 'criticLr'], name, value)) return false;
    const lr = name === 'actorLr' ? this.params.actorLr : this.params.criticLr;
    for (const side of this.sides) setOptimizerLr(name === 'actorLr' ? side.actorOptimizer : side.criticOptimizer, lr);
    return true;
  }

  override setLearningRate(lr: number): void {
    for (const side of this.sides) {
      Reflect.set(side.actorOptimizer, 'learningRate', lr);
      Reflect.set(side.criticOptimizer, 'learningRate', lr);
    }
  }

  override dispose(): void {
    for (const side of this.sides) {
      side.actorOptimizer.dispose();
      side.criticOptimizer.dispose();
    }
    super.dispose();
  }
}

export const maddpg: MarlAlgorithmModule<MaddpgParams> = {
  kind: 'marl',
  create: (task, params, seed) => new Maddpg(task, params, seed),
};
