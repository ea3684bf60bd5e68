import { describe, expect, it } from 'vitest';
import { Rng, deriveSeed } from '../../../src/core/rng';
import { makeEnv } from '../../../src/envs/registry';
import { VectorEnv } from '../../../src/envs/vectorEnv';

function actionsFor(rng: Rng, n: number, k: number): number[] {
  return Array.from({ length: n }, () => rng.int(k));
}

describe('VectorEnv', () => {
  it('exposes sizes and resets copy i with deriveSeed(seed, i)', () => {
    const venv = new VectorEnv('CartPole-v1', 3);
    expect(venv.numEnvs).toBe(3);
    expect(venv.obsDim).toBe(4);
    expect(venv.numActions).toBe(2);
    expect(venv.maxEpisodeSteps).toBe(500);
    const obs = venv.reset(11);
    expect(obs.length).toBe(12);
    for (let i = 0; i < 3; i++) {
      const single = makeEnv('CartPole-v1').reset({ seed: deriveSeed(11, i) }).obs;
      expect(Array.from(obs.subarray(i * 4, i * 4 + 4))).toEqual(Array.from(single));
    }
    const rs = venv.renderState(1);
    expect(Object.keys(rs)).toEqual(['x', 'xDot', 'theta', 'thetaDot']);
    expect(() => venv.renderState(3)).toThrow(/out of range/);
  });

  it('matches independent envs step by step, with same-step autoreset and finalObs', () => {
    const n = 4;
    const seed = 5;
    const venv = new VectorEnv('CartPole-v1', n);
    venv.reset(seed);
    const singles = Array.from({ length: n }, (_, i) => {
      const e = makeEnv('CartPole-v1');
      e.reset({ seed: deriveSeed(seed, i) });
      return e;
    });
    const running = new Array<number>(n).fill(0);
    const rng = new Rng(1);
    let ended = 0;
    for (let t = 0; t < 300; t++) {
      const actions = actionsFor(rng, n, 2);
      const out = venv.step(actions);
      expect(out.obs.length).toBe(n * 4);
      expect(out.finalObs.length).toBe(n * 4);
      const expectedReturns: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = singles[i].step(actions[i]);
        running[i] += r.reward;
        expect(out.rewards[i]).toBe(r.reward);
        expect(out.terminated[i]).toBe(Number(r.terminated));
        expect(out.truncated[i]).toBe(Number(r.truncated));
        const slice = (a: Float32Array) => Array.from(a.subarray(i * 4, i * 4 + 4));
        if (r.terminated || r.truncated) {
          ended++;
          expect(slice(out.finalObs)).toEqual(Array.from(r.obs));
          // the copy continues its own stream: same as reset() without a seed
          const again = singles[i].reset().obs;
          expect(slice(out.obs)).toEqual(Array.from(again));
          expectedReturns.push(running[i]);
          running[i] = 0;
        } else {
          expect(slice(out.obs)).toEqual(Array.from(r.obs));
          expect(slice(out.finalObs)).toEqual([0, 0, 0, 0]);
        }
      }
      expect(out.episodeReturns).toEqual(expectedReturns);
      // CartPole pays 1 per step, so the return equals the length
      expect(out.episodeLengths).toEqual(expectedReturns);
    }
    expect(ended).toBeGreaterThan(10);
  });

  it('reports truncated episodes with their returns and lengths', () => {
    const venv = new VectorEnv('MountainCar-v0', 2, { maxEpisodeSteps: 5 });
    venv.reset(0);
    for (let t = 1; t <= 5; t++) {
      const out = venv.step([1, 1]);
      if (t < 5) {
        expect(out.episodeReturns).toEqual([]);
        expect(Array.from(out.truncated)).toEqual([0, 0]);
      } else {
        expect(Array.from(out.truncated)).toEqual([1, 1]);
        expect(Array.from(out.terminated)).toEqual([0, 0]);
        expect(out.episodeReturns).toEqual([-5, -5]);
        expect(out.episodeLengths).toEqual([5, 5]);
        expect(out.finalObs[0]).not.toBe(0);
        // after the reset, velocity is 0 again
        expect(out.obs[1]).toBe(0);
        expect(out.obs[3]).toBe(0);
      }
    }
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const run = (seed: number) => {
      const venv = new VectorEnv('Acrobot-v1', 3, { maxEpisodeSteps: 10 });
      const rng = new Rng(2);
      const trace: number[] = [...venv.reset(seed)];
      for (let t = 0; t < 25; t++) {
        const out = venv.step(actionsFor(rng, 3, 3));
        trace.push(...out.obs, ...out.rewards, ...out.truncated, ...out.finalObs, ...out.episodeReturns);
      }
      return trace;
    };
    expect(run(3)).toEqual(run(3));
    expect(run(3)).not.toEqual(run(4));
  });

  it('allocates fresh output arrays per step and validates its input', () => {
    const venv = new VectorEnv('CartPole-v1', 2);
    expect(() => venv.step([0, 0])).toThrow(/before reset/);
    venv.reset(0);
    const a = venv.step([0, 1]);
    const b = venv.step([0, 1]);
    expect(a.obs).not.toBe(b.obs);
    expect(a.rewards).not.toBe(b.rewards);
    expect(() => venv.step([0])).toThrow(/expected 2 actions/);
    expect(() => venv.step([0, 5])).toThrow(/invalid action/);
    expect(() => new VectorEnv('CartPole-v1', 0)).toThrow(/positive integer/);
    expect(() => new VectorEnv('Nope-v0', 2)).toThrow(/Unknown env id/);
  });
});
