/**
 * A run's one budget: the setting that says when it ends, and what it counts. The progress bar,
 * `train --steps`, the time-left estimate and the loop itself all read it from here, so the page
 * can never show 100 % while the run trains on.
 *   - the agent swarm counts orchestrator updates (`swarm.updates`);
 *   - offline runs (CQL, BC) count gradient steps on their dataset (`cql.gradientSteps`, ...);
 *   - every other run counts environment steps (`run.envSteps`; for the particle worlds one step
 *     moves every agent).
 */
import { SETTINGS, type ExperimentSettings } from './settings';
import type { Setting } from './settingKinds';
import { descriptorOf } from './registry';

/** What a budget counts; the update records carry each (`update`, `envSteps`, `metrics.gradientSteps`). */
export type BudgetUnit = 'envSteps' | 'updates' | 'gradientSteps';

export interface RunBudget {
  /** The setting that holds it. */
  key: string;
  unit: BudgetUnit;
  /** Its words in the progress line and the charts' x axis. */
  label: string;
}

const LABELS: Record<BudgetUnit, string> = { envSteps: 'steps', updates: 'updates', gradientSteps: 'gradient steps' };

export function budgetOf(algorithm: ExperimentSettings['algorithm']): RunBudget {
  const d = descriptorOf(algorithm);
  const unit: BudgetUnit = d.family === 'swarm' ? 'updates' : d.loop === 'offline' ? 'gradientSteps' : 'envSteps';
  const key = unit === 'updates' ? `${d.prefix}.updates` : unit === 'gradientSteps' ? `${d.prefix}.gradientSteps` : 'run.envSteps';
  return { key, unit, label: LABELS[unit] };
}

/** The budget's value in these settings (every budget setting is a whole number: tested against each preset). */
export function budgetValue(settings: ExperimentSettings): number {
  const { key } = budgetOf(settings.algorithm);
  const value: unknown = Object.getOwnPropertyDescriptor(settings, key)?.value;
  if (typeof value !== 'number') throw new Error(`${key}: the run's budget is not a number (${String(value)})`);
  return value;
}

/** How much of its budget a run had used at an update record (offline runs report `metrics.gradientSteps`). */
export function budgetDone(unit: BudgetUnit, r: { update: number; envSteps: number; metrics: Readonly<Record<string, number>> }): number {
  if (unit === 'updates') return r.update;
  if (unit === 'gradientSteps') return r.metrics.gradientSteps ?? 0;
  return r.envSteps;
}

/** The largest budget the run's budget setting accepts (a bench that must outlast its window asks for it). */
export function budgetMax(algorithm: ExperimentSettings['algorithm']): number {
  const setting = (SETTINGS as Readonly<Record<string, Setting>>)[budgetOf(algorithm).key];
  return setting.kind === 'int' ? setting.max : Infinity;
}
