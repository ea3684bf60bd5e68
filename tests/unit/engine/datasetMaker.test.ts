import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { encodeCheckpoint } from '../../../src/core/checkpoint';
import { datasetFileFromCheckpoint } from '../../../src/engine/datasetMaker';
import { readDataset } from '../../../src/runs/dataset';

const PENDULUM = { envId: 'Pendulum-v1', obsDim: 3, actionDim: 1 };
const EPISODE = 200; // Pendulum-v1 never terminates; the time limit cuts it at 200 steps.

/** A squashed-Gaussian actor [3 → 16 → 16 → (mean, logStd)] with every weight 0: its greedy action is 2·tanh(0) = 0. */
function zeroSacActor(): Uint8Array {
  const shapes = [[3, 16], [16], [16, 16], [16], [16, 1], [1], [16, 1], [1]];
  return encodeCheckpoint({ weights: shapes.map((s) => new Float32Array(s.reduce((a, b) => a * b, 1))), meta: {}, shapes });
}

const std = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};

describe('datasetFileFromCheckpoint (what --save-dataset and the page button write)', () => {
  const config = resolveExperiment('sac-pendulum', { 'model.hidden': 16, seed: 4 });

  it('plays greedy, σ 0.3, σ 1 and uniform episodes whose transitions follow the Pendulum-v1 equations', async () => {
    const file = await datasetFileFromCheckpoint(config, zeroSacActor(), 4);
    const d = readDataset(file.text, PENDULUM);
    expect(d.size).toBe(4 * EPISODE);
    expect(file.size).toBe(d.size);
    expect(Array.from(d.dones).every((x) => x === 0)).toBe(true);
    expect(d.source).toMatch(/sac-pendulum \(sac, seed 4\): 4 episodes/);
    const a = Array.from(d.actions);
    for (let t = 0; t < d.size; t++) {
      const [c, s, thdot] = d.obs.subarray(3 * t, 3 * t + 3);
      const th = Math.atan2(s, c);
      const u = Math.min(2, Math.max(-2, a[t]));
      // Gymnasium: r = −(θ² + 0.1·θ̇² + 0.001·u²); θ̇' = clip(θ̇ + (3g/(2l)·sin θ + 3/(m l²)·u)·dt, ±8); θ' = θ + θ̇'·dt.
      expect(d.rewards[t]).toBeCloseTo(-(th * th + 0.1 * thdot * thdot + 0.001 * u * u), 3);
      const newThdot = Math.min(8, Math.max(-8, thdot + (15 * Math.sin(th) + 3 * u) * 0.05));
      const newTh = th + newThdot * 0.05;
      expect(d.nextObs[3 * t]).toBeCloseTo(Math.cos(newTh), 4);
      expect(d.nextObs[3 * t + 1]).toBeCloseTo(Math.sin(newTh), 4);
      expect(d.nextObs[3 * t + 2]).toBeCloseTo(newThdot, 4);
      // Inside an episode each s' is the next row's s.
      if ((t + 1) % EPISODE !== 0) expect(Array.from(d.obs.subarray(3 * (t + 1), 3 * t + 6))).toEqual(Array.from(d.nextObs.subarray(3 * t, 3 * t + 3)));
    }
    const part = (k: number) => a.slice(k * EPISODE, (k + 1) * EPISODE);
    // Greedy: the zero actor's mean action, 0 every step.
    expect(part(0).every((x) => x === 0)).toBe(true);
    // σ 0.3 on the tanh scale: a = 2·clip(0.3ε, ±1), std ≈ 0.6 (clipped only past 3.3σ).
    expect(std(part(1))).toBeGreaterThan(0.45);
    expect(std(part(1))).toBeLessThan(0.75);
    // σ 1: a = 2·clip(ε, ±1), at a bound when |ε| > 1, P = 0.317, so about 63 of 200 steps.
    const atBound = part(2).filter((x) => Math.abs(x) === 2).length;
    expect(atBound).toBeGreaterThan(35);
    expect(atBound).toBeLessThan(95);
    // Uniform in [−2, 2]: std 4/√12 ≈ 1.15, never at the bound exactly.
    expect(part(3).every((x) => Math.abs(x) <= 2)).toBe(true);
    expect(std(part(3))).toBeGreaterThan(0.95);
    expect(file.summary).toMatch(/^800 transitions of Pendulum-v1 .*greedy -?\d/);
  });

  it('refuses a policy that is not a Box-action actor', async () => {
    await expect(datasetFileFromCheckpoint(resolveExperiment('quickstart'), zeroSacActor(), 4)).rejects.toThrow(/needs a Box-action algorithm/);
  });
});
