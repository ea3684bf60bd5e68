import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offlineVariants } from '../../../bench/continuous';
import { resolveExperiment } from '../../../src/config/config';
import { spawnScriptSync } from './commandRuns';


describe('npm run dataset -- --mix', () => {
  it('refuses a mix it does not know, with exit 2, before training', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parl-dataset-')), 'd.json');
    const r = spawnScriptSync('src/cli/dataset.ts', ['--preset', 'sac-pendulum', '--out', file, '--mix', 'expert'], 60_000);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe('error: --mix must be one of mixed, medium, not "expert"');
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});

describe('offline-pendulum --dataset', () => {
  it('points every variant at the named dataset, keeping the other overrides', () => {
    const vs = offlineVariants({ dataset: 'pendulum-medium', 'gradient-steps': '3000' });
    expect(vs.map((v) => [v.preset, v.overrides])).toEqual([
      ['cql-pendulum', { 'cql.gradientSteps': 3000, 'cql.dataset': 'pendulum-medium' }],
      ['cql-pendulum', { 'cql.cqlAlpha': 0, 'cql.gradientSteps': 3000, 'cql.dataset': 'pendulum-medium' }],
      ['bc-pendulum', { 'bc.gradientSteps': 3000, 'bc.dataset': 'pendulum-medium' }],
    ]);
    const [cql, sac, bc] = vs.map((v) => resolveExperiment(v.preset, v.overrides).settings);
    expect([cql['cql.dataset'], sac['cql.dataset'], bc['bc.dataset']]).toEqual(['pendulum-medium', 'pendulum-medium', 'pendulum-medium']);
  });

  it('leaves the presets’ dataset alone without the flag and refuses one it does not ship', () => {
    expect(offlineVariants({}).every((v) => !Object.keys(v.overrides).some((k) => k.endsWith('.dataset')))).toBe(true);
    expect(resolveExperiment('cql-pendulum').settings['cql.dataset']).toBe('pendulum-mixed');
    expect(() => offlineVariants({ dataset: 'pendulum-expert' })).toThrow(/--dataset: pendulum-expert is not one of pendulum-mixed, pendulum-medium/);
  });
});

describe('the cql-pendulum-medium preset', () => {
  it('is cql-pendulum on the medium dataset, nothing else changed', () => {
    const medium = resolveExperiment('cql-pendulum-medium').settings;
    const mixed = resolveExperiment('cql-pendulum').settings;
    expect(medium['cql.dataset']).toBe('pendulum-medium');
    expect({ ...medium, 'cql.dataset': mixed['cql.dataset'] }).toEqual(mixed);
  });
});

describe('the bc-pendulum-medium preset', () => {
  it('is bc-pendulum on the medium dataset, nothing else changed', () => {
    const medium = resolveExperiment('bc-pendulum-medium').settings;
    const mixed = resolveExperiment('bc-pendulum').settings;
    expect(medium['bc.dataset']).toBe('pendulum-medium');
    expect(mixed['bc.dataset']).toBe('pendulum-mixed');
    expect({ ...medium, 'bc.dataset': mixed['bc.dataset'] }).toEqual(mixed);
  });
});
