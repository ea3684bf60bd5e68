/**
 * A look inside the learner's network, as TensorFlow Playground shows its own: the dense stack's
 * weights and its activations on one state (for continuous control, the actor's), and for the
 * classic-control tasks the policy and the value over a 2-D slice of the state space (two state variables on a grid, the others fixed).
 * Computed from the weights the learner already reads for checkpoints, in one batched pass over
 * the grid (src/runs/networkMath.ts), and sent as one compact record.
 */
import type { ExperimentConfig } from '../config/config';
import type { WeightSpec } from '../core/model';
import type { HeatmapSnapshot, InspectRecord, NetworkSnapshot } from '../runs/records';
import { argmaxRows, forwardLayers, softmaxRows, type DenseLayers } from '../runs/networkMath';

/** A 2-D slice of an env's observation space: obs = base, with obs[x.index] and obs[y.index] on a grid. */
export interface StateSlice {
  obsNames: string[];
  actionNames: string[];
  base: number[];
  x: { index: number; range: [number, number] };
  y: { index: number; range: [number, number] };
  /** The action whose probability the heatmap shows. */
  action: number;
}

/**
 * The slices: CartPole's pole angle (±12°, where the episode ends) × angular velocity; Acrobot's
 * two joint velocities (their bounds ±4π and ±9π) with both links hanging down; MountainCar's
 * whole state space (position × velocity).
 */
export const STATE_SLICES: Readonly<Record<string, StateSlice>> = {
  'CartPole-v1': {
    obsNames: ['cart position', 'cart velocity', 'pole angle', 'pole angular velocity'],
    actionNames: ['push left', 'push right'],
    base: [0, 0, 0, 0],
    x: { index: 2, range: [-0.2095, 0.2095] },
    y: { index: 3, range: [-2, 2] },
    action: 1,
  },
  'Acrobot-v1': {
    obsNames: ['cos θ1', 'sin θ1', 'cos θ2', 'sin θ2', 'θ1 velocity', 'θ2 velocity'],
    actionNames: ['torque −1', 'no torque', 'torque +1'],
    base: [1, 0, 1, 0, 0, 0],
    x: { index: 4, range: [-4 * Math.PI, 4 * Math.PI] },
    y: { index: 5, range: [-9 * Math.PI, 9 * Math.PI] },
    action: 2,
  },
  'MountainCar-v0': {
    obsNames: ['position', 'velocity'],
    actionNames: ['push left', 'no push', 'push right'],
    base: [-0.5, 0],
    x: { index: 0, range: [-1.2, 0.6] },
    y: { index: 1, range: [-0.07, 0.07] },
    action: 2,
  },
};

/** Cells per side of the heatmap grid. */
export const GRID_SIDE = 25;

/** The layers of dense stack `stack` from the weight specs (names `stack/i/kernel`, `stack/i/bias`); null if absent. */
export function denseStack(specs: readonly WeightSpec[], weights: readonly Float32Array[], stack: string, activation: 'tanh' | 'relu'): DenseLayers | null {
  const kernels: Float32Array[] = [];
  const biases: Float32Array[] = [];
  const sizes: number[] = [];
  specs.forEach((spec, k) => {
    const m = /^([^/]+)\/(\d+)\/(kernel|bias)$/.exec(spec.name);
    if (!m || m[1] !== stack) return;
    const layer = Number(m[2]);
    if (m[3] === 'kernel') {
      kernels[layer] = weights[k];
      sizes[layer] = spec.shape[0];
      sizes[layer + 1] = spec.shape[1];
    } else biases[layer] = weights[k];
  });
  if (kernels.length === 0 || kernels.length !== biases.length || [...kernels, ...biases].some((x) => x === undefined)) return null;
  return { sizes, weights: kernels, biases, activation };
}

