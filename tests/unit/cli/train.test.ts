import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpointFile } from '../../../src/core/checkpoint';

const root = new URL('../../../', import.meta.url).pathname;
const train = (...args: string[]) =>
  spawnSync('npx', ['tsx', 'src/cli/train.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });

describe('npm run train', () => {
  it('exits 2 with one line naming the field for bad input', () => {
    const cases: [string[], RegExp][] = [
      [['--preset', 'nope'], /^error: preset: unknown preset "nope"/],
      [['--preset', 'quickstart', '--set', 'reinforce.bogus=1'], /^error: reinforce\.bogus: unknown setting/],
      [['--preset', 'quickstart', '--set', 'reinforce.lr=5'], /^error: reinforce\.lr: must be a number in \[0\.00001, 0\.1\], got 5/],
      [['--preset', 'quickstart', '--actors', '0'], /^error: actors: must be an integer in \[1, 16\], got 0/],
      [['--preset', 'quickstart', '--checkpoint', '/no/such/folder/policy.parlckpt'], /^error: --checkpoint: cannot write to the folder \/no\/such\/folder/],
    ];
    for (const [args, message] of cases) {
      const r = train(...args);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('writes one JSON line per update and a summary, to stdout and --out, and the final weights to --checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-train-'));
    const out = join(dir, 'run.jsonl');
    const weights = join(dir, 'policy.parlckpt');
    const r = train('--preset', 'quickstart', '--steps', '3000', '--seed', '9', '--out', out, '--checkpoint', weights, '--quiet');
    expect(r.status, r.stderr).toBe(0);
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

  it('says so and exits 1 when the checkpoint cannot be written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-train-'));
    mkdirSync(join(dir, 'taken'));
    const r = train('--preset', 'quickstart', '--steps', '1000', '--checkpoint', join(dir, 'taken'), '--quiet');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: could not write the checkpoint: .*taken/);
  });
});
