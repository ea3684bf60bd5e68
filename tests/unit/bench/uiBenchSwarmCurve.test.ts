import { describe, expect, it } from 'vitest';
import { runSecondsOf, showsSwarmStory, swarmCurve, swarmStory, swarmStoryWords, WORKING_ALONE_R_PERF } from '../../../bench/ui';
import { SWARM_FIGURES } from '../../../src/config/swarmStoryFigures';
import { presetSettingChanges } from '../../../src/cli/args';
import { resolveExperiment } from '../../../src/config/config';
import { budgetKey } from '../../../src/config/watchable';

const episode = (rPerf: number, criticalSteps: number, serialBaseline: number, maxParallelism: number, finishRate: number, lambda1 = 0, lambda2 = 0) => ({ rPerf, criticalSteps, serialBaseline, maxParallelism, finishRate, lambda1, lambda2 });

describe('ui --mode time-to-target: a swarm run file as a curve', () => {
  it('one point per swarm record: medians over its episodes, the most subagents at once; other records skipped', () => {
    const file = {
      format: 'parl-run',
      version: 1,
      run: { records: [
        { type: 'backend', name: 'wasm' },
        { type: 'swarm', update: 1, trainSteps: 10, episodes: [episode(0.2, 900, 1000, 3, 0.5), episode(0.6, 300, 1000, 40, 1, 0.1, 0), episode(0.4, 500, 1000, 7, 0.75)] },
        { type: 'update', update: 1, wallSeconds: 12.5 },
        { type: 'swarm', update: 2, trainSteps: 20, episodes: [episode(0.95, 200, 1000, 90, 1), episode(0.91, 400, 1000, 100, 0.9)] },
        { type: 'swarm', update: 3, trainSteps: 30, episodes: [] },
      ] },
    };
    const curve = swarmCurve(file);
    expect(curve).toHaveLength(2);
    // Update 1: r_perf {0.2, 0.4, 0.6} → 0.4; critical ÷ serial {0.9, 0.5, 0.3} → 0.5; finish {0.5, 0.75, 1} → 0.75.
    // Its seconds are update 1's record's; update 2 has no update record, so no time.
    // One episode still had λ1 = 0.1: the update has not annealed away.
    expect(curve[0]).toEqual({ update: 1, episodes: 3, rPerf: 0.4, criticalOverSerial: 0.5, maxParallelism: 40, finishRate: 0.75, lambdasZero: false, seconds: 12.5 });
    expect(curve[1].lambdasZero).toBe(true);
    expect(curve[1].seconds).toBeNull();
    // Update 2: two episodes, medians are the means of the pair.
    expect(curve[1].rPerf).toBeCloseTo(0.93, 12);
    expect(curve[1].criticalOverSerial).toBeCloseTo(0.3, 12);
    expect(curve[1].maxParallelism).toBe(100);
  });

  it('a file without records gives an empty curve', () => {
    expect(swarmCurve({})).toEqual([]);
    expect(swarmCurve({ run: {} })).toEqual([]);
    expect(swarmCurve(null)).toEqual([]);
  });

  it("judges the curve by the story: the first update with λ1 = λ2 = 0, r_perf above working alone's and critical ≤ serial/3", () => {
    expect(WORKING_ALONE_R_PERF).toBe(SWARM_FIGURES.storySerialRPerf.value);
    const above = WORKING_ALONE_R_PERF + 0.1;
    const point = (update: number, rPerf: number, criticalOverSerial: number, lambdasZero = true, maxParallelism = 10) =>
      ({ update, episodes: 4, rPerf, criticalOverSerial, maxParallelism, finishRate: 1, lambdasZero, seconds: 10 * update + 0.4 });
    // Still annealing; at working alone's score; too slow; all three at update 4; the best r_perf is update 1's.
    const curve = [point(1, 0.97, 0.2, false), point(2, WORKING_ALONE_R_PERF, 0.2), point(3, above, 0.34), point(4, above, 1 / 3), point(5, above, 0.2, true, 0)];
    expect(curve.map(showsSwarmStory)).toEqual([false, false, false, true, true]);
    const judged = swarmStory(curve);
    expect(judged).toEqual({ firstUpdate: 4, firstSeconds: 40.4, bestRPerf: 0.97, start: curve[0], last: curve[4] });
    const words = swarmStoryWords(judged);
    expect(words).toContain('shown at update 4 (40 s into the run), best r_perf 0.970');
    expect(words).toContain('first update: r_perf 0.970, critical 0.20 × serial, up to 10 subagents at once');
    expect(words).toContain(`last update: r_perf ${above.toFixed(3)}, critical 0.20 × serial, working alone (no subagent in any episode)`);
    expect(swarmStoryWords(swarmStory(curve.map((p) => ({ ...p, seconds: null }))))).toContain('shown at update 4, best r_perf 0.970');
    expect(swarmStory(curve.slice(0, 3)).firstUpdate).toBeNull();
    expect(swarmStoryWords(swarmStory(curve.slice(0, 3)))).toContain('not shown, best r_perf 0.970; first update: r_perf 0.970');
    expect(swarmStoryWords(swarmStory(curve.slice(0, 3)))).toContain('up to 10 subagents at once');
    expect(swarmStory([])).toEqual({ firstUpdate: null, firstSeconds: null, bestRPerf: null, start: null, last: null });
    expect(swarmStoryWords(null)).toContain('unknown');
  });

  it("the run's own seconds are its summary record's", () => {
    const file = (records: unknown[]) => ({ format: 'parl-run', version: 1, run: { records } });
    expect(runSecondsOf(file([{ type: 'swarm', update: 1, episodes: [] }, { type: 'summary', wallSeconds: 87.5, stopReason: 'stopped' }]))).toBe(87.5);
    expect(runSecondsOf(file([{ type: 'swarm', update: 1, episodes: [] }]))).toBeNull();
    expect(runSecondsOf(null)).toBeNull();
  });
});