/** The grid's observations, row-major [n², obsDim]: cell (i, j) at j · n + i. */
export function sliceGrid(slice: StateSlice, n: number): { obs: Float64Array; xs: number[]; ys: number[] } {
  const dim = slice.base.length;
  const at = (range: [number, number], i: number) => range[0] + ((range[1] - range[0]) * i) / (n - 1);
  const xs = Array.from({ length: n }, (_, i) => at(slice.x.range, i));
  const ys = Array.from({ length: n }, (_, j) => at(slice.y.range, j));
  const obs = new Float64Array(n * n * dim);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const row = (j * n + i) * dim;
      for (let d = 0; d < dim; d++) obs[row + d] = slice.base[d];
      obs[row + slice.x.index] = xs[i];
      obs[row + slice.y.index] = ys[j];
    }
  }
  return { obs, xs, ys };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

function snapshotOf(net: DenseLayers, stack: string, input: number[], inputNames: string[], outputNames: string[]): NetworkSnapshot {
  const acts = forwardLayers(net, input, 1);
  return {
    stack,
    inputNames,
    outputNames,
    sizes: [...net.sizes],
    weights: net.weights.map((w) => Array.from(w, round)),
    biases: net.biases.map((b) => Array.from(b, round)),
    input,
    activations: acts.map((a) => Array.from(a, round)),
  };
}

/** What the continuous-control actors see and do, and the state their activations are shown for. */
export const CONTINUOUS_VIEWS: Readonly<Record<string, { obsNames: string[]; actionNames: string[]; state: number[] }>> = {
  // Hanging straight down and at rest: where every swing-up starts.
  'Pendulum-v1': { obsNames: ['cos θ', 'sin θ', 'angular velocity'], actionNames: ['torque'], state: [-1, 0, 0] },
  // At rest in the valley (the env's start is near −0.5).
  'MountainCarContinuous-v0': { obsNames: ['position', 'velocity'], actionNames: ['push'], state: [-0.5, 0] },
};

/**
 * A Box-action actor as one dense stack (SAC, TD3, CQL, DDPG, Gaussian PPO): its trunk
 * (`actor/i`), and where it has one the mean head (`actor/mean`, after the trunk's activated last
 * layer). The output is the action before the tanh that bounds it; null when there is no actor.
 */
export function actorStack(specs: readonly WeightSpec[], weights: readonly Float32Array[], activation: 'tanh' | 'relu'): DenseLayers | null {
  const trunk = denseStack(specs, weights, 'actor', activation);
  if (!trunk) return null;
  const k = specs.findIndex((spec) => spec.name === 'actor/mean/kernel');
  const b = specs.findIndex((spec) => spec.name === 'actor/mean/bias');
  if (k < 0 || b < 0) return trunk;
  if (specs[k].shape[0] !== trunk.sizes[trunk.sizes.length - 1]) return null;
  return { sizes: [...trunk.sizes, specs[k].shape[1]], weights: [...trunk.weights, weights[k]], biases: [...trunk.biases, weights[b]], activation };
}

/** An inspect record with a network to draw (what inspectNetwork makes). */
export type NetworkInspectRecord = InspectRecord & { network: NetworkSnapshot };

/** A state of the loop's own to draw the network on, with its inputs' names (a multi-agent actor's probe). */
export interface NetworkProbe {
  input: number[];
  inputNames: string[];
  outputNames: string[];
  stateLabel: string;
}

function actorRecord(envId: string, net: DenseLayers, update: number, probe: NetworkProbe | null): NetworkInspectRecord {
  const obsDim = net.sizes[0];
  const actionDim = net.sizes[net.sizes.length - 1];
  if (probe && probe.input.length === obsDim && probe.inputNames.length === obsDim && probe.outputNames.length === actionDim) {
    return { type: 'inspect', update, network: { ...snapshotOf(net, 'actor', probe.input, probe.inputNames, probe.outputNames), stateLabel: probe.stateLabel }, heatmap: null };
  }
  const view = CONTINUOUS_VIEWS[envId] as (typeof CONTINUOUS_VIEWS)[string] | undefined;
  const fits = view !== undefined && view.obsNames.length === obsDim && view.actionNames.length === actionDim;
  const inputNames = fits ? view.obsNames : Array.from({ length: obsDim }, (_, i) => `obs ${i}`);
  const actions = fits ? view.actionNames : Array.from({ length: actionDim }, (_, i) => `action ${i}`);
  const input = fits ? [...view.state] : new Array<number>(obsDim).fill(0);
  return { type: 'inspect', update, network: snapshotOf(net, 'actor', input, inputNames, actions.map((a) => `${a} (before tanh)`)), heatmap: null };
}

