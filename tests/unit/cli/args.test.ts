import { describe, expect, it } from 'vitest';
import { parseTrainArgs } from '../../../src/cli/args';
import { resolveExperiment } from '../../../src/config/config';
import { experimentUrl } from '../../../src/config/urlState';

describe('train CLI arguments', () => {
  it('maps the flags onto the config', () => {
    const args = parseTrainArgs(['--preset', 'quickstart', '--seed', '4', '--steps', '5000', '--actors', '3', '--set', 'reinforce.lr=0.003', '--out', 'x.jsonl']);
    expect(args.config.settings).toMatchObject({ seed: 4, 'run.envSteps': 5000, actors: 3, 'reinforce.lr': 0.003 });
    expect(args.out).toBe('x.jsonl');
  });

  it('reproduces a shared link, with flags on top', () => {
    const shared = resolveExperiment('quickstart', { seed: 42, envsPerActor: 8 });
    const args = parseTrainArgs(['--url', experimentUrl('http://localhost:5173/', shared), '--steps', '2000']);
    expect(args.config).toEqual(resolveExperiment('quickstart', { seed: 42, envsPerActor: 8, 'run.envSteps': 2000 }));
  });

  it('names the bad field', () => {
    expect(() => parseTrainArgs(['--preset', 'nope'])).toThrow(/^preset: unknown preset/);
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--set', 'foo.bar=1'])).toThrow(/^foo\.bar: unknown setting/);
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--actors', '99'])).toThrow(/^actors: must be an integer in \[1, 16\]/);
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--set', 'reinforce.lr'])).toThrow(/^--set: expected key=value/);
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--bogus', '1'])).toThrow(/^--bogus: unknown option/);
    expect(() => parseTrainArgs([])).toThrow(/^--preset: is required/);
    expect(() => parseTrainArgs(['--url', 'garbage!!'])).toThrow(/^--url:/);
  });
});
