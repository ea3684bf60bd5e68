/**
 * PPO's loss from the policy logits and the values on (ppo.ts, step 2), as ONE taped operation with
 * its gradient written out, for the cpu and wasm backends. tfjs builds the same loss from about 170
 * small kernels a minibatch (forward and backward, each a few µs of dispatch on 256 rows); here the
 * arithmetic runs on typed arrays and the tape sees one node, (logits, V) → L, whose gradient
 * (∂L/∂logits, ∂L/∂V) flows on into the network's own taped backward pass (tfjs, unchanged).
 *
 * It gives the SAME BITS as the tfjs graph, operation for operation:
 *   - every element-wise step is one float32 rounding of the same operation on the same operands
 *     (f = Math.fround; double rounding of + − × ÷ √ is innocuous, so f(a op b) is float32 a op b);
 *   - exp and log go through tfjs's own Exp and Log kernels (three calls a minibatch, on packed
 *     vectors): wasm's musl expf/logf and cpu's Math.exp/Math.log, whatever the engine;
 *   - sums and means repeat the backend's kernels (src/core/backendSums.ts);
 *   - the backward pass follows tfjs's gradient functions (Mean: (dy·1)/n; Maximum: dy·[a ≥ b] and
 *     dy·[a < b]; ClipByValue: dy where lo ≤ x ≤ hi else +0; Square: dy·(2x); Exp: dy·y;
 *     logSoftmax: dy − Σ_a dy · exp(log π)), summing the contributions to one tensor in the tape's
 *     order. tests/unit/algorithms/ppoFusedLoss.test.ts checks loss, terms and gradients bit for bit
 *     against the tfjs graph on both backends.
 *
 * The loss (per minibatch of B rows, A actions; Â already normalised):
 *     log π = logits − max − log Σ_a exp(logits − max)          log π(a|s) = Σ_a log π · onehot(a)
 *     log r = log π(a|s) − log π_old,  r = exp(log r)
 *     L_pg  = mean[ max(−Â·r, −Â·clip(r, 1 − ε, 1 + ε)) ]
 *     L_v   = 0.5 · mean[ max((V − R)², (V_old + clip(V − V_old, −ε, ε) − R)²) ]   (or 0.5 · mean[(V − R)²])
 *     H     = mean[ −Σ_a π log π ],   L = (L_pg − c_H · H) + c_V · L_v
 */
import * as tf from '@tensorflow/tfjs';
import { backendSums, typedArrayPathSupported, type BackendSums } from '../core/backendSums';

const f = Math.fround;

/** What the loss needs of a minibatch besides the logits and values (all per row). */
export interface PpoLossRows {
  actions: Int32Array;
  oldLogProbs: Float32Array;
  /** Â, already normalised. */
  advantages: Float32Array;
  returns: Float32Array;
  /** V_old, needed when clipVloss. */
  oldValues?: Float32Array;
}

export interface PpoLossCoefficients {
  clipCoef: number;
  entCoef: number;
  vfCoef: number;
  clipVloss: boolean;
}

/** The loss tensor (taped) and the terms the diagnostics and metrics read, as numbers. */
export interface FusedPpoLoss {
  loss: tf.Scalar;
  pgLoss: number;
  valueLoss: number;
  entropy: number;
  ratio: Float32Array;
  logRatio: Float32Array;
}

/**
 * Up to this many logits a minibatch the fused loss is faster; beyond it tfjs's kernels, whose
 * element-wise work runs in wasm SIMD, beat these JS loops (the swarm's 1,002 actions × ~100
 * rows). Both give the same bits, so the route never changes a number.
 */
export const FUSED_LOSS_MAX_LOGITS = 16_384;

/** True where this file's loss applies: cpu or wasm (whose kernels it repeats), and at most FUSED_LOSS_MAX_LOGITS logits. */
export function fusedLossSupported(rows: number, actions: number): boolean {
  return typedArrayPathSupported() && rows * actions <= FUSED_LOSS_MAX_LOGITS;
}

/** y = op(x) element-wise by the backend's own kernel (so exp and log are its functions, bit for bit). */
function unary(op: 'exp' | 'log', x: Float32Array): Float32Array {
  // Disposed by hand rather than by tf.tidy, which would walk every element of a returned typed array.
  const t = tf.tensor1d(x, 'float32');
  const y = op === 'exp' ? tf.exp(t) : tf.log(t);
  const out = y.dataSync() as Float32Array;
  t.dispose();
  y.dispose();
  return out;
}

