/**
 * TD3, Twin Delayed DDPG (Fujimoto et al. 2018, "Addressing Function Approximation Error in
 * Actor-Critic Methods"), following CleanRL's td3_continuous_action.py and Stable-Baselines3's TD3.
 *
 * Models: actor μ_φ (DeterministicActor), twin critics Q_θ1, Q_θ2 (QCritic), and target copies
 * μ_φ', Q_θ1', Q_θ2'. models() = [actor, critic1, critic2, actorTarget, critic1Target, critic2Target].
 *
 * Per learn(batch) of transitions (s, a, r, s', d) with standard-normal draws ε [B, A]
 * (`batch.targetNoise`, from the caller's seeded Rng), update number n = 1, 2, …:
 * 1. Target policy smoothing, no gradient:
 *        ã = clip( μ_φ'(s') + clip(σ̃·ε, −c, c)·scale,  low, high )      σ̃ = targetPolicyNoise, c = targetNoiseClip
 *    (the noise is in units of the action half-range `scale`, as CleanRL's `* action_scale`)
 * 2. Clipped double-Q target:
 *        y = r + γ · (1 − d) · min( Q_θ1'(s', ã), Q_θ2'(s', ã) )
 * 3. Critics: L_Q = mean[(Q_θ1(s, a) − y)²] + mean[(Q_θ2(s, a) − y)²], one Adam step on (θ1, θ2).
 * 4. Delayed policy update, only when n mod policyDelay = 0:
 *        L_μ = −mean[Q_θ1(s, μ_φ(s))], one Adam step on φ, then
 *        θi' ← τθi + (1 − τ)θi',  φ' ← τφ + (1 − τ)φ'       (targets move only on these updates too)
 *
 * Acting: as DDPG, a = clip(μ_φ(s) + σ·scale·ε, low, high) (`explore`).
 */
import * as tf from '@tensorflow/tfjs';
import { DeterministicActor, QCritic, type ActorSpec } from '../core/continuousMlp';
import { deriveSeed } from '../core/rng';
import type { Model, ModelOutput } from '../core/model';
import { readScalars } from '../core/tensorUtils';
import { checkBatch, checkNoise, checkRate, criticSpecOf, DeterministicActorCritic, initTargets, softUpdate, twinCriticLoss, twinQ, type ContinuousBatch, type MeanQSink } from './offPolicy';

export interface Td3Config {
  /** Adam learning rate of the actor. */
  actorLr: number;
  /** Adam learning rate of the twin critics. */
  criticLr: number;
  /** Discount γ. */
  gamma: number;
  /** Polyak rate τ of the target networks. */
  tau: number;
  /** Actor and target updates every `policyDelay` critic updates. */
  policyDelay: number;
  /** σ̃: std of the target smoothing noise, in units of the action half-range. */
  targetPolicyNoise: number;
  /** c: the smoothing noise is clipped to [−c, c] (same units). */
  targetNoiseClip: number;
  /** Std of the exploration noise (Gaussian, or the Ornstein-Uhlenbeck process's σ; the actors add it), in units of the action half-range. */
  explorationNoise: number;
  // For the training loop:
  /** Replay capacity. */
  bufferSize: number;
  /** Transitions per learn(). */
  batchSize: number;
  /** Environment steps (uniformly random actions) before learning starts. */
  learningStarts: number;
}

export interface Td3Batch extends ContinuousBatch {
  /** [B, A] standard-normal draws ε for the target policy smoothing. */
  targetNoise: tf.Tensor2D;
}

export interface Td3Models {
  actor: DeterministicActor;
  critic1: QCritic;
  critic2: QCritic;
  /** The targets are overwritten with their online network's weights at construction. */
  actorTarget: DeterministicActor;
  critic1Target: QCritic;
  critic2Target: QCritic;
}

/** (online, target) pairs: φ → φ', θ1 → θ1', θ2 → θ2'. */
function targetPairs(m: Td3Models): [Model<ModelOutput>, Model<ModelOutput>][] {
  return [
    [m.actor, m.actorTarget],
    [m.critic1, m.critic1Target],
    [m.critic2, m.critic2Target],
  ];
}

export class Td3 extends DeterministicActorCritic<Td3Batch, Td3Config> {
  readonly critic1: QCritic;
  readonly critic2: QCritic;
  readonly actorTarget: DeterministicActor;
  readonly critic1Target: QCritic;
  readonly critic2Target: QCritic;
  private readonly pairs: [Model<ModelOutput>, Model<ModelOutput>][];
  /** Number of learn() calls so far (n). */
  private updates = 0;
  /** L_μ of the last delayed update (reported on the updates in between). */
  private lastActorLoss = NaN;

  constructor(models: Td3Models, config: Td3Config) {
    const c = config;
    checkRate(c.gamma, 'gamma', 'Td3Config', 0, 1);
    checkRate(c.tau, 'tau', 'Td3Config', 0, 1);
    checkRate(c.targetPolicyNoise, 'targetPolicyNoise', 'Td3Config');
    checkRate(c.targetNoiseClip, 'targetNoiseClip', 'Td3Config');
    if (!(Number.isInteger(c.policyDelay) && c.policyDelay >= 1)) throw new Error(`Td3Config.policyDelay must be a positive integer, got ${c.policyDelay}`);
    initTargets(targetPairs(models), 'Td3');
    super(models.actor, c);
    this.critic1 = models.critic1;
    this.critic2 = models.critic2;
    this.actorTarget = models.actorTarget;
    this.critic1Target = models.critic1Target;
    this.critic2Target = models.critic2Target;
    this.pairs = targetPairs(models);
  }

