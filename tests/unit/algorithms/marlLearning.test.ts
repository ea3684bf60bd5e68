/**
 * QMIX / VDN / IQL checked against hand computations: the Q of the taken action, the TD target
 * (target network, double Q, the 25-step truncation bootstrapping), and a one-agent toy task on
 * which independent Q-learning must find the obvious best action. The recurrent network's values
 * come from the actors' typed-array forward pass (src/engine/marlPolicy.ts), not from tfjs.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Qmix, type QmixParams } from '../../../src/algorithms/qmix';
import type { MarlEpisodeBatch, MarlTaskSpec } from '../../../src/algorithms/marl';
import { chooseBackend } from '../../../src/core/backend';
import { Rng } from '../../../src/core/rng';
import { mpeTaskSpec } from '../../../src/engine/marlActor';
import { MarlPolicy } from '../../../src/engine/marlPolicy';

const SPREAD = mpeTaskSpec('simple_spread_v3');
const P: QmixParams = { lr: 5e-3, gamma: 0.9, hidden: 8, batchSize: 4, bufferSize: 50, trainEvery: 1, targetUpdateEpisodes: 200, startE: 1, endE: 0.05, epsilonAnnealSteps: 1000, gradClip: 10, doubleQ: false };

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

/** Q[b][t][a][u] for t = 0..T of each episode, replaying the batch's actions through the actors' forward pass. */
function policyQ(task: MarlTaskSpec, weights: Float32Array[], hidden: number, batch: MarlEpisodeBatch): number[][][][] {
  const A = task.agents.length;
  const S = task.stateDim;
  const policy = new MarlPolicy(task, { kind: 'rnnShared', hidden });
  policy.setWeights(weights);
  const out: number[][][][] = [];
  for (let b = 0; b < batch.numEpisodes; b++) {
    policy.resetEpisode();
    const ep: number[][][] = [];
    for (let t = 0; t <= batch.T; t++) {
      ep.push(policy.scores(batch.state, (b * (batch.T + 1) + t) * S).map((q) => Array.from(q)));
      if (t < batch.T) policy.recordActions(batch.actions.subarray((b * batch.T + t) * A, (b * batch.T + t + 1) * A));
    }
    out.push(ep);
  }
  return out;
}

const argmax = (xs: number[]) => xs.indexOf(Math.max(...xs));
const teamReward = (batch: MarlEpisodeBatch, A: number, b: number, t: number) => {
  let r = 0;
  for (let a = 0; a < A; a++) r += batch.rewards[(b * batch.T + t) * A + a];
  return r;
};

describe.each(['cpu', 'wasm'] as const)('QMIX family TD targets by hand (%s)', (backend) => {
  beforeAll(async () => {
    await chooseBackend({ preferred: backend });
    expect(tf.getBackend()).toBe(backend);
  });
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  for (const doubleQ of [false, true]) {
    it(`VDN${doubleQ ? ' with double Q' : ''}: Q_tot(t) = Σ_a Q_a(t, u_a(t)), y(t) = Σ_a r_a(t) + γ Σ_a Q⁻_a(t + 1, u′_a), bootstrapping at the last step`, () => {
      const alg = new Qmix(SPREAD, { ...P, doubleQ }, 'vdn', null, 3);
      // Make the online and target networks differ, so that using the wrong one shows.
      alg.learn(randomEpisodes(SPREAD, 2, 3, 1));
      alg.learn(randomEpisodes(SPREAD, 2, 3, 2));
      const batch = randomEpisodes(SPREAD, 2, 3, 4);
      const A = 3;
      const online = policyQ(SPREAD, alg.model.getWeights(), P.hidden, batch);
      const target = policyQ(SPREAD, alg.target.getWeights(), P.hidden, batch);
      const { chosen, y } = tf.tidy(() => {
        const out = alg.loss(batch);
        return { chosen: out.chosen.arraySync() as number[][][], y: out.target.arraySync() as number[][] };
      });
      for (let b = 0; b < 2; b++) {
        for (let t = 0; t < 3; t++) {
          let next = 0;
          for (let a = 0; a < A; a++) {
            const u = batch.actions[(b * 3 + t) * A + a];
            expect(chosen[t][b][a]).toBeCloseTo(online[b][t][a][u], 4);
            const pick = doubleQ ? argmax(online[b][t + 1][a]) : argmax(target[b][t + 1][a]);
            next += target[b][t + 1][a][pick];
          }
          expect(y[t][b]).toBeCloseTo(teamReward(batch, A, b, t) + P.gamma * next, 4);
        }
      }
      alg.dispose();
    });
  }

  it('QMIX: Q_tot(t) mixes Q_a(t, u_a(t)) with s(t); y(t) mixes the target values with s(t + 1) in the target mixer', () => {
    const alg = new Qmix(SPREAD, { ...P, doubleQ: true }, 'qmix', { embedDim: 4, hypernetEmbed: 8 }, 6);
    alg.learn(randomEpisodes(SPREAD, 2, 2, 9));
    alg.learn(randomEpisodes(SPREAD, 2, 2, 10));
    const batch = randomEpisodes(SPREAD, 2, 2, 11);
    const S = SPREAD.stateDim;
    const online = policyQ(SPREAD, alg.model.getWeights(), P.hidden, batch);
    const target = policyQ(SPREAD, alg.target.getWeights(), P.hidden, batch);
    const onlineMixer = alg.mixer.online;
    const targetMixer = alg.mixer.target;
    if (!onlineMixer || !targetMixer) throw new Error('QMIX has mixers');
    /** f(q; s(b, t)) through a mixer's own forward (its equation is checked in qmixMixer.test.ts). */
    const mixAt = (mixer: typeof onlineMixer, q: number[], b: number, t: number) =>
      tf.tidy(() => mixer.forward(tf.tensor2d([...q, ...batch.state.subarray((b * 3 + t) * S, (b * 3 + t + 1) * S)], [1, 3 + S])).qTot.dataSync()[0]);
    const { y, loss } = tf.tidy(() => {
      const out = alg.loss(batch);
      return { y: out.target.arraySync() as number[][], loss: out.loss.dataSync()[0] };
    });
    let squares = 0;
    for (let b = 0; b < 2; b++) {
      for (let t = 0; t < 2; t++) {
        const chosen = [0, 1, 2].map((a) => online[b][t][a][batch.actions[(b * 2 + t) * 3 + a]]);
        const next = [0, 1, 2].map((a) => target[b][t + 1][a][argmax(online[b][t + 1][a])]);
        const want = teamReward(batch, 3, b, t) + P.gamma * mixAt(targetMixer, next, b, t + 1);
        expect(y[t][b]).toBeCloseTo(want, 3);
        squares += (mixAt(onlineMixer, chosen, b, t) - want) ** 2;
      }
    }
    expect(loss).toBeCloseTo(squares / 4, 3);
    alg.dispose();
  });

  it('IQL: y_a(t) = Σ_a r_a(t) + γ max_u Q⁻_a(t + 1, u), each agent on its own', () => {
    const alg = new Qmix(SPREAD, P, 'none', null, 5);
    alg.learn(randomEpisodes(SPREAD, 2, 2, 7));
    const batch = randomEpisodes(SPREAD, 2, 2, 8);
    const target = policyQ(SPREAD, alg.target.getWeights(), P.hidden, batch);
    const y = tf.tidy(() => alg.loss(batch).target.arraySync() as number[][][]);
    for (let b = 0; b < 2; b++) for (let t = 0; t < 2; t++) for (let a = 0; a < 3; a++) {
      expect(y[t][b][a]).toBeCloseTo(teamReward(batch, 3, b, t) + P.gamma * Math.max(...target[b][t + 1][a]), 4);
    }
    alg.dispose();
  });
});

