import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnScript } from './commandRuns';

/** Runs `node --import tsx src/cli/FILE ARGS…`; resolves with its exit code and output. */
const cli = (file: string, ...args: string[]) => spawnScript(`src/cli/${file}`, args, 90_000);

// npm run bench's --help and -h are checked the same way in tests/unit/bench/benchHelp.test.ts.
const COMMANDS: [file: string, npmName: string][] = [
  ['train.ts', 'train'],
  ['dataset.ts', 'dataset'],
  ['cluster.ts', 'cluster'],
  ['actorHost.ts', 'actor-host'],
  ['trainSubagents.ts', 'subagents'],
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
