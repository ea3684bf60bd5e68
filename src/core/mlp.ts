/**
 * Dense (MLP) models with seeded, backend-independent initialisation.
 *
 * Init follows CleanRL's `layer_init`: orthogonal weights with gain √2 on hidden layers, 0.01 on
 * the policy head (near-uniform initial policy), 1.0 on a value / Q head, biases 0. The
 * orthogonal matrices are computed in plain JS (float64, from `Rng.normal`, then rounded to
 * float32), so the same seed gives BIT-IDENTICAL initial weights on every backend.
 *
 * Forward passes run in tfjs: across backends (cpu vs wasm) they agree to float32 rounding
 * (~1e-6 relative), not bit for bit, because matmul summation order / fused ops differ.
 *
 * Layout: a dense layer computes y = x·W + b with W of shape [in, out] (tfjs convention; the
 * transpose of torch's [out, in]).
 */
import * as tf from '@tensorflow/tfjs';
import { Rng } from './rng';
import { Model, type WeightSpec } from './model';

/** Serialisable description of an MLP model (goes into configs, URLs and checkpoints). */
export interface MlpSpec {
  obsDim: number;
  numActions: number;
  hidden: number[];
  activation: 'tanh' | 'relu';
  /**
   * Which model `buildModel` makes: 'policy' → PolicyMlp { logits } (default),
   * 'actorCritic' → ActorCriticMlp { logits, value }, 'q' → QMlp { q }.
   */
  kind?: 'policy' | 'actorCritic' | 'q';
}

/**
 * Orthogonal matrix of shape [rows, cols] (row-major), scaled by `gain`, as
 * torch.nn.init.orthogonal_: draw a Gaussian matrix, take the Q of its QR decomposition
 * (columns orthonormal if rows ≥ cols, rows orthonormal otherwise), with the sign convention
 * diag(R) > 0. Here via modified Gram-Schmidt on the tall orientation, in float64.
 */
export function orthogonal(rows: number, cols: number, gain: number, rng: Rng): Float32Array {
  const n = Math.max(rows, cols); // tall side
  const m = Math.min(rows, cols);
  // cols of a tall n×m matrix, stored column by column
  const q: Float64Array[] = [];
  for (let j = 0; j < m; j++) {
    const c = new Float64Array(n);
    for (let i = 0; i < n; i++) c[i] = rng.normal();
    q.push(c);
  }
  for (let j = 0; j < m; j++) {
    const c = q[j];
    for (let k = 0; k < j; k++) {
      const p = q[k];
      let dot = 0;
      for (let i = 0; i < n; i++) dot += p[i] * c[i];
      for (let i = 0; i < n; i++) c[i] -= dot * p[i];
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += c[i] * c[i];
    norm = Math.sqrt(norm);
    if (norm < 1e-12) throw new Error('orthogonal: degenerate Gaussian draw'); // probability ~0
    for (let i = 0; i < n; i++) c[i] /= norm;
  }
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      // rows ≥ cols: W[r][c] = Q[r][c]; rows < cols: W = Qᵀ, W[r][c] = Q[c][r]
      out[r * cols + c] = gain * (rows >= cols ? q[c][r] : q[r][c]);
    }
  }
  return out;
}

/** One dense layer y = x·W + b, weights initialised orthogonally from `rng`. */
export class Dense {
  readonly kernel: tf.Variable;
  readonly bias: tf.Variable;

  constructor(
    readonly name: string,
    readonly inDim: number,
    readonly outDim: number,
    gain: number,
    rng: Rng,
  ) {
    if (!(Number.isInteger(inDim) && inDim > 0 && Number.isInteger(outDim) && outDim > 0)) {
      throw new Error(`Dense ${name}: dimensions must be positive integers, got ${inDim}x${outDim}`);
    }
    // No tfjs variable names: tfjs requires them to be globally unique, and several copies of a
    // model (learner, target net, actors in one thread) must coexist.
    const w0 = tf.tensor2d(orthogonal(inDim, outDim, gain, rng), [inDim, outDim]);
    const b0 = tf.zeros([outDim]);
    this.kernel = tf.variable(w0, true);
    this.bias = tf.variable(b0, true);
    // The variables hold their own reference to the data: drop the initial tensors.
    w0.dispose();
    b0.dispose();
  }

  apply(x: tf.Tensor2D): tf.Tensor2D {
    return tf.add(tf.matMul(x, this.kernel as tf.Tensor2D), this.bias);
  }

  specs(): WeightSpec[] {
    return [
      { name: `${this.name}/kernel`, shape: [this.inDim, this.outDim] },
      { name: `${this.name}/bias`, shape: [this.outDim] },
    ];
  }
}

/** A stack of Dense layers: activation after every hidden layer, none after the last. */
export class DenseStack {
  readonly layers: Dense[];

  constructor(
    readonly name: string,
    inDim: number,
    hidden: readonly number[],
    outDim: number,
    readonly activation: 'tanh' | 'relu',
    headGain: number,
    rng: Rng,
  ) {
    const dims = [inDim, ...hidden, outDim];
    this.layers = [];
    for (let i = 0; i + 1 < dims.length; i++) {
      const last = i + 2 === dims.length;
      this.layers.push(new Dense(`${name}/${i}`, dims[i], dims[i + 1], last ? headGain : Math.SQRT2, rng.fork(i)));
    }
  }

  apply(x: tf.Tensor2D): tf.Tensor2D {
    let h = x;
    for (let i = 0; i < this.layers.length; i++) {
      h = this.layers[i].apply(h);
      if (i + 1 < this.layers.length) h = this.activation === 'tanh' ? tf.tanh(h) : tf.relu(h);
    }
    return h;
  }