/** Â = (A − mean A) / (√var A + 1e-8) as tf.moments and ppo.ts's normalizedAdvantages compute it. */
export function normalizeAdvantages(adv: Float32Array, red: BackendSums): Float32Array {
  const n = adv.length;
  const mean = red.mean(adv);
  const sq = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const d = f(adv[i] - mean);
    sq[i] = f(d * d);
  }
  const den = f(f(Math.sqrt(red.mean(sq))) + f(1e-8));
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = f(f(adv[i] - mean) / den);
  return out;
}

/** approxKl = mean[(r − 1) − log r], clipFrac = mean[|r − 1| > ε], as ppo.ts's diagnostics compute them. */
export function ppoDiagnostics(ratio: Float32Array, logRatio: Float32Array, clipCoef: number, red: BackendSums): { approxKl: number; clipFrac: number } {
  const n = ratio.length;
  const kl = new Float32Array(n);
  const clipped = new Float32Array(n);
  const eps = f(clipCoef);
  for (let i = 0; i < n; i++) {
    const rm1 = f(ratio[i] - 1);
    kl[i] = f(rm1 - logRatio[i]);
    clipped[i] = Math.abs(rm1) > eps ? 1 : 0;
  }
  return { approxKl: red.mean(kl), clipFrac: red.mean(clipped) };
}

/**
 * L for `logits` [B, A] and `value` [B] (both from the model, under the tape). Call inside the
 * function given to tf.variableGrads (or tf.grads): the returned `loss` is the taped scalar.
 */
