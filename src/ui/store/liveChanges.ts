/** The experiment's timed changes as the store holds them, and what a link or a Start carries. */
import { checkLiveChange, sortChanges, type LiveChange } from '../../config/liveSettings';
import type { ExperimentConfig } from '../../config/config';
import type { ChangeRecord } from '../../runs/records';

/** The changes that still apply to `config` (a live key of its algorithm, a value in range). */
export function changesThatApply(config: ExperimentConfig, changes: readonly LiveChange[]): LiveChange[] {
  return changes.flatMap((c) => {
    try {
      return [checkLiveChange(config, c.update, c.key, c.value)];
    } catch {
      return [];
    }
  });
}

/**
 * The experiment's changes: those it had (a link's) and those a run applied (the page's), one
 * per update and setting, the applied one winning; in the order they apply.
 */
export function experimentChanges(config: ExperimentConfig, given: readonly LiveChange[], applied: readonly Pick<ChangeRecord, 'update' | 'key' | 'to'>[]): LiveChange[] {
  const byUpdateAndKey = new Map<string, LiveChange>();
  for (const c of given) byUpdateAndKey.set(`${c.update} ${c.key}`, c);
  for (const m of applied) byUpdateAndKey.set(`${m.update} ${m.key}`, { update: m.update, key: m.key as LiveChange['key'], value: m.to });
  return sortChanges(changesThatApply(config, [...byUpdateAndKey.values()]));
}
