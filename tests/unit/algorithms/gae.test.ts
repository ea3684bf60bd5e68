import { describe, expect, it } from 'vitest';
import { gae } from '../../../src/algorithms/gae';
import { Rng } from '../../../src/core/rng';

const f32 = (xs: number[]) => Array.from(new Float32Array(xs));

describe('gae', () => {
  it('T=3, N=1 with a done in the middle, by hand', () => {
    // γ = 0.5, λ = 0.5, r = [1, 2, 3], V = [0.5, 1, 1.5], d = [0, 1, 0], V(s_3) = 2
    // t=2: δ = 3 + 0.5·2 − 1.5 = 2.5                       A_2 = 2.5
    // t=1: done → δ = 2 + 0 − 1 = 1                          A_1 = 1   (no carry from A_2)
    // t=0: δ = 1 + 0.5·1 − 0.5 = 1                           A_0 = 1 + 0.5·0.5·1 = 1.25
    // R = A + V = [1.75, 2, 4]
    const { advantages, returns } = gae([1, 2, 3], [0.5, 1, 1.5], [0, 1, 0], [2], 0.5, 0.5);
    expect(Array.from(advantages)).toEqual([1.25, 1, 2.5]);
    expect(Array.from(returns)).toEqual([1.75, 2, 4]);
  });

  it('N=2 interleaves time-major: index t·N + n', () => {
    // env0 = the case above. env1: r = [0, 1, 0], V = [1, 1, 1], d = [0, 0, 1], V(s_3) = 5 (unused: done at t=2)
    // t=2: δ = 0 + 0 − 1 = −1                                A_2 = −1
    // t=1: δ = 1 + 0.5·1 − 1 = 0.5                           A_1 = 0.5 + 0.25·(−1) = 0.25
    // t=0: δ = 0 + 0.5·1 − 1 = −0.5                          A_0 = −0.5 + 0.25·0.25 = −0.4375
    const rewards = [1, 0, 2, 1, 3, 0];
    const values = [0.5, 1, 1, 1, 1.5, 1];
    const dones = new Uint8Array([0, 0, 1, 0, 0, 1]);
    const { advantages, returns } = gae(rewards, values, dones, [2, 5], 0.5, 0.5, 2);
    expect(Array.from(advantages)).toEqual([1.25, -0.4375, 1, 0.25, 2.5, -1]);
    expect(Array.from(returns)).toEqual([1.75, 0.5625, 2, 1.25, 4, 0]);
  });

  it('λ = 0 gives the one-step TD error; λ = 1 gives bootstrapped Monte-Carlo returns', () => {
    const rng = new Rng(3);
    const T = 6;
    const r = Array.from({ length: T }, () => rng.normal());
    const v = Array.from({ length: T }, () => rng.normal());
    const d = [0, 0, 1, 0, 0, 0];
    const last = [rng.normal()];
    const g = 0.9;
    const td = gae(r, v, d, last, g, 0).advantages;
    for (let t = 0; t < T; t++) {
      const next = t === T - 1 ? last[0] : v[t + 1];
      expect(td[t]).toBeCloseTo(r[t] + g * next * (1 - d[t]) - v[t], 5);
    }
    const mc = gae(r, v, d, last, g, 1).returns;
    // episode 1 = steps 0..2 (ends at 2), episode 2 = steps 3..5, bootstrapped from V(s_6)
    let G = last[0];
    for (let t = T - 1; t >= 0; t--) {
      G = r[t] + g * (d[t] ? 0 : G);
      expect(mc[t]).toBeCloseTo(G, 5);
    }
  });

  it('truncation bootstraps from the real final observation and cuts the recursion', () => {
    // γ = 0.5, λ = 1, r = [1, 1, 1], V = [1, 2, 3], truncated at t=1 with V(final obs) = 10, V(s_3) = 4
    // t=2: δ = 1 + 0.5·4 − 3 = 0                             A_2 = 0
    // t=1: truncated → δ = 1 + 0.5·10 − 2 = 4                A_1 = 4   (A_2 is another episode's)
    // t=0: δ = 1 + 0.5·2 − 1 = 1                             A_0 = 1 + 0.5·4 = 3
    const opts = { truncated: [0, 1, 0], bootstrapValues: [0, 10, 0] };
    expect(Array.from(gae([1, 1, 1], [1, 2, 3], [0, 0, 0], [4], 0.5, 1, 1, opts).advantages)).toEqual([3, 4, 0]);
    // terminated and truncated at once: termination wins (value 0): δ_1 = 1 − 2 = −1, A_0 = 1 + 0.5·(−1) = 0.5
    expect(Array.from(gae([1, 1, 1], [1, 2, 3], [0, 1, 0], [4], 0.5, 1, 1, opts).advantages)).toEqual(f32([0.5, -1, 0]));
    expect(() => gae([1], [1], [0], [0], 0.5, 1, 1, { truncated: [1] })).toThrow(/bootstrapValues/);
  });

  it('checks its inputs', () => {
    expect(() => gae([1, 2, 3], [1, 2, 3], [0, 0, 0], [0, 0], 0.9, 0.9)).toThrow(/do not split/);
    expect(() => gae([1, 2], [1], [0, 0], [0], 0.9, 0.9)).toThrow(/1 values for 2 rewards/);
    expect(() => gae([1, 2], [1, 2], [0, 0], [0], 0.9, 0.9, 2)).toThrow(/lastValues has 1 entries/);
  });
});