export function fusedPpoLoss(logits: tf.Tensor2D, value: tf.Tensor1D, rows: PpoLossRows, k: PpoLossCoefficients): FusedPpoLoss {
  const [B, A] = logits.shape;
  if (value.shape[0] !== B || rows.actions.length !== B || rows.advantages.length !== B) {
    throw new Error(`fusedPpoLoss: logits [${B}, ${A}], value [${value.shape[0]}], ${rows.actions.length} actions, ${rows.advantages.length} advantages`);
  }
  if (k.clipVloss && !rows.oldValues) throw new Error('fusedPpoLoss: clipVloss needs the old values V_old');
  const red = backendSums();
  const lo = f(1 - k.clipCoef);
  const hi = f(1 + k.clipCoef);
  const vLo = f(-k.clipCoef);
  const vHi = f(k.clipCoef);
  const ent = f(k.entCoef);
  const vf = f(k.vfCoef);
  // Filled by the forward pass, read by the gradient.
  const logp = new Float32Array(B * A);
  const pe = new Float32Array(B * A);
  const ratio = new Float32Array(B);
  const logRatio = new Float32Array(B);
  const negAdv = new Float32Array(B);
  const pg1 = new Float32Array(B);
  const pg2 = new Float32Array(B);
  const d = new Float32Array(B); // V − R
  const vU = new Float32Array(B); // (V − R)²
  const dv = new Float32Array(B); // V − V_old
  const dc = new Float32Array(B); // V_clip − R
  const vCl = new Float32Array(B); // (V_clip − R)²
  const terms = { pgLoss: 0, valueLoss: 0, entropy: 0 };

  const op = tf.customGrad((...inputs) => {
    const x = (inputs[0] as tf.Tensor).dataSync() as Float32Array;
    const val = (inputs[1] as tf.Tensor).dataSync() as Float32Array;
    // log-softmax: shifted = x − max_a x, log π = shifted − log Σ_a exp(shifted)
    const shifted = new Float32Array(B * A);
    for (let b = 0; b < B; b++) {
      let m = x[b * A];
      for (let a = 1; a < A; a++) if (x[b * A + a] > m) m = x[b * A + a];
      for (let a = 0; a < A; a++) shifted[b * A + a] = f(x[b * A + a] - m);
    }
    const e = unary('exp', shifted);
    const s = new Float32Array(B);
    for (let b = 0; b < B; b++) s[b] = red.sum(e, b * A, A);
    const ls = unary('log', s);
    const picked = new Float32Array(A);
    const logpA = new Float32Array(B);
    for (let b = 0; b < B; b++) {
      for (let a = 0; a < A; a++) {
        const lp = f(shifted[b * A + a] - ls[b]);
        logp[b * A + a] = lp;
        picked[a] = f(lp * (rows.actions[b] === a ? 1 : 0));
      }
      logpA[b] = red.sum(picked, 0, A);
      logRatio[b] = f(logpA[b] - rows.oldLogProbs[b]);
    }
    // One exp call for r = exp(log r) and π = exp(log π).
    const packed = new Float32Array(B + B * A);
    packed.set(logRatio, 0);
    packed.set(logp, B);
    const ex = unary('exp', packed);
    ratio.set(ex.subarray(0, B));
    pe.set(ex.subarray(B));
    // H = mean[−Σ_a π log π]
    const h = new Float32Array(B);
    const plogp = new Float32Array(A);
    for (let b = 0; b < B; b++) {
      for (let a = 0; a < A; a++) plogp[a] = f(pe[b * A + a] * logp[b * A + a]);
      h[b] = -red.sum(plogp, 0, A);
    }
    // L_pg
    const mx = new Float32Array(B);
    for (let b = 0; b < B; b++) {
      negAdv[b] = -rows.advantages[b];
      pg1[b] = f(negAdv[b] * ratio[b]);
      const r = ratio[b];
      pg2[b] = f(negAdv[b] * (r < lo ? lo : r > hi ? hi : r));
      mx[b] = Math.max(pg1[b], pg2[b]);
    }
    // L_v
    const vmx = new Float32Array(B);
    for (let b = 0; b < B; b++) {
      d[b] = f(val[b] - rows.returns[b]);
      vU[b] = f(d[b] * d[b]);
      if (k.clipVloss) {
        const old = (rows.oldValues as Float32Array)[b];
        dv[b] = f(val[b] - old);
        const c = dv[b] < vLo ? vLo : dv[b] > vHi ? vHi : dv[b];
        dc[b] = f(f(old + c) - rows.returns[b]);
        vCl[b] = f(dc[b] * dc[b]);
        vmx[b] = Math.max(vU[b], vCl[b]);
      }
    }
    terms.pgLoss = red.mean(mx);
    terms.valueLoss = f(0.5 * red.mean(k.clipVloss ? vmx : vU));
    terms.entropy = red.mean(h);
    const loss = f(f(terms.pgLoss - f(ent * terms.entropy)) + f(vf * terms.valueLoss));

    const gradFunc = (dy: tf.Scalar): tf.Tensor[] => {
      const g = dy.dataSync()[0];
      const dLogits = new Float32Array(B * A);
      const dValue = new Float32Array(B);
      // Through L = (L_pg − c_H·H) + c_V·L_v and the means.
      const dValueLoss = f(g * vf);
      const dEntropy = f(-g * ent);
      const dH = f(f(dEntropy * 1) / B);
      const dVmean = f(dValueLoss * 0.5);
      const dVrow = f(f(dVmean * 1) / B);
      const dMx = f(f(g * 1) / B);
      const dLogp = new Float32Array(A);
      for (let b = 0; b < B; b++) {
        // value
        if (k.clipVloss) {
          const dvU = f(dVrow * (vU[b] >= vCl[b] ? 1 : 0));
          const dvCl = f(dVrow * (vU[b] < vCl[b] ? 1 : 0));
          const dDc = f(dvCl * f(dc[b] * 2));
          const dDv = dv[b] >= vLo && dv[b] <= vHi ? dDc : 0;
          dValue[b] = f(dDv + f(dvU * f(d[b] * 2)));
        } else {
          dValue[b] = f(dVrow * f(d[b] * 2));
        }
        // policy: through max, clip and r = exp(log r)
        const dPg1 = f(dMx * (pg1[b] >= pg2[b] ? 1 : 0));
        const dPg2 = f(dMx * (pg1[b] < pg2[b] ? 1 : 0));
        const dCr = f(dPg2 * negAdv[b]);
        const r = ratio[b];
        const dRatio = f((r >= lo && r <= hi ? dCr : 0) + f(dPg1 * negAdv[b]));
        const dLogpA = f(dRatio * r);
        // log π from the entropy (π log π, π = exp(log π)) and from the taken action, then log-softmax
        const dHs = -dH;
        for (let a = 0; a < A; a++) {
          const i = b * A + a;
          const dPe = f(dHs * logp[i]);
          const acc = f(f(dHs * pe[i]) + f(dPe * pe[i]));
          dLogp[a] = f(acc + f(dLogpA * (rows.actions[b] === a ? 1 : 0)));
        }
        const rowSum = red.sum(dLogp, 0, A);
        for (let a = 0; a < A; a++) dLogits[b * A + a] = f(dLogp[a] - f(rowSum * pe[b * A + a]));
      }
      return [tf.tensor2d(dLogits, [B, A]), tf.tensor1d(dValue)];
    };
    return { value: tf.scalar(loss, 'float32'), gradFunc };
  });

  const loss = op(logits, value) as tf.Scalar;
  return { loss, pgLoss: terms.pgLoss, valueLoss: terms.valueLoss, entropy: terms.entropy, ratio, logRatio };
}
