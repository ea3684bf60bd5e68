/**
 * Live changes: the settings that may change while a run trains, and the timed list of changes a
 * run (and its link) carries. A change named for update k is applied just before update k, so a
 * run replayed from its link (the page or `npm run train -- --url`) changes at the same point.
 *
 * An algorithm's own live settings carry `live: true` in its descriptor; of the shared settings
 * only the number of actors can change, and only in loops whose actors are called in lockstep
 * between updates (the pool grows or shrinks there; async producers and ES shares are fixed).
 */
import { checkSetting, ConfigError, type ExperimentConfig } from './config';
import { descriptorOf } from './registry';
import { SETTINGS, isSettingKey, type ExperimentSettings, type Setting, type SettingKey } from './settings';

export type LiveValue = number | string | boolean;

/** One timed change: before update `update` (1-based), `key` takes `value`. */
export interface LiveChange {
  update: number;
  key: SettingKey;
  value: LiveValue;
}

/** The most changes one run or link may carry. */
export const MAX_LIVE_CHANGES = 256;

/** Loops in which the actor pool may be resized between updates. */
const RESIZABLE_LOOPS: readonly string[] = ['episodic', 'sync', 'replay'];

/** Why `key` cannot change while this config trains, or null when it can. */
export function whyNotLive(key: string, settings: ExperimentSettings): string | null {
  if (!isSettingKey(key)) return 'unknown setting';
  const d = descriptorOf(settings.algorithm);
  if (key === 'actors') {
    if (!RESIZABLE_LOOPS.includes(d.loop)) return `the ${d.label} loop keeps its actors for the whole run`;
    if (settings.inference === 'learner' && d.loop === 'sync') return 'learner-side inference keeps its actors for the whole run';
    return null;
  }
  const setting = SETTINGS[key] as Setting;
  if (!key.startsWith(`${d.prefix}.`)) return `not a setting of ${d.label}`;
  return setting.live ? null : 'fixed when the run starts';
}

export function isLiveSetting(key: string, settings: ExperimentSettings): key is SettingKey {
  return whyNotLive(key, settings) === null;
}

/** Every setting that can change while this config trains. */
export function liveSettingKeys(settings: ExperimentSettings): SettingKey[] {
  return (Object.keys(SETTINGS) as SettingKey[]).filter((k) => isLiveSetting(k, settings));
}

/**
 * Check a timed change against the config it applies to: a live key, a value its setting
 * accepts, an update from 1 on. Returns the change with a typed value or throws ConfigError.
 */
export function checkLiveChange(config: ExperimentConfig, update: unknown, key: unknown, value: unknown): LiveChange {
  const name = typeof key === 'string' ? key : JSON.stringify(key);
  if (typeof key !== 'string') throw new ConfigError(`change ${name}`, 'the key must be a setting name');
  if (!Number.isInteger(update) || (update as number) < 1 || (update as number) > 10_000_000) {
    throw new ConfigError(`change ${name}`, `the update must be an integer from 1, got ${JSON.stringify(update)}`);
  }
  const why = whyNotLive(key, config.settings);
  if (why !== null) throw new ConfigError(`change ${name}`, `cannot change while training (${why})`);
  const checked = checkSetting(key, value);
  return { update: update as number, key: key as SettingKey, value: checked };
}

/** Changes in the order they apply: by update, then in the order given (a later one wins). */
export function sortChanges(changes: readonly LiveChange[]): LiveChange[] {
  return changes.map((c, i) => ({ c, i })).sort((a, b) => a.c.update - b.c.update || a.i - b.i).map(({ c }) => c);
}
