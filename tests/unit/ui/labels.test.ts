/** What the page says in words: setting problems, shown defaults, run differences, hidden parts, λ notes. */
import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { SETTINGS, SETTING_KEYS, type Setting } from '../../../src/config/settings';
import { settingProblem, shownDefault } from '../../../src/ui/components/settingText';
import { describeDifference } from '../../../src/ui/components/configDiff';
import { hideLabel } from '../../../src/ui/components/SharePanel';
import { lambdaNote } from '../../../src/ui/components/charts/SwarmCharts';
import { metricLabel } from '../../../src/ui/components/charts/LossCharts';
import { runBudget, targetReached } from '../../../src/ui/components/ProgressPanel';
import { PRESET_NAMES } from '../../../src/config/presets';

const lr = SETTINGS['ppo.lr'] as Setting;

describe('settingProblem', () => {
  it('names the label, never the key, and says what is wrong', () => {
    const text = settingProblem(lr, '5');
    expect(text).toContain('Learning rate must be from 0.00001 to 0.05; 5 is out of range');
    expect(text).not.toContain('ppo.lr');
    expect(settingProblem(lr, 'abc')).toBe('Learning rate needs a number; “abc” is not one.');
    expect(settingProblem(SETTINGS.actors as Setting, '2.5')).toContain('needs a whole number');
    expect(settingProblem(lr, '0.001')).toBeNull();
  });
});

describe('shownDefault', () => {
  it('shows the preset value as the default, and the table default beside it when they differ', () => {
    const budget = SETTINGS['run.envSteps'] as Setting;
    // QuickStart sets the budget to 300,000; the settings table says 200,000.
    const quick = resolveExperiment('quickstart').settings['run.envSteps'];
    expect(quick).not.toBe(budget.default);
    expect(shownDefault(budget, quick)).toBe(`Range 100 to 5,000,000. Default for this preset ${quick.toLocaleString('en-US')} (200,000 elsewhere).`);
    expect(shownDefault(budget, budget.default)).toBe('Range 100 to 5,000,000. Default 200,000.');
    // Actors: the page starts with one per spare core, and says so.
    expect(shownDefault(SETTINGS.actors as Setting, 1, 'one per spare core, at most 4')).toBe('Range 1 to 16. Default in this browser 1 (one per spare core, at most 4; 2 elsewhere).');
  });

  it('agrees with what every preset shows in its fields', () => {
    for (const preset of ['quickstart', 'ppo-cartpole', 'swarm-annealed']) {
      const settings = resolveExperiment(preset).settings;
      for (const key of SETTING_KEYS) {
        const s = SETTINGS[key] as Setting;
        const v = settings[key];
        const text = shownDefault(s, v);
        const shown = typeof v === 'boolean' ? (v ? 'on' : 'off') : typeof v === 'number' && Math.abs(v) >= 1000 ? v.toLocaleString('en-US') : String(v);
        expect(text, `${preset} ${key}`).toContain(`${shown}`);
      }
    }
  });
});

describe('describeDifference', () => {
  it('names what differs, by label, with the other run’s values', () => {
    const now = resolveExperiment('ppo-cartpole');
    const other = resolveExperiment('ppo-cartpole', { seed: 3, 'ppo.lr': 0.003 });
    expect(describeDifference(other, now)).toBe('seed 3, Learning rate 0.003');
    expect(describeDifference(now, now)).toBe('same settings as now');
    expect(describeDifference(resolveExperiment('quickstart'), now)).toMatch(/^QuickStart/);
  });
});

describe('labels for keys', () => {
  it('spells out hidden parts and metric keys in words', () => {
    expect(hideLabel('charts.losses')).toBe('loss charts');
    expect(hideLabel('config')).toBe('settings');
    expect(hideLabel('charts.somethingNew')).toBe('something new chart');
    expect(metricLabel('explainedVariance')).toBe('value fit (explained variance)');
    expect(metricLabel('meanRho')).toBe('importance weight ρ, mean');
    expect(metricLabel('orchValueLoss')).toBe('orch value loss');
  });
});

describe('lambdaNote', () => {
  it('tells λ = 0 and λ1 = λ2 apart', () => {
    expect(lambdaNote([{ trainSteps: 1, lambda1: 0, lambda2: 0 }])).toEqual({ allZero: true, same: true });
    expect(lambdaNote([{ trainSteps: 1, lambda1: 0.5, lambda2: 0.5 }, { trainSteps: 2, lambda1: 0.25, lambda2: 0.25 }])).toEqual({ allZero: false, same: true });
    expect(lambdaNote([{ trainSteps: 1, lambda1: 0.5, lambda2: 0 }])).toEqual({ allZero: false, same: false });
    expect(lambdaNote([])).toEqual({ allZero: false, same: false });
  });
});

describe('targetReached', () => {
  const up = (update: number, mean: number | null, episodes = 20 * update) => ({ update, envSteps: update * 100, episodes, wallSeconds: update / 2, meanReturn20: mean, stepsPerSecond: 0, metrics: {} });
  it('is the first update whose 20-episode mean reaches the target, or the summary’s figure', () => {
    const points = [up(1, 20), up(2, 480), up(3, 500)];
    expect(targetReached({ summary: null, updatePoints: points }, 475)).toEqual({ wallSeconds: 1, envSteps: 200 });
    expect(targetReached({ summary: null, updatePoints: points.slice(0, 1) }, 475)).toBeNull();
  });

  it('waits for 20 episodes, as the learner does: an offline run’s first evaluations average only 5 each', () => {
    // cql-pendulum: 5 greedy evaluation episodes per update; the first two already average above −200.
    const offline = [up(1, -150, 5), up(2, -180, 10), up(3, -260, 15), up(4, -190, 20), up(5, -170, 25)];
    expect(targetReached({ summary: null, updatePoints: offline }, -200)).toEqual({ wallSeconds: 2, envSteps: 400 });
    expect(targetReached({ summary: null, updatePoints: offline.slice(0, 3) }, -200)).toBeNull();
  });
});

describe('the progress bar counts to the run’s own budget', () => {
  it('a swarm preset’s orchestrator updates (swarm-scale: 60), else env steps', () => {
    expect(runBudget(resolveExperiment('swarm-scale').settings)).toBe(60);
    expect(runBudget(resolveExperiment('swarm-annealed', { 'swarm.updates': 77 }).settings)).toBe(77);
    expect(runBudget(resolveExperiment('quickstart', { 'run.envSteps': 4321 }).settings)).toBe(4321);
    for (const name of PRESET_NAMES) expect(Number.isInteger(runBudget(resolveExperiment(name).settings)), name).toBe(true);
  });
});