describe('a bench\'s --set (ui time-to-target, soak): presetSettingChanges', () => {
  it('changes the named settings of the preset, parsed as train --set parses them', () => {
    const changed = presetSettingChanges('swarm-scale', 'swarm.lambda1Schedule=constant, swarm.lr=0.001,swarm.updates=90');
    expect(changed).toEqual({ 'swarm.lambda1Schedule': 'constant', 'swarm.lr': 0.001, 'swarm.updates': 90 });
    const s = resolveExperiment('swarm-scale', { ...changed, seed: 6 }).settings;
    expect([s['swarm.lambda1Schedule'], s['swarm.lr'], s['swarm.updates'], s['swarm.subtasks']]).toEqual(['constant', 0.001, 90, 100]);
    expect(presetSettingChanges('swarm-scale', undefined)).toEqual({});
  });

  it('refuses an unknown setting, an out-of-range value or a part without "=" before any page opens', () => {
    expect(() => presetSettingChanges('swarm-scale', 'swarm.bogus=1')).toThrow(/swarm\.bogus: unknown setting/);
    expect(() => presetSettingChanges('swarm-scale', 'swarm.updates=0')).toThrow(/swarm\.updates: must be an integer in \[1, 5000\], got 0/);
    expect(() => presetSettingChanges('swarm-scale', 'swarm.lr')).toThrow(/--set: expected key=value, got "swarm.lr"/);
    expect(() => presetSettingChanges('quickstart', 'swarm.lr=0.001')).toThrow(/^swarm\.lr: is a setting of Agent swarm /);
  });
});

describe('budgetKey: what a bench raises so that a run outlasts its window', () => {
  it("is a swarm's own orchestrator updates and every other run's env steps, each a setting of that preset", () => {
    const cases: [string, string][] = [['swarm-annealed', 'swarm.updates'], ['swarm-scale', 'swarm.updates'], ['quickstart', 'run.envSteps'], ['sac-pendulum', 'run.envSteps']];
    for (const [preset, key] of cases) {
      const { algorithm } = resolveExperiment(preset).settings;
      expect(budgetKey(algorithm), preset).toBe(key);
      expect(resolveExperiment(preset, { [key]: 4321 }).settings[key as 'run.envSteps'], preset).toBe(4321);
    }
  });
});
