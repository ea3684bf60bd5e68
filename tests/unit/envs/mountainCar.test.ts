import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng';
import { MountainCarEnv } from '../../../src/envs/mountainCar';
import { makeEnv } from '../../../src/envs/registry';

/** Gymnasium's MountainCar-v0 step, written out again in float64. */
function gymMountainCarStep(s: readonly number[], action: number): { state: number[]; terminated: boolean } {
  const [minPosition, maxPosition, maxSpeed, goalPosition, goalVelocity, force, gravity] = [
    -1.2, 0.6, 0.07, 0.5, 0, 0.001, 0.0025,
  ];
  let [position, velocity] = s;
  velocity += (action - 1) * force + Math.cos(3 * position) * -gravity;
  velocity = Math.min(Math.max(velocity, -maxSpeed), maxSpeed);
  position += velocity;
  position = Math.min(Math.max(position, minPosition), maxPosition);
  if (position === minPosition && velocity < 0) velocity = 0;
  return { state: [position, velocity], terminated: position >= goalPosition && velocity >= goalVelocity };
}

describe('MountainCar-v0', () => {
  it('has Gymnasium spaces and limits', () => {
    const env = new MountainCarEnv();
    expect(Array.from(env.observationSpace.low)).toEqual([Math.fround(-1.2), Math.fround(-0.07)]);
    expect(Array.from(env.observationSpace.high)).toEqual([Math.fround(0.6), Math.fround(0.07)]);
    expect(env.actionSpace).toEqual({ kind: 'discrete', n: 3 });
    expect(env.maxEpisodeSteps).toBe(200);
  });

  it('resets position in [-0.6, -0.4) and velocity to 0', () => {
    const env = new MountainCarEnv();
    for (let seed = 0; seed < 100; seed++) {
      const obs = env.reset({ seed }).obs;
      const [p, v] = env.getState();
      expect(p).toBeGreaterThanOrEqual(-0.6);
      expect(p).toBeLessThan(-0.4);
      expect(v).toBe(0);
      expect(obs[0]).toBe(Math.fround(p));
    }
  });

  it('matches a first step worked out by hand', () => {
    // From [-0.5, 0] with action 2: v = 0.001 - cos(-1.5)·0.0025 = 0.001 - 0.0707372·0.0025 ≈ 0.000823157
    const env = new MountainCarEnv();
    env.resetToState([-0.5, 0]);
    const r = env.step(2);
    expect(r.obs[1]).toBeCloseTo(0.000823157, 8);
    expect(r.obs[0]).toBeCloseTo(-0.5 + 0.000823157, 7);
    expect(r.reward).toBe(-1);
  });

  it('follows the inline Gymnasium equations step by step', () => {
    for (const seed of [0, 8, 123]) {
      const env = new MountainCarEnv();
      env.reset({ seed });
      let state = env.getState();
      const actions = new Rng(seed + 9);
      for (let t = 0; t < 200; t++) {
        const a = actions.int(3);
        const ref = gymMountainCarStep(state, a);
        const r = env.step(a);
        expect(r.obs[0]).toBeCloseTo(ref.state[0], 6);
        expect(r.obs[1]).toBeCloseTo(ref.state[1], 7);
        expect(env.getState()).toEqual(ref.state);
        expect(r.terminated).toBe(ref.terminated);
        state = ref.state;
        if (r.terminated || r.truncated) break;
      }
    }
  });

  it('clips velocity, stops at the left wall, and terminates only at the goal moving right', () => {
    const env = new MountainCarEnv();
    env.resetToState([-0.5, 0.0699]);
    env.step(2);
    expect(env.getState()[1]).toBe(0.07);

    env.resetToState([-1.19, -0.05]);
    env.step(0);
    expect(env.getState()).toEqual([-1.2, 0]);

    env.resetToState([0.49, 0.02]);
    let r = env.step(2);
    expect(r.terminated).toBe(true);
    expect(r.reward).toBe(-1);
    expect(() => env.step(1)).toThrow('MountainCar-v0: step() called after the episode ended; call reset() first');

    env.resetToState([0.6, 0]); // past the goal but rolling back: not terminated
    r = env.step(0);
    expect(env.getState()[1]).toBeLessThan(0);
    expect(r.terminated).toBe(false);
  });

  it('truncates at 200 steps with a return of -200 when doing nothing', () => {
    const env = makeEnv('MountainCar-v0', { seed: 4 });
    env.reset();
    let total = 0;
    for (let t = 1; t <= 200; t++) {
      const r = env.step(1);
      total += r.reward;
      expect(r.terminated).toBe(false);
      expect(r.truncated).toBe(t === 200);
    }
    expect(total).toBe(-200);
  });
});
