/**
 * MLP models for continuous (Box) actions, with the seeded orthogonal init of mlp.ts:
 *
 *   - DeterministicActor (DDPG, TD3):      a = bias + scale · tanh(f(s))                  `{ action: [B, A] }`
 *   - SquashedGaussianActor (SAC):         u ~ N(mean(s), exp(logStd(s))²), a = bias + scale · tanh(u)
 *                                          `{ mean: [B, A], logStd: [B, A] }`, logStd clamped to [logStdMin, logStdMax]
 *   - GsdeActor (SAC with gSDE, gsde.ts):  u = mean(s) + z(s)·M, M ~ N(0, exp(L)²), a = bias + scale · tanh(u)
 *                                          `{ mean: [B, A], latent: [B, H] }`, L [H, A] a trained variable
 *   - QCritic (all three):                 Q(s, a) from the concatenation [s, a]           `{ q: [B] }`
 *
 * with scale = (high − low)/2 and bias = (high + low)/2 per action dimension (CleanRL's
 * action_scale / action_bias), so a tanh output in (−1, 1) maps onto the env's bounds.
 *
 * Sampling is done with noise passed in (ε drawn by the caller from a seeded Rng, e.g. with
 * `normalNoise`), never with a tfjs random op, so a seed gives the same numbers on every backend.
 */
import * as tf from '@tensorflow/tfjs';
import { denseLayer } from './denseKernel';
import { GSDE_CLIP_MEAN, logOneMinusTanhSq, type GsdeSpec } from './gsde';
import { Dense, DenseStack } from './mlp';
import { Model, type WeightSpec } from './model';
import { Rng } from './rng';

/** Serialisable description of an actor: sizes, hidden layers, and the env's action bounds. */
export interface ActorSpec {
  obsDim: number;
  actionDim: number;
  hidden: number[];
  activation: 'tanh' | 'relu';
  /** Per-dimension lower action bounds (length actionDim). */
  actionLow: number[];
  /** Per-dimension upper action bounds (length actionDim). */
  actionHigh: number[];
  /** SAC with gSDE: the actor is a GsdeActor and the remote actors explore with its matrix (absent: off). */
  sde?: GsdeSpec;
}

/** Serialisable description of a Q(s, a) critic. */
export interface CriticSpec {
  obsDim: number;
  actionDim: number;
  hidden: number[];
  activation: 'tanh' | 'relu';
}

/**
 * log-std bounds of the SAC actor: SB3's LOG_STD_MIN / LOG_STD_MAX (−20, 2), as in Haarnoja's
 * softlearning. The clamp keeps exp(logStd) away from 0 and from huge values.
 */
export const LOG_STD_MIN = -20;
export const LOG_STD_MAX = 2;

const bad = (what: string, v: unknown) => new Error(`${what} is invalid: ${JSON.stringify(v)}`);

function checkSizes(spec: CriticSpec, who: string): void {
  if (!Number.isInteger(spec.obsDim) || spec.obsDim < 1) throw bad(`${who}.obsDim`, spec.obsDim);
  if (!Number.isInteger(spec.actionDim) || spec.actionDim < 1) throw bad(`${who}.actionDim`, spec.actionDim);
  if (!Array.isArray(spec.hidden) || spec.hidden.length === 0 || spec.hidden.some((h) => !Number.isInteger(h) || h < 1)) {
    throw bad(`${who}.hidden (at least one layer)`, spec.hidden);
  }
  if (spec.activation !== 'tanh' && spec.activation !== 'relu') throw bad(`${who}.activation`, spec.activation);
}

