/**
 * WideSearch: K independent items to resolve (after the report's WideSearch benchmark). Item i is
 * an ItemSearch problem with a hidden target cell; its answer is that cell. The items do not
 * depend on each other, so all of them can run at once: the lower bound is the slowest single
 * item, the serial baseline the sum of all of them.
 *
 * r_perf is item-F1 over what the orchestrator reports:
 *   precision = correct reported / reported (0 when nothing is reported)
 *   recall    = correct reported / K
 *   F1        = 2 P R / (P + R) (0 when P + R = 0)
 */
import { Rng } from '../../core/rng';
import { ITEM_MAX_GRID, ITEM_MIN_GRID, cellIndex, itemMinSteps, randomItemProblem } from './itemSearch';
import type { SubtaskSpec, SwarmTask } from './types';

export const WIDE_SEARCH_MAX_ITEMS = 100;

export type WideSearchDifficulty = 'easy' | 'medium' | 'hard';

/** Grid side per difficulty: a larger grid means a longer, more variable search per item. */
export const WIDE_SEARCH_GRID: Readonly<Record<WideSearchDifficulty, number>> = { easy: 3, medium: 5, hard: 8 };

export interface WideSearchConfig {
  /** Number of items K, an integer in 1..100. */
  numItems: number;
  /** Preset grid side (default 'medium'); `gridSize` overrides it. */
  difficulty?: WideSearchDifficulty;
  /** Grid side of every item, 2..16. */
  gridSize?: number;
}

export function validateWideSearchConfig(config: WideSearchConfig): void {
  const k = config.numItems;
  if (!Number.isInteger(k) || k < 1 || k > WIDE_SEARCH_MAX_ITEMS) {
    throw new Error(`wideSearch: numItems must be an integer in 1..${WIDE_SEARCH_MAX_ITEMS}, got ${k}`);
  }
  if (config.difficulty !== undefined && !(config.difficulty in WIDE_SEARCH_GRID)) {
    throw new Error(`wideSearch: difficulty must be one of easy, medium, hard, got ${String(config.difficulty)}`);
  }
  const g = config.gridSize;
  if (g !== undefined && (!Number.isInteger(g) || g < ITEM_MIN_GRID || g > ITEM_MAX_GRID)) {
    throw new Error(`wideSearch: gridSize must be an integer in ${ITEM_MIN_GRID}..${ITEM_MAX_GRID}, got ${g}`);
  }
}

export interface ItemF1 {
  /** Reported items whose answer is right. */
  correct: number;
  reported: number;
  total: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Item-F1 of a report. `reported` maps item id to the answered cell; `answers[i]` is item i's
 * true cell. Ids outside 0..K-1 are an error.
 */
export function itemF1(reported: ReadonlyMap<number, number>, answers: readonly number[]): ItemF1 {
  const total = answers.length;
  let correct = 0;
  for (const [id, cell] of reported) {
    if (!Number.isInteger(id) || id < 0 || id >= total) {
      throw new Error(`itemF1: reported item ${id} is not an item id (0..${total - 1})`);
    }
    if (answers[id] === cell) correct += 1;
  }
  const n = reported.size;
  const precision = n > 0 ? correct / n : 0;
  const recall = total > 0 ? correct / total : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { correct, reported: n, total, precision, recall, f1 };
}

export class WideSearchTask implements SwarmTask {
  readonly kind = 'wideSearch' as const;
  readonly subtasks: readonly SubtaskSpec[];
  /** True cell index of each item. */
  readonly answers: readonly number[];
  readonly serialBaseline: number;
  /** The slowest item alone: with every item on its own subagent, nothing can be faster. */
  readonly lowerBound: number;
  readonly gridSize: number;

  constructor(
    readonly config: Readonly<WideSearchConfig>,
    readonly seed: number,
  ) {
    validateWideSearchConfig(config);
    this.gridSize = config.gridSize ?? WIDE_SEARCH_GRID[config.difficulty ?? 'medium'];
    const rng = new Rng(seed).fork(0x57ea);
    const subtasks: SubtaskSpec[] = [];
    for (let id = 0; id < config.numItems; id++) {
      const problem = randomItemProblem(rng, this.gridSize);
      subtasks.push({ id, deps: [], problem, minSteps: itemMinSteps(problem) });
    }
    this.subtasks = subtasks;
    this.answers = subtasks.map((s) => cellIndex(s.problem.gridSize, s.problem.target[0], s.problem.target[1]));
    this.serialBaseline = subtasks.reduce((a, s) => a + s.minSteps, 0);
    this.lowerBound = subtasks.reduce((a, s) => Math.max(a, s.minSteps), 0);
  }

  performance(reported: ReadonlyMap<number, number>): number {
    return itemF1(reported, this.answers).f1;
  }
}

/** The same config and seed always give the same items. */
export function generateWideSearch(config: WideSearchConfig, seed: number): WideSearchTask {
  return new WideSearchTask(config, seed);
}