  override models(): Model<ModelOutput>[] {
    return [this.model, this.critic1, this.critic2, this.actorTarget, this.critic1Target, this.critic2Target];
  }

  /** learn() calls so far. */
  get numUpdates(): number {
    return this.updates;
  }

  /** ã = clip(μ_φ'(s') + clip(σ̃ε, −c, c)·scale, low, high) (step 1); call inside tf.tidy. */
  smoothedTargetActions(nextObs: tf.Tensor2D, eps: tf.Tensor2D): tf.Tensor2D {
    const { targetPolicyNoise: sigma, targetNoiseClip: c } = this.config;
    const noise = tf.mul(tf.clipByValue(tf.mul(sigma, eps), -c, c), this.actorTarget.scaleT);
    return this.actorTarget.clipToBounds(tf.add(this.actorTarget.forward(nextObs).action, noise));
  }

  /** y = r + γ(1 − d)·min_i Q_θi'(s', ã) (step 2); call inside tf.tidy. */
  targets(batch: Td3Batch): tf.Tensor1D {
    const aNext = this.smoothedTargetActions(batch.nextObs, batch.targetNoise);
    const qNext = tf.minimum(...twinQ(this.critic1Target, this.critic2Target, batch.nextObs, aNext));
    return tf.add(batch.rewards, tf.mul(tf.mul(this.config.gamma, tf.sub(1, batch.dones)), qNext));
  }

  /** L_Q for given targets y (step 3); `meanQ` gets mean Q_θi(s, a) on the way. Call inside tf.tidy. */
  criticLoss(batch: ContinuousBatch, y: tf.Tensor1D, meanQ?: MeanQSink): tf.Scalar {
    return twinCriticLoss(this.critic1, this.critic2, batch, y, meanQ);
  }

  /** L_μ = −mean Q_θ1(s, μ_φ(s)) (step 4); call inside tf.tidy. */
  actorLoss(batch: ContinuousBatch): tf.Scalar {
    return tf.neg(tf.mean(this.critic1.qValue(batch.obs, this.model.forward(batch.obs).action)));
  }

  learn(batch: Td3Batch): Record<string, number> {
    const B = checkBatch(batch, this.model.spec.obsDim, this.model.spec.actionDim, 'Td3.learn');
    checkNoise(batch.targetNoise, B, this.model.spec.actionDim, 'targetNoise', 'Td3.learn');
    this.updates += 1;
    const delayed = this.updates % this.config.policyDelay === 0;
    const criticVars = [...this.critic1.variables(), ...this.critic2.variables()];
    const scalars = tf.tidy(() => {
      const y = this.targets(batch);
      const qMeans: tf.Scalar[] = [];
      const critic = tf.variableGrads(() => this.criticLoss(batch, y, (m1, m2) => qMeans.push(tf.keep(m1), tf.keep(m2))), criticVars);
      this.optimizer.applyGradients(critic.grads);
      const out: Record<string, tf.Scalar> = {
        criticLoss: critic.value,
        q1Mean: qMeans[0],
        q2Mean: qMeans[1],
        targetMean: tf.mean(y) as tf.Scalar,
      };
      if (delayed) {
        const actor = tf.variableGrads(() => this.actorLoss(batch), this.model.variables());
        this.actorOptimizer.applyGradients(actor.grads);
        out.actorLoss = actor.value;
      }
      return out;
    });
    if (delayed) softUpdate(this.pairs, this.config.tau);
    const m = readScalars(scalars);
    if (delayed) this.lastActorLoss = m.actorLoss;
    // Before the first actor update there is no actor loss to report (a NaN would read as divergence).
    const { actorLoss: _unused, ...critic } = m;
    void _unused;
    return { ...critic, ...(Number.isNaN(this.lastActorLoss) ? {} : { actorLoss: this.lastActorLoss }), actorUpdated: delayed ? 1 : 0 };
  }
}

/** The settings the playground exposes (src/config/algorithms/td3.ts), by field name. */
export type Td3Params = Td3Config;

/** What kind of update rule `load` brings: a Box-action one that builds its own networks from the env's sizes and bounds. */
export const kind = 'continuous';

/** How the actors act: a = clip(μ(s) + σ·scale·ε, low, high). */
export const policy = 'deterministic' as const;

/** Builds TD3's actor, twin critics and their targets for an env's sizes and bounds (engine entry point). */
export function create(net: ActorSpec, params: Td3Params, seed: number): Td3 {
  const critic = criticSpecOf(net);
  return new Td3(
    {
      actor: new DeterministicActor(net, seed),
      critic1: new QCritic(critic, deriveSeed(seed, 1)),
      critic2: new QCritic(critic, deriveSeed(seed, 2)),
      actorTarget: new DeterministicActor(net, seed),
      critic1Target: new QCritic(critic, deriveSeed(seed, 1)),
      critic2Target: new QCritic(critic, deriveSeed(seed, 2)),
    },
    params,
  );
}
