import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { Maddpg, type MaddpgParams } from '../../../src/algorithms/maddpg';
import { Qmix, type MixerKind, type QmixParams } from '../../../src/algorithms/qmix';
import { DeterministicActor, QCritic, SquashedGaussianActor, type ActorSpec, type CriticSpec } from '../../../src/core/continuousMlp';
import { Rng } from '../../../src/core/rng';
import { ACTION_POINTS, CRITIC_PROBES, criticCurves, criticsOf, mpeActionNames, probeState, sharedActorProbe, teamValues } from '../../../src/engine/inspectValues';
import { mpeTaskSpec } from '../../../src/engine/marlActor';
import { MarlPolicy } from '../../../src/engine/marlPolicy';
import { runOnWasm } from '../algorithms/offPolicySetup';

runOnWasm();

const actor: ActorSpec = { obsDim: 3, actionDim: 1, hidden: [16, 16], activation: 'relu', actionLow: [-2], actionHigh: [2] };
const critic: CriticSpec = { obsDim: 3, actionDim: 1, hidden: [16, 16], activation: 'relu' };
const HANGING = [-1, 0, 0];

const q = (c: QCritic, s: number[], a: number) => tf.tidy(() => c.qValue(tf.tensor2d(s, [1, 3]), tf.tensor2d([a], [1, 1])).dataSync()[0]);

describe('inside the agent: the critics’ Q(s, a) over the action range', () => {
  it('SAC and CQL: both critics over the torque range on the hanging pendulum, and the actor’s squashed mean', async () => {
    const alg = { model: new SquashedGaussianActor(actor, 1), critic1: new QCritic(critic, 2), critic2: new QCritic(critic, 3) };
    const curves = await criticCurves(alg, 'Pendulum-v1');
    expect(curves.map((c) => c.stateLabel)).toEqual(CRITIC_PROBES['Pendulum-v1'].map((p) => p.label));
    const curve = curves[0];
    expect(curve.state).toEqual(HANGING);
    expect(curve.stateLabel).toBe('hanging straight down, at rest');
    expect(curve.actionName).toBe('torque');
    expect(curve.actions).toHaveLength(ACTION_POINTS);
    expect(curve.actions[0]).toBe(-2);
    expect(curve.actions[ACTION_POINTS - 1]).toBe(2);
    expect(curve.critics.map((c) => c.name)).toEqual(['Q1', 'Q2']);
    for (const [k, c] of [alg.critic1, alg.critic2].entries()) {
      [0, 13, ACTION_POINTS - 1].forEach((i) => expect(curve.critics[k].q[i]).toBeCloseTo(q(c, HANGING, curve.actions[i]), 3));
    }
    const mean = tf.tidy(() => alg.model.forward(tf.tensor2d(HANGING, [1, 3])).mean.dataSync()[0]);
    expect(curve.actorAction).toBeCloseTo(2 * Math.tanh(mean), 3);
    expect(curve.actorQ[1]).toBeCloseTo(q(alg.critic2, HANGING, curve.actorAction), 3);
    // The twin critics start from different weights: two different curves.
    expect(curve.critics[0].q).not.toEqual(curve.critics[1].q);
    // Off upright either way: mirrored states (sin θ of opposite signs), each asked on its own.
    expect(curves[1].state[1]).toBeCloseTo(-curves[2].state[1], 6);
    expect(curves[1].critics[0].q[3]).toBeCloseTo(q(alg.critic1, curves[1].state, curves[1].actions[3]), 3);
  });

  it('DDPG: its one critic, at the deterministic actor’s torque', async () => {
    const alg = { model: new DeterministicActor(actor, 4), critic: new QCritic(critic, 5) };
    const [curve] = await criticCurves(alg, 'Pendulum-v1');
    expect(curve?.critics.map((c) => c.name)).toEqual(['Q']);
    const action = tf.tidy(() => alg.model.forward(tf.tensor2d(HANGING, [1, 3])).action.dataSync()[0]);
    expect(curve?.actorAction).toBeCloseTo(action, 3);
    expect(curve?.actorQ[0]).toBeCloseTo(q(alg.critic, HANGING, action), 3);
  });

  it('no curve without a Q critic (behaviour cloning) or without a Box actor', async () => {
    expect(await criticCurves({ model: new SquashedGaussianActor(actor, 6) }, 'Pendulum-v1')).toEqual([]);
    expect(criticsOf({ critic1: new QCritic(critic, 7) })).toEqual([]);
    const noActor = { model: {}, critic: new QCritic(critic, 8) };
    expect(await criticCurves(noActor, 'Pendulum-v1')).toEqual([]);
  });

  it('an env without a named probe state sweeps from the zero state, named by index', async () => {
    const ddpg = { model: new DeterministicActor(actor, 9), critic: new QCritic(critic, 10) };
    const curves = await criticCurves(ddpg, 'SomethingElse-v0');
    expect(curves).toHaveLength(1);
    expect(curves[0].state).toEqual([0, 0, 0]);
    expect(curves[0].stateNames).toEqual(['obs 0', 'obs 1', 'obs 2']);
  });
});

