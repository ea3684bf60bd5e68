import { describe, expect, it } from 'vitest';
import { vtrace, type VtraceInput } from '../../../src/algorithms/vtrace';
import { Rng } from '../../../src/core/rng';

/** Random [T, N] inputs; log-ratios spread over ±1.5 so that ratios fall on both sides of 1. */
function randomInput(T: number, N: number, seed: number): VtraceInput & { T: number; N: number } {
  const rng = new Rng(seed);
  const len = T * N;
  const behaviourLogProbs = new Float32Array(len).map(() => Math.log(rng.uniformRange(0.05, 1)));
  const targetLogProbs = behaviourLogProbs.map((l) => Math.min(0, l + rng.uniformRange(-1.5, 1.5)));
  return {
    T,
    N,
    behaviourLogProbs,
    targetLogProbs,
    rewards: new Float32Array(len).map(() => rng.normal()),
    values: new Float32Array(len).map(() => rng.normal()),
    bootstrapValue: new Float32Array(N).map(() => rng.normal()),
    discounts: new Float32Array(len).map(() => (rng.uniform() < 0.15 ? 0 : 0.9)),
  };
}

/**
 * The paper's DEFINITION, as an explicit sum (not the recursion), column n:
 *     v_s = V(x_s) + Σ_{t=s}^{T−1} (Π_{i=s}^{t−1} γ_i c_i) δ_t V,   δ_t V = ρ_t (r_t + γ_t V(x_{t+1}) − V(x_t))
 *     A^pg_s = ρ^pg_s (r_s + γ_s v_{s+1} − V(x_s)),   v_T = V(x_T)
 */
function reference(inp: VtraceInput, T: number, N: number, rhoBar: number, cBar: number, pgBar: number) {
  const at = (a: ArrayLike<number>, t: number, n: number) => a[t * N + n];
  const vs = new Float64Array(T * N);
  const adv = new Float64Array(T * N);
  for (let n = 0; n < N; n++) {
    const V = (t: number) => (t === T ? inp.bootstrapValue[n] : at(inp.values, t, n));
    const ratio = (t: number) => Math.exp(at(inp.targetLogProbs, t, n) - at(inp.behaviourLogProbs, t, n));
    const delta = (t: number) => Math.min(rhoBar, ratio(t)) * (at(inp.rewards, t, n) + at(inp.discounts, t, n) * V(t + 1) - V(t));
    for (let s = 0; s < T; s++) {
      let sum = 0;
      for (let t = s; t < T; t++) {
        let prod = 1;
        for (let i = s; i < t; i++) prod *= at(inp.discounts, i, n) * Math.min(cBar, ratio(i));
        sum += prod * delta(t);
      }
      vs[s * N + n] = V(s) + sum;
    }
    for (let s = 0; s < T; s++) {
      const vNext = s + 1 === T ? inp.bootstrapValue[n] : vs[(s + 1) * N + n];
      adv[s * N + n] = Math.min(pgBar, ratio(s)) * (at(inp.rewards, s, n) + at(inp.discounts, s, n) * vNext - V(s));
    }
  }
  return { vs, adv };
}

describe('vtrace', () => {
  it('matches the paper definition (explicit sum) on random inputs with clipping active', () => {
    for (const [rhoBar, cBar, pgBar] of [
      [1, 1, 1],
      [0.8, 0.6, 1.2],
    ]) {
      const inp = randomInput(7, 3, 11);
      const out = vtrace({ ...inp, clipRhoThreshold: rhoBar, clipCThreshold: cBar, clipPgRhoThreshold: pgBar });
      const ref = reference(inp, inp.T, inp.N, rhoBar, cBar, pgBar);
      // clipping is really active: some ratios are above the threshold, some below
      const ratios = Array.from(inp.targetLogProbs, (l, i) => Math.exp(l - inp.behaviourLogProbs[i]));
      expect(ratios.some((r) => r > rhoBar)).toBe(true);
      expect(ratios.some((r) => r < Math.min(rhoBar, cBar))).toBe(true);
      for (let i = 0; i < 21; i++) {
        expect(out.vs[i]).toBeCloseTo(ref.vs[i], 5);
        expect(out.pgAdvantages[i]).toBeCloseTo(ref.adv[i], 5);
      }
    }
  });

  it('on-policy with thresholds ≥ 1 equals the n-step bootstrapped returns', () => {
    const inp = randomInput(6, 2, 5);
    for (const bar of [1, 2, null]) {
      const out = vtrace({ ...inp, targetLogProbs: inp.behaviourLogProbs, clipRhoThreshold: bar, clipCThreshold: bar, clipPgRhoThreshold: bar });
      for (let n = 0; n < 2; n++) {
        // G_s = r_s + γ_s G_{s+1}, G_T = V(x_T)
        let G = inp.bootstrapValue[n];
        for (let s = 5; s >= 0; s--) {
          const i = s * 2 + n;
          const vNext = G;
          G = inp.rewards[i] + inp.discounts[i] * G;
          expect(out.vs[i]).toBeCloseTo(G, 5);
          expect(out.rhos[i]).toBeCloseTo(1, 6);
          expect(out.pgAdvantages[i]).toBeCloseTo(inp.rewards[i] + inp.discounts[i] * vNext - inp.values[i], 5);
        }
      }
    }
  });

  it('clips ρ: rhos = min(ρ̄, π/μ) ≤ ρ̄ on random inputs', () => {
    for (const seed of [1, 2, 3]) {
      const inp = randomInput(10, 4, seed);
      const out = vtrace({ ...inp, clipRhoThreshold: 0.7 });
      let clippedCount = 0;
      out.rhos.forEach((rho, i) => {
        const ratio = Math.exp(inp.targetLogProbs[i] - inp.behaviourLogProbs[i]);
        expect(rho).toBeLessThanOrEqual(0.7 + 1e-7);
        expect(rho).toBeCloseTo(Math.min(0.7, ratio), 6);
        if (ratio > 0.7) clippedCount++;
      });
      expect(clippedCount).toBeGreaterThan(0);
    }
    const inp = randomInput(4, 1, 9);
    const unclipped = vtrace({ ...inp, clipRhoThreshold: null });
    expect(Math.max(...unclipped.rhos)).toBeGreaterThan(1);
  });

  it('columns are independent: N=2 time-major equals two N=1 runs', () => {
    const inp = randomInput(5, 2, 21);
    const both = vtrace(inp);
    for (let n = 0; n < 2; n++) {
      const col = (a: ArrayLike<number>) => Float32Array.from({ length: 5 }, (_, t) => a[t * 2 + n]);
      const one = vtrace({
        behaviourLogProbs: col(inp.behaviourLogProbs),
        targetLogProbs: col(inp.targetLogProbs),
        rewards: col(inp.rewards),
        values: col(inp.values),
        discounts: col(inp.discounts),
        bootstrapValue: [inp.bootstrapValue[n]],
      });
      for (let t = 0; t < 5; t++) {
        expect(one.vs[t]).toBe(both.vs[t * 2 + n]);
        expect(one.pgAdvantages[t]).toBe(both.pgAdvantages[t * 2 + n]);
      }
    }
    expect(() => vtrace({ ...inp, values: new Float32Array(3) })).toThrow(/values has 3 entries/);
  });
});
