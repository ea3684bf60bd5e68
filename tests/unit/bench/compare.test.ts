import { describe, expect, it } from 'vitest';
import {
  benchNamesFromUsage,
  CompareUsageError,
  figuresTable,
  flattenFigures,
  interleavedRuns,
  markdownTables,
  parseCompareArgs,
  sideBySideTables,
  unreadFlags,
  type SideRun,
} from '../../../bench/compare';

describe('compare: arguments', () => {
  it('splits its own flags from the benchmark and its flags at "--"', () => {
    expect(parseCompareArgs(['--ref', '2ea4fba', '--seeds', '3,1', '--', 'solve-cartpole', '--algos', 'ppo'])).toEqual({
      ref: '2ea4fba',
      seeds: [3, 1],
      json: null,
      bench: 'solve-cartpole',
      benchFlags: [['algos', 'ppo']],
      unreadOk: [],
    });
  });

  it('--unread-ok names benchmark flags that one side may leave unread', () => {
    const a = parseCompareArgs(['--ref', 'x', '--unread-ok', 'version', '--', 'swarm-story', '--version', '1', '--updates', '20']);
    expect(a.unreadOk).toEqual(['version']);
    expect(a.benchFlags).toEqual([
      ['version', '1'],
      ['updates', '20'],
    ]);
  });

  it('runs seeds 1 to 5 by default and takes --json for the combined figures', () => {
    const a = parseCompareArgs(['--json', '/tmp/c.json', '--ref', 'HEAD~1', '--', 'profile']);
    expect(a.seeds).toEqual([1, 2, 3, 4, 5]);
    expect(a.json).toBe('/tmp/c.json');
    expect(a.benchFlags).toEqual([]);
  });

  it.each([
    [['--ref', 'x', 'solve-cartpole'], 'missing "--"'],
    [['--ref', 'x', '--'], 'missing the benchmark name'],
    [['--ref', 'x', '--', '--algos', 'ppo'], 'missing the benchmark name'],
    [['--', 'solve-cartpole'], '--ref GITREF is required'],
    [['--ref', 'x', '--', 'compare'], 'cannot compare itself'],
    [['--ref', 'x', '--', 'solve-cartpole', '--seeds', '1'], '--seeds: give it before "--"'],
    [['--ref', 'x', '--', 'solve-cartpole', '--json', 'f'], '--json: give it before "--"'],
    [['--ref', 'x', '--', 'solve-cartpole', '--algos'], 'expected --flag value pairs'],
    [['--ref', 'x', '--', 'solve-cartpole', 'ppo', '--algos'], 'expected --flag value pairs'],
    [['--ref', 'x', '--', 'solve-cartpole', '--algos', 'ppo', '--algos', 'dqn'], '--algos: is given more than once'],
    [['--ref', 'x', '--algos', 'ppo', '--', 'solve-cartpole'], 'unknown compare flag --algos'],
    [['--ref', 'x', '--seeds', '1,,2', '--', 'profile'], '--seeds must be'],
    [['--ref', 'x', '--seeds', '-1', '--', 'profile'], '--seeds must be'],
    [['--ref', 'x', '--seeds', '', '--', 'profile'], '--seeds must be'],
    [['--ref', 'x', '--unread-ok', 'versoin', '--', 'swarm-story', '--version', '1'], '--unread-ok: "versoin" is not one of swarm-story\'s flags'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCompareArgs(argv)).toThrow(CompareUsageError);
    expect(() => parseCompareArgs(argv)).toThrow(message);
  });
});

describe('compare: run order', () => {
  it('alternates old and new code seed by seed, old first', () => {
    expect(interleavedRuns([4, 2, 9])).toEqual([
      { side: 'before', seed: 4 },
      { side: 'after', seed: 4 },
      { side: 'before', seed: 2 },
      { side: 'after', seed: 2 },
      { side: 'before', seed: 9 },
      { side: 'after', seed: 9 },
    ]);
  });
});

