/**
 * What the progress line says, as pure functions of the store's state and the page's clock:
 * how much of its one budget the run has used (config/budget.ts), the time since Start, and the
 * time left at the rate the run itself has measured.
 *
 * The rate comes from the update records' own clock, over the later half of the time since the
 * first update: the start (backend probe, workers, the first update's warm-up) never counts. A
 * run whose updates grow slower (a swarm learning to delegate) is followed: most of the trend of
 * its cost per unit is carried forward, within bounds, to the end of the budget.
 */
import { budgetDone, budgetOf, budgetValue, type BudgetUnit } from '../../config/budget';
import type { PlaygroundState, UpdatePoint } from './types';

/** A point of the run: its learner clock (s) and how much of its budget it had used. */
export interface RatePoint {
  wallSeconds: number;
  done: number;
}

/** The extrapolated cost per unit at the end stays within these factors of the recent cost. */
const TREND_BOUNDS = [0.5, 2] as const;
/**
 * The trend is fitted over the last three quarters of the measured time and carried forward at
 * three quarters of its slope. Tuned on simulated runs (199 seeds each, per-update noise ±10-20 %):
 * steady, slowing 1 s → 5 s per update, and turning 5× dearer a tenth of the way in; the worst
 * error at mid-run was 17-25 %, the mean 5-9 % (without a trend, 39 % on the slowing run).
 */
const TREND_FROM = 0.25;
const TREND_DAMPING = 0.75;

function costBetween(a: RatePoint, b: RatePoint): number | null {
  const units = b.done - a.done;
  const seconds = b.wallSeconds - a.wallSeconds;
  return units > 0 && seconds > 0 ? seconds / units : null;
}

/** The index of the last point at or before `fraction` of the measured time (never the last point). */
function pointAt(points: readonly RatePoint[], fraction: number): number {
  const first = points[0].wallSeconds;
  const at = first + (points[points.length - 1].wallSeconds - first) * fraction;
  let k = 0;
  while (k < points.length - 2 && points[k + 1].wallSeconds <= at) k++;
  return k;
}

/**
 * Seconds the run will take to use `budget` from its last point, at the cost per unit it has
 * measured; null before it has measured anything. `points` in order.
 *
 * The cost per unit is the later half's; its trend is a least-squares line through the update
 * costs of the last three quarters, carried forward damped (the line through a few noisy
 * updates overshoots).
 */
export function secondsToBudget(points: readonly RatePoint[], budget: number): number | null {
  const n = points.length;
  if (n === 0) return null;
  const last = points[n - 1];
  const remaining = Math.max(0, budget - last.done);
  if (n === 1) {
    // One update only: its time includes the start, the best there is yet.
    const cost = costBetween({ wallSeconds: 0, done: 0 }, last);
    return cost === null ? null : remaining * cost;
  }
  const half = pointAt(points, 0.5);
  const recent = costBetween(points[half], last);
  if (recent === null) return null;
  // Weighted least squares of each update's cost per unit on where in the budget it was.
  const from = pointAt(points, TREND_FROM);
  let sw = 0;
  let sx = 0;
  let sxx = 0;
  let sxc = 0;
  let swc = 0;
  for (let i = from + 1; i < n; i++) {
    const c = costBetween(points[i - 1], points[i]);
    if (c === null) continue;
    const w = points[i].done - points[i - 1].done;
    const x = (points[i].done + points[i - 1].done) / 2;
    sw += w;
    sx += w * x;
    sxx += w * x * x;
    sxc += w * x * c;
    swc += w * c;
  }
  const spread = sw > 0 ? sxx - (sx * sx) / sw : 0;
  if (n - from < 4 || spread <= 0) return remaining * recent;
  const slope = (sxc - (sx * swc) / sw) / spread;
  // From the later half's middle, where its cost per unit was measured, to the middle of what is left.
  const ahead = (last.done + Math.max(budget, last.done)) / 2 - (points[half].done + last.done) / 2;
  const mean = Math.min(TREND_BOUNDS[1] * recent, Math.max(TREND_BOUNDS[0] * recent, recent + TREND_DAMPING * slope * ahead));
  return remaining * mean;
}

