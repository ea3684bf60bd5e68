/**
 * DDPG (Lillicrap et al. 2016, "Continuous control with deep reinforcement learning"), in the
 * form of CleanRL's ddpg_continuous_action.py / Stable-Baselines3's DDPG (no OU noise, no batch
 * norm, no critic weight decay; Gaussian exploration noise).
 *
 * Models: actor μ_φ(s) (DeterministicActor, inside the action bounds), critic Q_θ(s, a) (QCritic),
 * and target copies μ_φ', Q_θ'. models() = [actor, critic, actorTarget, criticTarget].
 *
 * Per learn(batch) of transitions (s, a, r, s', d):
 * 1. Critic target, no gradient:
 *        y = r + γ · (1 − d) · Q_θ'(s', μ_φ'(s'))
 *    d = 1 only where s' is terminal (a time-limit truncation keeps the bootstrap).
 * 2. Critic: L_Q = mean[(Q_θ(s, a) − y)²], one Adam step on θ.
 * 3. Actor (deterministic policy gradient, through the just-updated critic):
 *        L_μ = −mean[Q_θ(s, μ_φ(s))], one Adam step on φ.
 * 4. Targets (Polyak): θ' ← τθ + (1 − τ)θ',  φ' ← τφ + (1 − τ)φ'.
 *
 * Acting: a = clip(μ_φ(s) + σ · scale · ε, low, high), ε ~ N(0, I) drawn by the caller from a
 * seeded Rng (`explore`), σ = explorationNoise in units of the half-range `scale` (CleanRL's
 * `normal(0, action_scale * exploration_noise)`).
 */
import * as tf from '@tensorflow/tfjs';
import { DeterministicActor, QCritic, type ActorSpec } from '../core/continuousMlp';
import { deriveSeed } from '../core/rng';
import type { Model, ModelOutput } from '../core/model';
import { readScalars } from '../core/tensorUtils';
import { checkBatch, checkRate, criticSpecOf, DeterministicActorCritic, initTargets, softUpdate, type ContinuousBatch } from './offPolicy';

export interface DdpgConfig {
  /** Adam learning rate of the actor. */
  actorLr: number;
  /** Adam learning rate of the critic. */
  criticLr: number;
  /** Discount γ. */
  gamma: number;
  /** Polyak rate τ of the target networks. */
  tau: number;
  /** Std of the Gaussian exploration noise, in units of the action half-range. */
  explorationNoise: number;
  // For the training loop:
  /** Replay capacity. */
  bufferSize: number;
  /** Transitions per learn(). */
  batchSize: number;
  /** Environment steps (uniformly random actions) before learning starts. */
  learningStarts: number;
}

export interface DdpgModels {
  actor: DeterministicActor;
  critic: QCritic;
  /** Overwritten with the actor's weights at construction. */
  actorTarget: DeterministicActor;
  /** Overwritten with the critic's weights at construction. */
  criticTarget: QCritic;
}

/** (online, target) pairs: φ → φ', θ → θ'. */
function targetPairs(m: DdpgModels): [Model<ModelOutput>, Model<ModelOutput>][] {
  return [
    [m.actor, m.actorTarget],
    [m.critic, m.criticTarget],
  ];
}

export class Ddpg extends DeterministicActorCritic<ContinuousBatch, DdpgConfig> {
  readonly critic: QCritic;
  readonly actorTarget: DeterministicActor;
  readonly criticTarget: QCritic;
  private readonly pairs: [Model<ModelOutput>, Model<ModelOutput>][];

  constructor(models: DdpgModels, config: DdpgConfig) {
    const c = config;
    checkRate(c.gamma, 'gamma', 'DdpgConfig', 0, 1);
    checkRate(c.tau, 'tau', 'DdpgConfig', 0, 1);
    initTargets(targetPairs(models), 'Ddpg');
    super(models.actor, c);
    this.critic = models.critic;
    this.actorTarget = models.actorTarget;
    this.criticTarget = models.criticTarget;
    this.pairs = targetPairs(models);
  }

  override models(): Model<ModelOutput>[] {
    return [this.model, this.critic, this.actorTarget, this.criticTarget];
  }

  /** y = r + γ(1 − d)·Q_θ'(s', μ_φ'(s')) (step 1); call inside tf.tidy. */
  targets(batch: ContinuousBatch): tf.Tensor1D {
    const qNext = this.criticTarget.qValue(batch.nextObs, this.actorTarget.forward(batch.nextObs).action);
    return tf.add(batch.rewards, tf.mul(tf.mul(this.config.gamma, tf.sub(1, batch.dones)), qNext));
  }

  /** L_Q for given targets y (step 2); `meanQ` gets mean Q_θ(s, a) on the way. Call inside tf.tidy. */
  criticLoss(batch: ContinuousBatch, y: tf.Tensor1D, meanQ?: (qMean: tf.Scalar) => void): tf.Scalar {
    const q = this.critic.qValue(batch.obs, batch.actions);
    if (meanQ) meanQ(tf.mean(q) as tf.Scalar);
    return tf.mean(tf.square(tf.sub(q, y)));
  }

  /** L_μ = −mean Q_θ(s, μ_φ(s)) (step 3); call inside tf.tidy. */
  actorLoss(batch: ContinuousBatch): tf.Scalar {
    return tf.neg(tf.mean(this.critic.qValue(batch.obs, this.model.forward(batch.obs).action)));
  }

  learn(batch: ContinuousBatch): Record<string, number> {
    checkBatch(batch, this.model.spec.obsDim, this.model.spec.actionDim, 'Ddpg.learn');
    const metrics = tf.tidy(() => {
      const y = this.targets(batch);
      const qMeans: tf.Scalar[] = [];
      const critic = tf.variableGrads(() => this.criticLoss(batch, y, (m) => qMeans.push(tf.keep(m))), this.critic.variables());
      this.optimizer.applyGradients(critic.grads);
      const actor = tf.variableGrads(() => this.actorLoss(batch), this.model.variables());
      this.actorOptimizer.applyGradients(actor.grads);
      return { criticLoss: critic.value, actorLoss: actor.value, qMean: qMeans[0], targetMean: tf.mean(y) as tf.Scalar };
    });
    softUpdate(this.pairs, this.config.tau);
    return readScalars(metrics);
  }
}

/** The settings the playground exposes (src/config/algorithms/ddpg.ts), by field name. */
export type DdpgParams = DdpgConfig;

/** What kind of update rule `load` brings: a Box-action one that builds its own networks from the env's sizes and bounds. */
export const kind = 'continuous';

/** How the actors act: a = clip(μ(s) + σ·scale·ε, low, high). */
export const policy = 'deterministic' as const;

/** Builds DDPG's actor, critic and their targets for an env's sizes and bounds (engine entry point). */
export function create(net: ActorSpec, params: DdpgParams, seed: number): Ddpg {
  const critic = criticSpecOf(net);
  return new Ddpg(
    {
      actor: new DeterministicActor(net, seed),
      critic: new QCritic(critic, deriveSeed(seed, 1)),
      actorTarget: new DeterministicActor(net, seed),
      criticTarget: new QCritic(critic, deriveSeed(seed, 1)),
    },
    params,
  );
}
