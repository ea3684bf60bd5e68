import { describe, expect, it } from 'vitest';
import { marlBenchOptions } from '../../../src/cli/benchmarks/marl';

describe('marl benchmark flags', () => {
  it('defaults: 10,000 steps per run on both tasks, every algorithm, 3 simple_tag seeds', () => {
    expect(marlBenchOptions({})).toEqual({ spreadSteps: 10_000, tagSteps: 10_000, algos: ['maddpg', 'qmix', 'vdn', 'iql'], tagSeeds: 3 });
  });

  it('takes budgets and a subset of algorithms; --tag-steps 0 skips simple_tag', () => {
    expect(marlBenchOptions({ 'spread-steps': '2000', 'tag-steps': '0', algos: 'qmix,iql', 'tag-seeds': '1' })).toEqual({ spreadSteps: 2000, tagSteps: 0, algos: ['qmix', 'iql'], tagSeeds: 1 });
  });

  it('refuses an unknown algorithm or a budget that is not a whole number', () => {
    expect(() => marlBenchOptions({ algos: 'qmix,coma' })).toThrow(/unknown coma/);
    expect(() => marlBenchOptions({ 'spread-steps': '1e3.5' })).toThrow(/--spread-steps/);
    expect(() => marlBenchOptions({ 'spread-steps': '50' })).toThrow(/≥ 100/);
  });
});
