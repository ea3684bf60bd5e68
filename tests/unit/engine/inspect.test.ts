import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { heatmapOf, inspectNetwork, sliceGrid, STATE_SLICES } from '../../../src/engine/inspect';
import { forwardLayers, softmaxRows } from '../../../src/runs/networkMath';

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * A CartPole policy made by hand: one relu unit h = relu(θ) (the pole angle), logits [0, 10·h],
 * so P(push right) = σ(10·relu(θ)): ½ wherever the pole leans left or stands, more to the right.
 */
function handPolicy() {
  const kernel0 = new Float32Array([0, 0, 1, 0]); // [4, 1]
  const bias0 = new Float32Array([0]);
  const kernel1 = new Float32Array([0, 10]); // [1, 2]
  const bias1 = new Float32Array([0, 0]);
  const specs = [
    { name: 'policy/0/kernel', shape: [4, 1] },
    { name: 'policy/0/bias', shape: [1] },
    { name: 'policy/1/kernel', shape: [1, 2] },
    { name: 'policy/1/bias', shape: [2] },
  ];
  return { specs, weights: [kernel0, bias0, kernel1, bias1] };
}

describe('the forward pass in plain numbers', () => {
  it('computes h = f(x·W + b) per layer, the last layer linear, for a batch at once', () => {
    // 2 → 2 (tanh) → 1: W0 = [[1, 2], [3, 4]], b0 = [0, 1], W1 = [[1], [-1]], b1 = [0.5].
    const net = { sizes: [2, 2, 1], weights: [[1, 2, 3, 4], [1, -1]], biases: [[0, 1], [0.5]], activation: 'tanh' as const };
    const out = forwardLayers(net, [1, 0, 0, 1], 2);
    // x = [1, 0]: z = [1, 3], h = tanh(z); y = h0 − h1 + 0.5. x = [0, 1]: z = [3, 5].
    expect(Array.from(out[1])).toEqual([Math.tanh(1), Math.tanh(3), Math.tanh(3), Math.tanh(5)]);
    expect(out[2][0]).toBeCloseTo(Math.tanh(1) - Math.tanh(3) + 0.5, 12);
    expect(out[2][1]).toBeCloseTo(Math.tanh(3) - Math.tanh(5) + 0.5, 12);
    const p = softmaxRows([0, Math.log(3)], 1, 2);
    expect(p[0]).toBeCloseTo(0.25, 12);
    expect(p[1]).toBeCloseTo(0.75, 12);
  });
});

describe('a look inside the network', () => {
  it('draws CartPole’s policy over pole angle × angular velocity, one value per cell', () => {
    const { specs, weights } = handPolicy();
    const config = resolveExperiment('quickstart', { 'model.activation': 'relu' });
    const record = inspectNetwork(config, specs, weights, 12)!;
    expect(record.update).toBe(12);
    const h = record.heatmap!;
    expect(h.xKey).toBe('pole angle');
    expect(h.yKey).toBe('pole angular velocity');
    expect(h.n * h.n).toBe(h.prob.length);
    const slice = STATE_SLICES['CartPole-v1'];
    const { xs } = sliceGrid(slice, h.n);
    for (let j = 0; j < h.n; j += 6) {
      for (let i = 0; i < h.n; i++) {
        expect(h.prob[j * h.n + i]).toBeCloseTo(sigmoid(10 * Math.max(0, xs[i])), 3);
        // Greedy: right when the pole leans right (a tie at θ ≤ 0 goes to the first action).
        expect(h.greedy[j * h.n + i]).toBe(xs[i] > 0 ? 1 : 0);
      }
    }
    // REINFORCE has no value network.
    expect(h.value).toBeNull();
    expect(record.network.sizes).toEqual([4, 1, 2]);
    expect(record.network.outputNames).toEqual(['push left', 'push right']);
  });

  it('a Q network shows its greedy action and max Q', () => {
    const { weights } = handPolicy();
    const q = heatmapOf(STATE_SLICES['CartPole-v1'], { sizes: [4, 1, 2], weights: [weights[0], weights[2]], biases: [weights[1], weights[3]], activation: 'relu' }, false, null, 3);
    // θ = −0.2095, 0, 0.2095 along x: Q = [0, 10·relu(θ)], max Q = 0, 0, 2.095.
    expect(q.greedy.slice(0, 3)).toEqual([0, 0, 1]);
    expect(q.prob.slice(0, 3)).toEqual([0, 0, 1]);
    expect(q.value!.slice(0, 3)).toEqual([0, 0, 2.095]);
  });

  it('says nothing for a network that is not a policy or Q stack', () => {
    const config = resolveExperiment('quickstart');
    expect(inspectNetwork(config, [{ name: 'orchestrator/w', shape: [2, 2] }], [new Float32Array(4)], 1)).toBeNull();
  });
});
