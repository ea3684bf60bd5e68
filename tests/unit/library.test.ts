import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index';

describe('library entry', () => {
  it('exports the public API named in DESIGN.md', () => {
    for (const name of ['Model', 'Algorithm', 'Agent', 'remoteClass', 'ActorPool', 'makeEnv', 'gae', 'vtrace', 'criticalSteps', 'parlReward', 'scheduleValue', 'encodeExperiment', 'decodeExperiment', 'Reinforce', 'Ppo', 'A2c', 'Impala', 'Dqn', 'EsLearner']) {
      expect(lib, name).toHaveProperty(name);
      expect(typeof (lib as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('exports every algorithm the registry holds: each loads an update rule of its kind, or is one whose loop builds its own (ES, the swarms)', async () => {
    expect(lib.ALGORITHM_IDS.length).toBe(lib.ALGORITHM_DESCRIPTORS.length);
    const kinds: Record<string, string> = {};
    for (const id of lib.ALGORITHM_IDS) {
      const d = lib.descriptorOf(id);
      const loading = lib.loadAlgorithm(id);
      if (loading === null) {
        // The loops that build their own learner: evolution strategies and the swarm.
        expect(['es', 'swarm'], id).toContain(d.loop);
        continue;
      }
      const loaded = await loading;
      kinds[id] = loaded.kind;
      expect(typeof loaded.create, id).toBe('function');
      if (d.family === 'marl') expect(loaded.kind, id).toBe('marl');
      else if (d.actionSpace === 'box') expect(loaded.kind, id).toBe('continuous');
      else expect([loaded.kind, d.network !== null], id).toEqual(['network', true]);
    }
    expect(new Set(Object.values(kinds))).toEqual(new Set(['network', 'continuous', 'marl']));
  });

  it('makes a working CartPole through the registry', () => {
    const env = lib.makeEnv('CartPole-v1');
    const { obs } = env.reset({ seed: 1 });
    expect(obs).toHaveLength(4);
    expect(env.step(0).reward).toBe(1);
  });
});
