import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { canSaveDataset, DATASET_VERSION, readDataset, writeDataset, type Dataset } from '../../../src/runs/dataset';

const PENDULUM = { envId: 'Pendulum-v1', obsDim: 3, actionDim: 1 };

function tiny(): Dataset {
  return {
    ...PENDULUM,
    size: 2,
    source: 'test',
    obs: Float32Array.from([1, 0, 0.5, -1, 0.25, 2]),
    actions: Float32Array.from([1.5, -2]),
    rewards: Float32Array.from([-0.1, -9.5]),
    nextObs: Float32Array.from([0.9, 0.1, 0.4, -0.5, 0.5, 1]),
    dones: Uint8Array.from([0, 1]),
  };
}

describe('offline dataset file format', () => {
  it('round-trips every array bit for bit', () => {
    const d = tiny();
    const back = readDataset(writeDataset(d), PENDULUM);
    expect(back.size).toBe(2);
    expect(Array.from(back.obs)).toEqual(Array.from(d.obs));
    expect(Array.from(back.actions)).toEqual([1.5, -2]);
    expect(Array.from(back.rewards)).toEqual(Array.from(d.rewards));
    expect(Array.from(back.nextObs)).toEqual(Array.from(d.nextObs));
    expect(Array.from(back.dones)).toEqual([0, 1]);
    expect(back.source).toBe('test');
  });

  it('refuses another environment, other sizes, another version and broken arrays, naming the problem', () => {
    const text = writeDataset(tiny());
    expect(() => readDataset(text, { envId: 'MountainCarContinuous-v0', obsDim: 2, actionDim: 1 })).toThrow(/made on "Pendulum-v1".*MountainCarContinuous-v0/);
    expect(() => readDataset(text, { ...PENDULUM, obsDim: 4 })).toThrow(/obsDim is 3, but Pendulum-v1 has 4/);
    expect(() => readDataset(text, { ...PENDULUM, actionDim: 2 })).toThrow(/actionDim is 1/);
    const o = JSON.parse(text) as Record<string, unknown>;
    expect(() => readDataset(JSON.stringify({ ...o, version: DATASET_VERSION + 1 }), PENDULUM)).toThrow(/version 2 is not supported/);
    expect(() => readDataset(JSON.stringify({ ...o, format: 'other' }), PENDULUM)).toThrow(/format/);
    expect(() => readDataset(JSON.stringify({ ...o, size: 3 }), PENDULUM)).toThrow(/obs holds 6 values, expected 9/);
    expect(() => readDataset(JSON.stringify({ ...o, rewards: undefined }), PENDULUM)).toThrow(/rewards is missing/);
    expect(() => readDataset('not json', PENDULUM)).toThrow(/not JSON/);
  });

  it('refuses to write non-finite values', () => {
    const d = tiny();
    d.rewards[1] = NaN;
    expect(() => writeDataset(d)).toThrow(/rewards\[1\] is not finite/);
  });

  it('is offered for off-policy Box-action runs only (their checkpoint is the actor the dataset maker plays)', () => {
    for (const preset of ['ddpg-pendulum', 'td3-pendulum', 'sac-pendulum', 'sac-mountaincar-continuous']) expect(canSaveDataset(resolveExperiment(preset)), preset).toBe(true);
    for (const preset of ['cql-pendulum', 'bc-pendulum', 'ppo-continuous-pendulum', 'quickstart', 'dqn-cartpole']) expect(canSaveDataset(resolveExperiment(preset)), preset).toBe(false);
  });
});
