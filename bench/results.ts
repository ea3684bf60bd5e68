/**
 * The JSON a benchmark writes with `--json PATH`: its result table as data, with what is needed to
 * run it again. Committed results live in bench/results/<benchmark>-<level or variant>.json, and the
 * figures the swarm's texts state are checked against them (tests/unit/docs/swarmFigures.test.ts).
 *
 *   schema       BENCH_RESULT_SCHEMA
 *   benchmark    its name (`npm run bench -- NAME`)
 *   command      the command line, as one would type it again
 *   date         when it ended (ISO 8601)
 *   machine      CPUs, memory, Node version
 *   tookSeconds  wall time of the run
 *   rows         one per row of the printed table (below)
 *   figures      the benchmark's own figures object, as before this schema
 *
 * A row: `split` (which seeds, e.g. 'held-out 6-15'), `row` (what ran: a scripted orchestrator, a
 * trained variant), `level` where the benchmark has several, `seeds`, `medians` (each measure's
 * median, as the table prints it before rounding), `counts` (for a yes/no judgement per seed, such
 * as the target met: how many seeds) and `perSeed` (each seed's values of each measure: one per task
 * the seed played, or the seed's own median where the benchmark reports one per seed; a yes/no as 1/0).
 */

export const BENCH_RESULT_SCHEMA = 'parl-bench-result/1';

export interface BenchRowSeed {
  seed: number;
  /** Each measure's values on this seed's tasks (one value per task). */
  values: Record<string, number[]>;
}

export interface BenchRow {
  split: string;
  row: string;
  /** The level of the task or the variant, where the benchmark has several. */
  level?: string;
  seeds: number[];
  medians: Record<string, number>;
  /** For each yes/no judgement of a seed (e.g. the target met), how many of the seeds it held for. */
  counts?: Record<string, number>;
  perSeed: BenchRowSeed[];
}

export interface BenchResultFile {
  schema: typeof BENCH_RESULT_SCHEMA;
  benchmark: string;
  command: string;
  date: string;
  machine: string;
  tookSeconds: number;
  rows: BenchRow[];
  figures: Record<string, unknown>;
}

/** The row named `row` of split `split` (and level, where given); throws naming the rows there are. */
export function findRow(file: Pick<BenchResultFile, 'rows' | 'benchmark'>, split: string, row: string, level?: string): BenchRow {
  const hit = file.rows.find((r) => r.split === split && r.row === row && (level === undefined || r.level === level));
  if (!hit) {
    const there = file.rows.map((r) => `${r.split} / ${r.row}${r.level ? ` (${r.level})` : ''}`).join('; ');
    throw new Error(`${file.benchmark}: no row ${JSON.stringify(row)} in split ${JSON.stringify(split)}${level ? ` at level ${JSON.stringify(level)}` : ''} (rows: ${there})`);
  }
  return hit;
}

/** Checks that `data` (parsed JSON) has the schema's shape; throws saying what is wrong. */
export function parseBenchResult(data: unknown, source: string): BenchResultFile {
  const fail = (what: string): never => {
    throw new Error(`${source}: not a ${BENCH_RESULT_SCHEMA} file: ${what}`);
  };
  if (typeof data !== 'object' || data === null) return fail('not an object');
  const o = data as Record<string, unknown>;
  if (o.schema !== BENCH_RESULT_SCHEMA) fail(`schema is ${JSON.stringify(o.schema)}`);
  for (const k of ['benchmark', 'command', 'date', 'machine'] as const) if (typeof o[k] !== 'string') fail(`${k} is not a string`);
  if (!Array.isArray(o.rows)) return fail('rows is not an array');
  for (const [i, r] of (o.rows as unknown[]).entries()) {
    const row = r as Partial<BenchRow> | null;
    if (!row || typeof row.split !== 'string' || typeof row.row !== 'string') fail(`rows[${i}] has no split and row names`);
    if (!row || typeof row.medians !== 'object' || row.medians === null) fail(`rows[${i}] has no medians`);
    if (!row || !Array.isArray(row.seeds) || !Array.isArray(row.perSeed)) fail(`rows[${i}] has no seeds or perSeed`);
  }
  return data as BenchResultFile;
}

