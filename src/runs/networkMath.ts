/**
 * The forward pass of one dense stack in plain numbers, for looking inside a network (the
 * learner's inspect records, and the page when it asks what the network does on a state): no
 * tfjs, so the page can run it too. Layer l: h_{l+1} = f(h_l · W_l + b_l), f = tanh or relu on
 * hidden layers and the identity on the last.
 */

export interface DenseLayers {
  /** Units per layer, inputs first. */
  sizes: readonly number[];
  /** Kernel l, row-major [sizes[l], sizes[l + 1]]. */
  weights: readonly ArrayLike<number>[];
  biases: readonly ArrayLike<number>[];
  activation: 'tanh' | 'relu';
}

/**
 * Every layer's activations for a batch of `batch` inputs (row-major [batch, sizes[0]]), inputs
 * first: out[l] is [batch, sizes[l]]. One pass over the whole batch, layer by layer.
 */
export function forwardLayers(net: DenseLayers, inputs: ArrayLike<number>, batch: number): Float64Array[] {
  const out: Float64Array[] = [Float64Array.from(inputs)];
  const last = net.sizes.length - 2;
  for (let l = 0; l <= last; l++) {
    const nIn = net.sizes[l];
    const nOut = net.sizes[l + 1];
    const w = net.weights[l];
    const b = net.biases[l];
    const h = out[l];
    const next = new Float64Array(batch * nOut);
    for (let r = 0; r < batch; r++) {
      for (let j = 0; j < nOut; j++) {
        let z = b[j];
        for (let i = 0; i < nIn; i++) z += h[r * nIn + i] * w[i * nOut + j];
        next[r * nOut + j] = l === last ? z : net.activation === 'tanh' ? Math.tanh(z) : Math.max(0, z);
      }
    }
    out.push(next);
  }
  return out;
}

/** softmax over each row of a [batch, width] array. */
export function softmaxRows(x: ArrayLike<number>, batch: number, width: number): Float64Array {
  const out = new Float64Array(batch * width);
  for (let r = 0; r < batch; r++) {
    let max = -Infinity;
    for (let j = 0; j < width; j++) max = Math.max(max, x[r * width + j]);
    let sum = 0;
    for (let j = 0; j < width; j++) sum += out[r * width + j] = Math.exp(x[r * width + j] - max);
    for (let j = 0; j < width; j++) out[r * width + j] /= sum;
  }
  return out;
}

/** The index of the largest value of each row (the first on ties). */
export function argmaxRows(x: ArrayLike<number>, batch: number, width: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < batch; r++) {
    let best = 0;
    for (let j = 1; j < width; j++) if (x[r * width + j] > x[r * width + best]) best = j;
    out.push(best);
  }
  return out;
}
