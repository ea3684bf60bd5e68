/**
 * V-trace off-policy targets (Espeholt et al. 2018, "IMPALA", section 4.1), in plain JS
 * (float64 inside, float32 out), following DeepMind's scalable_agent `vtrace.py`.
 *
 * The actor acted with a behaviour policy μ (the weights it had, possibly several updates old);
 * the learner evaluates the current target policy π. V-trace corrects for the lag.
 *
 * LAYOUT: every [T, N] array is TIME-MAJOR and flat: step t of environment n at index t·N + n.
 * `bootstrapValue` is [N]: V(x_T), the value of the observation after the last step.
 * `discounts` is [T, N]: γ_t = γ·(1 − done_t) (0 where the episode ended at step t).
 *
 * With the importance ratio π(a_t|x_t) / μ(a_t|x_t) = exp(log π − log μ):
 *     ρ_t   = min(ρ̄, π/μ)                                 (clipRhoThreshold ρ̄)
 *     c_t   = λ·min(c̄, π/μ)                               (clipCThreshold c̄, λ = 1 in the paper)
 *     δ_t V = ρ_t·(r_t + γ_t·V(x_{t+1}) − V(x_t))
 * The V-trace target, defined in the paper as the sum
 *     v_s = V(x_s) + Σ_{t≥s} γ_s···γ_{t−1} (Π_{i=s}^{t−1} c_i) δ_t V
 * is computed by its recursion, backwards from v_T = V(x_T):
 *     v_s − V(x_s) = δ_s V + γ_s·c_s·(v_{s+1} − V(x_{s+1}))
 * and the policy-gradient advantage is
 *     A^pg_s = ρ^pg_s·(r_s + γ_s·v_{s+1} − V(x_s)),   ρ^pg_s = min(ρ̄_pg, π/μ)  (clipPgRhoThreshold).
 * A threshold of null means no clipping. On-policy (π = μ, thresholds ≥ 1) every ρ = c = 1 and
 * v_s is the n-step bootstrapped return Σ_{t≥s} γ^{t−s} r_t + γ^{T−s} V(x_T).
 */
import { exp } from '../core/portableMath';

export interface VtraceInput {
  /** [T, N] log μ(a_t|x_t), recorded by the actor. */
  behaviourLogProbs: ArrayLike<number>;
  /** [T, N] log π(a_t|x_t) under the learner's current policy. */
  targetLogProbs: ArrayLike<number>;
  /** [T, N] r_t. */
  rewards: ArrayLike<number>;
  /** [T, N] V(x_t) under the learner's current value function. */
  values: ArrayLike<number>;
  /** [N] V(x_T), the value of the observation after the last step. */
  bootstrapValue: ArrayLike<number>;
  /** [T, N] γ_t = γ·(1 − done_t). */
  discounts: ArrayLike<number>;
  /** ρ̄ (paper: 1). null = no clipping. */
  clipRhoThreshold?: number | null;
  /** c̄ (paper: 1). null = no clipping. */
  clipCThreshold?: number | null;
  /** ρ̄ for the policy-gradient advantage (scalable_agent: 1). null = no clipping. */
  clipPgRhoThreshold?: number | null;
  /** λ, multiplies c_t (scalable_agent's `lambda_`, default 1 = the paper). */
  lambda?: number;
}

export interface VtraceResult {
  /** [T, N] v_s, the value targets. */
  vs: Float32Array;
  /** [T, N] A^pg_s = ρ^pg_s·(r_s + γ_s·v_{s+1} − V(x_s)). */
  pgAdvantages: Float32Array;
  /** [T, N] the clipped ρ_t = min(ρ̄, π/μ). */
  rhos: Float32Array;
}

const clip = (x: number, threshold: number | null): number => (threshold === null ? x : Math.min(threshold, x));

export function vtrace(input: VtraceInput): VtraceResult {
  const { behaviourLogProbs, targetLogProbs, rewards, values, bootstrapValue, discounts } = input;
  const rhoBar = input.clipRhoThreshold === undefined ? 1 : input.clipRhoThreshold;
  const cBar = input.clipCThreshold === undefined ? 1 : input.clipCThreshold;
  const pgRhoBar = input.clipPgRhoThreshold === undefined ? 1 : input.clipPgRhoThreshold;
  const lambda = input.lambda ?? 1;
  const n = bootstrapValue.length;
  const len = rewards.length;
  if (n < 1) throw new Error('vtrace: bootstrapValue must have one entry per environment (N ≥ 1)');
  if (len % n !== 0) throw new Error(`vtrace: ${len} rewards do not split into N = ${n} columns`);
  for (const [name, arr] of [
    ['behaviourLogProbs', behaviourLogProbs],
    ['targetLogProbs', targetLogProbs],
    ['values', values],
    ['discounts', discounts],
  ] as const) {
    if (arr.length !== len) throw new Error(`vtrace: ${name} has ${arr.length} entries for ${len} rewards`);
  }
  const T = len / n;
  const vs = new Float32Array(len);
  const pgAdvantages = new Float32Array(len);
  const rhos = new Float32Array(len);

  for (let e = 0; e < n; e++) {
    let nextVsMinusV = 0; // v_{s+1} − V(x_{s+1}), 0 at s + 1 = T
    let nextValue = bootstrapValue[e]; // V(x_{s+1})
    let nextVs = bootstrapValue[e]; // v_{s+1}, = V(x_T) at s + 1 = T
    for (let s = T - 1; s >= 0; s--) {
      const i = s * n + e;
      const ratio = exp(targetLogProbs[i] - behaviourLogProbs[i]); // π/μ (the portable exp: the same bits in every engine)
      const rho = clip(ratio, rhoBar); // ρ_s
      const c = lambda * clip(ratio, cBar); // c_s
      const deltaV = rho * (rewards[i] + discounts[i] * nextValue - values[i]); // δ_s V
      const vsMinusV = deltaV + discounts[i] * c * nextVsMinusV; // v_s − V(x_s)
      const vsS = values[i] + vsMinusV;
      const pgRho = clip(ratio, pgRhoBar); // ρ^pg_s
      pgAdvantages[i] = pgRho * (rewards[i] + discounts[i] * nextVs - values[i]);
      vs[i] = vsS;
      rhos[i] = rho;
      nextVsMinusV = vsMinusV;
      nextValue = values[i];
      nextVs = vsS;
    }
  }
  return { vs, pgAdvantages, rhos };
}