  variables(): tf.Variable[] {
    return this.layers.flatMap((l) => [l.kernel, l.bias]);
  }

  specs(): WeightSpec[] {
    return this.layers.flatMap((l) => l.specs());
  }
}

function checkSpec(spec: MlpSpec): void {
  const bad = (f: string, v: unknown) => new Error(`MlpSpec.${f} is invalid: ${JSON.stringify(v)}`);
  if (!Number.isInteger(spec.obsDim) || spec.obsDim < 1) throw bad('obsDim', spec.obsDim);
  if (!Number.isInteger(spec.numActions) || spec.numActions < 1) throw bad('numActions', spec.numActions);
  if (!Array.isArray(spec.hidden) || spec.hidden.some((h) => !Number.isInteger(h) || h < 1)) throw bad('hidden', spec.hidden);
  if (spec.activation !== 'tanh' && spec.activation !== 'relu') throw bad('activation', spec.activation);
}

/** obsDim → hidden… → numActions logits. Output `{ logits: [B, A] }`. */
export class PolicyMlp extends Model<{ logits: tf.Tensor2D }> {
  readonly policy: DenseStack;

  constructor(
    readonly spec: MlpSpec,
    readonly seed: number,
  ) {
    super();
    checkSpec(spec);
    const rng = new Rng(seed).fork(1);
    this.policy = new DenseStack('policy', spec.obsDim, spec.hidden, spec.numActions, spec.activation, 0.01, rng);
  }

  forward(x: tf.Tensor2D): { logits: tf.Tensor2D } {
    return tf.tidy(() => ({ logits: this.policy.apply(x) }));
  }

  variables(): tf.Variable[] {
    return this.policy.variables();
  }

  weightSpecs(): WeightSpec[] {
    return this.policy.specs();
  }
}

/** obsDim → hidden… → numActions Q-values (head gain 1.0). Output `{ q: [B, A] }`. */
export class QMlp extends Model<{ q: tf.Tensor2D }> {
  readonly net: DenseStack;

  constructor(
    readonly spec: MlpSpec,
    readonly seed: number,
  ) {
    super();
    checkSpec(spec);
    this.net = new DenseStack('q', spec.obsDim, spec.hidden, spec.numActions, spec.activation, 1.0, new Rng(seed).fork(3));
  }

  forward(x: tf.Tensor2D): { q: tf.Tensor2D } {
    return tf.tidy(() => ({ q: this.net.apply(x) }));
  }

  variables(): tf.Variable[] {
    return this.net.variables();
  }

  weightSpecs(): WeightSpec[] {
    return this.net.specs();
  }
}

/**
 * Separate policy and value MLPs (CleanRL's PPO Agent: no shared trunk).
 * Output `{ logits: [B, A], value: [B] }`. Variable order: policy layers, then value layers.
 */
export class ActorCriticMlp extends Model<{ logits: tf.Tensor2D; value: tf.Tensor1D }> {
  readonly policy: DenseStack;
  readonly critic: DenseStack;

  constructor(
    readonly spec: MlpSpec,
    readonly seed: number,
  ) {
    super();
    checkSpec(spec);
    const rng = new Rng(seed);
    // Same stream as PolicyMlp for the policy: a PolicyMlp and an ActorCriticMlp with the same
    // seed start with the same policy.
    this.policy = new DenseStack('policy', spec.obsDim, spec.hidden, spec.numActions, spec.activation, 0.01, rng.fork(1));
    this.critic = new DenseStack('value', spec.obsDim, spec.hidden, 1, spec.activation, 1.0, rng.fork(2));
  }

  forward(x: tf.Tensor2D): { logits: tf.Tensor2D; value: tf.Tensor1D } {
    return tf.tidy(() => ({
      logits: this.policy.apply(x),
      value: tf.reshape(this.critic.apply(x), [-1]) as tf.Tensor1D,
    }));
  }

  variables(): tf.Variable[] {
    return [...this.policy.variables(), ...this.critic.variables()];
  }

  weightSpecs(): WeightSpec[] {
    return [...this.policy.specs(), ...this.critic.specs()];
  }
}

/** Build the model a spec describes, initialised from `seed`. */
export function buildModel(spec: MlpSpec & { kind: 'actorCritic' }, seed: number): ActorCriticMlp;
export function buildModel(spec: MlpSpec & { kind: 'q' }, seed: number): QMlp;
export function buildModel(spec: MlpSpec & { kind?: 'policy' }, seed: number): PolicyMlp;
export function buildModel(spec: MlpSpec, seed: number): PolicyMlp | ActorCriticMlp | QMlp;
export function buildModel(spec: MlpSpec, seed: number): PolicyMlp | ActorCriticMlp | QMlp {
  switch (spec.kind ?? 'policy') {
    case 'policy':
      return new PolicyMlp(spec, seed);
    case 'actorCritic':
      return new ActorCriticMlp(spec, seed);
    case 'q':
      return new QMlp(spec, seed);
    default:
      throw new Error(`MlpSpec.kind is invalid: ${JSON.stringify(spec.kind)}`);
  }
}

/**
 * Build a model with a `{ logits }` head (PolicyMlp, or ActorCriticMlp when kind is
 * 'actorCritic') for policy-gradient algorithms; throws for kind 'q'. Use it when the spec comes
 * from a config typed as plain `MlpSpec`.
 */
export function buildPolicyModel(spec: MlpSpec, seed: number): PolicyMlp | ActorCriticMlp {
  const m = buildModel(spec, seed);
  if (m instanceof QMlp) throw new Error(`MlpSpec.kind 'q' has no policy head (logits); use 'policy' or 'actorCritic'`);
  return m;
}
