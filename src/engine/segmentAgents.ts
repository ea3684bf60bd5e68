/**
 * Agents for the segment-based on-policy loops (A2C, PPO, IMPALA): they turn the segments the
 * actors send into the batch their algorithm learns from. The update rule itself never sees a
 * segment, and the loops never build a batch.
 */
import * as tf from '@tensorflow/tfjs';
import type { ImpalaBatch } from '../algorithms/impala';
import type { PpoBatch } from '../algorithms/ppo';
import { Agent } from '../core/agent';
import { runToEnd, type Algorithm, type UpdateSteps } from '../core/algorithm';
import type { ActorCriticMlp } from '../core/mlp';
import type { Segment } from './segments';

/** What the loops ask of a segment agent. */
export interface SegmentAgent {
  learnSegment(seg: Segment): Promise<Record<string, number>>;
}

/** V(s) for a batch of observations, read back without blocking the GPU queue. */
async function values(model: ActorCriticMlp, obs: Float32Array, rows: number, obsDim: number): Promise<Float32Array> {
  if (rows === 0) return new Float32Array(0);
  const v = tf.tidy(() => model.forward(tf.tensor2d(obs, [rows, obsDim])).value);
  const out = (await v.data()) as Float32Array;
  v.dispose();
  return out;
}

/**
 * A2C / PPO (A2C ignores the log-probabilities): the batch carries V(s_t) for the whole segment, V(s_T) to bootstrap from, and
 * V(real final obs) for episodes cut by the time limit (those are not terminal, so GAE bootstraps
 * from them).
 */
export class GaeSegmentAgent extends Agent<PpoBatch> implements SegmentAgent {
  constructor(
    alg: Algorithm<PpoBatch>,
    private readonly critic: ActorCriticMlp,
  ) {
    super(alg);
  }

  async learnSegment(seg: Segment): Promise<Record<string, number>> {
    return runToEnd(await this.learnSegmentSteps(seg));
  }

  /** The update on a segment as steps (see UpdateSteps): PPO's minibatches, A2C's one step. */
  async learnSegmentSteps(seg: Segment): Promise<UpdateSteps> {
    const B = seg.T * seg.numEnvs;
    const d = seg.obsDim;
    const [v, lastValues, finalValues] = await Promise.all([
      values(this.critic, seg.obs, B, d),
      values(this.critic, seg.lastObs, seg.numEnvs, d),
      values(this.critic, seg.finalObs, seg.finalIndex.length, d),
    ]);
    const bootstrapValues = new Float32Array(B);
    seg.finalIndex.forEach((idx, k) => (bootstrapValues[idx] = finalValues[k]));
    return this.alg.learnSteps({
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
    });
  }
}

/**
 * IMPALA: V-trace treats a time-limit cut as an episode end (γ_t = 0); on CartPole that only
 * touches the 500th step.
 */
export class VtraceSegmentAgent extends Agent<ImpalaBatch> implements SegmentAgent {
  async learnSegment(seg: Segment): Promise<Record<string, number>> {
    const B = seg.T * seg.numEnvs;
    const ended = new Uint8Array(B);
    for (let i = 0; i < B; i++) ended[i] = seg.dones[i] | seg.truncated[i];
    return this.learn({
      obs: seg.obs,
      actions: seg.actions,
      behaviourLogProbs: seg.logProbs,
      rewards: seg.rewards,
      dones: ended,
      bootstrapObs: seg.lastObs,
      numEnvs: seg.numEnvs,
    });
  }
}
