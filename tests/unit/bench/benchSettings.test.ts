import { describe, expect, it } from 'vitest';
import { ConfigError, resolveExperiment } from '../../../src/config/config';
import { settingOverrides } from '../../../bench/engine';

describe('solve-cartpole / profile --set', () => {
  it('parses key=value pairs by each setting\'s kind, over the preset', () => {
    const o = settingOverrides('envsPerActor=8, ppo.updateEpochs=10,ppo.annealLr=false');
    expect(o).toEqual({ envsPerActor: 8, 'ppo.updateEpochs': 10, 'ppo.annealLr': false });
    const s = resolveExperiment('ppo-cartpole', o).settings;
    expect([s.envsPerActor, s['ppo.updateEpochs'], s['ppo.annealLr'], s.actors]).toEqual([8, 10, false, 2]);
    expect(settingOverrides(undefined)).toEqual({});
  });

  it.each([
    ['envsPerActor', 'expected key=value'],
    ['=8', 'expected key=value'],
    ['envsPerActor=8,envsPerActor=16', 'given more than once'],
    ['envsPerActor=lots', 'expected a number'],
    ['ppo.annealLr=yes', 'expected true or false'],
  ])('refuses %j', (text, message) => {
    expect(() => settingOverrides(text)).toThrow(ConfigError);
    expect(() => settingOverrides(text)).toThrow(message);
  });
});
