/**
 * MAPPO: the actor's and the centralised critic's inputs, the actors' typed-array forward pass
 * against the learner's network, on-policy batching (the episodes since the last update), a toy
 * task it must learn from its own samples, the value loss on a fixed batch, and determinism.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Mappo, type MappoParams } from '../../../src/algorithms/mappo';
import type { MarlEpisodeBatch, MarlTaskSpec } from '../../../src/algorithms/marl';
import { Rng } from '../../../src/core/rng';
import { mpeTaskSpec } from '../../../src/engine/marlActor';
import { EpisodeReplay } from '../../../src/engine/marlReplay';
import { MarlPolicy } from '../../../src/engine/marlPolicy';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SPREAD = mpeTaskSpec('simple_spread_v3');
const LISTENER = mpeTaskSpec('simple_speaker_listener_v4');
const P: MappoParams = { lr: 3e-3, criticLr: 3e-3, gamma: 0.9, gaeLambda: 0.95, clipCoef: 0.2, entCoef: 0.0, epochs: 4, numMinibatches: 2, hidden: 16, maxGradNorm: 10, episodesPerUpdate: 4, agentId: true };

function randomEpisodes(task: MarlTaskSpec, B: number, T: number, seed: number): MarlEpisodeBatch {
  const rng = new Rng(seed);
  const A = task.agents.length;
  return {
    numEpisodes: B,
    T,
    state: Float32Array.from({ length: B * (T + 1) * task.stateDim }, () => rng.normal()),
    actions: Int32Array.from({ length: B * T * A }, (_, i) => rng.int(task.actionSizes[i % A])),
    rewards: Float32Array.from({ length: B * T * A }, () => rng.normal()),
  };
}

/** Random states; actions sampled from the algorithm's own policy (as the actors would); reward 1 for move `good`, else 0. */
function onPolicyEpisodes(alg: Mappo, B: number, T: number, good: number, rng: Rng): MarlEpisodeBatch {
  const task = alg.task;
  const A = task.agents.length;
  const S = task.stateDim;
  const batch = randomEpisodes(task, B, T, rng.int(1_000_000));
  const policy = new MarlPolicy(task, alg.acting);
  policy.setWeights(alg.model.getWeights());
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const at = (b * T + t) * A;
      policy.act(batch.state, (b * (T + 1) + t) * S, 0, rng, false, batch.actions, at);
      for (let a = 0; a < A; a++) batch.rewards[at + a] = batch.actions[at + a] === good ? 1 : 0;
    }
  }
  return batch;
}

describe('MAPPO inputs', () => {
  it('the actor sees its own observation and its one-hot id; the critic sees the whole state, the agent id and the time', () => {
    const alg = new Mappo(SPREAD, P, 1);
    const batch = randomEpisodes(SPREAD, 2, 3, 4);
    const rows = alg.rows(batch);
    const A = 3;
    const S = SPREAD.stateDim;
    const X = SPREAD.obsDims[0] + A;
    expect(S).toBe(54);
    expect(rows.n).toBe(2 * 3 * A);
    expect(rows.actorIn.length).toBe(rows.n * X);
    expect(rows.criticIn.length).toBe(2 * (3 + 1) * A * (S + A + 1));
    const [e, t, a] = [1, 2, 1];
    const state = batch.state.subarray((e * 4 + t) * S, (e * 4 + t + 1) * S);
    const actorRow = rows.actorIn.subarray(((e * 3 + t) * A + a) * X, ((e * 3 + t) * A + a + 1) * X);
    expect(Array.from(actorRow.subarray(0, 18))).toEqual(Array.from(state.subarray(SPREAD.obsOffsets[a], SPREAD.obsOffsets[a] + 18)));
    expect(Array.from(actorRow.subarray(18))).toEqual([0, 1, 0]);
    const C = S + A + 1;
    const criticRow = rows.criticIn.subarray(((e * 4 + t) * A + a) * C, ((e * 4 + t) * A + a + 1) * C);
    expect(Array.from(criticRow.subarray(0, S))).toEqual(Array.from(state));
    expect(Array.from(criticRow.subarray(S))).toEqual([0, 1, 0, Math.fround(2 / 3)]);
    alg.dispose();
  });

  it('without the agent id the actor sees only its observation; actions an agent lacks are masked', () => {
    const alg = new Mappo(LISTENER, { ...P, agentId: false }, 1);
    const rows = alg.rows(randomEpisodes(LISTENER, 1, 2, 4));
    const maxObs = Math.max(...LISTENER.obsDims);
    expect(rows.actorIn.length).toBe(rows.n * maxObs);
    const speaker = LISTENER.agents.indexOf('speaker_0');
    const U = Math.max(...LISTENER.actionSizes);
    expect(LISTENER.actionSizes[speaker]).toBeLessThan(U);
    const mask = Array.from(rows.mask.subarray(speaker * U, (speaker + 1) * U));
    expect(mask.slice(0, LISTENER.actionSizes[speaker]).every((m) => m === 0)).toBe(true);
    expect(mask.slice(LISTENER.actionSizes[speaker]).every((m) => m < -1e8)).toBe(true);
    alg.dispose();
  });

  it("the actors' typed-array forward pass gives the learner's logits", () => {
    const alg = new Mappo(SPREAD, P, 3);
    const batch = randomEpisodes(SPREAD, 1, 1, 5);
    const rows = alg.rows(batch);
    const policy = new MarlPolicy(SPREAD, alg.acting);
    policy.setWeights(alg.model.getWeights());
    const logits = tf.tidy(() => alg.predict(tf.tensor2d(rows.actorIn, [3, SPREAD.obsDims[0] + 3])).arraySync());
    policy.scores(batch.state, 0).forEach((s, a) => s.forEach((v, u) => expect(v).toBeCloseTo(logits[a][u], 5)));
    alg.dispose();
  });
});

