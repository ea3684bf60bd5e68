import { describe, expect, it } from 'vitest';
import { groupedSettings } from '../../../src/ui/components/ConfigPanel';
import { lambdaEditorKeys } from '../../../src/ui/components/LambdaEditor';
import type { ExperimentSettings } from '../../../src/config/settings';

const keysFor = (algorithm: ExperimentSettings['algorithm'], world: ExperimentSettings['marl.env'] = 'simple_spread_v3') =>
  groupedSettings({ algorithm, 'marl.env': world }, []).flatMap(([, keys]) => keys as string[]);

describe('config panel: settings shown for the chosen algorithm', () => {
  it('shows a swarm run its task settings, not the classic env, network or segment settings', () => {
    const keys = keysFor('swarm');
    expect(keys).toContain('swarm.subtasks');
    expect(keys).toContain('seed');
    for (const k of ['env.id', 'model.hidden', 'run.envSteps', 'sampling.segmentLength', 'inference', 'ppo.lr']) expect(keys).not.toContain(k);
  });

  it('shows PPO its own hyperparameters and sampling, not IMPALA queue settings or the swarm', () => {
    const keys = keysFor('ppo');
    for (const k of ['ppo.lr', 'sampling.segmentLength', 'inference', 'env.id']) expect(keys).toContain(k);
    for (const k of ['sampling.queueCapacity', 'impala.lr', 'dqn.lr', 'swarm.subtasks', 'reinforce.lr']) expect(keys).not.toContain(k);
    expect(keysFor('impala')).toContain('sampling.queueCapacity');
  });

  it('shows the target return only where a run has one: not on simple_tag, whose return means no "solved", nor to the swarm', () => {
    expect(keysFor('ppo')).toContain('run.targetReturn');
    expect(keysFor('maddpg', 'simple_spread_v3')).toEqual(expect.arrayContaining(['run.targetReturn', 'run.stopAtTarget']));
    const tag = keysFor('maddpg', 'simple_tag_v3');
    expect(tag).toContain('marl.env');
    expect(tag).not.toContain('run.targetReturn');
    expect(tag).not.toContain('run.stopAtTarget');
    expect(keysFor('swarm')).not.toContain('run.targetReturn');
  });
});

describe('config panel: one field per setting', () => {
  it.each(['swarm'] as const)('%s: the λ editor and the groups draw every setting once, and only its own', (algorithm) => {
    const editor = lambdaEditorKeys(algorithm);
    const all = [...keysFor(algorithm), ...editor];
    expect(new Set(all).size).toBe(all.length);
    expect(editor.length).toBeGreaterThan(0);
    for (const k of editor) expect(k.startsWith('swarm.')).toBe(true);
  });
});
