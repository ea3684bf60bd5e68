import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveExperiment } from '../../../src/config/config';
import { PRESET_NAMES } from '../../../src/config/presets';
import { ALGORITHM_IDS } from '../../../src/config/registry';
import { retiredAlgorithm, retiredPreset } from '../../../src/config/retired';
import { decodeExperiment } from '../../../src/config/urlState';

const link = (payload: unknown) => `http://localhost:5173/#x=${LZString.compressToEncodedURIComponent(JSON.stringify(payload))}`;

describe('the retired first agent swarm', () => {
  it('has no preset or algorithm left (two names are the swarm\'s since link version 4), and each retired name points at one that exists', () => {
    for (const name of ['swarm-annealed', 'swarm-no-shaping', 'swarm-no-anneal', 'swarm-curriculum', 'swarm-taskgraph']) {
      expect(PRESET_NAMES).toContain(retiredPreset(name, 3)!.replacement);
      if (retiredPreset(name) === null) expect(retiredPreset(name, 3)!.replacement).toBe(name);
      else expect(PRESET_NAMES).not.toContain(name);
    }
    expect(['swarm-annealed', 'swarm-no-shaping'].map((name) => retiredPreset(name))).toEqual([null, null]);
    expect(ALGORITHM_IDS as readonly string[]).not.toContain('swarm-ppo');
    expect(ALGORITHM_IDS as readonly string[]).toContain(retiredAlgorithm('swarm-ppo')!.replacement);
    expect(retiredPreset('quickstart', 1)).toBeNull();
    expect(retiredPreset('toString', 1)).toBeNull();
  });

  it('the swarm preset that started from demonstrations is retired: its link opens the annealed preset and says why, the CLI refuses it naming it', () => {
    expect(PRESET_NAMES).not.toContain('swarm-demo-start');
    const d = decodeExperiment(link({ v: 3, p: 'swarm-demo-start', s: { seed: 3, 'swarm.start': 'demonstrations', 'swarm.teacher': 'planner' } }));
    expect(d.config.preset).toBe('swarm-annealed');
    expect(d.config.settings.seed).toBe(3);
    expect(d.ignored.map((i) => i.reason).join('\n')).toMatch(/same initial policy.*"swarm-annealed"/);
    expect(() => resolveExperiment('swarm-demo-start')).toThrow(/retired \(every swarm preset now starts from the same initial policy.*use swarm-annealed/);
  });

  it('an old link to a retired preset opens its replacement, with a notice naming both, and drops its settings', () => {
    const d = decodeExperiment(link({ v: 1, p: 'swarm-no-shaping', s: { 'swarm.items': 16, 'swarm.lambda1': 0, seed: 7 } }));
    expect(d.config.preset).toBe('swarm-no-shaping');
    expect(d.config.settings.seed).toBe(7);
    const reasons = d.ignored.map((i) => `${i.field}: ${i.reason}`).join('\n');
    expect(reasons).toMatch(/preset "swarm-no-shaping" is retired.*"swarm-no-shaping"/);
    expect(reasons).toMatch(/swarm\.items, swarm\.lambda1: settings of the retired first agent swarm/);
  });

  it('the CLI refuses a retired preset with a message naming its replacement', () => {
    expect(() => resolveExperiment('swarm-curriculum')).toThrow(ConfigError);
    expect(() => resolveExperiment('swarm-curriculum')).toThrow(/retired.*use swarm-annealed/);
  });
});