const SPREAD = mpeTaskSpec('simple_spread_v3');
const QP: QmixParams = { lr: 5e-3, gamma: 0.99, hidden: 16, batchSize: 4, bufferSize: 50, trainEvery: 1, targetUpdateEpisodes: 200, startE: 1, endE: 0.05, epsilonAnnealSteps: 1000, gradClip: 10, doubleQ: true };
const MP: MaddpgParams = { actorLr: 1e-2, criticLr: 1e-2, gamma: 0.95, tau: 0.01, hidden: 16, batchSize: 32, bufferSize: 50, learningStarts: 0, trainEvery: 100, gradClip: 0.5, piReg: 0.001 };

/** The joint action the actors' own forward pass takes greedily on `state` at an episode's first step. */
function greedyJoint(alg: Qmix | Maddpg, state: Float32Array): number[] {
  const policy = new MarlPolicy(SPREAD, alg.acting);
  policy.setWeights(alg.model.getWeights());
  policy.resetEpisode();
  const joint = new Int32Array(SPREAD.agents.length);
  policy.act(state, 0, 0, new Rng(1), true, joint, 0);
  return Array.from(joint);
}

describe('inside the agent: every agent’s values and the team’s', () => {
  const state = probeState(SPREAD, 3);

  it('probes the same reset every time, and a different one for another seed', () => {
    expect(Array.from(probeState(SPREAD, 3))).toEqual(Array.from(state));
    expect(Array.from(probeState(SPREAD, 4))).not.toEqual(Array.from(state));
  });

  it.each<MixerKind>(['qmix', 'vdn', 'none'])('%s: each agent’s Q per move, its greedy move as the actors take it, and the team value', async (kind) => {
    const alg = new Qmix(SPREAD, QP, kind, { embedDim: 8, hypernetEmbed: 16 }, 1);
    const team = await teamValues(alg, state);
    expect(team?.mixer).toBe(kind);
    if (!team) return;
    expect(team.agents.map((a) => a.name)).toEqual([...SPREAD.agents]);
    for (const a of team.agents) {
      expect(a.actionNames).toEqual(['stay', 'left', 'right', 'down', 'up']);
      expect(a.q).toHaveLength(5);
      expect(a.q.every(Number.isFinite)).toBe(true);
      expect(a.q[a.chosen]).toBe(Math.max(...a.q));
      expect(a.prob).toBeNull();
    }
    expect(team.agents.map((a) => a.chosen)).toEqual(greedyJoint(alg, state));
    const chosen = team.agents.map((a) => a.q[a.chosen]);
    if (kind === 'none') expect(team.teamQ).toBeNull();
    if (kind === 'vdn') expect(team.teamQ).toBeCloseTo(chosen.reduce((s, x) => s + x, 0), 3);
    if (kind === 'qmix') {
      const mixed = tf.tidy(() => alg.mixer.online?.mix(tf.tensor2d(chosen, [1, 3]), tf.tensor2d(state, [1, SPREAD.stateDim])).dataSync()[0]);
      expect(team.teamQ).toBeCloseTo(mixed ?? NaN, 3);
    }
    alg.dispose();
  });

  it('MADDPG: each actor’s probabilities and its centralised critic’s Q as its own move varies', async () => {
    const alg = new Maddpg(SPREAD, MP, 2);
    const team = await teamValues(alg, state);
    expect(team?.mixer).toBe('maddpg');
    expect(team?.teamQ).toBeNull();
    if (!team) return;
    for (const a of team.agents) {
      expect(a.prob?.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 3);
      expect(a.prob?.[a.chosen]).toBe(Math.max(...(a.prob ?? [])));
      expect(a.q.every(Number.isFinite)).toBe(true);
    }
    const chosen = team.agents.map((a) => a.chosen);
    // Agent i's critic at its own chosen move is the critic's value of the chosen joint action.
    const joint = new Float32Array(15);
    chosen.forEach((c, j) => (joint[j * 5 + c] = 1));
    team.agents.forEach((a, i) => {
      const v = tf.tidy(() => alg.critics.value(i, tf.tensor2d(state, [1, SPREAD.stateDim]), tf.tensor2d(joint, [1, 15])).dataSync()[0]);
      expect(a.q[a.chosen]).toBeCloseTo(v, 3);
    });
    alg.dispose();
  });

  it('names the five moves of a spread agent, and numbers any other action set', () => {
    expect(mpeActionNames(5)).toEqual(['stay', 'left', 'right', 'down', 'up']);
    expect(mpeActionNames(3)).toEqual(['action 0', 'action 1', 'action 2']);
  });
});

