import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ppo } from '../../../src/algorithms/ppo';
import { Reinforce } from '../../../src/algorithms/reinforce';
import { Dqn } from '../../../src/algorithms/dqn';
import { ActorCriticMlp, PolicyMlp, QMlp, type MlpSpec } from '../../../src/core/mlp';
import { DQN_PARAMS, PPO_PARAMS, REINFORCE_PARAMS } from './descriptorParams';

const spec: MlpSpec = { obsDim: 4, numActions: 2, hidden: [8], activation: 'tanh' };
const stepSize = (alg: object) => Reflect.get(Reflect.get(alg, 'optimizer') as object, 'learningRate') as number;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('an update rule applies a live change through applyChange', () => {
  it('PPO: a new lr replaces the base of its annealing (lr_k = lr · (1 − f))', () => {
    const ppo = new Ppo(new ActorCriticMlp(spec, 1), { ...PPO_PARAMS, lr: 1e-3, annealLr: true });
    ppo.setProgress(0.25);
    expect(stepSize(ppo)).toBeCloseTo(7.5e-4, 12);
    expect(ppo.applyChange('lr', 2e-3)).toBe(true);
    // Same point of the schedule, new base: 2e-3 · 0.75.
    expect(stepSize(ppo)).toBeCloseTo(1.5e-3, 12);
    ppo.setProgress(0.5);
    expect(stepSize(ppo)).toBeCloseTo(1e-3, 12);
    expect(ppo.applyChange('clipCoef', 0.1)).toBe(true);
    expect(ppo.config.clipCoef).toBe(0.1);
    expect(ppo.applyChange('gamma', 0.9)).toBe(false);
    expect(ppo.config.gamma).not.toBe(0.9);
    ppo.dispose();
  });

  it('REINFORCE and DQN without a schedule take the new rate as it is', () => {
    const r = new Reinforce(new PolicyMlp(spec, 1), { ...REINFORCE_PARAMS, lr: 0.01 });
    expect(r.applyChange('lr', 0.05)).toBe(true);
    expect(stepSize(r)).toBe(0.05);
    expect(r.applyChange('entCoef', 0.02)).toBe(true);
    expect(r.config.entCoef).toBe(0.02);
    expect(r.applyChange('lr', 'fast')).toBe(false);
    r.dispose();
    const q = new QMlp(spec, 1);
    const dqn = new Dqn(q, new QMlp(spec, 2), { ...DQN_PARAMS, lr: 1e-3 });
    expect(dqn.applyChange('lr', 5e-4)).toBe(true);
    expect(stepSize(dqn)).toBe(5e-4);
    expect(dqn.applyChange('entCoef', 0.1)).toBe(false);
    dqn.dispose();
  });
});
