/**
 * The learner's side of the swarm: the orchestrator that is trained (PPO, called through the
 * Agent), the frozen subagents that are never given to an optimizer (their weights stay bit for
 * bit the same), and the central inference that answers every tick of every actor.
 * The orchestrator's own direct work is always done by the large checkpoint.
 */
import * as tf from '@tensorflow/tfjs';
import { Agent } from '../core/agent';
import { Rng, deriveSeed } from '../core/rng';
import { Ppo, type PpoBatch } from '../algorithms/ppo';
import type { SwarmOrchestratorOptions, SwarmSubagentOptions } from '../config/swarmConfig';
import { GAE_LAMBDA, GAMMA } from './batch';
import { CentralInference } from './inference';
import { MaskedActorCritic } from './orchestrator';
import { loadSubagentCheckpoint } from './subagentFiles';
import { FrozenSubagent } from './subagents';
import { defaultParams } from '../config/algorithm';
import { PPO } from '../config/algorithms/ppo';

const ORCH_MINIBATCHES = 2;

export class SwarmLearner {
  readonly orchestrator: MaskedActorCritic;
  readonly agent: Agent<PpoBatch>;
  readonly inference: CentralInference;
  private switched = false;

  /** Load (and validate) the subagent checkpoints; throws with a message naming a bad one. */
  static async create(orch: SwarmOrchestratorOptions, subagents: SwarmSubagentOptions): Promise<SwarmLearner> {
    const subCkpt = await loadSubagentCheckpoint(subagents.checkpoint);
    const largeCkpt = await loadSubagentCheckpoint('large');
    return new SwarmLearner(new FrozenSubagent(subCkpt, subagents.checkpoint), new FrozenSubagent(largeCkpt, 'large'), orch, subagents);
  }

  private constructor(
    private readonly subagent: FrozenSubagent,
    private readonly large: FrozenSubagent,
    orch: SwarmOrchestratorOptions,
    private readonly subagents: SwarmSubagentOptions,
  ) {
    this.orchestrator = new MaskedActorCritic(orch.hidden, orch.seed, { directBias: orch.directBias });
    // γ and λ are given for completeness: the batch's advantages are computed before learn().
    const ppo = new Ppo(this.orchestrator, {
      ...defaultParams(PPO.settings),
      lr: orch.lr,
      entCoef: orch.entCoef,
      updateEpochs: orch.updateEpochs,
      numMinibatches: ORCH_MINIBATCHES,
      gamma: GAMMA,
      gaeLambda: GAE_LAMBDA,
      seed: orch.seed,
    });
    this.agent = new Agent<PpoBatch>(ppo);
    this.inference = new CentralInference(this.orchestrator, subagent, large, new Rng(deriveSeed(orch.seed, 0x0c4e)), {
      subagentTemperature: subagents.temperature,
      directTemperature: 1,
    });
  }

  /** Curriculum: at its update the subagents become the large checkpoint. True when they switch now. */
  switchSubagentsAt(update: number): boolean {
    const at = this.subagents.switchToLargeAt;
    if (this.switched || at <= 0 || update < at) return false;
    this.inference.subagent = this.large;
    this.switched = true;
    return true;
  }

  /**
   * π(·|s) of the orchestrator at each observation (masked rows, as it samples), in one batched
   * pass: what the trace shows beside each stage of a recorded episode.
   */
  async policyAt(observations: readonly Float32Array[]): Promise<number[][]> {
    if (observations.length === 0) return [];
    const dim = observations[0].length;
    const flat = new Float32Array(observations.length * dim);
    observations.forEach((o, i) => flat.set(o, i * dim));
    const probs = tf.tidy(() => tf.softmax(this.orchestrator.forward(tf.tensor2d(flat, [observations.length, dim])).logits));
    const rows = (await probs.array()) as number[][];
    probs.dispose();
    return rows.map((r) => r.map((p) => Math.round(p * 1e4) / 1e4));
  }

  /** Forward passes and ticks so far, for the update record. */
  inferenceCounts(): { orchForwardCalls: number; subagentForwardCalls: number; ticks: number } {
    const i = this.inference;
    return { orchForwardCalls: i.orchForwardCalls, subagentForwardCalls: i.subagent.forwardCalls, ticks: i.ticks };
  }

  dispose(): void {
    this.agent.dispose();
    this.subagent.dispose();
    this.large.dispose();
  }
}
