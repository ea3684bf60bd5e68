import { describe, expect, it } from 'vitest';
import { OrnsteinUhlenbeckNoise, SB3_OU } from '../../../src/core/ouNoise';
import { Rng } from '../../../src/core/rng';

/** Sample mean and (population) variance. */
function moments(xs: ArrayLike<number>): { mean: number; variance: number } {
  let m = 0;
  for (let i = 0; i < xs.length; i++) m += xs[i];
  m /= xs.length;
  let v = 0;
  for (let i = 0; i < xs.length; i++) v += (xs[i] - m) ** 2;
  return { mean: m, variance: v / xs.length };
}

describe('Ornstein-Uhlenbeck exploration noise', () => {
  it('without diffusion, moves a fraction θ·dt of the way to μ each step', () => {
    // θ 1, dt 0.5, μ 2 from x 0: x1 = 0 + 1·(2 − 0)·0.5 = 1, x2 = 1 + 0.5·(2 − 1) = 1.5, x3 = 1.75.
    const ou = new OrnsteinUhlenbeckNoise(1, 1, { theta: 1, dt: 0.5, mu: 2 });
    const rng = new Rng(1);
    expect(ou.next(rng, 0)[0]).toBeCloseTo(1, 12);
    expect(ou.next(rng, 0)[0]).toBeCloseTo(1.5, 12);
    expect(ou.next(rng, 0)[0]).toBeCloseTo(1.75, 12);
    // SB3's θ 0.15, dt 0.01 toward μ 1: x_n = 1 − (1 − 0.0015)^n; n = 100: 1 − e^{100·ln 0.9985} ≈ 0.13939.
    const slow = new OrnsteinUhlenbeckNoise(1, 1, { ...SB3_OU, mu: 1 });
    let x = 0;
    for (let n = 0; n < 100; n++) x = slow.next(rng, 0)[0];
    expect(x).toBeCloseTo(0.13939, 4);
  });

  it('adds σ·√dt·N(0, 1) to the decayed value each step, one draw per row and dimension in order', () => {
    const ou = new OrnsteinUhlenbeckNoise(2, 2);
    const rng = new Rng(7);
    const twin = new Rng(7);
    const sigma = 0.5;
    const first = ou.next(rng, sigma);
    const z1 = [twin.normal(), twin.normal(), twin.normal(), twin.normal()];
    // x1 = 0 + 0.15·(0 − 0)·0.01 + 0.5·0.1·z = 0.05·z
    z1.forEach((z, i) => expect(first[i]).toBeCloseTo(0.05 * z, 6));
    const second = ou.next(rng, sigma);
    // x2 = x1·(1 − 0.15·0.01) + 0.05·z' = 0.9985·x1 + 0.05·z'
    z1.forEach((z, i) => expect(second[i]).toBeCloseTo(0.9985 * 0.05 * z + 0.05 * twin.normal(), 6));
  });

  it('settles at variance σ²/(2θ) with lag-k correlation (1 − θ·dt)^k, mean 0', () => {
    // θ 1.5, dt 0.01 (θ·dt 0.015, still small), σ 0.5: σ²/(2θ) = 0.25 / 3 = 0.0833 (the discrete
    // process: σ²dt / (1 − 0.985²) = 0.0025 / 0.029775 = 0.0840). 400 steps from 0 leave
    // 0.985^800 ≈ e^{−12} of the start: stationary.
    const rows = 3_000;
    const ou = new OrnsteinUhlenbeckNoise(rows, 1, { theta: 1.5, dt: 0.01, mu: 0 });
    const rng = new Rng(11);
    for (let n = 0; n < 400; n++) ou.next(rng, 0.5);
    const now = ou.values();
    let later = now;
    for (let k = 0; k < 10; k++) later = ou.next(rng, 0.5);
    const { mean, variance } = moments(now);
    // Std of a sample variance of 3,000 normals: 0.0833·√(2/3000) ≈ 0.0022; of the mean √(0.0833/3000) ≈ 0.0053.
    expect(variance).toBeGreaterThan(0.0833 - 0.008);
    expect(variance).toBeLessThan(0.0833 + 0.008);
    expect(Math.abs(mean)).toBeLessThan(0.02);
    // corr(x_n, x_{n+10}) = 0.985^10 ≈ 0.860 (independent Gaussian draws would give 0).
    let cov = 0;
    for (let i = 0; i < rows; i++) cov += now[i] * later[i];
    const corr = cov / rows / Math.sqrt(variance * moments(later).variance);
    expect(corr).toBeGreaterThan(0.86 - 0.03);
    expect(corr).toBeLessThan(0.86 + 0.03);
  });

  it('with SB3’s θ 0.15, dt 0.01 grows its variance from 0 as σ²dt·(1 − 0.9985^{2n}) / (1 − 0.9985²)', () => {
    // σ 0.5, n 200: 0.0025·(1 − e^{400·ln 0.9985}) / 0.00299775 = 0.0025·(1 − 0.54857) / 0.00299775 ≈ 0.3765,
    // well below the stationary 0.8333: the process is still drifting away from its start after 200 steps.
    const rows = 2_000;
    const ou = new OrnsteinUhlenbeckNoise(rows, 1);
    const rng = new Rng(12);
    for (let n = 0; n < 199; n++) ou.next(rng, 0.5);
    const x = ou.next(rng, 0.5);
    const { variance } = moments(x);
    // Sample-variance std: 0.3765·√(2/2000) ≈ 0.012.
    expect(variance).toBeGreaterThan(0.3765 - 0.04);
    expect(variance).toBeLessThan(0.3765 + 0.04);
  });

  it('reset starts one row over at 0 and leaves the others', () => {
    const ou = new OrnsteinUhlenbeckNoise(2, 1);
    const rng = new Rng(3);
    for (let n = 0; n < 50; n++) ou.next(rng, 1);
    const before = ou.values();
    expect(before[0]).not.toBe(0);
    expect(before[1]).not.toBe(0);
    ou.reset(1);
    expect(Array.from(ou.values())).toEqual([before[0], 0]);
    const twin = new Rng(3);
    for (let n = 0; n < 100; n++) twin.normal();
    const after = ou.next(rng, 1);
    // Row 0 carries on; row 1 restarts from 0: x1 = 1·0.1·z.
    expect(after[0]).toBeCloseTo(0.9985 * before[0] + 0.1 * twin.normal(), 6);
    expect(after[1]).toBeCloseTo(0.1 * twin.normal(), 6);
  });

  it('refuses sizes and parameters that make no process', () => {
    expect(() => new OrnsteinUhlenbeckNoise(0, 1)).toThrow(/positive integers/);
    expect(() => new OrnsteinUhlenbeckNoise(1, 1, { theta: 0.15, dt: 0, mu: 0 })).toThrow(/dt > 0/);
  });
});
