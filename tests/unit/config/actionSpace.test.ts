import { describe, expect, it } from 'vitest';
import { envIdsFor } from '../../../src/config/actionSpace';
import { ConfigError, resolveExperiment } from '../../../src/config/config';
import { descriptorOf } from '../../../src/config/registry';
import { BOX_ENV_IDS, ENV_IDS } from '../../../src/config/sharedSettings';
import { actionKind } from '../../../src/envs/registry';

describe('action-space kinds of algorithms and environments', () => {
  it('the config names the Box-action envs the env registry has', () => {
    for (const id of ENV_IDS) expect(BOX_ENV_IDS.includes(id), id).toBe(actionKind(id) === 'box');
  });

  it('rejects a discrete algorithm on Pendulum-v1 with a ConfigError naming env.id', () => {
    let err: unknown;
    try {
      resolveExperiment('dqn-cartpole', { 'env.id': 'Pendulum-v1' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).field).toBe('env.id');
    expect((err as ConfigError).message).toMatch(/DQN needs an environment with discrete actions, but Pendulum-v1 has continuous/);
  });

  it('rejects a Box-action algorithm on CartPole-v1 and accepts it on both continuous envs', () => {
    expect(() => resolveExperiment('sac-pendulum', { 'env.id': 'CartPole-v1' })).toThrow(/env.id: SAC needs an environment with continuous \(Box\) actions/);
    expect(resolveExperiment('sac-pendulum', { 'env.id': 'MountainCarContinuous-v0' }).settings['env.id']).toBe('MountainCarContinuous-v0');
    expect(envIdsFor(descriptorOf('td3'))).toEqual(['Pendulum-v1', 'MountainCarContinuous-v0']);
    expect(envIdsFor(descriptorOf('ppo'))).not.toContain('Pendulum-v1');
  });
});
