/**
 * The multi-agent family's scale and target: MAPPO's preset opens the family, its target lies
 * between the random and the scripted team's returns, and the scale is found for simple_spread only.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS, getPreset } from '../../../src/config/presets';
import { descriptorOf } from '../../../src/config/registry';
import { SPREAD_SCALE, SPREAD_TARGET, returnScaleOf } from '../../../src/config/returnScales';
import { SETTINGS } from '../../../src/config/settings';
import { resolveExperiment } from '../../../src/config/config';

describe('the multi-agent family', () => {
  it("opens with mappo-spread: the first of the family's presets in the gallery's order", () => {
    const marl = PRESETS.filter((p) => p.settings.algorithm !== undefined && descriptorOf(p.settings.algorithm).family === 'marl');
    expect(marl[0].name).toBe('mappo-spread');
  });

  it('has a target on simple_spread between a random and the scripted team', () => {
    expect(SPREAD_SCALE.random).toBeLessThan(SPREAD_TARGET);
    expect(SPREAD_TARGET).toBeLessThan(SPREAD_SCALE.scripted);
    for (const name of ['mappo-spread', 'maddpg-spread', 'qmix-spread', 'vdn-spread', 'iql-spread']) {
      expect(resolveExperiment(name).settings['run.targetReturn']).toBe(SPREAD_TARGET);
    }
    expect(SETTINGS['run.targetReturn'].appliesTo).toEqual(expect.arrayContaining(['mappo', 'qmix', 'maddpg', 'ppo']));
  });

  it('has a scale for simple_spread only, and none outside the family', () => {
    expect(returnScaleOf(resolveExperiment('mappo-spread').settings)).toBe(SPREAD_SCALE);
    expect(returnScaleOf(resolveExperiment('maddpg-tag').settings)).toBeNull();
    expect(returnScaleOf(resolveExperiment('ppo-cartpole').settings)).toBeNull();
    expect(getPreset('mappo-spread')?.settings['marl.env']).toBe('simple_spread_v3');
  });
});
