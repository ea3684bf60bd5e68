import { readFileSync } from 'node:fs';
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveExperiment } from '../../../src/config/config';
import { currentKeys, migrateConfig, migrateSettingKeys, reviveConfig } from '../../../src/config/migrations';
import { PRESET_NAMES } from '../../../src/config/presets';
import { ALGORITHM_IDS } from '../../../src/config/registry';
import { renamedPreset, retiredPreset, SWARM_RENAME_VERSION } from '../../../src/config/retired';
import { SETTING_KEYS } from '../../../src/config/settings';
import { decodeExperiment, encodeExperiment, LINK_VERSION } from '../../../src/config/urlState';

interface Fixture {
  preset: string;
  overrides: Record<string, unknown>;
  ui: { hide: string[] };
  changes: { update: number; key: string; value: unknown }[];
  token: string;
  settings: Record<string, unknown>;
  decodedChanges: { update: number; key: string; value: unknown }[];
  decodedHide: string[];
}
// Links made by the code before the swarm had one name (link version 3, git cde8a1b), with the full
// settings, live changes and hidden keys each one opened then.
const fixtures = (JSON.parse(readFileSync(new URL('./fixtures/links-v3.json', import.meta.url), 'utf8')) as { links: Fixture[] }).links;

const OLD_PRESETS = ['annealed', 'no-shaping', 'lambda1-only', 'lambda2-only', 'constant-lambda1', 'scale'];
const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));
/** A setting's name of then, as it is called today. */
const today = (key: string) => key.replace(/^swarm2\./, 'swarm.');
/** A setting's value of then, as it is written today. */
const todayValue = (key: string, value: unknown) => (key === 'algorithm' && value === 'swarm-v2' ? 'swarm' : value);

