import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Maddpg, gumbelSoftmaxHard, type MaddpgParams } from '../../../src/algorithms/maddpg';
import { Qmix, type QmixParams } from '../../../src/algorithms/qmix';
import { episodeAgentInputs, type MarlEpisodeBatch, type MarlTaskSpec } from '../../../src/algorithms/marl';
import { Rng } from '../../../src/core/rng';
import { mpeTaskSpec } from '../../../src/engine/marlActor';
import { EpisodeReplay } from '../../../src/engine/marlReplay';
import { MARL_ENV_IDS } from '../../../src/config/sharedSettings';
import { MPE_ENV_IDS } from '../../../src/envs/mpe';
import { MarlPolicy } from '../../../src/engine/marlPolicy';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SPREAD = mpeTaskSpec('simple_spread_v3');
const TAG = mpeTaskSpec('simple_tag_v3');

/** B random episodes of T steps (random states, actions and rewards) in the batch layout. */
function randomEpisodes(task: MarlTaskSpec, B: number, T: number, seed: number): MarlEpisodeBatch {
  const rng = new Rng(seed);
  const A = task.agents.length;
  const state = Float32Array.from({ length: B * (T + 1) * task.stateDim }, () => rng.normal());
  const actions = Int32Array.from({ length: B * T * A }, (_, i) => rng.int(task.actionSizes[i % A]));
  const rewards = Float32Array.from({ length: B * T * A }, () => rng.normal());
  return { numEpisodes: B, T, state, actions, rewards };
}

const QP: QmixParams = { lr: 5e-3, gamma: 0.99, hidden: 16, batchSize: 4, bufferSize: 50, trainEvery: 1, targetUpdateEpisodes: 200, startE: 1, endE: 0.05, epsilonAnnealSteps: 1000, gradClip: 10, doubleQ: true };
const MP: MaddpgParams = { actorLr: 1e-2, criticLr: 1e-2, gamma: 0.95, tau: 0.01, hidden: 16, batchSize: 32, bufferSize: 50, learningStarts: 0, trainEvery: 100, gradClip: 0.5, piReg: 0.001 };

describe('task spec from the MPE envs', () => {
  it("the 'marl.env' setting offers exactly the MPE env ids", () => {
    expect([...MARL_ENV_IDS]).toEqual([...MPE_ENV_IDS]);
  });

  it('simple_spread: 3 agents of one side, 18-number observations, Discrete(5); simple_tag: 3 predators and 1 prey', () => {
    expect(SPREAD.agents).toEqual(['agent_0', 'agent_1', 'agent_2']);
    expect(SPREAD.obsDims).toEqual([18, 18, 18]);
    expect(SPREAD.stateDim).toBe(54);
    expect(SPREAD.actionSizes).toEqual([5, 5, 5]);
    expect(SPREAD.sides).toEqual([0, 0, 0]);
    expect(TAG.sides).toEqual([0, 0, 0, 1]);
    expect(TAG.obsDims).toEqual([16, 16, 16, 14]);
  });
});

describe('agent inputs (pymarl: obs, last action, agent id)', () => {
  it('row (t, a) holds o_a(t) padded, onehot(u_a(t − 1)) and onehot(a)', () => {
    const batch = randomEpisodes(TAG, 1, 2, 1);
    const x = episodeAgentInputs(TAG, batch);
    const D = 16 + 5 + 4;
    const row = (t: number, a: number) => x.subarray((t * 4 + a) * D, (t * 4 + a + 1) * D);
    // the prey (agent 3) at t = 1: its 14 numbers, two zeros of padding, its action at t = 0, id 3
    const r = row(1, 3);
    const o = batch.state.subarray(TAG.stateDim + TAG.obsOffsets[3], TAG.stateDim + TAG.obsOffsets[3] + 14);
    expect(Array.from(r.subarray(0, 14))).toEqual(Array.from(o));
    expect(Array.from(r.subarray(14, 16))).toEqual([0, 0]);
    const last = [0, 0, 0, 0, 0];
    last[batch.actions[3]] = 1;
    expect(Array.from(r.subarray(16, 21))).toEqual(last);
    expect(Array.from(r.subarray(21))).toEqual([0, 0, 0, 1]);
    expect(Array.from(row(0, 0).subarray(16, 21))).toEqual([0, 0, 0, 0, 0]); // no last action at t = 0
  });
});

