/**
 * SAC, Soft Actor-Critic (Haarnoja et al. 2018, "Soft Actor-Critic Algorithms and Applications"),
 * with automatic entropy tuning, following Stable-Baselines3's SAC and CleanRL's
 * sac_continuous_action.py.
 *
 * Models: actor π_φ (SquashedGaussianActor: mean and clamped log-std of u, y = tanh(u), action
 * a = bias + scale·y), twin critics Q_θ1, Q_θ2 and their targets Q_θ1', Q_θ2'; the temperature
 * α = exp(log α) is one trainable scalar. models() = [actor, critic1, critic2, critic1Target, critic2Target].
 *
 * Sampling a ~ π_φ(·|s) with given ε ~ N(0, I) (reparameterised, see `squashedGaussian`):
 *     u = mean_φ(s) + exp(logStd_φ(s))·ε,   a = bias + scale·tanh(u),
 *     log π(a|s) = Σ_i log N(u_i) − Σ_i log(1 − tanh(u_i)²)        (on the tanh scale, as SB3)
 * Both draws per update come in the batch, from the caller's seeded Rng: `nextNoise` for s',
 * `noise` for s.
 *
 * Per learn(batch) of transitions (s, a, r, s', d), with α = exp(log α) held fixed through steps 1–3:
 * 1. Soft target, no gradient, with a' ~ π_φ(·|s'):
 *        y = r + γ(1 − d)·( min_i Q_θi'(s', a') − α·log π(a'|s') )
 * 2. Critics: L_Q = mean[(Q_θ1(s, a) − y)²] + mean[(Q_θ2(s, a) − y)²], one Adam step on (θ1, θ2).
 * 3. Actor, with ã ~ π_φ(·|s) (gradient through ã by reparameterisation):
 *        L_π = mean[ α·log π(ã|s) − min_i Q_θi(s, ã) ], one Adam step on φ.
 * 4. Temperature (autotune), with log π(ã|s) from step 3 held constant and target entropy H̄ = −|A|:
 *        L_α = −mean[ log α · (log π(ã|s) + H̄) ]
 *    ∂L_α/∂log α = −mean(log π + H̄) = Ĥ − H̄ with the entropy estimate Ĥ = −mean(log π): when
 *    the policy's entropy is below H̄ the gradient is negative and a descent step RAISES α (more
 *    exploration); above H̄ it lowers α. One Adam step on log α.
 * 5. Targets (Polyak): θi' ← τθi + (1 − τ)θi'.
 *
 * With gSDE (a GsdeActor, setting `useSde`; Raffin, Kober & Stulp 2022, as SB3's SAC with use_sde) the actor is a
 * GsdeActor: u = μ(s) + z(s)·M with M = exp(L) ∘ E, and log π from core/gsde.ts:
 *     log π(a|s) = Σ_j [ log N(u_j; μ_j, (z²·exp(L)²)_j + δ) − log(1 − tanh(u_j)²) ].
 * Each update draws one standard-normal E [H, A] (`sdeNoise`, SB3's reset_noise() per gradient
 * step) shared by every row at s (step 3) and at s' (step 1); L is trained by L_π through both the
 * sample and the variance, and z is not detached (learn_features). `noise` / `nextNoise` go unused.
 * The actors explore with their own draws of M (engine/continuousPolicy.ts).
 */
import * as tf from '@tensorflow/tfjs';
import { Algorithm } from '../core/algorithm';
import { GsdeActor, QCritic, squashedGaussian, SquashedGaussianActor, type ActorSpec, type CriticSpec } from '../core/continuousMlp';
import { gsdeSquashed } from '../core/gsde';
import { deriveSeed } from '../core/rng';
import type { Model, ModelOutput } from '../core/model';
import { readScalars } from '../core/tensorUtils';
import { adam, checkBatch, checkNoise, checkRate, initTargets, setOptimizerLr, softUpdate, twinCriticLoss, twinQ, type ContinuousBatch, type MeanQSink } from './offPolicy';

export interface SacConfig {
  /** Adam learning rate of the actor. */
  actorLr: number;
  /** Adam learning rate of the twin critics. */
  criticLr: number;
  /** Adam learning rate of log α. */
  alphaLr: number;
  /** Discount γ. */
  gamma: number;
  /** Polyak rate τ of the target critics. */
  tau: number;
  /** α at the start (and throughout when autotune is off). */
  initAlpha: number;
  /** Tune α towards the target entropy (step 4). */
  autotune: boolean;
  /** Target entropy H̄; null = −|A| (the paper's heuristic). */
  targetEntropy: number | null;
  // For the training loop:
  /** Replay capacity. */
  bufferSize: number;
  /** Transitions per learn(). */
  batchSize: number;
  /** Environment steps (uniformly random actions) before learning starts. */
  learningStarts: number;
}

