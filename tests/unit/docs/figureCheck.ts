/**
 * A named figure (src/config/swarmStoryFigures.ts) against its committed result file
 * (bench/results/<file>.json, format in bench/results.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { findRow, mergeBenchResults, parseBenchResult, type BenchResultFile } from '../../../bench/results';
import type { FigureSource, SwarmFigure } from '../../../src/config/swarmStoryFigures';

export const RESULTS_DIR = new URL('../../../bench/results/', import.meta.url).pathname;

/**
 * Reads result files by name from `dir`; null when a file is not there. `a+b` names the parts of one
 * run over disjoint seeds (two processes), read as one result (mergeBenchResults).
 */
export function resultLoader(dir: string): (file: string) => BenchResultFile | null {
  const cache = new Map<string, BenchResultFile | null>();
  const one = (file: string): BenchResultFile | null => {
    const path = `${dir}${file}.json`;
    return existsSync(path) ? parseBenchResult(JSON.parse(readFileSync(path, 'utf8')), path) : null;
  };
  return (file) => {
    if (!cache.has(file)) {
      const parts = file.split('+').map(one);
      cache.set(file, parts.some((p) => p === null) ? null : parts.length === 1 ? parts[0] : mergeBenchResults(parts as BenchResultFile[]));
    }
    return cache.get(file) ?? null;
  };
}

/** The number a source names: `medians.X` or `counts.X` of its row. */
export function measured(file: BenchResultFile, src: FigureSource): number {
  const row = findRow(file, src.split, src.row, src.level);
  const [kind, name] = src.measure.split('.');
  const table = kind === 'medians' ? row.medians : kind === 'counts' ? row.counts : undefined;
  if (!table) throw new Error(`${src.file}: measure ${JSON.stringify(src.measure)} is neither medians.X nor counts.X`);
  const value = table[name];
  if (typeof value !== 'number') throw new Error(`${src.file}: row ${JSON.stringify(src.row)} has no ${src.measure} (it has ${Object.keys(table).join(', ')})`);
  return value;
}

/** `x` rounded to `digits` places (negative: to tens, hundreds, ...). */
export function roundAs(x: number, digits: number): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

export type FigureVerdict = { kind: 'ok'; measured: number } | { kind: 'pending'; files: string[] } | { kind: 'wrong'; message: string };

/**
 * Checks one figure: its value must equal the measurement rounded to its digits. A figure whose
 * file is missing is 'pending' when it says so (and which run gives it), else wrong.
 */
export function checkFigure(name: string, f: SwarmFigure, load: (file: string) => BenchResultFile | null): FigureVerdict {
  const sources = [f.source, f.minus, f.over].filter((s): s is FigureSource => s !== undefined);
  const missing = [...new Set(sources.map((s) => s.file).filter((file) => load(file) === null))];
  if (missing.length > 0) {
    if (f.pending) return { kind: 'pending', files: missing };
    return { kind: 'wrong', message: `${name}: bench/results/${missing.join('.json, bench/results/')}.json is not committed (commit it, or say which run gives it in \`pending\`)` };
  }
  let value: number;
  try {
    const get = (s: FigureSource) => measured(load(s.file) as BenchResultFile, s);
    value = get(f.source);
    if (f.minus) value -= get(f.minus);
    if (f.over) value /= get(f.over);
  } catch (e) {
    return { kind: 'wrong', message: `${name}: ${(e as Error).message}` };
  }
  const rounded = roundAs(value, f.digits);
  // Rounded values compared at the stated digits (0.1 + 0.2 style noise left out).
  if (Math.abs(rounded - f.value) > 10 ** -(Math.max(0, f.digits) + 3)) {
    return { kind: 'wrong', message: `${name}: states ${f.value}, but bench/results/${f.source.file}.json gives ${value} (${rounded} at ${f.digits} digits)` };
  }
  return { kind: 'ok', measured: value };
}
