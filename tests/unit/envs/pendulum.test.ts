import { describe, expect, it } from 'vitest';
import { Rng, deriveSeed } from '../../../src/core/rng';
import { PendulumEnv, angleNormalize } from '../../../src/envs/pendulum';
import { continuousEnvSpec, envSpec, makeEnv } from '../../../src/envs/registry';
import { VectorEnv } from '../../../src/envs/vectorEnv';

/** Gymnasium's PendulumEnv.step, written out again from pendulum.py (g = 10, m = l = 1, dt = 0.05). */
function gymPendulumStep(s: readonly number[], action: number): { state: number[]; reward: number } {
  const [g, m, l, dt, maxSpeed, maxTorque] = [10, 1, 1, 0.05, 8, 2];
  const [th, thdot] = s;
  const u = Math.min(Math.max(action, -maxTorque), maxTorque);
  const norm = th + Math.PI - 2 * Math.PI * Math.floor((th + Math.PI) / (2 * Math.PI)) - Math.PI; // Python's % is floored
  const costs = norm ** 2 + 0.1 * thdot ** 2 + 0.001 * u ** 2;
  let newthdot = thdot + ((3 * g) / (2 * l) * Math.sin(th) + (3 / (m * l * l)) * u) * dt;
  newthdot = Math.min(Math.max(newthdot, -maxSpeed), maxSpeed);
  return { state: [th + newthdot * dt, newthdot], reward: -costs };
}

