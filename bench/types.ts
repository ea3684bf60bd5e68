import type { BenchRow } from './results';

/** A benchmark: a name, one line on what it measures, its flags, and a run that prints a table and returns its figures. */
export interface Benchmark {
  name: string;
  description: string;
  /** What `npm run bench -- NAME --help` prints; a flag not listed here is refused before the run. */
  help: BenchHelp;
  run(args: BenchArgs): Promise<BenchResult>;
}

/** One `--name value` flag of a benchmark, for its --help. */
export interface BenchFlag {
  /** Without the dashes. */
  name: string;
  /** The value as the help shows it: `N`, `a,b`, `on|off`. */
  value: string;
  /** What it changes, and its default. */
  text: string;
}

/** A benchmark's --help (`--seeds` and `--json FILE` are every benchmark's, and not listed in `flags`). */
export interface BenchHelp {
  /** What --seeds picks here; null when the benchmark uses no seeds (the flag is then accepted and ignored). */
  seeds: string | null;
  flags: readonly BenchFlag[];
}

export interface BenchArgs {
  /** Seeds to run over, where the benchmark uses seeds. */
  seeds: number[];
  /** Free-form extra flags (`--key value`). */
  flags: Record<string, string>;
}

export interface BenchResult {
  /** Markdown table (also printed). */
  table: string;
  figures: Record<string, unknown>;
  /** The table's rows as data, for --json (bench/results.ts); benchmarks that give none write an empty list. */
  rows?: BenchRow[];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