/**
 * What the playground does not expose: the target entropy H̄ (null: −dim(A), SB3's 'auto'). The
 * other settings take their one default from the descriptor, src/config/algorithms/sac.ts, and
 * arrive through `create`.
 */
export const SAC_FIXED: Readonly<Pick<SacConfig, 'targetEntropy'>> = Object.freeze({ targetEntropy: null });

export interface SacBatch extends ContinuousBatch {
  /** [B, A] standard-normal ε for the actor's sample at s (steps 3, 4). */
  noise: tf.Tensor2D;
  /** [B, A] standard-normal ε for the sample at s' (step 1). */
  nextNoise: tf.Tensor2D;
  /** gSDE only: [H, A] standard-normal E of this update's exploration matrix, for s and s'. */
  sdeNoise?: tf.Tensor2D;
}

/** SAC's actor: plain squashed Gaussian, or with gSDE. */
export type SacActor = SquashedGaussianActor | GsdeActor;

export interface SacModels {
  actor: SacActor;
  critic1: QCritic;
  critic2: QCritic;
  /** Overwritten with their critic's weights at construction. */
  critic1Target: QCritic;
  critic2Target: QCritic;
}

export class Sac extends Algorithm<SacBatch, SacActor> {
  readonly config: SacConfig;
  readonly critic1: QCritic;
  readonly critic2: QCritic;
  readonly critic1Target: QCritic;
  readonly critic2Target: QCritic;
  /** log α, trained by step 4 (a variable of its own, not part of any model). */
  readonly logAlpha: tf.Variable;
  /** H̄. */
  readonly targetEntropy: number;
  protected override optimizer: tf.Optimizer;
  private readonly actorOptimizer: tf.Optimizer;
  private readonly alphaOptimizer: tf.Optimizer;

  constructor(models: SacModels, config: Omit<SacConfig, 'targetEntropy'> & Partial<SacConfig>) {
    super(models.actor);
    this.config = { ...SAC_FIXED, ...config };
    const c = this.config;
    checkRate(c.gamma, 'gamma', 'SacConfig', 0, 1);
    checkRate(c.tau, 'tau', 'SacConfig', 0, 1);
    if (!(c.initAlpha > 0 && Number.isFinite(c.initAlpha))) throw new Error(`SacConfig.initAlpha must be positive, got ${c.initAlpha}`);
    this.critic1 = models.critic1;
    this.critic2 = models.critic2;
    this.critic1Target = models.critic1Target;
    this.critic2Target = models.critic2Target;
    initTargets(this.targetPairs(), 'Sac');
    this.targetEntropy = c.targetEntropy ?? -models.actor.spec.actionDim;
    this.logAlpha = tf.variable(tf.scalar(Math.log(c.initAlpha)), c.autotune);
    this.optimizer = adam(c.criticLr);
    this.actorOptimizer = adam(c.actorLr);
    this.alphaOptimizer = adam(c.alphaLr);
  }

  private targetPairs(): [Model<ModelOutput>, Model<ModelOutput>][] {
    return [
      [this.critic1, this.critic1Target],
      [this.critic2, this.critic2Target],
    ];
  }

  override models(): Model<ModelOutput>[] {
    return [this.model, this.critic1, this.critic2, this.critic1Target, this.critic2Target];
  }

