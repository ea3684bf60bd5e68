import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { parseTrainArgs } from '../../../src/cli/args';
import { budgetDone, budgetOf, budgetValue } from '../../../src/config/budget';
import { resolveExperiment } from '../../../src/config/config';
import { migrateConfig } from '../../../src/config/migrations';
import { PRESET_NAMES } from '../../../src/config/presets';
import { descriptorOf } from '../../../src/config/registry';
import { SETTINGS } from '../../../src/config/settings';
import { decodeExperiment, encodeExperiment } from '../../../src/config/urlState';

const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));

describe('one budget per run', () => {
  it('is env steps for classic and multi-agent runs, orchestrator updates for swarms, gradient steps for offline runs', () => {
    expect(budgetOf('qmix').key).toBe('run.envSteps');
    expect(budgetOf('maddpg').key).toBe('run.envSteps');
    expect(budgetOf('ppo').key).toBe('run.envSteps');
    expect(budgetOf('cql')).toEqual({ key: 'cql.gradientSteps', unit: 'gradientSteps', label: 'gradient steps' });
    expect(budgetOf('bc').key).toBe('bc.gradientSteps');
    expect(budgetOf('swarm')).toEqual({ key: 'swarm.updates', unit: 'updates', label: 'updates' });
  });

  it('of every preset is a whole-number setting its algorithm shows (the multi-agent presets keep their 500,000 steps)', () => {
    for (const name of PRESET_NAMES) {
      const { settings } = resolveExperiment(name);
      const { key } = budgetOf(settings.algorithm);
      expect(Number.isInteger(budgetValue(settings)), name).toBe(true);
      const applies = (SETTINGS as Record<string, { appliesTo?: readonly string[] }>)[key].appliesTo;
      expect(applies === undefined || applies.includes(settings.algorithm), `${name}: ${key}`).toBe(true);
    }
    expect(budgetValue(resolveExperiment('qmix-spread').settings)).toBe(500_000);
    expect(budgetValue(resolveExperiment('maddpg-spread').settings)).toBe(500_000);
    expect(budgetValue(resolveExperiment('cql-pendulum').settings)).toBe(5_000);
  });

  it('is not shown as an env-step budget on runs that count something else', () => {
    const applies = SETTINGS['run.envSteps'].appliesTo ?? [];
    expect(applies).toContain('qmix');
    expect(applies).not.toContain('cql');
    expect(applies).not.toContain('swarm');
    expect('marl.envSteps' in SETTINGS).toBe(false);
  });

  it('counts each unit from an update record', () => {
    const r = { update: 7, envSteps: 1_200, metrics: { gradientSteps: 3_000 } };
    expect(budgetDone('envSteps', r)).toBe(1_200);
    expect(budgetDone('updates', r)).toBe(7);
    expect(budgetDone('gradientSteps', r)).toBe(3_000);
    expect(budgetDone('gradientSteps', { ...r, metrics: {} })).toBe(0);
  });
});

describe('train --steps sets the budget the loop and the bar use', () => {
  it('env steps for a multi-agent preset, gradient steps offline, updates for a swarm', () => {
    expect(parseTrainArgs(['--preset', 'qmix-spread', '--steps', '3000']).config.settings['run.envSteps']).toBe(3_000);
    const offline = parseTrainArgs(['--preset', 'cql-pendulum', '--steps', '700']).config.settings;
    expect(offline['cql.gradientSteps']).toBe(700);
    expect(budgetValue(offline)).toBe(700);
    expect(parseTrainArgs(['--preset', 'swarm-annealed', '--steps', '12']).config.settings['swarm.updates']).toBe(12);
  });

  it('follows an algorithm changed by --set, and refuses the same budget given twice', () => {
    expect(parseTrainArgs(['--preset', 'sac-pendulum', '--set', 'algorithm=bc', '--steps', '400']).config.settings['bc.gradientSteps']).toBe(400);
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--steps', '3000', '--set', 'run.envSteps=5000'])).toThrow(/--steps: sets run\.envSteps again \(--set run\.envSteps=5000 already sets it\)/);
    expect(() => parseTrainArgs(['--preset', 'cql-pendulum', '--steps', '5'])).toThrow(/cql\.gradientSteps: must be an integer/);
  });
});

describe('links and saved runs made when multi-agent runs had their own budget setting', () => {
  it('a version-2 link of a multi-agent preset keeps its budget under the one budget setting', () => {
    const decoded = decodeExperiment(token({ v: 2, p: 'qmix-spread', s: { 'marl.envSteps': 3_000, seed: 4 }, ui: { h: ['marl.envSteps'] } }));
    expect(decoded.ignored).toEqual([]);
    expect(decoded.config.settings['run.envSteps']).toBe(3_000);
    expect(decoded.config.settings.seed).toBe(4);
    expect(decoded.ui.hide).toEqual(['run.envSteps']);
    // And it re-encodes without the old key.
    const again = LZString.decompressFromEncodedURIComponent(encodeExperiment(decoded.config));
    expect(again).not.toContain('marl.envSteps');
    expect(decodeExperiment(encodeExperiment(decoded.config)).config).toEqual(decoded.config);
  });

  it('a version-2 link of another family drops the old key, which never applied to it', () => {
    const decoded = decodeExperiment(token({ v: 2, p: 'quickstart', s: { 'marl.envSteps': 3_000 } }));
    expect(decoded.ignored).toEqual([]);
    expect(decoded.config.settings['run.envSteps']).toBe(resolveExperiment('quickstart').settings['run.envSteps']);
  });

  it('a version-3 link never carries the old key: it is refused with a reason', () => {
    const decoded = decodeExperiment(token({ v: 3, p: 'qmix-spread', s: { 'marl.envSteps': 3_000 } }));
    expect(decoded.ignored.map((p) => p.field)).toEqual(['marl.envSteps']);
    expect(decoded.config.settings['run.envSteps']).toBe(500_000);
  });

  it('a saved multi-agent config keeps the budget its loop used, over the env-step budget it ignored', () => {
    const saved = { preset: 'qmix-spread', settings: { ...resolveExperiment('qmix-spread').settings, 'run.envSteps': 200_000, 'marl.envSteps': 500_000 } };
    const revived = migrateConfig(saved) as { settings: Record<string, unknown> };
    expect(revived.settings['run.envSteps']).toBe(500_000);
    expect('marl.envSteps' in revived.settings).toBe(false);
    const classic = { preset: 'quickstart', settings: { ...resolveExperiment('quickstart').settings, 'run.envSteps': 30_000, 'marl.envSteps': 200_000 } };
    expect((migrateConfig(classic) as { settings: Record<string, unknown> }).settings['run.envSteps']).toBe(30_000);
    expect(descriptorOf('qmix').family).toBe('marl');
  });
});
