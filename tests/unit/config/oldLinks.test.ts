import { readFileSync } from 'node:fs';
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { migrateConfig, migrateSettingKeys, reviveConfig } from '../../../src/config/migrations';
import { decodeExperiment, encodeExperiment, LINK_VERSION } from '../../../src/config/urlState';
import { resolveExperiment } from '../../../src/config/config';
import { SETTING_KEYS } from '../../../src/config/settings';
import { RETIRED_SETTING_PREFIX, retiredPreset } from '../../../src/config/retired';

interface Fixture {
  preset: string;
  overrides: Record<string, unknown>;
  ui?: { autostart?: boolean; hide?: string[] };
  token: string;
  settings: Record<string, unknown>;
}
// Links made by the code before the descriptors (link version 1, git 6ee9355), with the full
// settings each one opened then.
const fixtures = (JSON.parse(readFileSync(new URL('./fixtures/links-v1.json', import.meta.url), 'utf8')) as { links: Fixture[] }).links;

/** The settings of then that still exist: the retired first swarm's are gone. */
const kept = (settings: Record<string, unknown>) => Object.fromEntries(Object.entries(migrateSettingKeys(settings)).filter(([k]) => !k.startsWith(RETIRED_SETTING_PREFIX)));

describe('links made before the descriptors', () => {
  const current = fixtures.filter((f) => retiredPreset(f.preset, 1) === null);
  const retired = fixtures.filter((f) => retiredPreset(f.preset, 1) !== null);

  it.each(current.map((f) => [`${f.preset} ${JSON.stringify(f.overrides)}`, f] as const))('%s opens the same experiment', (_name, f) => {
    const decoded = decodeExperiment(f.token);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.config.preset).toBe(f.preset);
    // Every setting that existed then has the same value under its new name; settings added since
    // (new algorithms) keep their defaults.
    const then = kept(f.settings);
    const now: Record<string, unknown> = decoded.config.settings;
    for (const [key, value] of Object.entries(then)) expect([key, now[key]]).toEqual([key, value]);
    expect(decoded.config.settings).toEqual(resolveExperiment(f.preset, then).settings);
    expect(decoded.ui.autostart).toBe(f.ui?.autostart === true);
    expect(decoded.ui.hide).toEqual((f.ui?.hide ?? []).map((k) => (k === 'reinforce.lr' ? 'reinforce.lr' : k)));
  });

  it.each(retired.map((f) => [`${f.preset} ${JSON.stringify(f.overrides)}`, f] as const))('%s (a retired first-swarm preset) opens its replacement and says why', (_name, f) => {
    const decoded = decodeExperiment(f.token);
    expect(decoded.config.preset).toBe(retiredPreset(f.preset, 1)!.replacement);
    expect(decoded.ignored[0]).toEqual({ field: 'preset', reason: retiredPreset(f.preset, 1)!.reason });
    for (const i of decoded.ignored.slice(1)) expect(i.reason).toBe('settings of the retired first agent swarm');
    // What the link set outside the retired swarm's settings is kept.
    for (const [key, value] of Object.entries(kept(f.overrides))) expect([key, (decoded.config.settings as Record<string, unknown>)[key]]).toEqual([key, value]);
  });

  it('maps every setting of then onto a setting of today', () => {
    const migrated = Object.keys(migrateSettingKeys(fixtures[0].settings)).filter((k) => !k.startsWith(RETIRED_SETTING_PREFIX));
    expect(migrated.filter((k) => !(SETTING_KEYS as readonly string[]).includes(k))).toEqual([]);
    // In a version-1 link `swarm.*` are the retired first swarm's settings.
    const retired = Object.keys(fixtures[0].settings).filter((k) => k.startsWith('swarm.')).length;
    expect(retired).toBeGreaterThan(0);
    expect(migrated.length).toBe(Object.keys(fixtures[0].settings).length - retired + 1); // IMPALA's ρ̄ became two clips
  });

  it('re-encodes at the new version, and that link opens the same settings', () => {
    const f = fixtures.find((x) => x.overrides['ppo.clip'] !== undefined)!;
    const decoded = decodeExperiment(f.token);
    expect(decoded.config.settings['ppo.clipCoef']).toBe(0.3);
    expect(decoded.config.settings['ppo.updateEpochs']).toBe(7);
    const again = decodeExperiment(encodeExperiment(decoded.config));
    expect(again.config).toEqual(decoded.config);
    expect(LINK_VERSION).toBe(4);
  });
});

