import { describe, expect, it } from 'vitest';
import { Rng, deriveSeed } from '../../../src/core/rng';
import { MountainCarContinuousEnv } from '../../../src/envs/mountainCarContinuous';
import { continuousEnvSpec, makeEnv } from '../../../src/envs/registry';
import { VectorEnv } from '../../../src/envs/vectorEnv';

/** Gymnasium's Continuous_MountainCarEnv.step, written out again from continuous_mountain_car.py. */
function gymStep(s: readonly number[], action: number): { state: number[]; reward: number; terminated: boolean } {
  let [position, velocity] = s;
  const force = Math.min(Math.max(action, -1), 1);
  velocity += force * 0.0015 - 0.0025 * Math.cos(3 * position);
  if (velocity > 0.07) velocity = 0.07;
  if (velocity < -0.07) velocity = -0.07;
  position += velocity;
  if (position > 0.6) position = 0.6;
  if (position < -1.2) position = -1.2;
  if (position === -1.2 && velocity < 0) velocity = 0;
  const terminated = position >= 0.45 && velocity >= 0;
  let reward = 0;
  if (terminated) reward = 100.0;
  reward -= Math.pow(action, 2) * 0.1;
  // self.state = np.array([position, velocity], dtype=np.float32)
  return { state: [Math.fround(position), Math.fround(velocity)], reward, terminated };
}

