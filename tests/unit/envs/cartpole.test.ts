import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng';
import { CartPoleEnv } from '../../../src/envs/cartpole';
import { makeEnv } from '../../../src/envs/registry';

/**
 * Gymnasium's CartPole-v1 step, written out again here in float64 from
 * gymnasium/envs/classic_control/cartpole.py (kinematics_integrator = "euler").
 */
function gymCartPoleStep(state: readonly number[], action: number): { state: number[]; terminated: boolean } {
  const gravity = 9.8;
  const masscart = 1.0;
  const masspole = 0.1;
  const totalMass = masspole + masscart;
  const length = 0.5;
  const polemassLength = masspole * length;
  const forceMag = 10.0;
  const tau = 0.02;
  const thetaThresholdRadians = (12 * 2 * Math.PI) / 360;
  const xThreshold = 2.4;

  let [x, xDot, theta, thetaDot] = state;
  const force = action === 1 ? forceMag : -forceMag;
  const costheta = Math.cos(theta);
  const sintheta = Math.sin(theta);
  const temp = (force + polemassLength * thetaDot ** 2 * sintheta) / totalMass;
  const thetaacc = (gravity * sintheta - costheta * temp) / (length * (4.0 / 3.0 - (masspole * costheta ** 2) / totalMass));
  const xacc = temp - (polemassLength * thetaacc * costheta) / totalMass;
  x = x + tau * xDot;
  xDot = xDot + tau * xacc;
  theta = theta + tau * thetaDot;
  thetaDot = thetaDot + tau * thetaacc;
  const terminated =
    x < -xThreshold || x > xThreshold || theta < -thetaThresholdRadians || theta > thetaThresholdRadians;
  return { state: [x, xDot, theta, thetaDot], terminated };
}