/** scale = (high − low)/2, bias = (high + low)/2, after checking the bounds. */
export function actionScaleBias(spec: ActorSpec, who = 'ActorSpec'): { scale: Float32Array; bias: Float32Array } {
  const { actionLow: low, actionHigh: high, actionDim: d } = spec;
  if (!Array.isArray(low) || !Array.isArray(high) || low.length !== d || high.length !== d) {
    throw new Error(`${who}: actionLow / actionHigh must hold actionDim = ${d} numbers each`);
  }
  for (let i = 0; i < d; i++) {
    if (!(Number.isFinite(low[i]) && Number.isFinite(high[i]) && low[i] < high[i])) {
      throw new Error(`${who}: action bounds of dimension ${i} must be finite with low < high, got [${low[i]}, ${high[i]}]`);
    }
  }
  return {
    scale: Float32Array.from(low, (l, i) => (high[i] - l) / 2),
    bias: Float32Array.from(low, (l, i) => (high[i] + l) / 2),
  };
}

/** n independent standard-normal draws from a seeded Rng (exploration noise, target smoothing, SAC's ε). */
export function normalNoise(rng: Rng, n: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal();
  return out;
}

/**
 * A DenseStack's forward pass with each layer as one `denseLayer` kernel (product, bias and relu
 * fused on wasm, with a gradient free of transposed products). The activation follows every
 * hidden layer, and the last one too when `activateLast` (a trunk that feeds heads).
 */
export function applyStack(stack: DenseStack, x: tf.Tensor2D, activateLast = false): tf.Tensor2D {
  let h = x;
  const n = stack.layers.length;
  for (let i = 0; i < n; i++) {
    const { kernel, bias } = stack.layers[i];
    const active = i + 1 < n || activateLast;
    const fuseRelu = active && stack.activation === 'relu';
    h = denseLayer(h, kernel as tf.Tensor2D, bias as tf.Tensor1D, fuseRelu ? 'relu' : 'linear');
    if (active && !fuseRelu) h = tf.tanh(h);
  }
  return h;
}

/** Actor models share the bounds as constant tensors (not variables: they are not trained). */
abstract class BoundedActor<O extends Record<string, tf.Tensor>> extends Model<O> {
  readonly scale: Float32Array;
  readonly bias: Float32Array;
  /** [1, A] constants. */
  readonly scaleT: tf.Tensor2D;
  readonly biasT: tf.Tensor2D;
  readonly lowT: tf.Tensor2D;
  readonly highT: tf.Tensor2D;

  constructor(readonly spec: ActorSpec) {
    super();
    checkSizes(spec, 'ActorSpec');
    const { scale, bias } = actionScaleBias(spec);
    this.scale = scale;
    this.bias = bias;
    const d = spec.actionDim;
    this.scaleT = tf.tensor2d(scale, [1, d]);
    this.biasT = tf.tensor2d(bias, [1, d]);
    this.lowT = tf.tensor2d(Float32Array.from(spec.actionLow), [1, d]);
    this.highT = tf.tensor2d(Float32Array.from(spec.actionHigh), [1, d]);
  }

  /** bias + scale · y for y in (−1, 1): the env action. Call inside tf.tidy. */
  toEnvAction(y: tf.Tensor2D): tf.Tensor2D {
    return tf.add(this.biasT, tf.mul(this.scaleT, y));
  }

  /** clip(a, low, high) per dimension. Call inside tf.tidy. */
  clipToBounds(a: tf.Tensor2D): tf.Tensor2D {
    return tf.minimum(tf.maximum(a, this.lowT), this.highT);
  }

  override dispose(): void {
    super.dispose();
    tf.dispose([this.scaleT, this.biasT, this.lowT, this.highT]);
  }
}

/** μ(s) = bias + scale · tanh(f(s)): DDPG / TD3's deterministic policy, inside the action bounds. */
export class DeterministicActor extends BoundedActor<{ action: tf.Tensor2D }> {
  readonly net: DenseStack;

  constructor(spec: ActorSpec, readonly seed: number) {
    super(spec);
    // head gain 0.01: the first actions sit near the middle of the bounds
    this.net = new DenseStack('actor', spec.obsDim, spec.hidden, spec.actionDim, spec.activation, 0.01, new Rng(seed).fork(11));
  }

