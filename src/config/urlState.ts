/**
 * The experiment as a shareable link, in one place and under one schema (after TensorFlow
 * Playground's state.ts). The link carries the preset, the settings that differ from it, and the
 * UI options that matter; it is versioned, compressed with lz-string and validated with zod.
 *
 * Decoding never throws: whatever cannot be used is listed in `ignored` with the reason, and the
 * rest loads. Every accepted value has passed the settings' bounds, so a link cannot start
 * unbounded work.
 */
import LZString from 'lz-string';

const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = LZString;
import { z } from 'zod';
import { changedSettings, checkSetting, ConfigError, keyMismatch, resolveExperiment, type ExperimentConfig } from './config';
import { PRESET_NAMES } from './presets';
import { renamedPreset, RETIRED_SETTING_PREFIX, retiredPreset, SWARM_RENAME_VERSION } from './retired';
import { currentKeys, migrateSettingKeys } from './migrations';
import { isSettingKey } from './settings';
import { checkLiveChange, MAX_LIVE_CHANGES, sortChanges, type LiveChange } from './liveSettings';

/**
 * Version 2: setting keys are the update rules' field names (migrations.ts maps version-1 keys).
 * A version-2 link may also carry the run's live changes, `c: [[update, key, value], ...]`
 * (optional, so links made before it decode unchanged).
 * Version 3: one budget per run (a multi-agent run's `marl.envSteps` is now `run.envSteps`), and
 * continuous PPO's settings take its id as their prefix (`ppo-continuous.lr`, was `ppoc.lr`).
 * Version 4: the agent swarm has one name (retired.ts): `swarm`, `swarm-NAME`, `swarm.*` (were
 * `swarm-v2`, `swarm-v2-NAME`, `swarm2.*`); in an older link `swarm-annealed` and `swarm.*` still
 * mean the retired first swarm.
 */
export const LINK_VERSION = 4;
const OLDEST_LINK_VERSION = 1;
export const LINK_PARAM = 'x';
const DEFAULT_PRESET = 'quickstart';
const MAX_TOKEN_LENGTH = 8_192;

/** Parts of the UI a teaching link can hide. */
export const HIDEABLE = ['config', 'presets', 'runs', 'actors', 'teaching', 'charts.losses', 'charts.throughput'] as const;
export type Hideable = (typeof HIDEABLE)[number];

export interface UiOptions {
  /** Start training as soon as the link opens. */
  autostart: boolean;
  /** Panels and setting keys to hide, for a clean teaching view. */
  hide: string[];
}

export interface IgnoredPart {
  field: string;
  reason: string;
}

export interface DecodedExperiment {
  config: ExperimentConfig;
  ui: UiOptions;
  ignored: IgnoredPart[];
  /** Settings the run changed while it trained, each before its update, in the order they apply. */
  changes: LiveChange[];
}

const LinkSchema = z.object({
  v: z.number(),
  p: z.string().max(64),
  s: z.record(z.string().max(64), z.unknown()).optional(),
  c: z.array(z.tuple([z.unknown(), z.unknown(), z.unknown()])).max(MAX_LIVE_CHANGES).optional(),
  ui: z
    .object({
      a: z.boolean().optional(),
      h: z.array(z.string().max(64)).max(64).optional(),
    })
    .optional(),
});

const DEFAULT_UI: UiOptions = { autostart: false, hide: [] };

const RETIRED_REASON = 'settings of the retired first agent swarm';
const isRetiredKey = (key: string): boolean => key.startsWith(RETIRED_SETTING_PREFIX);

/** The compressed token for an experiment (what goes after `#x=`). */
export function encodeExperiment(config: ExperimentConfig, ui: Partial<UiOptions> = {}, changes: readonly LiveChange[] = []): string {
  const payload: z.infer<typeof LinkSchema> = { v: LINK_VERSION, p: config.preset };
  const changed = changedSettings(config);
  if (Object.keys(changed).length > 0) payload.s = changed;
  if (changes.length > 0) payload.c = sortChanges(changes).slice(0, MAX_LIVE_CHANGES).map((c) => [c.update, c.key, c.value]);
  const uiPart: { a?: boolean; h?: string[] } = {};
  if (ui.autostart) uiPart.a = true;
  if (ui.hide && ui.hide.length > 0) uiPart.h = [...ui.hide];
  if (Object.keys(uiPart).length > 0) payload.ui = uiPart;
  return compressToEncodedURIComponent(JSON.stringify(payload));
}

/** A full link: `base` with the experiment in its hash. */
export function experimentUrl(base: string, config: ExperimentConfig, ui: Partial<UiOptions> = {}, changes: readonly LiveChange[] = []): string {
  const clean = base.split('#')[0];
  return `${clean}#${LINK_PARAM}=${encodeExperiment(config, ui, changes)}`;
}

/** Pull the token out of a full URL, a hash, or take the string as the token itself. */
export function extractToken(linkOrToken: string): string {
  const hashAt = linkOrToken.indexOf('#');
  const fragment = hashAt >= 0 ? linkOrToken.slice(hashAt + 1) : linkOrToken;
  const params = new URLSearchParams(fragment);
  return params.get(LINK_PARAM) ?? fragment;
}

function fallback(ignored: IgnoredPart[]): DecodedExperiment {
  return { config: resolveExperiment(DEFAULT_PRESET), ui: { ...DEFAULT_UI }, ignored, changes: [] };
}

