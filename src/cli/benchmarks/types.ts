/** A benchmark: a name, one line on what it measures, and a run that prints a table and returns its figures. */
export interface Benchmark {
  name: string;
  description: string;
  run(args: BenchArgs): Promise<BenchResult>;
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
