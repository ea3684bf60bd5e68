import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../src/config/presets';
import { teachingFamily, type TeachingFamily } from '../../../src/ui/components/family';
import { findPreset, TOPICS, topicsFor } from '../../../src/ui/components/teachingTopics';
import { chartExplanation } from '../../../src/ui/components/charts/explanations';

const FAMILIES: TeachingFamily[] = ['classic', 'continuous', 'offline', 'marl', 'swarm'];
const familyOf = (presetName: string) => {
  const preset = PRESETS.find((p) => p.name === presetName);
  if (!preset?.settings.algorithm) throw new Error(`no preset ${presetName}`);
  return teachingFamily(preset.settings.algorithm);
};

describe('"What am I looking at?" follows the open preset’s family', () => {
  it('sorts the presets into the five families the page teaches', () => {
    expect(familyOf('quickstart')).toBe('classic');
    expect(familyOf('sac-pendulum')).toBe('continuous');
    expect(familyOf('td3-pendulum')).toBe('continuous');
    expect(familyOf('cql-pendulum')).toBe('offline');
    expect(familyOf('qmix-spread')).toBe('marl');
    expect(familyOf('swarm-annealed')).toBe('swarm');
  });

  it.each(FAMILIES)('%s: its own notes first, none of another family’s among them', (family) => {
    const { own, other } = topicsFor(family);
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const t of own) expect(t.family).toBe(family);
    expect(own.length + other.length).toBe(TOPICS.length);
  });

  it('every note opens a preset of its own family', () => {
    for (const t of TOPICS) {
      const preset = findPreset(t);
      expect(preset, t.id).toBeDefined();
      expect(familyOf(preset?.name ?? ''), t.id).toBe(t.family);
    }
  });

  it('states the Pendulum scale the continuous and offline notes teach', () => {
    const text = (family: TeachingFamily) => topicsFor(family).own.map((t) => t.text).join(' ');
    expect(text('continuous')).toMatch(/−150 to −200/);
    expect(text('continuous')).toMatch(/−1,200 to −1,500/);
    expect(text('offline')).toMatch(/no new environment steps/);
    expect(text('offline')).toMatch(/conservative/i);
    expect(text('marl')).toMatch(/shared?|team/);
  });
});

describe('chart explanations per family', () => {
  it('explains the return chart on each family’s own scale', () => {
    expect(chartExplanation('return-chart', 'classic')?.what).toMatch(/target/);
    expect(chartExplanation('return-chart', 'continuous')?.what).toMatch(/−150 to −200/);
    expect(chartExplanation('return-chart', 'offline')?.what).toMatch(/test episodes/);
    expect(chartExplanation('return-chart', 'marl')?.what).toMatch(/team/);
    expect(chartExplanation('return-chart', 'swarm')?.what).toMatch(/bonuses leave the return/);
  });

  it('names only signs that can occur in the family', () => {
    // The swarm's context and batching diagnostics are never drawn for CartPole.
    expect(JSON.stringify(chartExplanation('loss-chart', 'classic'))).not.toMatch(/subagent|orchestrator/);
    expect(JSON.stringify(chartExplanation('loss-chart', 'swarm'))).toMatch(/subtasks per subagent/);
    for (const family of ['continuous', 'offline', 'marl'] as const) {
      const e = chartExplanation('loss-chart', family);
      expect(JSON.stringify(e), family).not.toMatch(/subagent|orchestrator|policy loss wobbles/i);
    }
  });
});
