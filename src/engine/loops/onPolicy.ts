/** What the segment-based on-policy loops (A2C, PPO, IMPALA) share. */
import * as tf from '@tensorflow/tfjs';
import { ActorCriticMlp } from '../../core/mlp';
import type { Algorithm } from '../../core/algorithm';
import { A2c } from '../../algorithms/a2c';
import type { ActorCriticModel } from '../../algorithms/common';
import { Impala, type ImpalaBatch } from '../../algorithms/impala';
import { Ppo, type PpoBatch } from '../../algorithms/ppo';
import type { ExperimentSettings } from '../../config/settings';
import type { ExperimentConfig } from '../../config/config';
import { modelSpecFor } from '../../config/modelSpec';
import type { Segment } from '../segments';

export interface SegmentLearner {
  model: ActorCriticModel;
  algorithm: Algorithm<never, ActorCriticModel>;
  /** Base learning rate (annealed by the loop when the algorithm asks for it). */
  lr: number;
  annealLr: boolean;
  /** Learn from one joined segment; returns the algorithm's metrics. */
  learn(seg: Segment): Promise<Record<string, number>>;
  dispose(): void;
}

/** V(s) for a batch of observations, read back without blocking the GPU queue. */
async function values(model: ActorCriticModel, obs: Float32Array, rows: number, obsDim: number): Promise<Float32Array> {
  if (rows === 0) return new Float32Array(0);
  const v = tf.tidy(() => model.forward(tf.tensor2d(obs, [rows, obsDim])).value);
  const out = (await v.data()) as Float32Array;
  v.dispose();
  return out;
}

export function makeSegmentLearner(config: ExperimentConfig): SegmentLearner {
  const s: ExperimentSettings = config.settings;
  const model = new ActorCriticMlp(modelSpecFor(config, 'actorCritic'), s.seed);
  const algo = s.algorithm;
  if (algo === 'ppo' || algo === 'a2c') {
    const alg =
      algo === 'ppo'
        ? new Ppo(model, {
            lr: s['ppo.lr'],
            gamma: s['ppo.gamma'],
            gaeLambda: s['ppo.gaeLambda'],
            clipCoef: s['ppo.clip'],
            updateEpochs: s['ppo.epochs'],
            numMinibatches: s['ppo.minibatches'],
            entCoef: s['ppo.entCoef'],
            vfCoef: s['ppo.vfCoef'],
            maxGradNorm: s['ppo.maxGradNorm'],
            seed: s.seed,
          })
        : new A2c(model, {
            lr: s['a2c.lr'],
            gamma: s['a2c.gamma'],
            gaeLambda: s['a2c.gaeLambda'],
            entCoef: s['a2c.entCoef'],
            vfCoef: s['a2c.vfCoef'],
            maxGradNorm: s['a2c.maxGradNorm'],
          });
    return {
      model,
      algorithm: alg as unknown as Algorithm<never, ActorCriticModel>,
      lr: algo === 'ppo' ? s['ppo.lr'] : s['a2c.lr'],
      annealLr: algo === 'ppo' && s['ppo.annealLr'],
      async learn(seg) {
        const B = seg.T * seg.numEnvs;
        const d = seg.obsDim;
        // V(s_t) for the whole segment, V(s_T) to bootstrap, and V(real final obs) for episodes
        // cut by the time limit (those are not terminal, so GAE bootstraps from them).
        const [v, lastValues, finalValues] = await Promise.all([
          values(model, seg.obs, B, d),
          values(model, seg.lastObs, seg.numEnvs, d),
          values(model, seg.finalObs, seg.finalIndex.length, d),
        ]);
        const bootstrapValues = new Float32Array(B);
        seg.finalIndex.forEach((idx, k) => (bootstrapValues[idx] = finalValues[k]));
        const batch: PpoBatch = {
          obs: seg.obs,
          actions: seg.actions,
          batchSize: B,
          logProbs: seg.logProbs,
          rewards: seg.rewards,
          dones: seg.dones,
          values: v,
          lastValues,
          numEnvs: seg.numEnvs,
          truncated: seg.truncated,
          bootstrapValues,
        };
        return alg.learn(batch);
      },
      dispose: () => alg.dispose(),
    };
  }
  if (algo === 'impala') {
    const alg = new Impala(model, {
      lr: s['impala.lr'],
      gamma: s['impala.gamma'],
      entCoef: s['impala.entCoef'],
      vfCoef: s['impala.vfCoef'],
      clipRhoThreshold: s['impala.rhoBar'],
      clipPgRhoThreshold: s['impala.rhoBar'],
      clipCThreshold: s['impala.cBar'],
      maxGradNorm: s['impala.maxGradNorm'],
    });
    return {
      model,
      algorithm: alg as unknown as Algorithm<never, ActorCriticModel>,
      lr: s['impala.lr'],
      annealLr: false,
      async learn(seg) {
        const B = seg.T * seg.numEnvs;
        const ended = new Uint8Array(B);
        // V-trace treats a time-limit cut as an episode end (γ_t = 0); on CartPole that only
        // touches the 500th step.
        for (let i = 0; i < B; i++) ended[i] = seg.dones[i] | seg.truncated[i];
        const batch: ImpalaBatch = {
          obs: seg.obs,
          actions: seg.actions,
          behaviourLogProbs: seg.logProbs,
          rewards: seg.rewards,
          dones: ended,
          bootstrapObs: seg.lastObs,
          numEnvs: seg.numEnvs,
        };
        return alg.learn(batch);
      },
      dispose: () => alg.dispose(),
    };
  }
  throw new Error(`no segment learner for algorithm ${algo}`);
}