describe('the swarm has one name (link version 4)', () => {
  it('names one algorithm and its presets swarm, swarm-NAME and swarm.*, and none of the old names', () => {
    expect(LINK_VERSION).toBe(SWARM_RENAME_VERSION);
    expect(ALGORITHM_IDS as readonly string[]).toContain('swarm');
    expect(ALGORITHM_IDS as readonly string[]).not.toContain('swarm-v2');
    for (const name of OLD_PRESETS) {
      expect(PRESET_NAMES).toContain(`swarm-${name}`);
      expect(PRESET_NAMES).not.toContain(`swarm-v2-${name}`);
      expect(renamedPreset(`swarm-v2-${name}`)?.replacement).toBe(`swarm-${name}`);
    }
    expect(SETTING_KEYS.filter((k) => k.startsWith('swarm2.'))).toEqual([]);
    expect(SETTING_KEYS.filter((k) => k.startsWith('swarm.')).length).toBeGreaterThan(10);
    expect(renamedPreset('swarm-annealed')).toBeNull();
    expect(renamedPreset('toString')).toBeNull();
    // The start from demonstrations was retired with the rename: both its names open the annealed preset.
    expect(PRESET_NAMES).not.toContain('swarm-demo-start');
    expect(renamedPreset('swarm-v2-demo-start')).toBeNull();
    for (const name of ['swarm-v2-demo-start', 'swarm-demo-start']) expect(retiredPreset(name, 3)?.replacement).toBe('swarm-annealed');
  });

  // What a link carried keeps its value under today's name; a setting that no longer exists is
  // named with its reason, and a retired preset opens its replacement with a notice.
  it.each(fixtures.map((f) => [`${f.preset} ${JSON.stringify(f.overrides)}`, f] as const))('a version-3 link, %s, opens the same experiment under the new names', (_name, f) => {
    const decoded = decodeExperiment(f.token);
    const retired = retiredPreset(f.preset, 3);
    const preset = retired?.replacement ?? renamedPreset(f.preset)?.replacement ?? f.preset;
    expect(decoded.config.preset).toBe(preset);
    const carried = Object.entries(f.overrides).map(([k, v]) => [today(k), todayValue(k, v)] as const);
    const kept = Object.fromEntries(carried.filter(([k]) => (SETTING_KEYS as readonly string[]).includes(k)));
    const gone = carried.filter(([k]) => !(SETTING_KEYS as readonly string[]).includes(k)).map(([k]) => k);
    const now: Record<string, unknown> = decoded.config.settings;
    for (const [key, value] of Object.entries(kept)) expect([key, now[key]]).toEqual([key, value]);
    expect(decoded.config.settings).toEqual(resolveExperiment(preset, kept).settings);
    const named = decoded.ignored.map((i) => `${i.field}: ${i.reason}`).join('\n');
    if (retired) expect(named).toContain(retired.reason);
    for (const key of gone) expect(named).toContain(key);
    if (!retired && gone.length === 0) expect(decoded.ignored).toEqual([]);
    expect(decoded.changes).toEqual(f.decodedChanges.map((c) => ({ ...c, key: today(c.key) })).filter((c) => (SETTING_KEYS as readonly string[]).includes(c.key)));
    expect(decoded.ui.hide).toEqual(f.decodedHide.map(today).filter((k) => decoded.ui.hide.includes(k)));
    // The same experiment made today carries the new names.
    expect(decodeExperiment(encodeExperiment(decoded.config, decoded.ui, decoded.changes)).config).toEqual(decoded.config);
  });

  it("a version-3 link's swarm-annealed is the retired first swarm's: its replacement opens, with the notice, and its swarm.* settings are dropped", () => {
    const d = decodeExperiment(token({ v: 3, p: 'swarm-annealed', s: { seed: 4, 'swarm.lambda1': 0.05, 'swarm.items': 16 }, c: [[2, 'swarm.lambda1', 0.01]], ui: { h: ['swarm.lambda1'] } }));
    expect(d.config.preset).toBe('swarm-annealed');
    expect(d.ignored[0]).toEqual({ field: 'preset', reason: retiredPreset('swarm-annealed', 3)!.reason });
    expect(d.ignored[0].reason).toMatch(/^preset "swarm-annealed" is retired: the first agent swarm was retired .*; opened its replacement today's "swarm-annealed"/);
    expect(d.ignored.slice(1)).toEqual([
      { field: 'swarm.lambda1, swarm.items', reason: 'settings of the retired first agent swarm' },
      { field: 'hide.swarm.lambda1', reason: 'not a panel or setting that can be hidden' },
      { field: 'change.swarm.lambda1', reason: 'settings of the retired first agent swarm' },
    ]);
    // The first swarm's λ1 does not set today's swarm's.
    expect(d.config.settings).toEqual(resolveExperiment('swarm-annealed', { seed: 4 }).settings);
    expect(d.changes).toEqual([]);
  });

  it('a version-4 link: swarm-annealed and swarm.* are the swarm of today', () => {
    const d = decodeExperiment(token({ v: 4, p: 'swarm-annealed', s: { seed: 4, 'swarm.lambda1': 0.05 }, c: [[2, 'swarm.lambda1', 0.01]], ui: { h: ['swarm.lambda1'] } }));
    expect(d.ignored).toEqual([]);
    expect(d.config).toEqual(resolveExperiment('swarm-annealed', { seed: 4, 'swarm.lambda1': 0.05 }));
    expect(d.changes).toEqual([{ update: 2, key: 'swarm.lambda1', value: 0.01 }]);
    expect(d.ui.hide).toEqual(['swarm.lambda1']);
    expect(retiredPreset('swarm-annealed', 4)).toBeNull();
    expect(retiredPreset('swarm-annealed')).toBeNull();
  });

  it('first-swarm names the swarm did not take stay retired in every version', () => {
    for (const v of [1, 3, 4]) expect(retiredPreset('swarm-no-anneal', v)?.replacement).toBe('swarm-constant-lambda1');
    const d = decodeExperiment(token({ v: 4, p: 'swarm-taskgraph' }));
    expect(d.config.preset).toBe('swarm-annealed');
    expect(d.ignored[0].reason).toMatch(/^preset "swarm-taskgraph" is retired.*"swarm-annealed"$/);
  });

  it('a version-4 link naming an old preset (made by hand) opens the new one and says it was renamed; swarm2.* is not a setting there', () => {
    const d = decodeExperiment(token({ v: 4, p: 'swarm-v2-scale', s: { 'swarm2.lambda1': 0.2 } }));
    expect(d.config.preset).toBe('swarm-scale');
    expect(d.ignored.map((i) => i.field)).toEqual(['preset', 'swarm2.lambda1']);
    expect(d.ignored[0].reason).toBe('preset "swarm-v2-scale" was renamed "swarm-scale" (link version 4); opened it');
    expect(d.config.settings['swarm.lambda1']).toBe(resolveExperiment('swarm-scale').settings['swarm.lambda1']);
  });

  it('maps keys and the algorithm id by the version that made them', () => {
    expect(currentKeys('swarm2.lambda1', 3)).toEqual(['swarm.lambda1']);
    expect(currentKeys('swarm2.lambda1', 4)).toEqual(['swarm2.lambda1']);
    expect(currentKeys('swarm.lambda1', 4)).toEqual(['swarm.lambda1']);
    expect(currentKeys('swarm.lambda1', 3)).not.toEqual(['swarm.lambda1']);
    expect(migrateSettingKeys({ algorithm: 'swarm-v2', 'swarm2.updates': 9 }, 3)).toEqual({ algorithm: 'swarm', 'swarm.updates': 9 });
    expect(migrateSettingKeys({ algorithm: 'swarm-v2' }, 4)).toEqual({ algorithm: 'swarm-v2' });
    // The first swarm's `swarm.entropyCoef` of a version-1 link became `swarm.entCoef` in version 2, and is still the first swarm's.
    expect(Object.keys(migrateSettingKeys({ 'swarm.entropyCoef': 0.1 }, 1)).filter((k) => (SETTING_KEYS as readonly string[]).includes(k))).toEqual([]);
  });

  it('a saved config of before version 4 (run file, run store) revives under the new names; one of version 4 is left as it is', () => {
    const old = { preset: 'swarm-v2-lambda1-only', settings: { seed: 3, algorithm: 'swarm-v2', 'swarm2.lambda1': 0.2, 'swarm.items': 16 } };
    const dropped: { field: string; reason: string }[] = [];
    const revived = reviveConfig(old, dropped, 1) as { preset: string; settings: Record<string, unknown> };
    expect(revived.preset).toBe('swarm-lambda1-only');
    expect(revived.settings).toEqual(resolveExperiment('swarm-lambda1-only', { seed: 3, 'swarm.lambda1': 0.2 }).settings);
    expect(dropped).toEqual([{ field: 'settings.swarm.items', reason: 'a setting of the retired first agent swarm' }]);
    const current = resolveExperiment('swarm-annealed', { 'swarm.lambda1': 0.2 });
    expect(migrateConfig(current, 4)).toEqual(current);
    expect(reviveConfig(current, [], 4)).toEqual(current);
  });

  it('the command line names today\'s presets, and refuses an old name with one naming its replacement', () => {
    expect(resolveExperiment('swarm-annealed').settings.algorithm).toBe('swarm');
    expect(() => resolveExperiment('swarm-v2-annealed')).toThrow(ConfigError);
    expect(() => resolveExperiment('swarm-v2-annealed')).toThrow(/^preset: preset "swarm-v2-annealed" was renamed: use swarm-annealed$/);
    expect(() => resolveExperiment('swarm-no-anneal')).toThrow(/retired.*use swarm-constant-lambda1$/);
  });
});