  /** The deterministic action bias + scale·tanh(mean_φ(s)) [B, A] (evaluation). Caller disposes. */
  predict(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.model.toEnvAction(tf.tanh(this.model.forward(obs).mean)));
  }

  /** Whether the actor explores with gSDE. */
  get sde(): boolean {
    return this.model instanceof GsdeActor;
  }

  /**
   * What sampling needs: [mean | logStd] of u, [B, 2A] (with gSDE, logStd = ½ log Var(u|s) of
   * gsde.ts). The caller draws ε with its seeded Rng and acts with
   * a = bias + scale·tanh(mean + exp(logStd)·ε) (or calls `explore`). Caller disposes.
   */
  sample(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => {
      const m = this.model;
      if (m instanceof GsdeActor) {
        const { mean, latent } = m.forward(obs);
        const { variance } = gsdeSquashed(mean, latent, m.logStd, tf.zerosLike(m.logStd));
        return tf.concat([mean, tf.mul(0.5, tf.log(variance))], 1);
      }
      const { mean, logStd } = m.forward(obs);
      return tf.concat([mean, logStd], 1);
    });
  }

  /** a = bias + scale·tanh(u) for the sample of `policySample` with ε. Caller disposes. */
  explore(obs: tf.Tensor2D, eps: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => this.policySample(obs, eps).action);
  }

  /**
   * (a ~ π_φ(·|s) in env units, log π(a|s)) for given draws; call inside tf.tidy or a gradient
   * closure. ε is standard-normal [B, A] (u = mean + exp(logStd)·ε), or with gSDE the [H, A]
   * standard-normal E of the exploration matrix M = exp(L) ∘ E.
   */
  policySample(obs: tf.Tensor2D, eps: tf.Tensor2D): { action: tf.Tensor2D; logProb: tf.Tensor1D } {
    const m = this.model;
    if (m instanceof GsdeActor) {
      const { mean, latent } = m.forward(obs);
      const s = gsdeSquashed(mean, latent, m.logStd, eps);
      return { action: m.toEnvAction(s.y), logProb: s.logProb };
    }
    const { mean, logStd } = m.forward(obs);
    const s = squashedGaussian(mean, logStd, eps);
    return { action: m.toEnvAction(s.y), logProb: s.logProb };
  }

  /** The draws for the samples at s (step 3) and s' (step 1): ε per row, or gSDE's one E for both. */
  private drawsOf(batch: SacBatch): { now: tf.Tensor2D; next: tf.Tensor2D } {
    if (!this.sde) return { now: batch.noise, next: batch.nextNoise };
    if (!batch.sdeNoise) throw new Error('Sac: a gSDE actor needs batch.sdeNoise, the [H, A] standard-normal draw of the exploration matrix');
    return { now: batch.sdeNoise, next: batch.sdeNoise };
  }

  /** Draws of a fixed shape per update that the batch must carry (engine/continuousAgent.ts): gSDE's E [H, A]. */
  updateDraws(): { name: string; shape: [number, number] }[] {
    const m = this.model;
    return m instanceof GsdeActor ? [{ name: 'sdeNoise', shape: [m.latentDim, m.spec.actionDim] }] : [];
  }

  /** y (step 1) for a given α; call inside tf.tidy. */
  targets(batch: SacBatch, alpha: tf.Scalar): tf.Tensor1D {
    const next = this.policySample(batch.nextObs, this.drawsOf(batch).next);
    const qNext = tf.minimum(...twinQ(this.critic1Target, this.critic2Target, batch.nextObs, next.action));
    const soft = tf.sub(qNext, tf.mul(alpha, next.logProb));
    return tf.add(batch.rewards, tf.mul(tf.mul(this.config.gamma, tf.sub(1, batch.dones)), soft));
  }

  /** L_Q for given targets y (step 2); `meanQ` gets mean Q_θi(s, a) on the way. Call inside tf.tidy. */
  criticLoss(batch: ContinuousBatch, y: tf.Tensor1D, meanQ?: MeanQSink): tf.Scalar {
    return twinCriticLoss(this.critic1, this.critic2, batch, y, meanQ);
  }

  /** L_π and the log π(ã|s) it used (step 3); call inside tf.tidy or a gradient closure. */
  actorLoss(batch: SacBatch, alpha: tf.Scalar): { loss: tf.Scalar; logProb: tf.Tensor1D } {
    const { action, logProb } = this.policySample(batch.obs, this.drawsOf(batch).now);
    const q = tf.minimum(...twinQ(this.critic1, this.critic2, batch.obs, action));
    return { loss: tf.mean(tf.sub(tf.mul(alpha, logProb), q)), logProb };
  }

  /** L_α for log π held constant (step 4); call inside tf.tidy or a gradient closure. */
  alphaLoss(logProb: tf.Tensor1D): tf.Scalar {
    return tf.neg(tf.mean(tf.mul(this.logAlpha, tf.add(logProb, this.targetEntropy))));
  }

  learn(batch: SacBatch): Record<string, number> {
    const { obsDim, actionDim } = this.model.spec;
    const B = checkBatch(batch, obsDim, actionDim, 'Sac.learn');
    checkNoise(batch.noise, B, actionDim, 'noise', 'Sac.learn');
    checkNoise(batch.nextNoise, B, actionDim, 'nextNoise', 'Sac.learn');
    const m = this.model;
    if (m instanceof GsdeActor) checkNoise(batch.sdeNoise, m.latentDim, actionDim, 'sdeNoise', 'Sac.learn');
    const criticVars = [...this.critic1.variables(), ...this.critic2.variables()];
    const scalars = tf.tidy(() => {
      const alpha = tf.exp(this.logAlpha) as tf.Scalar; // a constant for steps 1–3
      const y = this.targets(batch, alpha);
      let qMeans: tf.Scalar[] = [];
      const critic = tf.variableGrads(() => this.criticLoss(batch, y, (m1, m2) => (qMeans = [tf.keep(m1), tf.keep(m2)])), criticVars);
      // A subclass whose loss does not report them (CQL) gets them from one more forward pass.
      const [q1Mean, q2Mean] = qMeans.length ? qMeans : twinQ(this.critic1, this.critic2, batch.obs, batch.actions).map((q) => tf.mean(q) as tf.Scalar);
      this.optimizer.applyGradients(critic.grads);

      const side: { logProb?: tf.Tensor1D } = {};
      const actor = tf.variableGrads(() => {
        const t = this.actorLoss(batch, alpha);
        side.logProb = tf.keep(t.logProb);
        return t.loss;
      }, this.model.variables());
      this.actorOptimizer.applyGradients(actor.grads);
      const logProb = side.logProb as tf.Tensor1D;

      const out: Record<string, tf.Scalar> = {
        criticLoss: critic.value,
        actorLoss: actor.value,
        alpha,
        entropy: tf.neg(tf.mean(logProb)) as tf.Scalar,
        q1Mean,
        q2Mean,
      };
      // SB3's train/std: the mean of exp(L) with gSDE.
      if (m instanceof GsdeActor) out.sdeStd = tf.mean(tf.exp(m.logStd)) as tf.Scalar;
      if (this.config.autotune) {
        const a = tf.variableGrads(() => this.alphaLoss(logProb), [this.logAlpha]);
        this.alphaOptimizer.applyGradients(a.grads);
        out.alphaLoss = a.value;
      }
      logProb.dispose(); // keep()-ed: outlives the tidy otherwise
      return out;
    });
    softUpdate(this.targetPairs(), this.config.tau);
    return readScalars(scalars);
  }

  /** Sets the actor's and the critics' learning rates (α's stays). */
  override setLearningRate(lr: number): void {
    setOptimizerLr(this.optimizer, lr);
    setOptimizerLr(this.actorOptimizer, lr);
  }

  override dispose(): void {
    this.actorOptimizer.dispose();
    this.alphaOptimizer.dispose();
    this.logAlpha.dispose();
    super.dispose();
  }
}