function expectObs(obs: Float32Array, expected: readonly number[], digits = 6): void {
  expect(obs.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(obs[i]).toBeCloseTo(expected[i], digits);
}

/** A bang-bang controller that keeps the pole up for 500 steps from any reset state. */
function balance(o: Float32Array): number {
  return o[2] + 0.2 * o[3] > 0 ? 1 : 0;
}

describe('CartPole-v1 dynamics', () => {
  it('matches a first step worked out by hand', () => {
    // From [0, 0, 0, 0] with action 1 (force +10): cos θ = 1, sin θ = 0.
    //   total_mass = 1.1, polemass_length = 0.05
    //   temp     = (10 + 0) / 1.1                  = 100/11  ≈ 9.0909091
    //   thetaacc = (9.8·0 − 1·temp) / (0.5·(4/3 − 0.1/1.1))
    //            = −(100/11) / (0.5 · 41/33) = −(100/11)·(66/41) = −600/41 ≈ −14.6341463
    //   xacc     = temp − 0.05·thetaacc·1/1.1 = 100/11 + 300/451 = 4400/451 ≈ 9.7560976
    //   Euler:  x = 0 + 0.02·0 = 0;  x_dot = 0.02·4400/451 = 88/451 ≈ 0.1951220
    //           θ = 0 + 0.02·0 = 0;  θ_dot = −0.02·600/41 = −12/41 ≈ −0.2926829
    const env = new CartPoleEnv();
    env.resetToState([0, 0, 0, 0]);
    const r = env.step(1);
    expectObs(r.obs, [0, 88 / 451, 0, -12 / 41]);
    expect(r.obs[1]).toBeCloseTo(0.195122, 6);
    expect(r.obs[3]).toBeCloseTo(-0.2926829, 6);
    expect(r.reward).toBe(1);
    expect(r.terminated).toBe(false);
    expect(r.truncated).toBe(false);
    const s = env.getState();
    expect(s[1]).toBeCloseTo(88 / 451, 14);
    expect(s[3]).toBeCloseTo(-12 / 41, 14);

    // Action 0 mirrors it.
    env.resetToState([0, 0, 0, 0]);
    expectObs(env.step(0).obs, [0, -88 / 451, 0, 12 / 41]);
  });

  it('uses the old velocities to move positions (Euler order)', () => {
    const env = new CartPoleEnv();
    env.resetToState([0.1, 0.5, 0.05, -0.3]);
    const r = env.step(1);
    expect(r.obs[0]).toBeCloseTo(0.1 + 0.02 * 0.5, 7);
    expect(r.obs[2]).toBeCloseTo(0.05 + 0.02 * -0.3, 7);
  });

  it('follows the Gymnasium equations step by step from seeded resets and random actions', () => {
    for (const seed of [0, 1, 42, 12345]) {
      const env = new CartPoleEnv();
      const { obs } = env.reset({ seed });
      let state = env.getState();
      expectObs(obs, state, 7);
      const actions = new Rng(seed + 1000);
      for (let t = 0; t < 500; t++) {
        const a = actions.int(2);
        const ref = gymCartPoleStep(state, a);
        const r = env.step(a);
        expectObs(r.obs, ref.state);
        const s = env.getState();
        for (let i = 0; i < 4; i++) expect(s[i]).toBeCloseTo(ref.state[i], 12);
        expect(r.terminated).toBe(ref.terminated);
        expect(r.reward).toBe(1);
        state = ref.state;
        if (r.terminated || r.truncated) break;
      }
    }
  });

  it('follows the Gymnasium equations from given start states with given actions', () => {
    const starts = [
      [0, 0, 0, 0],
      [0.03, -0.02, 0.04, 0.01],
      [-1, 0.7, -0.1, 0.9],
      [2, -1.5, 0.15, -2],
    ];
    const actions = [1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0];
    for (const start of starts) {
      const env = new CartPoleEnv();
      expectObs(env.resetToState(start), start, 7);
      let state = start;
      for (const a of actions) {
        const ref = gymCartPoleStep(state, a);
        const r = env.step(a);
        expectObs(r.obs, ref.state);
        expect(r.terminated).toBe(ref.terminated);
        state = ref.state;
        if (r.terminated) break;
      }
    }
  });

  it('keeps float64 state and casts observations to float32', () => {
    const env = new CartPoleEnv();
    const obs = env.reset({ seed: 3 }).obs;
    expect(obs).toBeInstanceOf(Float32Array);
    const s = env.getState();
    for (let i = 0; i < 4; i++) expect(obs[i]).toBe(Math.fround(s[i]));
    expect(env.renderState()).toEqual({ x: s[0], xDot: s[1], theta: s[2], thetaDot: s[3] });
  });
});

describe('CartPole-v1 episode ends', () => {
  it('terminates when x > 2.4 or x < -2.4, with reward 1 on the last step', () => {
    const env = new CartPoleEnv();
    env.resetToState([2.39, 1, 0, 0]); // x' = 2.39 + 0.02 = 2.41
    let r = env.step(1);
    expect(r.terminated).toBe(true);
    expect(r.truncated).toBe(false);
    expect(r.reward).toBe(1);

    env.resetToState([-2.39, -1, 0, 0]);
    r = env.step(0);
    expect(r.terminated).toBe(true);
    expect(r.reward).toBe(1);

    // Exactly at the threshold is still alive (strict inequality).
    env.resetToState([2.4, 0, 0, 0]);
    expect(env.step(1).terminated).toBe(false);
  });

  it('terminates when |theta| > 12 degrees', () => {
    const thr = (12 * 2 * Math.PI) / 360;
    expect(thr).toBeCloseTo(0.20943951, 8);
    const env = new CartPoleEnv();
    env.resetToState([0, 0, 0.2, 1]); // θ' = 0.2 + 0.02 = 0.22 > 0.2094
    let r = env.step(1);
    expect(r.terminated).toBe(true);
    expect(r.reward).toBe(1);

    env.resetToState([0, 0, -0.2, -1]);
    r = env.step(0);
    expect(r.terminated).toBe(true);

    env.resetToState([0, 0, 0.2, 0]); // θ' = 0.2 < 0.2094
    expect(env.step(0).terminated).toBe(false);
  });

  it('truncates exactly at step 500', () => {
    const env = makeEnv('CartPole-v1', { seed: 5 });
    expect(env.maxEpisodeSteps).toBe(500);
    let obs = env.reset().obs;
    let total = 0;
    for (let t = 1; t <= 500; t++) {
      const r = env.step(balance(obs));
      total += r.reward;
      obs = r.obs;
      expect(r.terminated).toBe(false);
      expect(r.truncated).toBe(t === 500);
    }
    expect(total).toBe(500);
    expect(() => env.step(0)).toThrow('CartPole-v1: step() called after the episode ended; call reset() first');
  });

  it('honours a maxEpisodeSteps override', () => {
    const env = new CartPoleEnv({ maxEpisodeSteps: 7 });
    let obs = env.reset({ seed: 1 }).obs;
    for (let t = 1; t <= 7; t++) {
      const r = env.step(balance(obs));
      obs = r.obs;
      expect(r.truncated).toBe(t === 7);
    }
    expect(() => new CartPoleEnv({ maxEpisodeSteps: 0 })).toThrow(/maxEpisodeSteps/);
  });

  it('throws on stepping after termination, before reset, or with an invalid action', () => {
    const env = new CartPoleEnv();
    expect(() => env.step(0)).toThrow(/before reset/);
    env.resetToState([2.39, 1, 0, 0]);
    expect(env.step(1).terminated).toBe(true);
    expect(() => env.step(1)).toThrow('CartPole-v1: step() called after the episode ended; call reset() first');
    env.reset();
    for (const bad of [2, -1, 0.5, NaN, Infinity]) expect(() => env.step(bad)).toThrow(/invalid action/);
    expect(() => env.step(1)).not.toThrow();
  });
});

describe('CartPole-v1 seeding', () => {
  it('resets every component uniformly within [-0.05, 0.05)', () => {
    const env = new CartPoleEnv();
    let min = Infinity;
    let max = -Infinity;
    for (let seed = 0; seed < 300; seed++) {
      env.reset({ seed });
      for (const v of env.getState()) {
        expect(v).toBeGreaterThanOrEqual(-0.05);
        expect(v).toBeLessThan(0.05);
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    expect(min).toBeLessThan(-0.045);
    expect(max).toBeGreaterThan(0.045);
  });

  function trajectory(env: CartPoleEnv, seed: number | undefined, steps = 60): number[] {
    const out: number[] = [];
    out.push(...env.reset(seed === undefined ? {} : { seed }).obs);
    for (let t = 0; t < steps; t++) {
      const r = env.step(t % 3 === 0 ? 0 : 1);
      out.push(...r.obs, r.reward, Number(r.terminated));
      if (r.terminated || r.truncated) break;
    }
    return out;
  }

  it('gives identical trajectories for the same seed and different ones for another', () => {
    const a = trajectory(new CartPoleEnv(), 17);
    const b = trajectory(new CartPoleEnv({ seed: 99 }), 17);
    const c = trajectory(new CartPoleEnv(), 18);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('continues the rng stream when reset without a seed; unseeded envs use seed 0', () => {
    const env = new CartPoleEnv({ seed: 7 });
    const first = env.reset().obs;
    const second = env.reset().obs;
    expect(first).toEqual(new CartPoleEnv().reset({ seed: 7 }).obs);
    expect(second).not.toEqual(first);
    // reset({seed}) then reset() replays the same stream
    const other = new CartPoleEnv();
    other.reset({ seed: 7 });
    expect(other.reset().obs).toEqual(second);
    // an env built without a seed behaves as seed 0
    expect(new CartPoleEnv().reset().obs).toEqual(new CartPoleEnv().reset({ seed: 0 }).obs);
  });
});
