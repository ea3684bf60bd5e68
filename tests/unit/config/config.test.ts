import { describe, expect, it } from 'vitest';
import { ConfigError, changedSettings, parseSettingText, resolveExperiment } from '../../../src/config/config';
import { PRESETS } from '../../../src/config/presets';
import { SETTINGS, SETTING_KEYS, defaultSettings } from '../../../src/config/settings';

describe('settings table', () => {
  it('every default lies inside its own bounds', () => {
    for (const key of SETTING_KEYS) {
      const s = SETTINGS[key];
      if (s.kind === 'int' || s.kind === 'number') {
        expect(s.default, key).toBeGreaterThanOrEqual(s.min);
        expect(s.default, key).toBeLessThanOrEqual(s.max);
      }
      if (s.kind === 'enum') expect(s.options as readonly string[], key).toContain(s.default);
      expect(s.help.length, key).toBeGreaterThan(10);
    }
  });

  it('every preset resolves through the schema', () => {
    for (const preset of PRESETS) {
      const config = resolveExperiment(preset.name);
      expect(config.preset).toBe(preset.name);
      expect(preset.description.length).toBeGreaterThan(20);
    }
  });
});

describe('resolveExperiment', () => {
  it('layers defaults, then the preset, then the overrides', () => {
    const config = resolveExperiment('quickstart', { seed: 7, 'reinforce.lr': 0.002 });
    expect(config.settings.seed).toBe(7);
    expect(config.settings['reinforce.lr']).toBe(0.002);
    expect(config.settings['env.id']).toBe('CartPole-v1');
    expect(config.settings['reinforce.gamma']).toBe(defaultSettings()['reinforce.gamma']);
    expect(changedSettings(config)).toEqual({ seed: 7, 'reinforce.lr': 0.002 });
  });

  it('names the field for an unknown preset, an unknown key, and a value out of range', () => {
    expect(() => resolveExperiment('nope')).toThrow(ConfigError);
    expect(() => resolveExperiment('nope')).toThrow(/^preset: unknown preset "nope"/);
    expect(() => resolveExperiment('quickstart', { 'reinforce.lrr': 0.1 })).toThrow(/^reinforce\.lrr: unknown setting/);
    expect(() => resolveExperiment('quickstart', { actors: 17 })).toThrow(/^actors: must be an integer in \[1, 16\], got 17/);
    expect(() => resolveExperiment('quickstart', { actors: 1.5 })).toThrow(/^actors:/);
    expect(() => resolveExperiment('quickstart', { 'env.id': 'Pong' })).toThrow(/^env\.id: must be one of/);
  });
});

describe('parseSettingText', () => {
  it('parses numbers and enums from command-line text', () => {
    expect(parseSettingText('reinforce.lr', '3e-3')).toBe(0.003);
    expect(parseSettingText('env.id', 'Acrobot-v1')).toBe('Acrobot-v1');
  });

  it('rejects text that is not a number', () => {
    expect(() => parseSettingText('seed', 'abc')).toThrow(/^seed: expected a number, got "abc"/);
    expect(() => parseSettingText('seed', '')).toThrow(/^seed: expected a number/);
  });
});
