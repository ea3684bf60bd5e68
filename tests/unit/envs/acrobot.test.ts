import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng';
import { AcrobotEnv, bound, wrap } from '../../../src/envs/acrobot';
import { makeEnv } from '../../../src/envs/registry';

/** Gymnasium's Acrobot-v1 step (book dynamics, rk4 over [0, 0.2]), written out again in float64. */
function gymAcrobotStep(s: readonly number[], action: number): { state: number[]; terminated: boolean } {
  const pi = Math.PI;
  const torque = [-1.0, 0.0, 1.0][action];
  const dsdt = (y: number[]): number[] => {
    const [m1, m2, l1, lc1, lc2, I1, I2, g] = [1, 1, 1, 0.5, 0.5, 1, 1, 9.8];
    const [theta1, theta2, dtheta1, dtheta2, a] = y;
    const d1 = m1 * lc1 ** 2 + m2 * (l1 ** 2 + lc2 ** 2 + 2 * l1 * lc2 * Math.cos(theta2)) + I1 + I2;
    const d2 = m2 * (lc2 ** 2 + l1 * lc2 * Math.cos(theta2)) + I2;
    const phi2 = m2 * lc2 * g * Math.cos(theta1 + theta2 - pi / 2.0);
    const phi1 =
      -m2 * l1 * lc2 * dtheta2 ** 2 * Math.sin(theta2) -
      2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * Math.sin(theta2) +
      (m1 * lc1 + m2 * l1) * g * Math.cos(theta1 - pi / 2) +
      phi2;
    const ddtheta2 =
      (a + (d2 / d1) * phi1 - m2 * l1 * lc2 * dtheta1 ** 2 * Math.sin(theta2) - phi2) /
      (m2 * lc2 ** 2 + I2 - d2 ** 2 / d1);
    const ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    return [dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0];
  };
  const add = (y: number[], h: number, k: number[]) => y.map((v, i) => v + h * k[i]);
  const y0 = [...s, torque];
  const dt = 0.2;
  const k1 = dsdt(y0);
  const k2 = dsdt(add(y0, dt / 2, k1));
  const k3 = dsdt(add(y0, dt / 2, k2));
  const k4 = dsdt(add(y0, dt, k3));
  const ns = y0.map((v, i) => v + (dt / 6.0) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i])).slice(0, 4);
  const wrapRef = (x: number) => {
    while (x > pi) x -= 2 * pi;
    while (x < -pi) x += 2 * pi;
    return x;
  };
  ns[0] = wrapRef(ns[0]);
  ns[1] = wrapRef(ns[1]);
  ns[2] = Math.min(Math.max(ns[2], -4 * pi), 4 * pi);
  ns[3] = Math.min(Math.max(ns[3], -9 * pi), 9 * pi);
  return { state: ns, terminated: -Math.cos(ns[0]) - Math.cos(ns[1] + ns[0]) > 1.0 };
}

function obsOf(s: readonly number[]): number[] {
  return [Math.cos(s[0]), Math.sin(s[0]), Math.cos(s[1]), Math.sin(s[1]), s[2], s[3]];
}