  forward(x: tf.Tensor2D): { action: tf.Tensor2D } {
    return tf.tidy(() => ({ action: this.toEnvAction(tf.tanh(applyStack(this.net, x))) }));
  }

  variables(): tf.Variable[] {
    return this.net.variables();
  }

  weightSpecs(): WeightSpec[] {
    return this.net.specs();
  }
}

/**
 * SAC's actor: a shared trunk, then a mean head and a log-std head, logStd = clip(raw, min, max).
 * Variable order: trunk layers, mean head, log-std head.
 */
export class SquashedGaussianActor extends BoundedActor<{ mean: tf.Tensor2D; logStd: tf.Tensor2D }> {
  readonly trunk: DenseStack;
  readonly meanHead: Dense;
  readonly logStdHead: Dense;

  constructor(
    spec: ActorSpec,
    readonly seed: number,
    readonly logStdMin = LOG_STD_MIN,
    readonly logStdMax = LOG_STD_MAX,
  ) {
    super(spec);
    if (!(logStdMin < logStdMax)) throw new Error(`SquashedGaussianActor: logStdMin ${logStdMin} must be below logStdMax ${logStdMax}`);
    const rng = new Rng(seed).fork(12);
    const h = spec.hidden;
    // DenseStack puts no activation after its last layer: the trunk's last hidden layer is its "head".
    this.trunk = new DenseStack('actor', spec.obsDim, h.slice(0, -1), h[h.length - 1], spec.activation, Math.SQRT2, rng.fork(0));
    this.meanHead = new Dense('actor/mean', h[h.length - 1], spec.actionDim, 0.01, rng.fork(1));
    this.logStdHead = new Dense('actor/logStd', h[h.length - 1], spec.actionDim, 0.01, rng.fork(2));
  }

  forward(x: tf.Tensor2D): { mean: tf.Tensor2D; logStd: tf.Tensor2D } {
    return tf.tidy(() => {
      const z = applyStack(this.trunk, x, true);
      return {
        mean: denseLayer(z, this.meanHead.kernel as tf.Tensor2D, this.meanHead.bias as tf.Tensor1D, 'linear'),
        logStd: tf.clipByValue(denseLayer(z, this.logStdHead.kernel as tf.Tensor2D, this.logStdHead.bias as tf.Tensor1D, 'linear'), this.logStdMin, this.logStdMax),
      };
    });
  }

  variables(): tf.Variable[] {
    return [...this.trunk.variables(), this.meanHead.kernel, this.meanHead.bias, this.logStdHead.kernel, this.logStdHead.bias];
  }

  weightSpecs(): WeightSpec[] {
    return [...this.trunk.specs(), ...this.meanHead.specs(), ...this.logStdHead.specs()];
  }
}

/**
 * SAC's actor with gSDE (Stable-Baselines3's SAC Actor with use_sde, full_std, exp): the same trunk
 * and mean head as SquashedGaussianActor (same init for a seed), the mean clipped by
 * hardtanh(−2, 2) (SB3's clip_mean), and instead of a log-std head a state-independent log-std
 * matrix L [H, A] (H = the last hidden size), a trained variable with every entry `logStdInit`.
 * z(s) = act(trunk(s)) is the latent the exploration noise z·M is linear in (see gsde.ts).
 * Variable order: trunk layers, mean head, L.
 */
export class GsdeActor extends BoundedActor<{ mean: tf.Tensor2D; latent: tf.Tensor2D }> {
  readonly trunk: DenseStack;
  readonly meanHead: Dense;
  /** L [H, A]. */
  readonly logStd: tf.Variable<tf.Rank.R2>;
  readonly sde: GsdeSpec;
  /** H. */
  readonly latentDim: number;

