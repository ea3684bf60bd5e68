import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { encodeCheckpoint } from '../../../src/core/checkpoint';
import { DATASET_MIXES, datasetFileFromCheckpoint, isDatasetMixName } from '../../../src/engine/datasetMaker';
import { readDataset } from '../../../src/runs/dataset';

const PENDULUM = { envId: 'Pendulum-v1', obsDim: 3, actionDim: 1 };
const EPISODE = 200; // Pendulum-v1's time limit
const SHAPES = [[3, 16], [16], [16, 16], [16], [16, 1], [1], [16, 1], [1]];

/** A squashed-Gaussian actor [3 → 16 → 16 → (mean, logStd)] with the given weight at flat index i of tensor k. */
function actor(weight: (k: number, i: number) => number): Uint8Array {
  const weights = SHAPES.map((s, k) => Float32Array.from({ length: s.reduce((a, b) => a * b, 1) }, (_, i) => weight(k, i)));
  return encodeCheckpoint({ weights, meta: {}, shapes: SHAPES });
}

const std = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};

describe('dataset mixes', () => {
  const config = resolveExperiment('sac-pendulum', { 'model.hidden': 16, seed: 4 });

  it('keeps the default mix bit for bit: the file the code wrote before the mix option existed', async () => {
    // Weights 0.3·sin(7k + 1.3i): a policy that is neither zero nor random. The digest is of the file
    // text the dataset maker wrote for this call before `mix` was added (recorded then, 5 episodes:
    // greedy 2, σ 0.3, σ 1 and uniform 1 each).
    const ckpt = actor((k, i) => 0.3 * Math.sin(7 * k + 1.3 * i));
    const byDefault = await datasetFileFromCheckpoint(config, ckpt, 5);
    expect(createHash('sha256').update(byDefault.text).digest('hex')).toBe('ffe11caf25a122de1874d8441567d61c1c9832737ad4e1d004771b77f30e0809');
    expect((await datasetFileFromCheckpoint(config, ckpt, 5, 'mixed')).text).toBe(byDefault.text);
  });

  it('medium: half greedy, half σ 0.1 on the tanh scale, nothing else', async () => {
    expect(DATASET_MIXES.medium.map((p) => p.label)).toEqual(['greedy', 'σ 0.1']);
    // The zero actor's greedy action is 2·tanh(0) = 0; with noise it is 2·clip(0 + 0.1ε, ±1) = 0.2ε.
    const file = await datasetFileFromCheckpoint(config, actor(() => 0), 5, 'medium');
    const d = readDataset(file.text, PENDULUM);
    // 5 episodes over 2 parts: the remainder goes to the first, so 3 greedy then 2 noisy.
    expect(d.size).toBe(5 * EPISODE);
    const a = Array.from(d.actions);
    expect(a.slice(0, 3 * EPISODE).every((x) => x === 0)).toBe(true);
    const noisy = a.slice(3 * EPISODE);
    // std of 0.2ε is 0.2 (400 draws: the sample std is within ±0.03 of it with room to spare).
    expect(std(noisy)).toBeGreaterThan(0.17);
    expect(std(noisy)).toBeLessThan(0.23);
    // No uniform or σ 1 part: nothing near the action bound (|0.2ε| ≥ 1 needs |ε| ≥ 5).
    expect(noisy.every((x) => Math.abs(x) < 1)).toBe(true);
    expect(d.source).toBe('sac-pendulum (sac, seed 4): 5 episodes of the final policy (budget 20000 env steps, mix medium), greedy / σ 0.1');
    expect(file.summary).toMatch(/mean returns greedy -?\d+\.\d, σ 0\.1 -?\d+\.\d$/);
  });

  it('knows its mix names', () => {
    expect(isDatasetMixName('mixed')).toBe(true);
    expect(isDatasetMixName('medium')).toBe(true);
    expect(isDatasetMixName('expert')).toBe(false);
    expect(isDatasetMixName('toString')).toBe(false);
  });
});

describe('the shipped medium dataset public/datasets/pendulum-medium.json', () => {
  it('is 100 Pendulum episodes of the medium mix, transitions that follow the Pendulum-v1 equations', () => {
    const d = readDataset(readFileSync(new URL('../../../public/datasets/pendulum-medium.json', import.meta.url), 'utf8'), PENDULUM);
    expect(d.size).toBe(100 * EPISODE);
    expect(d.source).toBe('sac-pendulum (sac, seed 7): 100 episodes of the final policy (budget 2500 env steps, mix medium), greedy / σ 0.1');
    for (let t = 0; t < d.size; t += 97) {
      const [c, s, thdot] = d.obs.subarray(3 * t, 3 * t + 3);
      const th = Math.atan2(s, c);
      const u = Math.min(2, Math.max(-2, d.actions[t]));
      // r = −(θ² + 0.1·θ̇² + 0.001·u²); θ̇' = clip(θ̇ + (15·sin θ + 3u)·0.05, ±8).
      expect(d.rewards[t]).toBeCloseTo(-(th * th + 0.1 * thdot * thdot + 0.001 * u * u), 3);
      expect(d.nextObs[3 * t + 2]).toBeCloseTo(Math.min(8, Math.max(-8, thdot + (15 * Math.sin(th) + 3 * u) * 0.05)), 4);
    }
  });
});
