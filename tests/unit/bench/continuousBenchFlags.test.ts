import { describe, expect, it } from 'vitest';
import { mountainCarSpecs, offlineVariants } from '../../../bench/continuous';
import { parseShownSeconds, parseTargetLine, stepsToTargetHeader } from '../../../bench/ui';

describe('solve-mountaincar-continuous flags', () => {
  it('runs SAC and TD3 from their presets at the presets’ 100,000 steps unless told otherwise', () => {
    const specs = mountainCarSpecs({});
    expect(specs.map((s) => [s.algo, s.preset, s.target, s.budget, s.overrides])).toEqual([
      ['sac', 'sac-mountaincar-continuous', 90, 100_000, {}],
      ['td3', 'td3-mountaincar-continuous', 90, 100_000, {}],
    ]);
  });

  it('takes a budget, a subset and the exploration of each', () => {
    const specs = mountainCarSpecs({ budget: '8000', algos: 'td3', 'td3-noise': '0.7', 'sac-alpha': '0.2' });
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({ algo: 'td3', budget: 8000, overrides: { 'td3.explorationNoise': 0.7 } });
    expect(mountainCarSpecs({ algos: 'sac', 'sac-alpha': '0.2' })[0].overrides).toEqual({ 'sac.initAlpha': 0.2 });
    expect(() => mountainCarSpecs({ algos: 'ddpg' })).toThrow(/ddpg is not sac or td3/);
    expect(() => mountainCarSpecs({ budget: '10' })).toThrow(/--budget/);
    expect(mountainCarSpecs({ algos: 'td3', 'td3-process': 'gaussian', 'td3-noise': '0.5' })[0].overrides).toEqual({ 'td3.explorationNoise': 0.5, 'td3.explorationProcess': 'gaussian' });
    expect(() => mountainCarSpecs({ 'td3-process': 'pink' })).toThrow(/pink is not gaussian or ou/);
  });

  it('takes SAC’s gSDE settings over its preset', () => {
    expect(mountainCarSpecs({ algos: 'sac', 'sac-sde': 'off' })[0].overrides).toEqual({ 'sac.useSde': false });
    expect(mountainCarSpecs({ algos: 'sac', 'sac-sde': 'on', 'sac-log-std-init': '-2', 'sac-sde-freq': '8' })[0].overrides).toEqual({ 'sac.useSde': true, 'sac.logStdInit': -2, 'sac.sdeSampleFreq': 8 });
    expect(() => mountainCarSpecs({ 'sac-sde': 'yes' })).toThrow(/yes is not on or off/);
  });
});

describe('offline-pendulum flags', () => {
  it('cuts every variant to the same number of gradient steps, under its own algorithm’s key', () => {
    expect(offlineVariants({}).map((v) => v.overrides)).toEqual([{}, { 'cql.cqlAlpha': 0 }, {}]);
    const cut = offlineVariants({ 'gradient-steps': '3000', variants: 'sac,bc' });
    expect(cut.map((v) => [v.preset, v.overrides])).toEqual([
      ['cql-pendulum', { 'cql.cqlAlpha': 0, 'cql.gradientSteps': 3000 }],
      ['bc-pendulum', { 'bc.gradientSteps': 3000 }],
    ]);
    expect(() => offlineVariants({ variants: 'iql' })).toThrow(/iql is not cql, sac or bc/);
  });
});

describe('ui --mode time-to-target reads the progress panel', () => {
  it('parses the panel’s seconds and its target line', () => {
    expect(parseShownSeconds('8.2 s')).toBeCloseTo(8.2);
    expect(parseShownSeconds('42 s')).toBe(42);
    expect(parseShownSeconds('2 min 5 s')).toBe(125);
    expect(parseShownSeconds('soon')).toBeNaN();
    expect(parseTargetLine('reached the target (-200) after 1 min 4 s, 4,816 steps')).toEqual({ seconds: 64, envSteps: 4816 });
    expect(parseTargetLine('about 3 s left')).toBeNull();
    expect(parseTargetLine('reached the target (-200) after 41 s, 3,000 gradient steps')).toEqual({ seconds: 41, envSteps: 3000 });
  });

  it('counts an offline run in gradient steps, judged on its greedy evaluation episodes', () => {
    expect(stepsToTargetHeader('cql-pendulum')).toMatch(/^gradient steps .*greedy evaluation episodes/);
    expect(stepsToTargetHeader('bc-pendulum')).toMatch(/^gradient steps/);
    expect(stepsToTargetHeader('ddpg-pendulum')).toMatch(/^env steps/);
  });
});
