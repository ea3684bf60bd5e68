import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCH_RESULT_SCHEMA, findRow, formatBenchResult, mergeBenchResults, parseBenchResult, rowsFromSeedFigures, type BenchResultFile } from '../../../bench/results';
import { spawnScriptSync } from '../cli/commandRuns';


describe('bench result files (--json)', () => {
  it('turns per-seed figures into rows: medians of the numbers, counts of the yes/no judgements, each seed kept', () => {
    const rows = rowsFromSeedFigures('held-out', { packer: [{ seed: 6, rPerf: 0.9, target: true }, { seed: 7, rPerf: 0.7, target: false }, { seed: 8, rPerf: 0.8, target: true }] }, 'default');
    expect(rows).toEqual([
      {
        split: 'held-out',
        row: 'packer',
        level: 'default',
        seeds: [6, 7, 8],
        medians: { rPerf: 0.8 },
        counts: { target: 2 },
        perSeed: [
          { seed: 6, values: { rPerf: [0.9], target: [1] } },
          { seed: 7, values: { rPerf: [0.7], target: [0] } },
          { seed: 8, values: { rPerf: [0.8], target: [1] } },
        ],
      },
    ]);
  });

  it('writes lists of numbers on one line and reads back what it wrote; refuses another format, names the rows it has', () => {
    const file: BenchResultFile = { schema: BENCH_RESULT_SCHEMA, benchmark: 'b', command: 'npm run bench -- b', date: '2026-12-06T00:00:00.000Z', machine: 'm', tookSeconds: 1, rows: rowsFromSeedFigures('s', { r: [{ seed: 1, x: 0.5 }, { seed: 2, x: -1e-7 }] }), figures: {} };
    const text = formatBenchResult(file);
    expect(text).toContain('"seeds": [1, 2]');
    expect(text).toContain('"x": [-1e-7]');
    expect(parseBenchResult(JSON.parse(text), 'f.json')).toEqual(file);
    expect(() => parseBenchResult({ ...file, schema: 'other' }, 'f.json')).toThrow('f.json: not a parl-bench-result/1 file: schema is "other"');
    expect(() => findRow(file, 's', 'q')).toThrow('b: no row "q" in split "s" (rows: s / r)');
  });

  it('swarm-baselines --json writes each scripted orchestrator’s row with its seeds, per-seed values, command, date and machine', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'bench-json-')), 'latent.json');
    const run = spawnScriptSync('bench/bench.ts', ['swarm-baselines', '--levels', 'true', '--level', 'latent skills', '--json', out], 120_000);
    expect(run.code, run.stderr).toBe(0);
    const file = parseBenchResult(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(file.command).toBe(`npm run bench -- swarm-baselines --levels true --level 'latent skills' --json ${out}`);
    expect(file.machine).toMatch(/GiB, Node v/);
    expect(Number.isNaN(Date.parse(file.date))).toBe(false);
    const packer = findRow(file, 'held-out 6-15', 'packer (fuller subagents, no second opinions)', 'latent skills');
    expect(packer.seeds).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(packer.perSeed.map((s) => s.values.rPerf.length)).toEqual(Array(10).fill(5));
    // The median the table prints is the median of the values kept per seed.
    const all = packer.perSeed.flatMap((s) => s.values.rPerf).sort((a, b) => a - b);
    expect(packer.medians.rPerf).toBeCloseTo((all[24] + all[25]) / 2, 12);
    expect(findRow(file, 'held-out 6-15', 'per-episode best').medians.rPerf).toBeGreaterThanOrEqual(packer.medians.rPerf);
  }, 120_000);
});

describe('mergeBenchResults: one result from runs over disjoint seeds', () => {
  const part = (seeds: number[], values: number[], targets: boolean[], date: string): BenchResultFile => ({
    schema: BENCH_RESULT_SCHEMA,
    benchmark: 'swarm-story',
    command: `npm run bench -- swarm-story --seeds ${seeds.join(',')}`,
    date,
    machine: 'm',
    tookSeconds: 10,
    rows: rowsFromSeedFigures('held-out 6-15', { annealed: seeds.map((seed, i) => ({ seed, rPerf: values[i], target: targets[i] })) }),
    figures: {},
  });

  it('joins the rows, takes each median again over all the seeds and sums the counts', () => {
    const merged = mergeBenchResults([part([6, 7], [0.5, 0.9], [false, true], '2026-12-06T08:00:00Z'), part([11, 12, 13], [0.6, 0.7, 0.8], [false, true, true], '2026-12-06T09:00:00Z')]);
    expect(merged.rows).toHaveLength(1);
    const row = merged.rows[0];
    expect(row.seeds).toEqual([6, 7, 11, 12, 13]);
    expect(row.medians.rPerf).toBe(0.7);
    expect(row.counts?.target).toBe(3);
    expect(merged.date).toBe('2026-12-06T09:00:00Z');
    expect(merged.tookSeconds).toBe(20);
    expect(merged.command).toContain('--seeds 6,7 ; npm run bench -- swarm-story --seeds 11,12,13');
  });

  it('refuses a seed two parts share, and parts of different benchmarks', () => {
    const a = part([6, 7], [0.5, 0.9], [false, true], 'd');
    expect(() => mergeBenchResults([a, part([7], [0.1], [false], 'd')])).toThrow('seed 7 of annealed is in two parts');
    expect(() => mergeBenchResults([a, { ...a, benchmark: 'swarm-baselines' }])).toThrow('different benchmarks');
    expect(() => mergeBenchResults([])).toThrow('nothing to merge');
  });
});
