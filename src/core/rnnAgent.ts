/**
 * The recurrent agent network of QMIX, VDN and IQL (pymarl's `RNNAgent`, src/modules/agents/rnn_agent.py):
 * fc1 → relu → GRUCell → fc2, shared by every agent (the agent id is part of the input). The model
 * of the Model / Algorithm split: src/algorithms/qmix.ts holds the update rule that trains it.
 *
 * Shared by every agent (parameter sharing; the agent id is in the input):
 *     x_a(t) = [o_a(t), onehot(u_a(t−1)), onehot(a)]               (src/algorithms/marl.ts: agent inputs)
 *     h_a(t) = GRU(relu(W_1 x_a(t) + b_1), h_a(t−1)),  h_a(−1) = 0
 *     Q_a(τ_a(t), ·) = W_2 h_a(t) + b_2
 * GRU cell (torch.nn.GRUCell):
 *     r = σ(W_ir x + b_ir + W_hr h + b_hr),   z = σ(W_iz x + b_iz + W_hz h + b_hz)
 *     n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)),   h' = (1 − z) ⊙ n + z ⊙ h
 */
import * as tf from '@tensorflow/tfjs';
import { denseLayer, type DenseActivation } from './denseKernel';
import { Dense } from './mlp';
import { Model, type WeightSpec } from './model';
import { Rng } from './rng';
import { unstackSteps } from './sequenceKernels';

/** x·W + b (relu optional) through the fused dense kernel (explicit transposes in its gradient). */
function linear(x: tf.Tensor2D, layer: Dense, activation: DenseActivation = 'linear'): tf.Tensor2D {
  return denseLayer(x, layer.kernel as tf.Tensor2D, layer.bias as tf.Tensor1D, activation);
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
    return this.stepFromProjection(linear(x, this.input), h);
  }

  /**
   * One step given the input's projection W_i x + b_i [rows, 3H] (computed for a whole sequence
   * at once by `RnnAgent.unroll`): the only per-step work is what depends on h.
   */
  stepFromProjection(gi: tf.Tensor2D, h: tf.Tensor2D): tf.Tensor2D {
    const H = this.units;
    const [xrz, xn] = tf.split(gi, [2 * H, H], 1);
    const [hrz, hn] = tf.split(linear(h, this.recurrent), [2 * H, H], 1);
    const [r, z] = tf.split(tf.sigmoid(tf.add(xrz, hrz)), 2, 1);
    const n = tf.tanh(tf.add(xn, tf.mul(r, hn)));
    // h' = (1 − z) ⊙ n + z ⊙ h = n + z ⊙ (h − n)
    return tf.add(n, tf.mul(z, tf.sub(h, n))) as tf.Tensor2D;
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
    const h2 = this.gru.step(linear(x, this.fc1, 'relu'), h);
    return { q: linear(h2, this.fc2), h: h2 };
  }

  forward(x: tf.Tensor2D): { q: tf.Tensor2D } {
    return tf.tidy(() => ({ q: this.step(x, tf.zeros([x.shape[0], this.hidden])).q }));
  }

  /**
   * inputs [steps, rows, D] → Q [steps, rows, numActions] (call inside tf.tidy). What does not
   * depend on h(t − 1) runs once over the whole sequence (fc1, relu, the GRU's input projection,
   * fc2); per step only the recurrent product and the gates, about a dozen kernels: at these
   * sizes the kernel count, not the arithmetic, is the cost on wasm.
   */
  unroll(inputs: tf.Tensor3D): tf.Tensor3D {
    const [steps, rows, D] = inputs.shape;
    const H = this.hidden;
    const e = linear(tf.reshape(inputs, [steps * rows, D]) as tf.Tensor2D, this.fc1, 'relu');
    const gi = unstackSteps<tf.Tensor2D>(tf.reshape(linear(e, this.gru.input), [steps, rows, 3 * H]));
    let h = tf.zeros([rows, H]) as tf.Tensor2D;
    const hs: tf.Tensor2D[] = [];
    for (let t = 0; t < steps; t++) {
      h = this.gru.stepFromProjection(gi[t], h);
      hs.push(h);
    }
    return tf.reshape(linear(tf.concat(hs, 0) as tf.Tensor2D, this.fc2), [steps, rows, this.numActions]) as tf.Tensor3D;
  }

  variables(): tf.Variable[] {
    return [this.fc1.kernel, this.fc1.bias, ...this.gru.variables(), this.fc2.kernel, this.fc2.bias];
  }

  weightSpecs(): WeightSpec[] {
    return [...this.fc1.specs(), ...this.gru.specs(), ...this.fc2.specs()];
  }
}