  constructor(
    spec: ActorSpec,
    readonly seed: number,
  ) {
    super(spec);
    if (!spec.sde || !Number.isFinite(spec.sde.logStdInit) || !Number.isInteger(spec.sde.sampleFreq)) throw bad('ActorSpec.sde (GsdeActor)', spec.sde);
    this.sde = spec.sde;
    const rng = new Rng(seed).fork(12);
    const h = spec.hidden;
    this.latentDim = h[h.length - 1];
    this.trunk = new DenseStack('actor', spec.obsDim, h.slice(0, -1), this.latentDim, spec.activation, Math.SQRT2, rng.fork(0));
    this.meanHead = new Dense('actor/mean', this.latentDim, spec.actionDim, 0.01, rng.fork(1));
    this.logStd = tf.variable(tf.fill<tf.Rank.R2>([this.latentDim, spec.actionDim], spec.sde.logStdInit), true);
  }

  forward(x: tf.Tensor2D): { mean: tf.Tensor2D; latent: tf.Tensor2D } {
    return tf.tidy(() => {
      const latent = applyStack(this.trunk, x, true);
      const raw = denseLayer(latent, this.meanHead.kernel as tf.Tensor2D, this.meanHead.bias as tf.Tensor1D, 'linear');
      return { mean: tf.clipByValue(raw, -GSDE_CLIP_MEAN, GSDE_CLIP_MEAN), latent };
    });
  }

  variables(): tf.Variable[] {
    return [...this.trunk.variables(), this.meanHead.kernel, this.meanHead.bias, this.logStd];
  }

  weightSpecs(): WeightSpec[] {
    return [...this.trunk.specs(), ...this.meanHead.specs(), { name: 'actor/sdeLogStd', shape: [this.latentDim, this.spec.actionDim] }];
  }
}

/**
 * The tanh-squashed diagonal Gaussian, reparameterised (call inside tf.tidy or a gradient closure):
 *     u = mean + exp(logStd) · ε,   y = tanh(u) ∈ (−1, 1)
 *     log π(y|s) = Σ_i [ log N(u_i; mean_i, σ_i) − log(1 − tanh(u_i)²) ]                     (change of variables)
 *     log N(u_i; mean_i, σ_i) = −ε_i²/2 − logStd_i − log(2π)/2           since (u_i − mean_i)/σ_i = ε_i
 *     log(1 − tanh(u)²) = 2·(log 2 − u − softplus(−2u))                  (exact, stable for large |u|)
 * `logProb` [B] is the density of y on (−1, 1)^A (SB3's convention); the env action
 * a = bias + scale·y has density log π(y|s) − Σ_i log scale_i, a constant shift.
 */
export function squashedGaussian(
  mean: tf.Tensor2D,
  logStd: tf.Tensor2D,
  eps: tf.Tensor2D,
): { u: tf.Tensor2D; y: tf.Tensor2D; logProb: tf.Tensor1D } {
  const u = tf.add(mean, tf.mul(tf.exp(logStd), eps));
  const y = tf.tanh(u);
  const logN = tf.sub(tf.sub(tf.mul(-0.5, tf.square(eps)), logStd), 0.5 * Math.log(2 * Math.PI));
  const logDet = logOneMinusTanhSq(u as tf.Tensor2D);
  const logProb = tf.sum(tf.sub(logN, logDet), 1) as tf.Tensor1D;
  return { u: u as tf.Tensor2D, y: y as tf.Tensor2D, logProb };
}

/** Q(s, a) on [s, a] concatenated: obsDim + actionDim → hidden… → 1. Output `{ q: [B] }`. */
export class QCritic extends Model<{ q: tf.Tensor1D }> {
  readonly net: DenseStack;

  constructor(
    readonly spec: CriticSpec,
    readonly seed: number,
  ) {
    super();
    checkSizes(spec, 'CriticSpec');
    this.net = new DenseStack('q', spec.obsDim + spec.actionDim, spec.hidden, 1, spec.activation, 1.0, new Rng(seed).fork(13));
  }

  /** x = [s, a] of shape [B, obsDim + actionDim]. */
  forward(x: tf.Tensor2D): { q: tf.Tensor1D } {
    return tf.tidy(() => ({ q: tf.reshape(applyStack(this.net, x), [-1]) as tf.Tensor1D }));
  }