/**
 * The inspect record for the learner's current weights, or null when its network is not a dense
 * policy, Q or actor stack (the swarm's orchestrator, the multi-agent nets). An actor stack is
 * drawn on `probe` where the loop gives one that fits it (a shared multi-agent actor).
 */
export function inspectNetwork(config: ExperimentConfig, specs: readonly WeightSpec[], weights: readonly Float32Array[], update: number, probe: NetworkProbe | null = null): NetworkInspectRecord | null {
  const s = config.settings;
  const activation = s['model.activation'];
  const policy = denseStack(specs, weights, 'policy', activation);
  const q = policy ? null : denseStack(specs, weights, 'q', activation);
  const main = policy ?? q;
  if (!main) {
    const actor = actorStack(specs, weights, activation);
    return actor ? actorRecord(s['env.id'], actor, update, probe) : null;
  }
  const value = policy ? denseStack(specs, weights, 'value', activation) : null;
  const slice = STATE_SLICES[s['env.id']] as StateSlice | undefined;
  const obsDim = main.sizes[0];
  const numActions = main.sizes[main.sizes.length - 1];
  const usable = slice !== undefined && slice.base.length === obsDim && slice.actionNames.length === numActions;
  const inputNames = usable ? slice.obsNames : Array.from({ length: obsDim }, (_, i) => `obs ${i}`);
  const actionNames = usable ? slice.actionNames : Array.from({ length: numActions }, (_, i) => `action ${i}`);
  // The activations are shown for the state at the centre of the slice.
  const input = usable ? sliceGrid(slice, 3).obs.slice(4 * obsDim, 5 * obsDim) : new Float64Array(obsDim);
  const network = snapshotOf(main, policy ? 'policy' : 'q', Array.from(input), inputNames, policy ? actionNames : actionNames.map((a) => `Q(${a})`));
  return { type: 'inspect', update, network, heatmap: usable ? heatmapOf(slice, main, policy !== null, value) : null };
}

/** π(action|s), the greedy action and V(s) (or max Q) on the slice's grid, one batched pass per stack. */
export function heatmapOf(slice: StateSlice, main: DenseLayers, isPolicy: boolean, valueNet: DenseLayers | null, n = GRID_SIDE): HeatmapSnapshot {
  const { obs } = sliceGrid(slice, n);
  const cells = n * n;
  const A = main.sizes[main.sizes.length - 1];
  const out = forwardLayers(main, obs, cells);
  const head = out[out.length - 1];
  const greedy = argmaxRows(head, cells, A);
  let prob: number[];
  let value: number[] | null = null;
  if (isPolicy) {
    const p = softmaxRows(head, cells, A);
    prob = Array.from({ length: cells }, (_, c) => round(p[c * A + slice.action]));
    if (valueNet) {
      const v = forwardLayers(valueNet, obs, cells);
      value = Array.from(v[v.length - 1], round);
    }
  } else {
    prob = greedy.map((g) => (g === slice.action ? 1 : 0));
    value = greedy.map((g, c) => round(head[c * A + g]));
  }
  return {
    xKey: slice.obsNames[slice.x.index],
    yKey: slice.obsNames[slice.y.index],
    base: [...slice.base],
    xIndex: slice.x.index,
    yIndex: slice.y.index,
    xRange: slice.x.range,
    yRange: slice.y.range,
    n,
    action: slice.action,
    actionNames: slice.actionNames,
    prob,
    greedy,
    value,
  };
}