function expectObs(obs: Float32Array, expected: readonly number[], digits = 5): void {
  expect(obs.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(obs[i]).toBeCloseTo(expected[i], digits);
}

describe('Acrobot-v1', () => {
  it('has Gymnasium spaces and limits', () => {
    const env = new AcrobotEnv();
    expect(env.observationSpace.shape).toEqual([6]);
    expect(env.observationSpace.high[4]).toBeCloseTo(4 * Math.PI, 5);
    expect(env.observationSpace.high[5]).toBeCloseTo(9 * Math.PI, 5);
    expect(env.actionSpace).toEqual({ kind: 'discrete', n: 3 });
    expect(env.maxEpisodeSteps).toBe(500);
  });

  it('resets the 4 state components in [-0.1, 0.1), as float32 values', () => {
    const env = new AcrobotEnv();
    for (let seed = 0; seed < 100; seed++) {
      const obs = env.reset({ seed }).obs;
      const s = env.getState();
      for (const v of s) {
        expect(v).toBeGreaterThanOrEqual(-0.1);
        expect(v).toBeLessThan(0.1);
        expect(Math.fround(v)).toBe(v);
      }
      expectObs(obs, obsOf(s), 6);
    }
  });

  it('follows the inline Gymnasium equations step by step', () => {
    for (const seed of [0, 3, 77]) {
      const env = new AcrobotEnv();
      env.reset({ seed });
      let state = env.getState();
      const actions = new Rng(seed + 500);
      for (let t = 0; t < 200; t++) {
        const a = actions.int(3);
        const ref = gymAcrobotStep(state, a);
        const r = env.step(a);
        expectObs(r.obs, obsOf(ref.state), 5);
        const s = env.getState();
        for (let i = 0; i < 4; i++) expect(s[i]).toBeCloseTo(ref.state[i], 10);
        expect(r.terminated).toBe(ref.terminated);
        expect(r.reward).toBe(ref.terminated ? 0 : -1);
        state = ref.state;
        if (r.terminated) break;
      }
    }
  });

  it('follows the equations from chosen states, including wrapping and velocity bounds', () => {
    const starts = [
      [0, 0, 0, 0],
      [1, -2, 3, -4],
      [3.1, 3.1, 12, 28], // wraps past π, high velocities
      [0, 0, 100, -100], // velocities get bounded
    ];
    for (const start of starts) {
      for (const a of [0, 1, 2]) {
        const env = new AcrobotEnv();
        env.resetToState(start);
        const ref = gymAcrobotStep(start, a);
        const r = env.step(a);
        expectObs(r.obs, obsOf(ref.state), 5);
        const s = env.getState();
        for (let i = 0; i < 4; i++) expect(s[i]).toBeCloseTo(ref.state[i], 9);
        expect(s[0]).toBeGreaterThanOrEqual(-Math.PI);
        expect(s[0]).toBeLessThanOrEqual(Math.PI);
        expect(Math.abs(s[2])).toBeLessThanOrEqual(4 * Math.PI);
        expect(Math.abs(s[3])).toBeLessThanOrEqual(9 * Math.PI);
      }
    }
    expect(wrap(4, -Math.PI, Math.PI)).toBeCloseTo(4 - 2 * Math.PI, 12);
    expect(wrap(-7, -Math.PI, Math.PI)).toBeCloseTo(-7 + 2 * Math.PI, 12);
    expect(wrap(10, -Math.PI, Math.PI)).toBeCloseTo(10 - 4 * Math.PI, 12);
    expect(bound(5, -1, 1)).toBe(1);
  });

  it('terminates when the tip is above the bar, with reward 0 on that step', () => {
    const env = new AcrobotEnv();
    env.resetToState([Math.PI, 0, 0, 0]); // straight up: -cos(π) - cos(π) = 2 > 1
    const r = env.step(1);
    expect(r.terminated).toBe(true);
    expect(r.reward).toBe(0);
    expect(() => env.step(1)).toThrow('Acrobot-v1: step() called after the episode ended; call reset() first');
  });

  it('truncates at 500 steps when hanging with no torque', () => {
    const env = makeEnv('Acrobot-v1', { seed: 1 });
    env.reset();
    let total = 0;
    for (let t = 1; t <= 500; t++) {
      const r = env.step(1);
      total += r.reward;
      expect(r.terminated).toBe(false);
      expect(r.truncated).toBe(t === 500);
    }
    expect(total).toBe(-500);
  });

  it('rejects invalid actions and is deterministic per seed', () => {
    const env = new AcrobotEnv();
    env.reset({ seed: 2 });
    expect(() => env.step(3)).toThrow(/invalid action/);
    const run = (seed: number) => {
      const e = new AcrobotEnv();
      const out = [...e.reset({ seed }).obs];
      for (let t = 0; t < 20; t++) out.push(...e.step(t % 3).obs);
      return out;
    };
    expect(run(9)).toEqual(run(9));
    expect(run(9)).not.toEqual(run(10));
    expect(Object.keys(env.renderState())).toEqual(['theta1', 'theta2', 'theta1Dot', 'theta2Dot']);
  });
});