/**
 * The preset with the accepted settings. Each value passed its own bounds, but a combination can
 * still fail (DQN on Pendulum-v1's continuous actions): the setting named by the error is dropped,
 * and ignored with its reason, until the rest resolves.
 */
function resolveAccepted(preset: string, accepted: Record<string, unknown>, ignored: IgnoredPart[]): ExperimentConfig {
  for (;;) {
    try {
      return resolveExperiment(preset, accepted);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      // The preset alone resolves, so some accepted setting is at fault: the one named, else the algorithm.
      const field = Object.hasOwn(accepted, err.field) ? err.field : 'algorithm';
      if (!Object.hasOwn(accepted, field)) throw err;
      ignored.push({ field, reason: err.message.slice(err.field.length + 2) });
      delete accepted[field];
    }
  }
}

/** Decode a link (or its token). Never throws; see `ignored` for what was dropped and why. */
export function decodeExperiment(linkOrToken: string): DecodedExperiment {
  const token = extractToken(linkOrToken.trim());
  if (token.length === 0) return fallback([]);
  if (token.length > MAX_TOKEN_LENGTH) return fallback([{ field: 'link', reason: `longer than ${MAX_TOKEN_LENGTH} characters` }]);

  let json: unknown;
  try {
    const text = decompressFromEncodedURIComponent(token);
    if (!text) return fallback([{ field: 'link', reason: 'not a PARL Playground link (could not decompress)' }]);
    json = JSON.parse(text);
  } catch {
    return fallback([{ field: 'link', reason: 'not a PARL Playground link (not valid JSON inside)' }]);
  }

  const parsed = LinkSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return fallback([{ field: `link.${first.path.join('.') || '(root)'}`, reason: first.message }]);
  }
  const link = parsed.data;
  const ignored: IgnoredPart[] = [];
  if (!Number.isInteger(link.v) || link.v < OLDEST_LINK_VERSION || link.v > LINK_VERSION) {
    return fallback([{ field: 'link.v', reason: `link version ${link.v} is not supported (this app reads versions ${OLDEST_LINK_VERSION} to ${LINK_VERSION})` }]);
  }
  const keysOf = (key: string): readonly string[] => currentKeys(key, link.v);

  let preset = link.p;
  const retired = retiredPreset(preset, link.v);
  const renamed = renamedPreset(preset);
  if (retired) {
    ignored.push({ field: 'preset', reason: retired.reason });
    preset = retired.replacement;
  } else if (renamed) {
    // An older link names the preset as it was then: the same experiment, nothing to tell.
    if (link.v >= SWARM_RENAME_VERSION) ignored.push({ field: 'preset', reason: renamed.reason });
    preset = renamed.replacement;
  } else if (!PRESET_NAMES.includes(preset)) {
    ignored.push({ field: 'preset', reason: `unknown preset ${JSON.stringify(preset)}; loaded ${DEFAULT_PRESET} instead` });
    preset = DEFAULT_PRESET;
  }

  const accepted: Record<string, unknown> = {};
  // The settings as the link has them: the schema's copy has lost an own `__proto__` key, which must be reported too.
  const given = link.s === undefined ? {} : (json as { s: Record<string, unknown> }).s;
  const settings = migrateSettingKeys(given, link.v, preset);
  // Named as the link has them (`swarm.items`), not as the migration set them apart.
  const retiredKeys = Object.keys(given).filter((k) => currentKeys(k, link.v).some(isRetiredKey));
  if (retiredKeys.length > 0) ignored.push({ field: retiredKeys.join(', '), reason: RETIRED_REASON });
  for (const [key, value] of Object.entries(settings)) {
    if (isRetiredKey(key)) continue;
    try {
      accepted[key] = checkSetting(key, value);
    } catch (err) {
      const reason = err instanceof ConfigError ? err.message.slice(key.length + 2) : String(err);
      ignored.push({ field: key, reason });
    }
  }

  const hide: string[] = [];
  for (const item of link.ui?.h ?? []) {
    if ((HIDEABLE as readonly string[]).includes(item)) hide.push(item);
    else if (keysOf(item).every(isSettingKey)) hide.push(...keysOf(item));
    else ignored.push({ field: `hide.${item}`, reason: 'not a panel or setting that can be hidden' });
  }

  const { algorithm } = resolveAccepted(preset, accepted, ignored).settings;
  for (const key of Object.keys(accepted)) {
    const problem = keyMismatch(algorithm, key);
    if (problem === null) continue;
    ignored.push({ field: key, reason: problem });
    delete accepted[key];
  }
  const config = resolveExperiment(preset, accepted);
  const changes: LiveChange[] = [];
  for (const [update, oldKey, value] of link.c ?? []) {
    const key = typeof oldKey === 'string' ? (currentKeys(oldKey, link.v)[0] ?? oldKey) : oldKey;
    if (typeof key === 'string' && isRetiredKey(key)) {
      ignored.push({ field: `change.${String(oldKey).slice(0, 64)}`, reason: RETIRED_REASON });
      continue;
    }
    try {
      changes.push(checkLiveChange(config, update, key, value));
    } catch (err) {
      ignored.push({ field: `change.${String(key).slice(0, 64)}`, reason: err instanceof ConfigError ? err.message.slice(err.field.length + 2) : String(err) });
    }
  }

  return {
    config,
    ui: { autostart: link.ui?.a === true, hide },
    ignored,
    changes: sortChanges(changes),
  };
}
