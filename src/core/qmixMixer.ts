/**
 * The QMIX mixing network (Rashid et al. 2018, "QMIX: Monotonic Value Function Factorisation";
 * layout of pymarl/EPyMARL's `QMixer`, defaults from their qmix.yaml: mixing_embed_dim 32,
 * hypernet_layers 2, hypernet_embed 64).
 *
 * For a batch of global states s [B, S] and per-agent chosen-action values Q [B, n]:
 *   W1(s)  = |hyper_w1(s)|            [n, E]   (hypernetwork S → (64 → relu →) n·E, then abs)
 *   b1(s)  = hyper_b1(s)              [E]      (one linear layer; the bias is not constrained)
 *   h      = elu(Q · W1(s) + b1(s))   [E]
 *   Wf(s)  = |hyper_wf(s)|            [E]      (hypernetwork S → (64 → relu →) E, then abs)
 *   V(s)   = V2 relu(V1 s)            scalar   (state-dependent bias: S → E → relu → 1)
 *   Q_tot  = h · Wf(s) + V(s)
 * W1, Wf ≥ 0 and elu is increasing, so ∂Q_tot/∂Q_a ≥ 0 for every agent a (monotonic mixing).
 *
 * As a `Model`, `forward` takes one input [B, n + S]: the agents' Q-values then the state.
 * `mix(q, s)` takes them apart. Output `{ qTot: [B] }`.
 */
import * as tf from '@tensorflow/tfjs';
import { denseLayer } from './denseKernel';
import { DenseStack } from './mlp';
import { Model, type WeightSpec } from './model';
import { Rng } from './rng';

export interface QmixMixerSpec {
  numAgents: number;
  stateDim: number;
  /** E, the width of the mixing layer (default 32). */
  embedDim?: number;
  /** 1: each hypernetwork is one linear layer; 2: linear → relu → linear (default 2). */
  hypernetLayers?: 1 | 2;
  /** Hidden width of 2-layer hypernetworks (default 64). */
  hypernetEmbed?: number;
}

export const QMIX_MIXER_DEFAULTS = { embedDim: 32, hypernetLayers: 2, hypernetEmbed: 64 } as const;

/** The state-dependent mixing weights, for charts (all [B, …], the caller disposes them). */
export interface MixingWeights {
  w1: tf.Tensor3D;
  b1: tf.Tensor2D;
  wFinal: tf.Tensor2D;
  v: tf.Tensor1D;
}

export class QmixMixer extends Model<{ qTot: tf.Tensor1D }> {
  readonly numAgents: number;
  readonly stateDim: number;
  readonly embedDim: number;
  readonly hyperW1: DenseStack;
  readonly hyperB1: DenseStack;
  readonly hyperWFinal: DenseStack;
  readonly valueNet: DenseStack;

  constructor(
    readonly spec: QmixMixerSpec,
    readonly seed: number,
  ) {
    super();
    const bad = (f: string, v: unknown) => new Error(`QmixMixerSpec.${f} is invalid: ${JSON.stringify(v)}`);
    const posInt = (v: unknown) => Number.isInteger(v) && (v as number) >= 1;
    if (!posInt(spec.numAgents)) throw bad('numAgents', spec.numAgents);
    if (!posInt(spec.stateDim)) throw bad('stateDim', spec.stateDim);
    const embed = spec.embedDim ?? QMIX_MIXER_DEFAULTS.embedDim;
    const layers = spec.hypernetLayers ?? QMIX_MIXER_DEFAULTS.hypernetLayers;
    const hyperEmbed = spec.hypernetEmbed ?? QMIX_MIXER_DEFAULTS.hypernetEmbed;
    if (!posInt(embed)) throw bad('embedDim', spec.embedDim);
    if (layers !== 1 && layers !== 2) throw bad('hypernetLayers', spec.hypernetLayers);
    if (!posInt(hyperEmbed)) throw bad('hypernetEmbed', spec.hypernetEmbed);
    this.numAgents = spec.numAgents;
    this.stateDim = spec.stateDim;
    this.embedDim = embed;
    const rng = new Rng(seed);
    const hidden = layers === 2 ? [hyperEmbed] : [];
    const S = spec.stateDim;
    this.hyperW1 = new DenseStack('hyper_w1', S, hidden, embed * spec.numAgents, 'relu', 1.0, rng.fork(1));
    this.hyperB1 = new DenseStack('hyper_b1', S, [], embed, 'relu', 1.0, rng.fork(2));
    this.hyperWFinal = new DenseStack('hyper_w_final', S, hidden, embed, 'relu', 1.0, rng.fork(3));
    this.valueNet = new DenseStack('V', S, [embed], 1, 'relu', 1.0, rng.fork(4));
  }

