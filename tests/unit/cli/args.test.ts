import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutputPath, outputPathProblem, parseTrainArgs } from '../../../src/cli/args';
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

  it("refuses a --set of another algorithm's setting, which would change nothing, and takes it once --set algorithm makes it apply", () => {
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--set', 'swarm2.teacher=packer'])).toThrow(
      /^swarm2\.teacher: is a setting of Agent swarm .*, not of this run's algorithm \(REINFORCE.*\): it would change nothing/,
    );
    expect(() => parseTrainArgs(['--preset', 'swarm-v2-annealed', '--set', 'ppo.lr=0.001'])).toThrow(/^ppo\.lr: is a setting of /);
    const args = parseTrainArgs(['--preset', 'quickstart', '--set', 'algorithm=ppo', '--set', 'ppo.lr=0.001', '--set', 'seed=3']);
    expect(args.config.settings).toMatchObject({ algorithm: 'ppo', 'ppo.lr': 0.001, seed: 3 });
  });

  // Issue 15, item 4: a repeated flag took the last value; an empty path was ignored.
  it('refuses a repeated flag, an empty output path and a stray word, naming them', () => {
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--seed', '1', '--seed', '2'])).toThrow(/^--seed: is given more than once$/);
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--out', 'a', '--out', 'b'])).toThrow(/^--out: is given more than once$/);
    expect(() => parseTrainArgs(['--quiet', '--preset', 'quickstart', '--quiet'])).toThrow(/^--quiet: is given more than once$/);
    expect(parseTrainArgs(['--preset', 'quickstart', '--set', 'seed=1', '--set', 'actors=2']).config.settings).toMatchObject({ seed: 1, actors: 2 });
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--out', ''])).toThrow(/^--out: needs a file path, got ""$/);
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--checkpoint', ' '])).toThrow(/^--checkpoint: needs a file path, got " "$/);
    expect(() => parseTrainArgs(['--preset', 'quickstart', 'extra'])).toThrow(/^"extra": is not an option/);
  });

  it('checks output paths before training: a missing folder, a directory, a device for a file renamed into place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-args-'));
    expect(outputPathProblem(join(dir, 'new.jsonl'))).toBeNull();
    writeFileSync(join(dir, 'old.jsonl'), 'x');
    expect(outputPathProblem(join(dir, 'old.jsonl'), { regularFile: true })).toBeNull();
    expect(outputPathProblem(join(dir, 'missing', 'x.jsonl'))).toBe(`cannot write to the folder ${join(dir, 'missing')} (it does not exist)`);
    expect(outputPathProblem(dir)).toBe(`${dir} is a directory`);
    expect(outputPathProblem('/dev/null', { regularFile: true })).toBe('/dev/null is not a regular file');
    expect(outputPathProblem('/dev/null')).toBeNull();
    expect(outputPathProblem(join(dir, 'old.jsonl', 'x'))).toMatch(/is not a folder/);
    expect(() => checkOutputPath('--out', '')).toThrow(/^--out: needs a file path/);
  });
});
