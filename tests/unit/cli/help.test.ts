import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

/** Runs `npx tsx src/cli/FILE ARGS…` (FILE may climb out, as bench/bench.ts does); resolves with its exit code and output. */
function cli(file: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npx', ['tsx', `src/cli/${file}`, ...args], { cwd: root, encoding: 'utf8', timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

const COMMANDS: [file: string, npmName: string][] = [
  ['train.ts', 'train'],
  ['dataset.ts', 'dataset'],
  ['cluster.ts', 'cluster'],
  ['actorHost.ts', 'actor-host'],
  ['trainSubagents.ts', 'subagents'],
  ['../../bench/bench.ts', 'bench'],
];

describe('each command line tool', () => {
  it('prints its usage on stdout and exits 0 for --help and -h, starting nothing', async () => {
    const runs = await Promise.all(COMMANDS.flatMap(([file]) => [cli(file, '--help'), cli(file, '-h')]));
    COMMANDS.forEach(([, npmName], i) => {
      for (const r of [runs[2 * i], runs[2 * i + 1]]) {
        expect(r.code, `${npmName}: ${r.stderr}`).toBe(0);
        expect(r.stdout.startsWith(`Usage: npm run ${npmName} --`), `${npmName}: ${r.stdout}`).toBe(true);
        expect(r.stderr, npmName).toBe('');
      }
    });
  }, 120_000);

  it('refuses an unknown flag of subagents and dataset with exit 2 and the usage, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parl-subagents-'));
    const [subagents, dataset] = await Promise.all([
      cli('trainSubagents.ts', '--out', dir, '--bogus', 'x'),
      cli('dataset.ts', '--preset', 'sac-pendulum', '--out', join(dir, 'd.json'), '--sed', '3'),
    ]);
    expect(subagents.code).toBe(2);
    expect(subagents.stderr).toMatch(/^error: unknown flag "--bogus" \(known: --out, --only\)\nUsage: npm run subagents --/);
    expect(dataset.code).toBe(2);
    expect(dataset.stderr).toMatch(/^error: unknown flag "--sed" \(known: --preset, --out, --seed, --steps, --episodes, --mix\)\nUsage: npm run dataset --/);
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);
});