  /** x = [Q_1 … Q_n, s_1 … s_S] per row. */
  forward(x: tf.Tensor2D): { qTot: tf.Tensor1D } {
    const want = this.numAgents + this.stateDim;
    if (x.rank !== 2 || x.shape[1] !== want) {
      throw new Error(`QmixMixer.forward: expected [batch, ${this.numAgents} + ${this.stateDim}], got [${x.shape.join(', ')}]`);
    }
    return tf.tidy(() => {
      const [q, s] = tf.split(x, [this.numAgents, this.stateDim], 1) as [tf.Tensor2D, tf.Tensor2D];
      return { qTot: this.mix(q, s) };
    });
  }

  /** Q_tot [B] from agent values [B, n] and states [B, S]. */
  mix(agentQs: tf.Tensor2D, states: tf.Tensor2D): tf.Tensor1D {
    if (agentQs.rank !== 2 || agentQs.shape[1] !== this.numAgents) {
      throw new Error(`QmixMixer.mix: agent Q-values must be [batch, ${this.numAgents}], got [${agentQs.shape.join(', ')}]`);
    }
    if (states.rank !== 2 || states.shape[1] !== this.stateDim || states.shape[0] !== agentQs.shape[0]) {
      throw new Error(
        `QmixMixer.mix: states must be [${agentQs.shape[0]}, ${this.stateDim}], got [${states.shape.join(', ')}]`,
      );
    }
    return tf.tidy(() => {
      const { w1, b1, wFinal, v } = this.weightsFor(states);
      const B = agentQs.shape[0];
      // Q · W1(s) row by row as Σ_a Q_a W1(s)[a, :]: a batch of B [1, n] × [n, E] products is
      // thousands of tiny matrices, far slower as BatchMatMul (and its gradient) on wasm.
      const q3 = tf.reshape(agentQs, [B, this.numAgents, 1]) as tf.Tensor3D;
      const hidden = tf.elu(tf.add(tf.sum(tf.mul(q3, w1), 1), b1)); // [B, E]
      const mixed = tf.sum(tf.mul(hidden, wFinal), 1); // h · Wf(s)
      return tf.add(mixed, v) as tf.Tensor1D;
    });
  }

  /** The mixing weights for these states: |W1(s)|, b1(s), |Wf(s)| and V(s). */
  weightsFor(states: tf.Tensor2D): MixingWeights {
    return tf.tidy(() => {
      const B = states.shape[0];
      return {
        w1: tf.reshape(tf.abs(applyStack(this.hyperW1, states)), [B, this.numAgents, this.embedDim]) as tf.Tensor3D,
        b1: applyStack(this.hyperB1, states),
        wFinal: tf.abs(applyStack(this.hyperWFinal, states)) as tf.Tensor2D,
        v: tf.reshape(applyStack(this.valueNet, states), [B]) as tf.Tensor1D,
      };
    });
  }

  variables(): tf.Variable[] {
    return [...this.hyperW1.variables(), ...this.hyperB1.variables(), ...this.hyperWFinal.variables(), ...this.valueNet.variables()];
  }

  weightSpecs(): WeightSpec[] {
    return [...this.hyperW1.specs(), ...this.hyperB1.specs(), ...this.hyperWFinal.specs(), ...this.valueNet.specs()];
  }
}

/**
 * A relu DenseStack through the fused dense kernel (the same arithmetic as `stack.apply`, with
 * explicit transposes in the gradient: tfjs's transposed products are slow on wasm).
 */
export function applyStack(stack: DenseStack, x: tf.Tensor2D): tf.Tensor2D {
  if (stack.activation !== 'relu') return stack.apply(x);
  let h = x;
  stack.layers.forEach((l, i) => {
    h = denseLayer(h, l.kernel as tf.Tensor2D, l.bias as tf.Tensor1D, i + 1 < stack.layers.length ? 'relu' : 'linear');
  });
  return h;
}
