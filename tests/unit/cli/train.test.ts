import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trainCommand } from '../../../src/cli/trainCommand';
import { loadCheckpointFile } from '../../../src/core/checkpoint';
import { inProcess, spawnScriptSync } from './commandRuns';

// The refusals run the command's own function in this process (each would otherwise cost a process
// start and the TypeScript load); the binary itself is spawned where its exit code and output are the point.
const train = (...args: string[]) => inProcess(() => trainCommand(args));
const trainBinary = (...args: string[]) => spawnScriptSync('src/cli/train.ts', args);

describe('npm run train', () => {
  it('exits 2 with one line naming the field for bad input', async () => {
    const cases: [string[], RegExp][] = [
      [['--preset', 'nope'], /^error: preset: unknown preset "nope"/],
      [['--preset', 'swarm-v2-annealed'], /^error: preset: preset "swarm-v2-annealed" was renamed: use swarm-annealed$/],
      [['--preset', 'quickstart', '--set', 'reinforce.bogus=1'], /^error: reinforce\.bogus: unknown setting/],
      [['--preset', 'quickstart', '--set', 'reinforce.lr=5'], /^error: reinforce\.lr: must be a number in \[0\.00001, 0\.1\], got 5/],
      [['--preset', 'quickstart', '--actors', '0'], /^error: actors: must be an integer in \[1, 16\], got 0/],
      [['--preset', 'quickstart', '--checkpoint', '/no/such/folder/policy.parlckpt'], /^error: --checkpoint: cannot write to the folder \/no\/such\/folder/],
    ];
    for (const [args, message] of cases) {
      const r = await train(...args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(message);
      expect(r.stdout).toBe('');
    }
    // The binary exits with that code and prints only that line.
    const binary = trainBinary('--preset', 'nope');
    expect(binary.code, binary.stderr).toBe(2);
    expect(binary.stderr.trim().split('\n')).toHaveLength(1);
    expect(binary.stderr).toMatch(cases[0][1]);
    expect(binary.stdout).toBe('');
  });

  it('writes one JSON line per update and a summary, to stdout and --out, and the final weights to --checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-train-'));
    const out = join(dir, 'run.jsonl');
    const weights = join(dir, 'policy.parlckpt');
    const r = trainBinary('--preset', 'quickstart', '--steps', '3000', '--seed', '9', '--out', out, '--checkpoint', weights, '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; envSteps: number; seed?: number });
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(0, -1).every((l) => l.type === 'update')).toBe(true);
    const summary = lines[lines.length - 1];
    expect(summary).toMatchObject({ type: 'summary', preset: 'quickstart', seed: 9, stopReason: 'budget' });
    expect(summary.envSteps).toBeGreaterThanOrEqual(3000);
    expect(readFileSync(out, 'utf8')).toBe(r.stdout);
    const ckpt = await loadCheckpointFile(weights);
    expect(ckpt.meta).toMatchObject({ preset: 'quickstart', algorithm: 'reinforce', seed: 9, envSteps: summary.envSteps });
    expect(ckpt.shapes).toEqual([[4, 64], [64], [64, 2], [2]]);
    expect(existsSync(`${weights}.partial`)).toBe(false);
  });

  // Issue 15, item 4: output paths were checked only after (or never before) training.
  it('refuses an output path it cannot write before training, with exit 2 and one line naming the flag', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-train-'));
    mkdirSync(join(dir, 'taken'));
    const cases: [string[], RegExp][] = [
      [['--checkpoint', join(dir, 'taken')], /^error: --checkpoint: .*taken is a directory$/],
      [['--checkpoint', '/dev/null'], /^error: --checkpoint: \/dev\/null is not a regular file$/],
      [['--out', join(dir, 'missing', 'run.jsonl')], /^error: --out: cannot write to the folder .*missing \(it does not exist\)$/],
      [['--out', dir], /^error: --out: .* is a directory$/],
      [['--out', ''], /^error: --out: needs a file path, got ""$/],
      [['--seed', '1', '--seed', '2'], /^error: --seed: is given more than once$/],
    ];
    for (const [args, message] of cases) {
      const r = await train('--preset', 'quickstart', '--steps', '1000', '--quiet', ...args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(join(dir, 'taken.partial'))).toBe(false);
  });

  it('refuses conflicting flags before training, with exit 2 and one line: the same file twice, a setting twice, an empty link, a cluster URL that is not one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-train-'));
    const kept = join(dir, 'kept.jsonl');
    writeFileSync(kept, 'the run before\n');
    const cases: [string[], RegExp][] = [
      [['--preset', 'quickstart', '--out', kept, '--checkpoint', kept], /^error: --checkpoint: .*kept\.jsonl is the same file as --out .*kept\.jsonl: one would overwrite the other/],
      [['--preset', 'quickstart', '--set', 'seed=5', '--seed', '6'], /^error: --seed: sets seed again \(--set seed=5 already sets it\)/],
      [['--preset', 'quickstart', '--set', 'actors=3', '--actors', '2'], /^error: --actors: sets actors again/],
      [['--url', ''], /^error: --url: is empty/],
      [['--url', 'http://localhost:5173/#'], /^error: --url: .* carries no experiment/],
      [['--preset', 'quickstart', '--cluster', 'http://evil'], /^error: --cluster: http:\/\/evil is not a NATS server URL/],
    ];
    for (const [args, message] of cases) {
      const r = await train(...args, '--steps', '1000', '--quiet');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(kept, 'utf8')).toBe('the run before\n');
  });

  it('stops with one line and exit 1 when --out fails mid-run (a full disk)', async () => {
    const r = await train('--preset', 'quickstart', '--steps', '3000', '--out', '/dev/full', '--quiet');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error: could not write --out \/dev\/full: ENOSPC: no space left on device/m);
    expect(r.stderr.length).toBeLessThan(2_000);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
