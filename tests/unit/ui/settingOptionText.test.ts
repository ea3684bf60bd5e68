import { describe, expect, it } from 'vitest';
import { SETTINGS, type Setting } from '../../../src/config/settings';
import { optionText, shownDefault } from '../../../src/ui/components/settingText';

describe('optionText', () => {
  it('names algorithms by their label, not their key', () => {
    expect(optionText('algorithm', 'swarm')).toBe('Agent swarm (set policy, decomposition task, PPO)');
    expect(optionText('algorithm', 'ppo-continuous')).toBe('PPO (Gaussian)');
    expect(optionText('marl.env', 'simple_spread_v3')).toBe('cooperative navigation (simple_spread)');
  });

  it('leaves values without a label as they are, and ignores inherited keys', () => {
    expect(optionText('env.id', 'CartPole-v1')).toBe('CartPole-v1');
    expect(optionText('algorithm', 'toString')).toBe('toString');
    expect(optionText('constructor', 'x')).toBe('x');
  });

  it('says a preset default of an enum setting in the same words as its options', () => {
    const algorithm = SETTINGS.algorithm as Setting;
    expect(shownDefault(algorithm, 'swarm', undefined, (o) => optionText('algorithm', o))).toBe(
      'Default for this preset Agent swarm (set policy, decomposition task, PPO) (REINFORCE elsewhere).',
    );
  });
});