describe('Gumbel-softmax (straight-through)', () => {
  it('forward is the one-hot of argmax(ℓ + g); the gradient is that of softmax(ℓ + g)', () => {
    const logits = tf.tensor2d([[0.5, -1, 2]]);
    const g = tf.tensor2d([[1.5, 0, 0]]);
    const y = gumbelSoftmaxHard(logits, g);
    expect(Array.from(y.dataSync())).toEqual([1, 0, 0]); // ℓ + g = (2, −1, 2): first maximum
    const w = tf.tensor2d([[1, 2, 3]]);
    const grad = tf.grad((l: tf.Tensor) => tf.sum(tf.mul(gumbelSoftmaxHard(l as tf.Tensor2D, g), w)))(logits);
    // d/dℓ Σ w·softmax(z) = p ⊙ (w − p·w), z = ℓ + g
    const z = [2, -1, 2];
    const e = z.map(Math.exp);
    const p = e.map((v) => v / e.reduce((s, u) => s + u, 0));
    const pw = p[0] * 1 + p[1] * 2 + p[2] * 3;
    const want = p.map((pi, i) => pi * ([1, 2, 3][i] - pw));
    Array.from(grad.dataSync()).forEach((v, i) => expect(v).toBeCloseTo(want[i], 5));
    expect(Math.max(...Array.from(grad.dataSync()).map(Math.abs))).toBeGreaterThan(0.01);
    tf.dispose([logits, g, y, w, grad]);
  });

  it("gradients reach every actor through its critic's loss (MADDPG)", () => {
    const alg = new Maddpg(SPREAD, MP, 3);
    const rng = new Rng(4);
    const replay = new EpisodeReplay(10, 5, SPREAD.stateDim, 3);
    replay.add(randomEpisodes(SPREAD, 4, 5, 5));
    const batch = alg.sampleBatch(replay, rng);
    tf.tidy(() => {
      const staged = alg.stage(batch);
      const { grads } = tf.variableGrads(() => alg.actorLoss(staged, 1), alg.model.nets[1].variables());
      for (const g of Object.values(grads)) expect(tf.max(tf.abs(g)).dataSync()[0]).toBeGreaterThan(0);
    });
    alg.dispose();
  });
});

describe('each loss lowers on a fixed batch', () => {
  for (const mixer of ['qmix', 'vdn', 'none'] as const) {
    it(`${mixer === 'none' ? 'IQL' : mixer.toUpperCase()}: 30 steps on one batch of episodes`, () => {
      const alg = new Qmix(SPREAD, QP, mixer, { embedDim: 8, hypernetEmbed: 16 }, 1);
      const batch = randomEpisodes(SPREAD, 4, 6, 2);
      const first = alg.learn(batch).loss;
      let last = first;
      for (let i = 0; i < 30; i++) last = alg.learn(batch).loss;
      expect(last).toBeLessThan(0.5 * first);
      alg.dispose();
    });
  }

  it('MADDPG: the actor loss falls against a fixed critic (each agent climbs its own Q)', () => {
    const alg = new Maddpg(SPREAD, MP, 4);
    const replay = new EpisodeReplay(10, 5, SPREAD.stateDim, 3);
    replay.add(randomEpisodes(SPREAD, 8, 5, 6));
    const batch = alg.sampleBatch(replay, new Rng(2));
    const opt = tf.train.adam(0.01);
    const loss = () => tf.tidy(() => alg.actorLoss(alg.stage(batch), 0).dataSync()[0]);
    const first = loss();
    for (let i = 0; i < 40; i++) {
      tf.tidy(() => {
        const staged = alg.stage(batch);
        opt.minimize(() => alg.actorLoss(staged, 0), false, alg.model.nets[0].variables());
      });
    }
    expect(loss()).toBeLessThan(first);
    opt.dispose();
    alg.dispose();
  });

  it('MADDPG: each side\'s critic loss falls on one batch (one learner per side)', () => {
    const alg = new Maddpg(TAG, MP, 2);
    const replay = new EpisodeReplay(10, 5, TAG.stateDim, 4);
    replay.add(randomEpisodes(TAG, 6, 5, 3));
    const batch = alg.sampleBatch(replay, new Rng(1));
    const first = alg.learn(batch);
    let last = first;
    for (let i = 0; i < 40; i++) last = alg.learn(batch);
    // one learner per side: predators (side 0) and prey (side 1)
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['criticLoss side 0', 'criticLoss side 1', 'actorLoss side 0', 'actorLoss side 1', 'Q adversary_0', 'Q agent_0']));
    for (const side of [0, 1]) expect(last[`criticLoss side ${side}`]).toBeLessThan(0.5 * first[`criticLoss side ${side}`]);
    alg.dispose();
  });
});