describe('MAPPO on-policy batches', () => {
  it('one update once the episodes per update are in, on exactly the episodes collected since the last one', () => {
    const alg = new Mappo(SPREAD, { ...P, episodesPerUpdate: 5 }, 1);
    const T = SPREAD.episodeLength;
    const replay = new EpisodeReplay(alg.replayEpisodes, T, SPREAD.stateDim, 3);
    const rounds = [randomEpisodes(SPREAD, 3, T, 1), randomEpisodes(SPREAD, 3, T, 2), randomEpisodes(SPREAD, 3, T, 3)];
    replay.add(rounds[0]);
    expect(alg.gradientStepsDue(3 * T, 3 * T)).toBe(0);
    replay.add(rounds[1]);
    expect(alg.gradientStepsDue(6 * T, 3 * T)).toBe(1);
    const batch = alg.sampleBatch(replay);
    expect(batch.numEpisodes).toBe(6);
    expect(Array.from(batch.state)).toEqual([...rounds[0].state, ...rounds[1].state]);
    replay.add(rounds[2]);
    expect(alg.gradientStepsDue(9 * T, 3 * T)).toBe(0);
    alg.dispose();
  });

  it('the replay hands back its newest episodes in order across the ring', () => {
    const replay = new EpisodeReplay(4, 2, SPREAD.stateDim, 3);
    const eps = [1, 2, 3].map((s) => randomEpisodes(SPREAD, 2, 2, s));
    for (const e of eps) replay.add(e);
    const latest = replay.latestEpisodes(3);
    const sLen = 3 * SPREAD.stateDim;
    expect(Array.from(latest.state)).toEqual([...eps[1].state.subarray(sLen), ...eps[2].state]);
    expect(() => replay.latestEpisodes(5)).toThrow(/holds 4/);
  });
});

describe('MAPPO learns', () => {
  it('a toy task from its own samples: every agent paid for one move learns to take it', () => {
    const alg = new Mappo(SPREAD, P, 2);
    const rng = new Rng(7);
    const share = (batch: MarlEpisodeBatch) => batch.actions.filter((u) => u === 2).length / batch.actions.length;
    const before = share(onPolicyEpisodes(alg, 4, 5, 2, new Rng(99)));
    for (let k = 0; k < 25; k++) alg.learn(onPolicyEpisodes(alg, 4, 5, 2, rng));
    const after = share(onPolicyEpisodes(alg, 4, 5, 2, new Rng(99)));
    expect(before).toBeLessThan(0.4);
    expect(after).toBeGreaterThan(0.8);
    alg.dispose();
  });

  it('the value loss falls on a fixed batch', () => {
    const alg = new Mappo(SPREAD, { ...P, gamma: 0.5, gaeLambda: 1 }, 4);
    const batch = randomEpisodes(SPREAD, 4, 5, 8);
    const first = alg.learn(batch).valueLoss;
    let last = first;
    for (let i = 0; i < 15; i++) last = alg.learn(batch).valueLoss;
    expect(last).toBeLessThan(0.5 * first);
    alg.dispose();
  });

  it('is deterministic for a seed, and another seed differs; no tensors leak', () => {
    const run = (seed: number) => {
      const alg = new Mappo(SPREAD, P, seed);
      const metrics = [alg.learn(randomEpisodes(SPREAD, 2, 4, 1))];
      const before = tf.memory().numTensors; // after the optimizers' first step made their state
      metrics.push(...[2, 3].map((s) => alg.learn(randomEpisodes(SPREAD, 2, 4, s))));
      const leaked = tf.memory().numTensors - before;
      const weights = alg.model.getWeights().flatMap((w) => Array.from(w));
      alg.dispose();
      return { metrics, weights, leaked };
    };
    const a = run(5);
    const b = run(5);
    const c = run(6);
    expect(b.metrics).toEqual(a.metrics);
    expect(b.weights).toEqual(a.weights);
    expect(c.weights).not.toEqual(a.weights);
    expect(a.leaked).toBe(0);
    for (const m of a.metrics) for (const v of Object.values(m)) expect(Number.isFinite(v)).toBe(true);
  });
});
