import { describe, expect, it } from 'vitest';
import { PROTOTYPE_KEYS, prototypeKeyLinkCases, prototypeKeyLinkTarget, prototypeKeyRunFileCases, prototypeKeyRunFileTarget } from '../../../bench/fuzz';
import { LINK_VERSION } from '../../../src/config/urlState';

describe('fuzz: Object.prototype key names in links and run files', () => {
  it('tries every such key at every level of a link, for every link version', () => {
    const cases = prototypeKeyLinkCases();
    for (let v = 1; v <= LINK_VERSION; v++) {
      for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
        const at = new Set(cases.filter((c) => c.version === v && c.key === key).map((c) => c.at));
        expect([...at].sort()).toEqual(['(root)', 'change', 'hide', 's', 'ui']);
      }
    }
    expect(new Set(cases.map((c) => c.key))).toEqual(new Set(PROTOTYPE_KEYS));
  });

  it('a link loads with the key ignored and named, whatever the key and wherever it stands', async () => {
    const report = await prototypeKeyLinkTarget().run({ numRuns: 1, seed: 0 });
    expect(report.error ?? null, report.counterexample).toBeNull();
    expect(report.runs).toBe(prototypeKeyLinkCases().length);
  });

  it('a run file never throws; a key in its settings is ignored with its reason and the rest loads', async () => {
    const cases = prototypeKeyRunFileCases();
    // The root, the run, its config and settings, each record, the weights: every object in the file.
    expect(new Set(cases.filter((c) => c.key === '__proto__').map((c) => c.at))).toEqual(new Set(['(root)', 'run', 'run.config', 'run.config.settings', 'run.records.0', 'run.records.0.metrics', 'run.records.1', 'run.records.1.metrics', 'run.weights']));
    const report = await prototypeKeyRunFileTarget().run({ numRuns: 1, seed: 0 });
    expect(report.error ?? null, report.counterexample).toBeNull();
    expect(report.runs).toBe(cases.length);
  });
});