/**
 * Rows for --json from per-seed figures (one value per seed and measure, e.g. swarm-story's): each
 * number's median over the seeds, and for each yes/no judgement the seeds it held for (`counts`).
 */
export function rowsFromSeedFigures<T extends { seed: number }>(split: string, perRow: Record<string, readonly T[]>, level?: string): BenchRow[] {
  return Object.entries(perRow).map(([row, figs]) => {
    // The figures' own fields, read by name (a seed's figures are a plain object of numbers and yes/no).
    const fields = figs.map((f) => f as unknown as Record<string, unknown>);
    const keys = fields.length > 0 ? Object.keys(fields[0]).filter((k) => k !== 'seed') : [];
    const numeric = keys.filter((k) => typeof fields[0][k] === 'number');
    const flags = keys.filter((k) => typeof fields[0][k] === 'boolean');
    return {
      split,
      row,
      ...(level === undefined ? {} : { level }),
      seeds: figs.map((f) => f.seed),
      medians: Object.fromEntries(numeric.map((k) => [k, medianOf(fields.map((f) => Number(f[k])))])),
      counts: Object.fromEntries(flags.map((k) => [k, fields.filter((f) => f[k] === true).length])),
      perSeed: figs.map((f, i) => ({ seed: f.seed, values: Object.fromEntries([...numeric, ...flags].map((k) => [k, [Number(fields[i][k])]])) })),
    };
  });
}

/**
 * One result from several runs of the same benchmark over disjoint seeds (e.g. held-out seeds 6-10
 * and 11-15 run as two processes): rows with the same split, row and level are joined, their seeds
 * and per-seed values concatenated, each median taken again over all the seeds (of each seed's own
 * median, where a seed has several values) and each count summed. Throws on a seed that two parts share.
 */
export function mergeBenchResults(parts: readonly BenchResultFile[]): BenchResultFile {
  if (parts.length === 0) throw new Error('mergeBenchResults: nothing to merge');
  const byKey = new Map<string, BenchRow>();
  for (const part of parts) {
    if (part.benchmark !== parts[0].benchmark) throw new Error(`mergeBenchResults: ${part.benchmark} and ${parts[0].benchmark} are different benchmarks`);
    for (const r of part.rows) {
      const key = JSON.stringify([r.split, r.row, r.level ?? null]);
      const had = byKey.get(key);
      if (!had) {
        byKey.set(key, { ...r, seeds: [...r.seeds], perSeed: [...r.perSeed], ...(r.counts ? { counts: { ...r.counts } } : {}) });
        continue;
      }
      const twice = r.seeds.filter((x) => had.seeds.includes(x));
      if (twice.length) throw new Error(`mergeBenchResults: seed ${twice.join(', ')} of ${r.row} is in two parts`);
      had.seeds.push(...r.seeds);
      had.perSeed.push(...r.perSeed);
      for (const [k, n] of Object.entries(r.counts ?? {})) had.counts = { ...had.counts, [k]: (had.counts?.[k] ?? 0) + n };
    }
  }
  const rows = [...byKey.values()].map((r) => ({
    ...r,
    medians: Object.fromEntries(Object.keys(r.medians).map((k) => [k, medianOf(r.perSeed.map((s) => medianOf(s.values[k] ?? [])))])),
  }));
  return { ...parts[0], command: parts.map((p) => p.command).join(' ; '), date: parts.map((p) => p.date).sort().at(-1) ?? parts[0].date, tookSeconds: parts.reduce((a, p) => a + p.tookSeconds, 0), rows };
}

function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The file's text: indented, with each list of numbers on one line (per-seed values stay readable and small). */
export function formatBenchResult(file: BenchResultFile): string {
  return `${JSON.stringify(file, null, 2).replace(/\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g, (_, list: string) => `[${list.split(/,\s*/).join(', ')}]`)}\n`;
}
