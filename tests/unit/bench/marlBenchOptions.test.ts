import { describe, expect, it } from 'vitest';
import { marlBenchOptions } from '../../../bench/marl';

const EVAL = { evalEvery: 1_000, evalEpisodes: 32, tagEvalEpisodes: 100 };

describe('marl benchmark flags', () => {
  it('defaults: 10,000 steps per run on both tasks, every algorithm, 3 simple_tag seeds, a greedy evaluation every 1,000 steps', () => {
    expect(marlBenchOptions({})).toEqual({ spreadSteps: 10_000, tagSteps: 10_000, algos: ['mappo', 'maddpg', 'qmix', 'vdn', 'iql'], tagSeeds: 3, ...EVAL });
  });

  it('takes budgets, a subset of algorithms and the evaluation; 0 steps skips a task', () => {
    expect(marlBenchOptions({ 'spread-steps': '2000', 'tag-steps': '0', algos: 'qmix,iql', 'tag-seeds': '1' })).toEqual({ spreadSteps: 2000, tagSteps: 0, algos: ['qmix', 'iql'], tagSeeds: 1, ...EVAL });
    expect(marlBenchOptions({ 'spread-steps': '0', 'eval-every': '500', 'eval-episodes': '8', 'tag-eval-episodes': '200' })).toMatchObject({ spreadSteps: 0, evalEvery: 500, evalEpisodes: 8, tagEvalEpisodes: 200 });
  });

  it('refuses an unknown algorithm or a budget that is not a whole number', () => {
    expect(() => marlBenchOptions({ algos: 'qmix,coma' })).toThrow(/unknown coma/);
    expect(() => marlBenchOptions({ 'spread-steps': '1e3.5' })).toThrow(/--spread-steps/);
    expect(() => marlBenchOptions({ 'spread-steps': '50' })).toThrow(/≥ 100/);
    expect(() => marlBenchOptions({ 'eval-episodes': '0' })).toThrow(/--eval-episodes/);
  });
});
