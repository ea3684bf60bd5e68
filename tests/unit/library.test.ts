import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index';

describe('library entry', () => {
  it('exports the public API named in DESIGN.md', () => {
    for (const name of ['Model', 'Algorithm', 'Agent', 'remoteClass', 'ActorPool', 'makeEnv', 'gae', 'vtrace', 'criticalSteps', 'parlReward', 'scheduleValue', 'encodeExperiment', 'decodeExperiment', 'Reinforce', 'Ppo', 'A2c', 'Impala', 'Dqn', 'EsLearner']) {
      expect(lib, name).toHaveProperty(name);
      expect(typeof (lib as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('makes a working CartPole through the registry', () => {
    const env = lib.makeEnv('CartPole-v1');
    const { obs } = env.reset({ seed: 1 });
    expect(obs).toHaveLength(4);
    expect(env.step(0).reward).toBe(1);
  });
});