describe('inside the agent: a shared actor (MAPPO) drawn on agent 1 at the probe state', () => {
  const state = probeState(SPREAD, 3);

  it("its input row is agent 1's own observation, named by meaning, and its one-hot id", () => {
    const probe = sharedActorProbe(SPREAD, { kind: 'mlpShared', hidden: [8], agentId: true }, state);
    expect(probe).not.toBeNull();
    const obsDim = SPREAD.obsDims[0];
    expect(probe!.input).toHaveLength(obsDim + SPREAD.agents.length);
    // The observation is agent 1's as the env wrote it (rounded for display), then is-agent 1, 2, 3 = 1, 0, 0.
    probe!.input.slice(0, obsDim).forEach((x, i) => expect(x).toBeCloseTo(state[SPREAD.obsOffsets[0] + i], 4));
    expect(probe!.input.slice(obsDim)).toEqual([1, 0, 0]);
    expect(probe!.inputNames.slice(0, 6)).toEqual(['own velocity x', 'own velocity y', 'own position x', 'own position y', 'landmark 1 dx', 'landmark 1 dy']);
    expect(probe!.inputNames.slice(obsDim - 4, obsDim)).toEqual(['other agent 1 says 1', 'other agent 1 says 2', 'other agent 2 says 1', 'other agent 2 says 2']);
    expect(probe!.inputNames.slice(obsDim)).toEqual(['is agent 1', 'is agent 2', 'is agent 3']);
    expect(probe!.outputNames).toEqual(mpeActionNames(5).map((m) => `${m} (logit)`));
    expect(probe!.stateLabel).toMatch(/^agent 1 at the first step of an episode/);
  });

  it('is absent for actors that are not one shared MLP, and without ids when the actor takes none', () => {
    expect(sharedActorProbe(SPREAD, { kind: 'mlpPerAgent', hidden: [8] }, state)).toBeNull();
    expect(sharedActorProbe(SPREAD, { kind: 'rnnShared', hidden: 8 }, state)).toBeNull();
    const noIds = sharedActorProbe(SPREAD, { kind: 'mlpShared', hidden: [8], agentId: false }, state);
    expect(noIds!.input).toHaveLength(SPREAD.obsDims[0]);
    expect(noIds!.inputNames.some((n) => n.startsWith('is agent'))).toBe(false);
  });
});
