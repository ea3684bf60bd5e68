import { describe, expect, it } from 'vitest';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { checkClusterUrl, checkOutputPath, outputPathProblem, parseTrainArgs } from '../../../src/cli/args';
import { resolveExperiment } from '../../../src/config/config';
import { experimentUrl } from '../../../src/config/urlState';
import LZString from 'lz-string';

const { compressToEncodedURIComponent } = LZString;

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
    expect(() => parseTrainArgs(['--preset', 'quickstart', '--set', 'swarm.lr=0.001'])).toThrow(
      /^swarm\.lr: is a setting of Agent swarm .*, not of this run's algorithm \(REINFORCE.*\): it would change nothing/,
    );
    expect(() => parseTrainArgs(['--preset', 'swarm-annealed', '--set', 'ppo.lr=0.001'])).toThrow(/^ppo\.lr: is a setting of /);
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

  it("trains a link whose settings hold a key named like an object's own method, the key reported as ignored", () => {
    const link = `http://localhost:5173/#x=${compressToEncodedURIComponent('{"v":1,"p":"quickstart","s":{"toString":1,"seed":5}}')}`;
    const args = parseTrainArgs(['--url', link]);
    expect(args.config).toEqual(resolveExperiment('quickstart', { seed: 5 }));
    expect(args.ignored.map((p) => p.field)).toEqual(['toString']);
  });

  it('refuses two outputs that are the same file, however the path is spelled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-args-'));
    const f = join(dir, 'run.jsonl');
    const q = ['--preset', 'quickstart'];
    expect(() => parseTrainArgs([...q, '--out', f, '--checkpoint', f])).toThrow(/^--checkpoint: .*run\.jsonl is the same file as --out .*run\.jsonl: one would overwrite the other/);
    const rel = relative(process.cwd(), f);
    expect(() => parseTrainArgs([...q, '--out', rel, '--checkpoint', `./${rel}`])).toThrow(/^--checkpoint: .*is the same file as --out/);
    expect(() => parseTrainArgs([...q, '--out', f, '--save-dataset', join(dir, '.', 'run.jsonl')])).toThrow(/^--save-dataset: .*is the same file as --out/);
    expect(() => parseTrainArgs([...q, '--out', `${f}.partial`, '--checkpoint', f])).toThrow(/^--checkpoint: .*run\.jsonl\.partial is the same file as --out/);
    // An existing file reached through a link is the same file too.
    writeFileSync(f, '');
    symlinkSync(f, join(dir, 'alias.jsonl'));
    expect(() => parseTrainArgs([...q, '--out', join(dir, 'alias.jsonl'), '--checkpoint', f])).toThrow(/^--checkpoint: .*is the same file as --out/);
    expect(parseTrainArgs([...q, '--out', f, '--checkpoint', join(dir, 'policy.parlckpt')]).checkpoint).toBe(join(dir, 'policy.parlckpt'));
  });

  it('refuses a setting given by two flags, instead of letting the later one win silently', () => {
    const q = ['--preset', 'quickstart'];
    expect(() => parseTrainArgs([...q, '--set', 'seed=5', '--seed', '6'])).toThrow(/^--seed: sets seed again \(--set seed=5 already sets it\): give it once$/);
    expect(() => parseTrainArgs([...q, '--seed', '6', '--set', 'seed=5'])).toThrow(/^--set: sets seed again \(--seed 6 already sets it\)/);
    expect(() => parseTrainArgs([...q, '--set', 'actors=3', '--actors', '2'])).toThrow(/^--actors: sets actors again \(--set actors=3 already sets it\)/);
    expect(() => parseTrainArgs([...q, '--set', 'run.envSteps=5000', '--steps', '6000'])).toThrow(/^--steps: sets run\.envSteps again \(--set run\.envSteps=5000 already sets it\)/);
    expect(() => parseTrainArgs([...q, '--set', 'seed=1', '--set', 'seed=2'])).toThrow(/^--set: sets seed again \(--set seed=1 already sets it\)/);
    expect(parseTrainArgs([...q, '--set', 'seed=5', '--actors', '2']).config.settings).toMatchObject({ seed: 5, actors: 2 });
  });

  it('refuses a link that carries no experiment, rather than training the default preset', () => {
    expect(() => parseTrainArgs(['--url', ''])).toThrow(/^--url: is empty/);
    expect(() => parseTrainArgs(['--url', '  '])).toThrow(/^--url: is empty/);
    expect(() => parseTrainArgs(['--url', 'http://localhost:5173/#'])).toThrow(/^--url: "http:\/\/localhost:5173\/#" carries no experiment \(nothing after #\)/);
    expect(() => parseTrainArgs(['--url', 'http://localhost:5173/#x='])).toThrow(/^--url: .*carries no experiment/);
  });

  it('names the --cluster URL and what is wrong with it, before any credentials file is read', () => {
    expect(() => checkClusterUrl(['--preset', 'quickstart', '--cluster', 'http://evil'])).toThrow(/^--cluster: http:\/\/evil is not a NATS server URL \(scheme http\); expected nats:\/\/HOST:PORT or tls:\/\/HOST:PORT$/);
    expect(() => checkClusterUrl(['--cluster', 'ws://localhost:8080', '--creds', 'missing.creds'])).toThrow(/^--cluster: ws:\/\/localhost:8080 is not a NATS server URL/);
    expect(() => checkClusterUrl(['--cluster', 'evil'])).toThrow(/^--cluster: "evil" is not a URL/);
    expect(() => checkClusterUrl(['--cluster', ''])).toThrow(/^--cluster: needs the cluster's URL/);
    expect(() => checkClusterUrl(['--cluster', 'nats://:4222'])).toThrow(/^--cluster: .*(names no host|is not a URL)/);
    expect(() => checkClusterUrl(['--cluster', 'nats://127.0.0.1:4222', '--creds', 'c'])).not.toThrow();
    expect(() => checkClusterUrl(['--cluster', 'tls://cluster.example.org:4222'])).not.toThrow();
    expect(() => checkClusterUrl(['--preset', 'quickstart'])).not.toThrow();
  });
});