describe('migrations', () => {
  it("maps IMPALA's one ρ̄ onto both of its clips, and a new key wins over its old name", () => {
    expect(migrateSettingKeys({ 'impala.rhoBar': 2, seed: 3 })).toEqual({ 'impala.clipRhoThreshold': 2, 'impala.clipPgRhoThreshold': 2, seed: 3 });
    expect(migrateSettingKeys({ 'ppo.clip': 0.1, 'ppo.clipCoef': 0.3 })).toEqual({ 'ppo.clipCoef': 0.3 });
  });

  it('migrates a saved config so that it validates, and leaves anything else alone', () => {
    const old = { preset: 'dqn-cartpole', settings: { ...fixtures.find((f) => f.preset === 'dqn-cartpole')!.settings } };
    const migrated = migrateConfig(old) as { preset: string; settings: Record<string, unknown> };
    expect(resolveExperiment(migrated.preset, kept(migrated.settings)).settings['dqn.doubleDqn']).toBe(true);
    expect(migrateConfig('not a config')).toBe('not a config');
    expect(migrateConfig({ settings: [1, 2] })).toEqual({ settings: [1, 2] });
  });
});

describe('links and saved runs made before continuous PPO took its id as prefix (version 2: ppoc.*)', () => {
  const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));

  it('open with every ppoc.* setting, hidden ones too, under ppo-continuous.*', () => {
    const decoded = decodeExperiment(token({ v: 2, p: 'ppo-continuous-pendulum', s: { seed: 6, 'ppoc.lr': 0.002, 'ppoc.updateEpochs': 3, 'ppoc.annealLr': false }, ui: { h: ['ppoc.gamma', 'config'] } }));
    expect(decoded.ignored).toEqual([]);
    expect(decoded.config.settings).toMatchObject({ seed: 6, 'ppo-continuous.lr': 0.002, 'ppo-continuous.updateEpochs': 3, 'ppo-continuous.annealLr': false });
    expect(decoded.ui.hide).toEqual(['ppo-continuous.gamma', 'config']);
    expect(Object.keys(decoded.config.settings).filter((k) => k.startsWith('ppoc.'))).toEqual([]);
  });

  it('maps every continuous PPO setting, and only from links older than version 3', () => {
    const now = SETTING_KEYS.filter((k) => k.startsWith('ppo-continuous.'));
    const old = Object.fromEntries(now.map((k) => [k.replace('ppo-continuous.', 'ppoc.'), 1]));
    expect(Object.keys(migrateSettingKeys(old, 2)).sort()).toEqual([...now].sort());
    expect(migrateSettingKeys({ 'ppoc.lr': 1 }, 3)).toEqual({ 'ppoc.lr': 1 });
    // A version-3 link with an old key is refused with a reason, not silently renamed.
    const decoded = decodeExperiment(token({ v: 3, p: 'ppo-continuous-pendulum', s: { 'ppoc.lr': 0.002 } }));
    expect(decoded.ignored.map((p) => p.field)).toEqual(['ppoc.lr']);
  });

  it('a saved run (run file or run store) with ppoc.* settings revives under the new keys', () => {
    const revived = reviveConfig({ preset: 'ppo-continuous-pendulum', settings: { 'ppoc.lr': 0.002, seed: 2 } }) as { preset: string; settings: Record<string, unknown> };
    expect(revived.settings).toMatchObject({ 'ppo-continuous.lr': 0.002, seed: 2 });
    expect(resolveExperiment(revived.preset, revived.settings).settings['ppo-continuous.lr']).toBe(0.002);
  });
});