describe('independent Q-learning on a one-agent toy task', () => {
  // One agent sees a cue c ∈ {0, 1} as a one-hot, and is paid 1 for action c (of 3), else 0.
  const TOY: MarlTaskSpec = { envId: 'toy', agents: ['solo'], obsDims: [2], obsOffsets: [0], stateDim: 2, actionSizes: [3], sides: [0], episodeLength: 4 };

  function toyEpisodes(B: number, rng: Rng): { batch: MarlEpisodeBatch; cues: number[] } {
    const T = TOY.episodeLength;
    const state = new Float32Array(B * (T + 1) * 2);
    const actions = new Int32Array(B * T);
    const rewards = new Float32Array(B * T);
    const cues: number[] = [];
    for (let b = 0; b < B; b++) {
      for (let t = 0; t <= T; t++) {
        const c = rng.int(2);
        cues.push(c);
        state[(b * (T + 1) + t) * 2 + c] = 1;
        if (t < T) {
          actions[b * T + t] = rng.int(3); // exploring uniformly: the data never shows the best action on purpose
          rewards[b * T + t] = actions[b * T + t] === c ? 1 : 0;
        }
      }
    }
    return { batch: { numEpisodes: B, T, state, actions, rewards }, cues };
  }

  it('learns to take the cued action at every step from uniformly random play', async () => {
    await chooseBackend({ preferred: 'wasm' });
    const alg = new Qmix(TOY, { ...P, hidden: 16, lr: 1e-2, gamma: 0.5 }, 'none', null, 11);
    const rng = new Rng(12);
    for (let k = 0; k < 150; k++) {
      alg.learn(toyEpisodes(16, rng).batch);
      if (k % 20 === 19) alg.syncTarget(1);
    }
    const { batch, cues } = toyEpisodes(20, rng);
    const q = policyQ(TOY, alg.model.getWeights(), 16, batch);
    let right = 0;
    for (let b = 0; b < 20; b++) for (let t = 0; t <= TOY.episodeLength; t++) if (argmax(q[b][t][0]) === cues[b * (TOY.episodeLength + 1) + t]) right += 1;
    expect(right).toBe(20 * (TOY.episodeLength + 1));
    // Q(cued) ≈ 1 + γ·E[max Q(next)] = 1 + 0.5·Q* ⇒ Q* = 2; the other actions ≈ 0 + 0.5·2 = 1.
    const cued = q[0][1][0][cues[1]];
    expect(cued).toBeGreaterThan(1.6);
    expect(cued).toBeLessThan(2.4);
    alg.dispose();
    await tf.setBackend('cpu');
  }, 60_000);
});