/** Units of the budget per second over the later half of the run (for the "per second" figure). */
export function measuredRate(points: readonly RatePoint[]): number | null {
  const n = points.length;
  if (n === 0) return null;
  const last = points[n - 1];
  const cost = n === 1 ? costBetween({ wallSeconds: 0, done: 0 }, last) : costBetween(points[pointAt(points, 0.5)], last);
  return cost === null ? null : 1 / cost;
}

export type ProgressState = Pick<
  PlaygroundState,
  'config' | 'status' | 'summary' | 'envSteps' | 'updates' | 'gradientSteps' | 'wallSeconds' | 'updatePoints' | 'startedAt' | 'endedAt' | 'lastUpdateAt'
>;

export interface ProgressView {
  unit: BudgetUnit;
  /** The budget's words: "steps", "updates", "gradient steps". */
  label: string;
  budget: number;
  done: number;
  /** 0 to 1. */
  fraction: number;
  /** Seconds since Start (live), or the whole run (finished); null before anything ran. */
  elapsed: number | null;
  finished: boolean;
  /** Units of the budget per second, measured; null before the first update. */
  rate: number | null;
  /** Seconds left, estimated; null when not running or not yet measured. */
  left: number | null;
}

function pointsOf(unit: BudgetUnit, points: readonly UpdatePoint[]): RatePoint[] {
  return points.map((p) => ({ wallSeconds: p.wallSeconds, done: budgetDone(unit, p) }));
}

/** The progress line's figures at page time `now` (ms, the clock the store's times are in). */
export function progressView(s: ProgressState, now: number): ProgressView {
  const { unit, label } = budgetOf(s.config.settings.algorithm);
  const budget = budgetValue(s.config.settings);
  const done = unit === 'updates' ? s.updates : unit === 'gradientSteps' ? s.gradientSteps : s.envSteps;
  const finished = s.summary !== null || s.endedAt !== null;
  const live = s.startedAt !== null && s.endedAt === null;
  let elapsed: number | null;
  // A page clock read before Start (a render not yet ticked) reads as 0, never as negative.
  if (s.startedAt !== null) elapsed = Math.max(0, (s.endedAt ?? now) - s.startedAt) / 1000;
  else if (s.summary) elapsed = s.summary.wallSeconds;
  else elapsed = s.wallSeconds > 0 ? s.wallSeconds : null;
  const points = pointsOf(unit, s.updatePoints);
  const rate = measuredRate(points);
  let left: number | null = null;
  if (live && !finished && s.status !== 'starting') {
    const toEnd = secondsToBudget(points, budget);
    if (toEnd !== null) {
      // Counting down between updates (not while paused: the run is not using its time then).
      const since = s.lastUpdateAt !== null && s.status === 'running' ? Math.max(0, (now - s.lastUpdateAt) / 1000) : 0;
      left = Math.max(0, toEnd - since);
    }
  }
  return { unit, label, budget, done, fraction: budget > 0 ? Math.min(1, done / budget) : 0, elapsed, finished, rate, left };
}

/**
 * While a run starts, what it is doing, so a Start never waits without a word; null once the
 * first update is in (or when nothing is starting).
 */
export function startingLine(s: Pick<PlaygroundState, 'status' | 'backend' | 'updates' | 'actors' | 'config'>): string | null {
  if (s.updates > 0 || (s.status !== 'starting' && s.status !== 'running')) return null;
  const actors = s.config.settings.actors;
  if (s.status === 'starting' && s.backend === null) return 'Starting: measuring which learner backend runs this network fastest…';
  const on = s.backend ? ` on ${s.backend.name}` : '';
  if (s.actors.length === 0) return `Starting the learner${on} and ${actors} actor${actors === 1 ? '' : 's'}…`;
  return budgetOf(s.config.settings.algorithm).unit === 'gradientSteps'
    ? `Learning from the dataset${on}: the first evaluation comes after the first gradient steps…`
    : `Training${on}: the actors are collecting the first update's experience…`;
}
