import { describe, expect, it } from 'vitest';
import { spawnScriptSync } from '../cli/commandRuns';

const bench = (...args: string[]) => spawnScriptSync('bench/bench.ts', args, 300_000);

describe('npm run bench', () => {
  // Issue 15, item 4: the benchmark ran to the end, then crashed writing --json.
  it('refuses a --json path it cannot write, or a repeated flag, before running anything', () => {
    const started = Date.now();
    const missing = bench('fuzz', '--runs', '100000', '--json', '/missing/x.json');
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr.trim()).toBe('error: --json: cannot write to the folder /missing (it does not exist)');
    const repeated = bench('fuzz', '--runs', '1', '--runs', '2');
    expect(repeated.code, repeated.stderr).toBe(2);
    expect(repeated.stderr.trim()).toBe('error: --runs: is given more than once');
    // 100k inputs per target would take minutes: nothing ran.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