  /** Q(s, a) [B] from separate obs [B, obsDim] and action [B, actionDim]. */
  qValue(obs: tf.Tensor2D, action: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => this.forward(tf.concat([obs, action], 1)).q);
  }

  variables(): tf.Variable[] {
    return this.net.variables();
  }

  weightSpecs(): WeightSpec[] {
    return this.net.specs();
  }
}

/**
 * Gaussian PPO's actor-critic (CleanRL ppo_continuous_action.py's Agent): an actor MLP for the
 * mean μ(s) (head gain 0.01), a state-independent log-std vector (a trained variable, starting at
 * 0), and a separate critic MLP V(s) (head gain 1). Actions are unbounded draws a ~ N(μ(s), σ²);
 * the env clips them to its bounds. Variable order: actor layers, logStd, critic layers.
 * Output `{ mean: [B, A], logStd: [1, A], value: [B] }`.
 */
export class GaussianActorCritic extends Model<{ mean: tf.Tensor2D; logStd: tf.Tensor2D; value: tf.Tensor1D }> {
  readonly actor: DenseStack;
  readonly critic: DenseStack;
  readonly logStd: tf.Variable<tf.Rank.R2>;

  constructor(
    readonly spec: ActorSpec,
    readonly seed: number,
  ) {
    super();
    checkSizes(spec, 'ActorSpec');
    actionScaleBias(spec); // checks the bounds
    const rng = new Rng(seed).fork(14);
    this.actor = new DenseStack('actor', spec.obsDim, spec.hidden, spec.actionDim, spec.activation, 0.01, rng.fork(0));
    this.critic = new DenseStack('critic', spec.obsDim, spec.hidden, 1, spec.activation, 1.0, rng.fork(1));
    this.logStd = tf.variable(tf.zeros([1, spec.actionDim]), true);
  }

  forward(x: tf.Tensor2D): { mean: tf.Tensor2D; logStd: tf.Tensor2D; value: tf.Tensor1D } {
    return tf.tidy(() => ({
      mean: applyStack(this.actor, x),
      logStd: tf.clone(this.logStd) as tf.Tensor2D,
      value: tf.reshape(applyStack(this.critic, x), [-1]) as tf.Tensor1D,
    }));
  }

  variables(): tf.Variable[] {
    return [...this.actor.variables(), this.logStd, ...this.critic.variables()];
  }

  weightSpecs(): WeightSpec[] {
    return [...this.actor.specs(), { name: 'actor/logStd', shape: [1, this.spec.actionDim] }, ...this.critic.specs()];
  }
}

/**
 * log N(a; μ, σ²) of a diagonal Gaussian, summed over the action dimensions, and its entropy:
 *     log π(a|s) = Σ_i [ −(a_i − μ_i)² / (2σ_i²) − log σ_i − ½ log 2π ]
 *     H = Σ_i [ ½ + ½ log 2π + log σ_i ]
 * `logStd` broadcasts ([1, A] or [B, A]). Call inside tf.tidy.
 */
export function diagGaussianLogProb(mean: tf.Tensor2D, logStd: tf.Tensor2D, actions: tf.Tensor2D): { logProb: tf.Tensor1D; entropy: tf.Tensor1D } {
  const z = tf.div(tf.sub(actions, mean), tf.exp(logStd));
  const perDim = tf.sub(tf.sub(tf.mul(-0.5, tf.square(z)), logStd), 0.5 * Math.log(2 * Math.PI));
  const logProb = tf.sum(perDim, 1) as tf.Tensor1D;
  const B = mean.shape[0];
  const entPerDim = tf.add(logStd, 0.5 + 0.5 * Math.log(2 * Math.PI));
  const entropy = tf.mul(tf.ones([B]), tf.sum(entPerDim)) as tf.Tensor1D;
  return { logProb, entropy };
}