/**
 * gSDE's settings (SB3's use_sde, sde_sample_freq, log_std_init). They shape the actor
 * (ActorSpec.sde, made by engine/continuousLearner.ts) and how the actors resample, not the
 * update rule, which follows its actor.
 */
export interface SacGsdeParams {
  useSde: boolean;
  /** Actors draw a new exploration matrix every this many env steps; ≤ 0: only at each segment start. */
  sdeSampleFreq: number;
  /** Initial entries of the log-std matrix L. */
  logStdInit: number;
}

/** The settings the playground exposes (src/config/algorithms/sac.ts), by field name (H̄ stays −|A|). */
export type SacParams = Omit<SacConfig, 'targetEntropy'> & SacGsdeParams;

/** What kind of update rule `load` brings: a Box-action one that builds its own networks from the env's sizes and bounds. */
export const kind = 'continuous';

/** How the actors act: a = bias + scale·tanh(mean + exp(logStd)·ε), or with gSDE (ActorSpec.sde) mean + z·M. */
export const policy = 'squashedGaussian' as const;

/** SAC's actor (a GsdeActor when `net.sde` is set) and twin critics with their targets, for an env's sizes and bounds. */
export function sacModels(net: ActorSpec, seed: number): SacModels {
  const critic: CriticSpec = { obsDim: net.obsDim, actionDim: net.actionDim, hidden: net.hidden, activation: net.activation };
  return {
    actor: net.sde ? new GsdeActor(net, seed) : new SquashedGaussianActor(net, seed),
    critic1: new QCritic(critic, deriveSeed(seed, 1)),
    critic2: new QCritic(critic, deriveSeed(seed, 2)),
    critic1Target: new QCritic(critic, deriveSeed(seed, 1)),
    critic2Target: new QCritic(critic, deriveSeed(seed, 2)),
  };
}

/** Builds SAC for an env's sizes and bounds (engine entry point). */
export function create(net: ActorSpec, params: SacParams, seed: number): Sac {
  if (params.useSde !== (net.sde !== undefined)) throw new Error(`sac: useSde is ${params.useSde} but the actor spec ${net.sde ? 'has' : 'lacks'} gSDE`);
  return new Sac(sacModels(net, seed), params);
}
