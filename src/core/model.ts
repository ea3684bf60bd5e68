/**
 * Model: the network only (PaddlePaddle PARL's `parl.Model`).
 *
 * A Model owns tfjs variables and defines `forward`. It knows nothing of losses or optimizers
 * (that is the Algorithm) nor of Float32Array observations (that is the Agent).
 *
 * Output shape convention: `forward` always returns a NAMED RECORD of tensors, typed by the
 * subclass, never a bare tensor. Conventional keys:
 *   - `logits`: [batch, numActions] unnormalised action scores (policy head),
 *   - `value`:  [batch]             state value V(s) (already squeezed),
 *   - `q`:      [batch, numActions] action values Q(s, a).
 * One shape for every model means algorithms read `out.logits` / `out.value` by name, and a
 * model with more heads adds keys without breaking anyone.
 *
 * Weights travel as `Float32Array[]` in `variables()` order (flat, row-major). They are
 * transferred between threads, so `getWeights` always returns fresh copies and `setWeights`
 * always copies what it is given.
 */
import * as tf from '@tensorflow/tfjs';

export type ModelOutput = Record<string, tf.Tensor>;

export interface WeightSpec {
  /** Stable, human-readable name (e.g. 'policy/0/kernel'); not the tfjs variable name. */
  name: string;
  shape: number[];
}

function sizeOf(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export abstract class Model<O extends ModelOutput = ModelOutput> {
  /**
   * The network. Call it inside `tf.tidy` (or an optimizer closure): the caller owns the
   * returned tensors. Implementations may keep intermediates inside their own tidy.
   */
  abstract forward(x: tf.Tensor2D): O;

  /** All variables, in a fixed order (the order of `getWeights`/`setWeights`). */
  abstract variables(): tf.Variable[];

  /** Names and shapes of the variables, same order as `variables()`. */
  abstract weightSpecs(): WeightSpec[];

  /** Fresh copies of every variable's values (safe to transfer to another thread). */
  getWeights(): Float32Array[] {
    // dataSync may return the backend's own array (cpu backend): always copy.
    return this.variables().map((v) => new Float32Array(v.dataSync() as Float32Array));
  }

  /** Same as `getWeights` without a blocking GPU readback (use on webgpu/webgl). */
  async getWeightsAsync(): Promise<Float32Array[]> {
    const vars = this.variables();
    const data = await Promise.all(vars.map((v) => v.data()));
    return data.map((d) => new Float32Array(d as Float32Array));
  }

  /** Overwrite every variable. Checks the count and each length; copies the input. */
  setWeights(ws: readonly Float32Array[]): void {
    const vars = this.variables();
    const specs = this.weightSpecs();
    if (!Array.isArray(ws) || ws.length !== vars.length) {
      throw new Error(
        `setWeights: expected ${vars.length} arrays (${specs.map((s) => `${s.name}[${s.shape.join('x')}]`).join(', ')}), got ${Array.isArray(ws) ? ws.length : typeof ws}`,
      );
    }
    for (let i = 0; i < vars.length; i++) {
      const w = ws[i];
      const want = sizeOf(vars[i].shape);
      if (!(w instanceof Float32Array)) {
        throw new Error(`setWeights: weight ${i} (${specs[i].name}) must be a Float32Array, got ${Object.prototype.toString.call(w)}`);
      }
      if (w.length !== want) {
        throw new Error(
          `setWeights: weight ${i} (${specs[i].name}) has shape [${vars[i].shape.join(', ')}] = ${want} values, got ${w.length}`,
        );
      }
    }
    tf.tidy(() => {
      for (let i = 0; i < vars.length; i++) {
        // slice(): tfjs may keep a reference to the array it is given (cpu backend).
        vars[i].assign(tf.tensor(ws[i].slice(), vars[i].shape, 'float32'));
      }
    });
  }

  /**
   * PARL's `sync_weights_to`: target ← decay·target + (1 − decay)·this, variable by variable.
   * decay = 0 is a hard copy (exact, bit for bit); decay = 0.995 is a slow Polyak average.
   */
  syncWeightsTo(target: Model, decay = 0): void {
    if (!(decay >= 0 && decay <= 1)) throw new Error(`syncWeightsTo: decay must be in [0, 1], got ${decay}`);
    if (target === (this as Model)) return;
    const src = this.variables();
    const dst = target.variables();
    if (src.length !== dst.length) {
      throw new Error(`syncWeightsTo: source has ${src.length} variables, target has ${dst.length}`);
    }
    for (let i = 0; i < src.length; i++) {
      if (!tf.util.arraysEqual(src[i].shape, dst[i].shape)) {
        throw new Error(`syncWeightsTo: variable ${i} shape [${src[i].shape.join(', ')}] vs target [${dst[i].shape.join(', ')}]`);
      }
    }
    tf.tidy(() => {
      for (let i = 0; i < src.length; i++) {
        if (decay === 0) dst[i].assign(tf.clone(src[i]));
        else dst[i].assign(tf.add(tf.mul(dst[i], decay), tf.mul(src[i], 1 - decay)));
      }
    });
  }

  numParams(): number {
    return this.variables().reduce((n, v) => n + v.size, 0);
  }

  dispose(): void {
    for (const v of this.variables()) v.dispose();
  }
}