describe('Pendulum-v1', () => {
  it('has Gymnasium spaces and limits', () => {
    const env = new PendulumEnv();
    expect(Array.from(env.observationSpace.low)).toEqual([-1, -1, -8]);
    expect(Array.from(env.observationSpace.high)).toEqual([1, 1, 8]);
    expect(env.actionSpace.kind).toBe('box');
    expect(env.actionSpace.shape).toEqual([1]);
    expect(Array.from(env.actionSpace.low)).toEqual([-2]);
    expect(Array.from(env.actionSpace.high)).toEqual([2]);
    expect(env.maxEpisodeSteps).toBe(200);
    expect(continuousEnvSpec('Pendulum-v1')).toEqual({
      id: 'Pendulum-v1',
      obsDim: 3,
      actionDim: 1,
      actionLow: [-2],
      actionHigh: [2],
      maxEpisodeSteps: 200,
      rewardThreshold: null,
    });
    expect(() => envSpec('Pendulum-v1')).toThrow(/continuousEnvSpec/);
    expect(() => continuousEnvSpec('CartPole-v1')).toThrow(/discrete/);
  });

  it('resets θ in [−π, π) and θ̇ in [−1, 1), observing [cos θ, sin θ, θ̇] as float32', () => {
    const env = new PendulumEnv();
    let minTh = Infinity;
    let maxTh = -Infinity;
    for (let seed = 0; seed < 300; seed++) {
      const obs = env.reset({ seed }).obs;
      const [th, thdot] = env.getState();
      expect(th).toBeGreaterThanOrEqual(-Math.PI);
      expect(th).toBeLessThan(Math.PI);
      expect(thdot).toBeGreaterThanOrEqual(-1);
      expect(thdot).toBeLessThan(1);
      expect(Array.from(obs)).toEqual([Math.fround(Math.cos(th)), Math.fround(Math.sin(th)), Math.fround(thdot)]);
      minTh = Math.min(minTh, th);
      maxTh = Math.max(maxTh, th);
    }
    // the whole circle is covered, not a slice of it
    expect(minTh).toBeLessThan(-2.5);
    expect(maxTh).toBeGreaterThan(2.5);
    // the same seed gives the same start
    expect(env.reset({ seed: 4 }).obs).toEqual(new PendulumEnv().reset({ seed: 4 }).obs);
  });

  it('matches a step worked out by hand', () => {
    // θ = 1, θ̇ = 0.5, u = 1.5:
    //   cost = 1² + 0.1·0.5² + 0.001·1.5² = 1 + 0.025 + 0.00225 = 1.02725
    //   θ̇'  = 0.5 + (15·sin 1 + 3·1.5)·0.05 = 0.5 + (12.6220647721 + 4.5)·0.05 = 1.35610323861
    //   θ'  = 1 + 1.35610323861·0.05 = 1.06780516193
    const env = new PendulumEnv();
    env.resetToState([1, 0.5]);
    const r = env.step(new Float32Array([1.5]));
    expect(r.reward).toBeCloseTo(-1.02725, 12);
    expect(env.getState()[0]).toBeCloseTo(1.06780516193, 10);
    expect(env.getState()[1]).toBeCloseTo(1.35610323861, 10);
    expect(r.obs[2]).toBe(Math.fround(env.getState()[1]));
    expect(r.terminated).toBe(false);
    expect(r.truncated).toBe(false);
  });

  it('normalises θ into [−π, π) in the cost (Python floored modulo)', () => {
    expect(angleNormalize(4)).toBeCloseTo(4 - 2 * Math.PI, 14);
    expect(angleNormalize(-4)).toBeCloseTo(2 * Math.PI - 4, 14);
    expect(angleNormalize(7)).toBeCloseTo(7 - 2 * Math.PI, 14);
    expect(angleNormalize(Math.PI)).toBeCloseTo(-Math.PI, 14);
    expect(angleNormalize(0.3)).toBeCloseTo(0.3, 14);
    const env = new PendulumEnv();
    env.resetToState([4, 0]);
    expect(env.step([0]).reward).toBeCloseTo(-((4 - 2 * Math.PI) ** 2), 12);
    env.resetToState([-9, 0]); // −9 + 4π = 3.566…, minus 2π → −2.7168…
    expect(env.step([0]).reward).toBeCloseTo(-((-9 + 2 * Math.PI) ** 2), 12);
  });

  it('clips the torque to [−2, 2] (state and cost) and θ̇ to [−8, 8]', () => {
    const a = new PendulumEnv();
    const b = new PendulumEnv();
    for (const [big, bound] of [
      [5, 2],
      [-7.5, -2],
    ]) {
      a.resetToState([0.3, -0.2]);
      b.resetToState([0.3, -0.2]);
      const ra = a.step(new Float32Array([big]));
      const rb = b.step(new Float32Array([bound]));
      expect(ra.reward).toBe(rb.reward);
      expect(a.getState()).toEqual(b.getState());
      expect(a.renderState().torque).toBe(bound);
    }
    // θ̇ = 7.9 at θ = π/2 with u = 2: 7.9 + (15 + 6)·0.05 = 8.95 → 8
    a.resetToState([Math.PI / 2, 7.9]);
    a.step([2]);
    expect(a.getState()[1]).toBe(8);
    expect(a.getState()[0]).toBeCloseTo(Math.PI / 2 + 8 * 0.05, 14);
    a.resetToState([-Math.PI / 2, -7.9]);
    a.step([-2]);
    expect(a.getState()[1]).toBe(-8);
  });

  it('follows the Gymnasium equations for random actions, never terminates, truncates at 200', () => {
    for (const seed of [0, 7, 99]) {
      const env = new PendulumEnv();
      env.reset({ seed });
      let state = env.getState();
      const rng = new Rng(seed + 1);
      let steps = 0;
      for (;;) {
        const u = Math.fround(rng.uniformRange(-3, 3)); // some outside the bounds
        const ref = gymPendulumStep(state, u);
        const r = env.step(new Float32Array([u]));
        steps++;
        expect(r.reward).toBeCloseTo(ref.reward, 10);
        expect(env.getState()[0]).toBeCloseTo(ref.state[0], 10);
        expect(env.getState()[1]).toBeCloseTo(ref.state[1], 10);
        expect(r.terminated).toBe(false);
        state = env.getState();
        if (r.truncated) break;
        expect(steps).toBeLessThan(200);
      }
      expect(steps).toBe(200);
      expect(() => env.step([0])).toThrow(/after the episode ended/);
    }
    expect(new PendulumEnv({ maxEpisodeSteps: 3 }).maxEpisodeSteps).toBe(3);
  });

  it('refuses an action of the wrong length, NaN, infinity, and a step before reset', () => {
    const env = new PendulumEnv();
    expect(() => env.step([0])).toThrow(/before reset/);
    env.reset({ seed: 1 });
    const before = env.getState();
    expect(() => env.step(new Float32Array([1, 2]))).toThrow(/Pendulum-v1: the action must have 1 values, got 2/);
    expect(() => env.step(new Float32Array(0))).toThrow(/must have 1 values, got 0/);
    expect(() => env.step(new Float32Array([NaN]))).toThrow(/action\[0\] is NaN/);
    expect(() => env.step([Infinity])).toThrow(/finite/);
    expect(() => env.step(NaN)).toThrow(/NaN/);
    expect(env.getState()).toEqual(before); // a refused action changes nothing
    expect(env.elapsedSteps).toBe(0);
    // a plain number is a 1-vector
    const twin = new PendulumEnv();
    twin.resetToState(before);
    expect(env.step(0.5).reward).toBe(twin.step(new Float32Array([0.5])).reward);
  });

  it('is registered and runs in a VectorEnv with Float32Array actions', () => {
    const env = makeEnv('Pendulum-v1', { seed: 2 });
    expect(env.id).toBe('Pendulum-v1');
    const n = 3;
    const venv = new VectorEnv('Pendulum-v1', n, { maxEpisodeSteps: 5 });
    expect(venv.actionSpace.kind).toBe('box');
    expect(venv.actionDim).toBe(1);
    expect(venv.numActions).toBe(0);
    venv.reset(9);
    const singles = Array.from({ length: n }, (_, i) => {
      const e = new PendulumEnv({ maxEpisodeSteps: 5 });
      e.reset({ seed: deriveSeed(9, i) });
      return e;
    });
    const rng = new Rng(3);
    let ended = 0;
    for (let t = 0; t < 12; t++) {
      const actions = new Float32Array(n).map(() => rng.uniformRange(-2.5, 2.5));
      const out = venv.step(actions);
      for (let i = 0; i < n; i++) {
        const r = singles[i].step(actions.subarray(i, i + 1));
        expect(out.rewards[i]).toBe(Math.fround(r.reward));
        expect(out.truncated[i]).toBe(r.truncated ? 1 : 0);
        if (r.truncated) {
          ended++;
          expect(Array.from(out.finalObs.subarray(i * 3, i * 3 + 3))).toEqual(Array.from(r.obs));
          singles[i].reset();
        }
        expect(Array.from(out.obs.subarray(i * 3, i * 3 + 3))).toEqual(obsOf(singles[i]));
      }
    }
    expect(ended).toBe(2 * n); // 12 steps with a limit of 5: two episodes each
    expect(() => venv.step(new Float32Array(n + 1))).toThrow(/expected 3 actions/);
  });
});

function obsOf(env: PendulumEnv): number[] {
  const [th, thdot] = env.getState();
  return [Math.fround(Math.cos(th)), Math.fround(Math.sin(th)), Math.fround(thdot)];
}