describe('memory', () => {
  it('tensor count is flat over many updates (QMIX, MADDPG)', () => {
    const q = new Qmix(SPREAD, QP, 'qmix', { embedDim: 8, hypernetEmbed: 16 }, 1);
    const m = new Maddpg(SPREAD, MP, 1);
    const batch = randomEpisodes(SPREAD, 2, 4, 9);
    const replay = new EpisodeReplay(10, 4, SPREAD.stateDim, 3);
    replay.add(batch);
    const rng = new Rng(2);
    q.learn(batch);
    m.learn(m.sampleBatch(replay, rng));
    const before = tf.memory().numTensors;
    for (let i = 0; i < 8; i++) {
      q.learn(batch);
      m.learn(m.sampleBatch(replay, rng));
      q.afterCollect(1000 * (i + 1)); // target copies too
    }
    expect(tf.memory().numTensors).toBe(before);
    q.dispose();
    m.dispose();
  });
});

describe("the actors' typed-array forward pass equals the learner's tfjs networks", () => {
  it('QMIX: Q of every agent over an episode (recurrent state carried)', () => {
    const alg = new Qmix(SPREAD, { ...QP, hidden: 8 }, 'qmix', { embedDim: 8, hypernetEmbed: 16 }, 5);
    const batch = randomEpisodes(SPREAD, 1, 3, 6);
    const policy = new MarlPolicy(SPREAD, alg.acting);
    policy.setWeights(alg.model.getWeights());
    policy.resetEpisode();
    const D = alg.model.inputDim;
    const inputs = episodeAgentInputs(SPREAD, batch);
    const q = tf.tidy(() => alg.model.unroll(tf.tensor3d(inputs, [4, 3, D])).arraySync());
    for (let t = 0; t < 4; t++) {
      const scores = policy.scores(batch.state, t * SPREAD.stateDim);
      for (let a = 0; a < 3; a++) for (let u = 0; u < 5; u++) expect(scores[a][u]).toBeCloseTo(q[t][a][u], 4);
      // the next step's inputs hold the actions the batch took
      if (t < 3) policy.recordActions(batch.actions.subarray(t * 3, t * 3 + 3));
    }
    alg.dispose();
  });

  it("MADDPG: each agent's logits", () => {
    const alg = new Maddpg(TAG, MP, 7);
    const state = randomEpisodes(TAG, 1, 1, 8).state.subarray(0, TAG.stateDim);
    const policy = new MarlPolicy(TAG, alg.acting);
    policy.setWeights(alg.model.getWeights());
    const logits = tf.tidy(() => alg.model.forward(tf.tensor2d(state, [1, TAG.stateDim])).logits.dataSync());
    const scores = policy.scores(state, 0).flatMap((s) => Array.from(s));
    scores.forEach((v, i) => expect(v).toBeCloseTo(logits[i], 5));
    alg.dispose();
  });
});

describe('QMIX refuses a competitive task', () => {
  it('names the task and points to MADDPG', () => {
    expect(() => new Qmix(TAG, QP, 'vdn', null, 1)).toThrow(/simple_tag_v3.*MADDPG/);
  });
});