describe('compare: what each side can run', () => {
  it('reads the benchmark names from the bench usage text', () => {
    const usage = 'error: unknown benchmark "x"\nUsage: npm run bench -- NAME [--seeds 1,2,3,4,5] [--json FILE]\n\n  quickstart       Wall time to 195\n  solve-cartpole   Environment steps\n';
    expect(benchNamesFromUsage(usage)).toEqual(['quickstart', 'solve-cartpole']);
  });

  it('finds flags that no source reads, in each way the benchmarks read them', () => {
    const sources = ["const a = flags.algos ?? 'ppo';", "const s = Number(flags['seconds'] ?? 3);", 'const e = flags?.envs;', 'const u = flags.updatesMax;'];
    expect(unreadFlags(sources, ['algos', 'seconds', 'envs', 'updates', 'skip'])).toEqual(['updates', 'skip']);
  });
});

describe('compare: tables and figures', () => {
  const out = (rows: string) => `## solve-cartpole\n\nSome text.\n\n| algorithm | steps |\n| --- | --- |\n${rows}\n`;
  const runs: SideRun[] = [
    { side: 'before', seed: 1, stdout: out('| ppo | 100 |'), figures: { ppo: { solved: 1, runs: [{ steps: 100, seconds: 30 }] } } },
    { side: 'after', seed: 1, stdout: out('| ppo | 100 |'), figures: { ppo: { solved: 1, runs: [{ steps: 100, seconds: 10 }] } } },
    { side: 'before', seed: 2, stdout: out('| ppo | 300 |'), figures: { ppo: { solved: 1, runs: [{ steps: 300, seconds: 50 }] } } },
    { side: 'after', seed: 2, stdout: out('| ppo | 300 |'), figures: { ppo: { solved: 1, runs: [{ steps: 300, seconds: 20 }] } } },
    { side: 'before', seed: 3, stdout: out('| ppo | – |'), figures: { ppo: { solved: 0, runs: [] } } },
    { side: 'after', seed: 3, stdout: out('| ppo | 200 |'), figures: { ppo: { solved: 1, runs: [{ steps: 200, seconds: 12 }] } } },
  ];

  it('names a one-element array by its parent and indexes longer ones', () => {
    expect([...flattenFigures({ a: [{ x: 1 }], b: [2, 3], c: 'text', d: null, e: NaN })]).toEqual([
      ['a.x', 1],
      ['b.0', 2],
      ['b.1', 3],
    ]);
  });

  it('parses every markdown table of an output', () => {
    const t = markdownTables('x\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\ntext\n| c |\n| --- |\n| 3 |\n| 4 |');
    expect(t).toEqual([
      { header: ['a', 'b'], rows: [['1', '2']] },
      { header: ['c'], rows: [['3'], ['4']] },
    ]);
  });

  it('puts the two sides row beside row', () => {
    const [table] = sideBySideTables(runs);
    expect(table.split('\n')).toEqual([
      '| seed | code | algorithm | steps |',
      '| --- | --- | --- | --- |',
      '| 1 | before | ppo | 100 |',
      '| 1 | after | ppo | 100 |',
      '| 2 | before | ppo | 300 |',
      '| 2 | after | ppo | 300 |',
      '| 3 | before | ppo | – |',
      '| 3 | after | ppo | 200 |',
    ]);
  });

  it('takes the median of each side over the seeds that have the figure', () => {
    const { medians, table } = figuresTable(runs);
    // before: seconds 30, 50 (seed 3 unsolved) -> 40; after: 10, 20, 12 -> 12.
    expect(medians['ppo.runs.seconds']).toEqual({ before: 40, after: 12 });
    expect(medians['ppo.runs.steps']).toEqual({ before: 200, after: 200 });
    expect(medians['ppo.solved']).toEqual({ before: 1, after: 1 });
    expect(table).toContain('| ppo.runs.seconds | 40 | 12 | 0.30 | 30, 50, – | 10, 20, 12 |');
  });

  it('prints each run on its own when the table changed shape between versions', () => {
    const changed: SideRun[] = [
      { side: 'before', seed: 1, stdout: '| a |\n| --- |\n| 1 |', figures: {} },
      { side: 'after', seed: 1, stdout: '| a | b |\n| --- | --- |\n| 1 | 2 |', figures: {} },
    ];
    const tables = sideBySideTables(changed);
    expect(tables).toHaveLength(2);
    expect(tables[0]).toMatch(/^before, seed 1:/);
    expect(tables[1]).toMatch(/^after, seed 1:/);
  });
});