describe('MountainCarContinuous-v0', () => {
  it('has Gymnasium spaces and limits', () => {
    const env = new MountainCarContinuousEnv();
    expect(Array.from(env.observationSpace.low)).toEqual([Math.fround(-1.2), Math.fround(-0.07)]);
    expect(Array.from(env.observationSpace.high)).toEqual([Math.fround(0.6), Math.fround(0.07)]);
    expect(env.actionSpace.shape).toEqual([1]);
    expect(Array.from(env.actionSpace.low)).toEqual([-1]);
    expect(Array.from(env.actionSpace.high)).toEqual([1]);
    expect(env.maxEpisodeSteps).toBe(999);
    const spec = continuousEnvSpec('MountainCarContinuous-v0');
    expect(spec.rewardThreshold).toBe(90);
    expect(spec.maxEpisodeSteps).toBe(999);
    expect(spec.actionDim).toBe(1);
  });

  it('resets position in [−0.6, −0.4) and velocity to 0', () => {
    const env = new MountainCarContinuousEnv();
    const seen = new Set<number>();
    for (let seed = 0; seed < 200; seed++) {
      const obs = env.reset({ seed }).obs;
      const [p, v] = env.getState();
      expect(p).toBeGreaterThanOrEqual(-0.6);
      expect(p).toBeLessThan(-0.4);
      expect(v).toBe(0);
      expect(Array.from(obs)).toEqual([Math.fround(p), 0]);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });

  it('matches a first step worked out by hand, with the state stored as float32', () => {
    // From [−0.5, 0] with a = 1: v = 0.0015 − 0.0025·cos(−1.5) = 0.0015 − 0.0025·0.0707372017 = 0.00132315699
    //                            x = −0.5 + 0.00132315699 = −0.49867684301;  reward = −0.1·1² = −0.1
    const env = new MountainCarContinuousEnv();
    env.resetToState([-0.5, 0]);
    const r = env.step(new Float32Array([1]));
    expect(r.reward).toBeCloseTo(-0.1, 14);
    expect(env.getState()[1]).toBe(Math.fround(0.00132315699));
    expect(env.getState()[0]).toBe(Math.fround(-0.49867684301));
    expect(r.obs[0]).toBe(Math.fround(-0.49867684301));
    expect(r.terminated || r.truncated).toBe(false);
  });

  it('clips the force to [−1, 1] but charges 0.1·a² on the unclipped action', () => {
    const a = new MountainCarContinuousEnv();
    const b = new MountainCarContinuousEnv();
    a.resetToState([-0.5, 0.01]);
    b.resetToState([-0.5, 0.01]);
    const ra = a.step([3]);
    const rb = b.step([1]);
    expect(a.getState()).toEqual(b.getState());
    expect(ra.reward).toBeCloseTo(-0.9, 14); // −0.1·3²
    expect(rb.reward).toBeCloseTo(-0.1, 14);
    expect(a.renderState().force).toBe(1);
    a.resetToState([-0.5, 0.01]);
    b.resetToState([-0.5, 0.01]);
    expect(a.step([-2]).reward).toBeCloseTo(-0.4, 14);
    b.step([-1]);
    expect(a.getState()).toEqual(b.getState());
  });

  it('terminates at x ≥ 0.45 moving right with +100, clips speed, stops at the left wall', () => {
    // From [0.44, 0.02], a = 0.5: v = 0.02 + 0.00075 − 0.0025·cos(1.32) = 0.02075 − 0.0025·0.2481755 = 0.0201296
    //                             x = 0.4601296 ≥ 0.45 → terminated; reward = 100 − 0.1·0.25 = 99.975
    const env = new MountainCarContinuousEnv();
    env.resetToState([0.44, 0.02]);
    const r = env.step([0.5]);
    expect(r.terminated).toBe(true);
    expect(r.truncated).toBe(false);
    expect(r.reward).toBeCloseTo(99.975, 12);
    expect(env.getState()[0]).toBeCloseTo(0.4601296, 6);
    expect(() => env.step([0])).toThrow(/after the episode ended/);

    // Past the goal but moving left: not terminal.
    env.resetToState([0.5, -0.06]);
    expect(env.step([-1]).terminated).toBe(false);

    env.resetToState([-0.5, 0.0699]);
    env.step([1]);
    expect(env.getState()[1]).toBe(Math.fround(0.07));

    env.resetToState([-1.19, -0.05]);
    env.step([-1]);
    expect(env.getState()).toEqual([Math.fround(-1.2), 0]);
  });

  it('follows the Gymnasium equations for random actions and truncates at 999', () => {
    for (const seed of [0, 3, 42]) {
      const env = new MountainCarContinuousEnv();
      env.reset({ seed });
      let state = env.getState();
      const rng = new Rng(seed + 5);
      let steps = 0;
      let done = false;
      while (!done) {
        const u = Math.fround(rng.uniformRange(-1.5, 1.5));
        const ref = gymStep(state, u);
        const r = env.step(new Float32Array([u]));
        steps++;
        expect(env.getState()).toEqual(ref.state);
        expect(r.reward).toBeCloseTo(ref.reward, 12);
        expect(r.terminated).toBe(ref.terminated);
        state = ref.state;
        done = r.terminated || r.truncated;
        if (r.truncated) expect(steps).toBe(999);
      }
    }
    // Pushed right on every step the car cannot climb out (the hill is too steep for power
    // 0.0015); pushed along its velocity (bang-bang) it swings up well before 999 steps.
    const stuck = new MountainCarContinuousEnv();
    stuck.reset({ seed: 1 });
    for (let t = 0; t < 999; t++) expect(stuck.step([1]).terminated).toBe(false);
    const env = new MountainCarContinuousEnv();
    env.reset({ seed: 1 });
    let steps = 0;
    for (;;) {
      const r = env.step([env.getState()[1] >= 0 ? 1 : -1]);
      steps++;
      if (r.terminated) {
        expect(r.reward).toBeGreaterThan(99);
        break;
      }
      expect(r.truncated).toBe(false);
    }
    expect(steps).toBeLessThan(200);
  });

  it('refuses an action of the wrong length or NaN', () => {
    const env = new MountainCarContinuousEnv();
    env.reset({ seed: 0 });
    expect(() => env.step(new Float32Array([0.1, 0.2]))).toThrow(/MountainCarContinuous-v0: the action must have 1 values, got 2/);
    expect(() => env.step(new Float32Array([NaN]))).toThrow(/action\[0\] is NaN/);
    expect(() => env.step([-Infinity])).toThrow(/finite/);
    expect(env.elapsedSteps).toBe(0);
  });

  it('is registered and runs in a VectorEnv', () => {
    expect(makeEnv('MountainCarContinuous-v0', { seed: 1 }).actionSpace.kind).toBe('box');
    const venv = new VectorEnv('MountainCarContinuous-v0', 2);
    const obs = venv.reset(4);
    const single = new MountainCarContinuousEnv();
    expect(Array.from(obs.subarray(2, 4))).toEqual(Array.from(single.reset({ seed: deriveSeed(4, 1) }).obs));
    const out = venv.step(new Float32Array([0.5, -2]));
    expect(out.rewards[1]).toBe(Math.fround(-0.4));
    expect(Array.from(out.obs.subarray(2, 4))).toEqual(Array.from(single.step([-2]).obs));
  });
});
