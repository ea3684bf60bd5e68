import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { resolveExperiment } from '../../../src/config/config';
import { DeterministicActor, SquashedGaussianActor, type ActorSpec } from '../../../src/core/continuousMlp';
import { actorStack, inspectNetwork } from '../../../src/engine/inspect';
import { forwardLayers } from '../../../src/runs/networkMath';
import { runOnWasm } from '../algorithms/offPolicySetup';

runOnWasm();

const spec: ActorSpec = { obsDim: 3, actionDim: 1, hidden: [16, 16], activation: 'relu', actionLow: [-2], actionHigh: [2] };
const states = [-1, 0, 0, 0.6, -0.8, 3, 1, 0, -5];

function pageForward(specs: ReturnType<SquashedGaussianActor['weightSpecs']>, weights: Float32Array[]): number[] {
  const net = actorStack(specs, weights, 'relu');
  if (!net) throw new Error('no actor stack');
  const out = forwardLayers(net, states, 3);
  return Array.from(out[out.length - 1]);
}

describe('inside the agent: the continuous-control actor', () => {
  it('SAC and CQL: trunk and mean head give the actor’s own mean action', () => {
    const actor = new SquashedGaussianActor(spec, 3);
    const mean = tf.tidy(() => actor.forward(tf.tensor2d(states, [3, 3])).mean.dataSync());
    const page = pageForward(actor.weightSpecs(), actor.getWeights());
    page.forEach((v, i) => expect(v).toBeCloseTo(mean[i], 4));
    actor.dispose();
  });

  it('TD3: the stack before the tanh gives the actor’s torque', () => {
    const actor = new DeterministicActor(spec, 4);
    const action = tf.tidy(() => actor.forward(tf.tensor2d(states, [3, 3])).action.dataSync());
    const page = pageForward(actor.weightSpecs(), actor.getWeights());
    page.forEach((v, i) => expect(2 * Math.tanh(v)).toBeCloseTo(action[i], 4));
    actor.dispose();
  });

  it('sends a record for a SAC Pendulum run, named in Pendulum’s words, for the pendulum hanging at rest', () => {
    const actor = new SquashedGaussianActor(spec, 5);
    const record = inspectNetwork(resolveExperiment('sac-pendulum'), actor.weightSpecs(), actor.getWeights(), 7);
    expect(record).not.toBeNull();
    expect(record?.update).toBe(7);
    expect(record?.heatmap).toBeNull();
    expect(record?.network).toMatchObject({ stack: 'actor', inputNames: ['cos θ', 'sin θ', 'angular velocity'], outputNames: ['torque (before tanh)'], sizes: [3, 16, 16, 1], input: [-1, 0, 0] });
    actor.dispose();
  });

  it("draws the actor on the loop's own probe where it fits (a shared multi-agent actor), and on the env's state where it does not", () => {
    const actor = new SquashedGaussianActor(spec, 6);
    const probe = { input: [0.5, -0.25, 2], inputNames: ['a', 'b', 'c'], outputNames: ['move'], stateLabel: 'agent 1 somewhere' };
    const drawn = inspectNetwork(resolveExperiment('sac-pendulum'), actor.weightSpecs(), actor.getWeights(), 3, probe)?.network;
    expect(drawn).toMatchObject({ inputNames: ['a', 'b', 'c'], outputNames: ['move'], input: [0.5, -0.25, 2], stateLabel: 'agent 1 somewhere' });
    // Its activations are the network's on that state: the last layer is the stack's forward pass of the probe.
    const net = actorStack(actor.weightSpecs(), actor.getWeights(), 'relu')!;
    const out = forwardLayers(net, probe.input, 1);
    expect(drawn!.activations.at(-1)![0]).toBeCloseTo(out[out.length - 1][0], 4);
    const misfit = inspectNetwork(resolveExperiment('sac-pendulum'), actor.weightSpecs(), actor.getWeights(), 3, { ...probe, input: [1, 2] })?.network;
    expect(misfit).toMatchObject({ inputNames: ['cos θ', 'sin θ', 'angular velocity'], input: [-1, 0, 0] });
    expect(misfit?.stateLabel).toBeUndefined();
    actor.dispose();
  });
});
