import { describe, expect, it } from 'vitest';
import { envSpec, listEnvs, makeEnv, registerEnv } from '../../../src/envs/registry';
import type { BoxSpace, DiscreteSpace, EnvOptions, ResetResult, StepResult, TimeLimitedEnv } from '../../../src/envs/types';
import { VectorEnv } from '../../../src/envs/vectorEnv';
import * as envs from '../../../src/envs';

/** A minimal env implementing only the plain `Env` API: counts up, ends after `maxEpisodeSteps`. */
class CounterEnv implements TimeLimitedEnv {
  readonly id = 'Counter-v0';
  readonly observationSpace: BoxSpace = { kind: 'box', shape: [1], low: new Float32Array([0]), high: new Float32Array([100]) };
  readonly actionSpace: DiscreteSpace = { kind: 'discrete', n: 2 };
  readonly maxEpisodeSteps: number;
  private t = 0;
  private start = 0;
  constructor(options: EnvOptions) {
    this.maxEpisodeSteps = options.maxEpisodeSteps ?? 3;
  }
  reset(options: { seed?: number } = {}): ResetResult {
    if (options.seed !== undefined) this.start = options.seed % 10;
    this.t = this.start;
    return { obs: new Float32Array([this.t]), info: {} };
  }
  step(action: number): StepResult {
    this.t += 1;
    const truncated = this.t - this.start >= this.maxEpisodeSteps;
    return { obs: new Float32Array([this.t]), reward: action, terminated: false, truncated, info: {} };
  }
  renderState(): Record<string, number> {
    return { t: this.t };
  }
}

describe('env registry', () => {
  it('lists and makes the classic-control envs', () => {
    expect(listEnvs()).toEqual(expect.arrayContaining(['CartPole-v1', 'Acrobot-v1', 'MountainCar-v0']));
    for (const id of ['CartPole-v1', 'Acrobot-v1', 'MountainCar-v0']) {
      const env = makeEnv(id, { seed: 1, maxEpisodeSteps: 9 });
      expect(env.id).toBe(id);
      expect(env.maxEpisodeSteps).toBe(9);
    }
  });

  it('gives specs with Gymnasium reward thresholds', () => {
    expect(envSpec('CartPole-v1')).toEqual({ id: 'CartPole-v1', obsDim: 4, numActions: 2, maxEpisodeSteps: 500, rewardThreshold: 475 });
    expect(envSpec('Acrobot-v1')).toEqual({ id: 'Acrobot-v1', obsDim: 6, numActions: 3, maxEpisodeSteps: 500, rewardThreshold: -100 });
    expect(envSpec('MountainCar-v0')).toEqual({ id: 'MountainCar-v0', obsDim: 2, numActions: 3, maxEpisodeSteps: 200, rewardThreshold: -110 });
  });

  it('throws on an unknown id, listing the known ones', () => {
    expect(() => makeEnv('CartPole-v0')).toThrow(/Unknown env id "CartPole-v0".*CartPole-v1.*Acrobot-v1.*MountainCar-v0/);
    expect(() => envSpec('nope')).toThrow(/Known ids/);
  });

  it('registers custom envs, which VectorEnv can run through the plain Env API', () => {
    registerEnv('Counter-v0', (o) => new CounterEnv(o));
    expect(listEnvs()).toContain('Counter-v0');
    expect(envSpec('Counter-v0')).toEqual({ id: 'Counter-v0', obsDim: 1, numActions: 2, maxEpisodeSteps: 3, rewardThreshold: null });
    const venv = new VectorEnv('Counter-v0', 2);
    venv.reset(0);
    venv.step([1, 0]);
    venv.step([1, 0]);
    const out = venv.step([1, 1]);
    expect(Array.from(out.truncated)).toEqual([1, 1]);
    expect(out.episodeReturns).toEqual([3, 1]);
    expect(out.episodeLengths).toEqual([3, 3]);
    expect(venv.renderState(0)).toEqual({ t: out.obs[0] });
  });

  it('re-exports the public names from the index', () => {
    for (const name of ['makeEnv', 'registerEnv', 'listEnvs', 'envSpec', 'VectorEnv', 'CartPoleEnv', 'AcrobotEnv', 'MountainCarEnv']) {
      expect(envs).toHaveProperty(name);
    }
  });
});
