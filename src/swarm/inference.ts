/**
 * Central inference for the swarm (SEED style): the learner answers the pending rows of every
 * actor with ONE orchestrator forward pass, ONE subagent forward pass (all subagents of all
 * episodes) and, when there is direct work, ONE pass of the model that does the orchestrator's
 * own direct work. Forward calls are counted so tests and benchmarks can check the batching.
 *
 * Orchestrator sampling: a ~ π(·|s) = softmax(masked logits), recorded with log π(a|s) and V(s)
 * for PPO. Worker sampling: softmax(logits / τ) with τ per role.
 */
import { log } from '../core/portableMath';
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../core/rng';
import { ITEM_OBS_DIM } from '../envs/swarm/itemSearch';
import { FastMaskedActorCritic, NUM_ORCH_ACTIONS, ORCH_OBS_DIM, type MaskedActorCritic } from './orchestrator';
import { typedArrayPassFits, type FrozenSubagent } from './subagents';
import type { SwarmPending } from './swarmActor';

export interface OrchestratorDecisions {
  actions: Int32Array;
  logProbs: Float32Array;
  values: Float32Array;
}

export interface TickAnswer {
  /** Per pending (same order): the orchestrator's decisions for its rows. */
  orch: OrchestratorDecisions[];
  /** Per pending: one worker action per worker row. */
  work: Int32Array[];
}

export class CentralInference {
  orchForwardCalls = 0;
  ticks = 0;
  /** The orchestrator's pass on typed arrays, for ticks with few rows (wasm only: see typedArrayPassFits). */
  private readonly orchFast: FastMaskedActorCritic;

  constructor(
    readonly orchestrator: MaskedActorCritic,
    public subagent: FrozenSubagent,
    public direct: FrozenSubagent,
    private readonly rng: Rng,
    readonly options: { subagentTemperature: number; directTemperature: number; greedyOrchestrator?: boolean } = {
      subagentTemperature: 1,
      directTemperature: 1,
    },
  ) {
    this.orchFast = new FastMaskedActorCritic(orchestrator);
  }

  /** Decisions for `n` orchestrator rows in one forward pass. */
  async decide(obs: Float32Array, n: number): Promise<OrchestratorDecisions> {
    return this.sampleDecisions(await this.orchestratorOutputs(obs, n), n);
  }

  /**
   * One forward pass of the orchestrator: on typed arrays for a few rows on wasm, else tfjs's,
   * π and V read back together (one readback of [n, A + 1]) without blocking the backend.
   */
  private async orchestratorOutputs(obs: Float32Array, n: number): Promise<{ probs: Float32Array; values: Float32Array }> {
    if (n === 0) return { probs: new Float32Array(0), values: new Float32Array(0) };
    this.orchForwardCalls += 1;
    if (typedArrayPassFits(n * this.orchFast.macsPerRow)) return this.orchFast.outputs(obs, n);
    const A = NUM_ORCH_ACTIONS;
    const both = tf.tidy(() => {
      const o = this.orchestrator.forward(tf.tensor2d(obs, [n, ORCH_OBS_DIM]));
      return tf.concat([tf.softmax(o.logits), tf.reshape(o.value, [n, 1])], 1);
    });
    const rows = (await both.data()) as Float32Array;
    both.dispose();
    const probs = new Float32Array(n * A);
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      probs.set(rows.subarray(i * (A + 1), i * (A + 1) + A), i * A);
      values[i] = rows[i * (A + 1) + A];
    }
    return { probs, values };
  }

  private sampleDecisions({ probs, values }: { probs: Float32Array; values: Float32Array }, n: number): OrchestratorDecisions {
    const out: OrchestratorDecisions = { actions: new Int32Array(n), logProbs: new Float32Array(n), values: new Float32Array(n) };
    const A = NUM_ORCH_ACTIONS;
    for (let i = 0; i < n; i++) {
      let a: number;
      if (this.options.greedyOrchestrator) {
        a = 0;
        for (let j = 1; j < A; j++) if (probs[i * A + j] > probs[i * A + a]) a = j;
      } else a = this.rng.categorical(probs, i * A, A);
      out.actions[i] = a;
      out.logProbs[i] = log(Math.max(probs[i * A + a], 1e-30));
      out.values[i] = values[i];
    }
    return out;
  }

  /**
   * Answer every pending row of every actor: one forward pass per model. All passes are queued
   * before any result is read back, and the readbacks do not block the backend.
   */
  async tick(pendings: readonly SwarmPending[]): Promise<TickAnswer> {
    this.ticks += 1;
    // Orchestrator rows of all actors, concatenated.
    const nOrch = pendings.reduce((a, p) => a + p.orchSlots.length, 0);
    const orchObs = new Float32Array(nOrch * ORCH_OBS_DIM);
    let r = 0;
    for (const p of pendings) {
      orchObs.set(p.orchObs, r * ORCH_OBS_DIM);
      r += p.orchSlots.length;
    }
    // Worker rows, split by role: subagents (1) and the orchestrator's own direct work (0).
    const roles = ([1, 0] as const).map((role) => {
      const idx: Array<[number, number]> = [];
      pendings.forEach((p, pi) => p.workRole.forEach((w, i) => w === role && idx.push([pi, i])));
      const obs = new Float32Array(idx.length * ITEM_OBS_DIM);
      idx.forEach(([pi, i], k) => obs.set(pendings[pi].workObs.subarray(i * ITEM_OBS_DIM, (i + 1) * ITEM_OBS_DIM), k * ITEM_OBS_DIM));
      const model = role === 1 ? this.subagent : this.direct;
      const temperature = role === 1 ? this.options.subagentTemperature : this.options.directTemperature;
      return { idx, model, probs: idx.length > 0 ? model.probabilities(obs, idx.length, temperature) : Promise.resolve(new Float32Array(0)) };
    });
    // Every pass is queued before anything is read back; then sample in a fixed order, so the
    // Rng stream (and so the run) does not depend on which readback lands first.
    const orchOut = await this.orchestratorOutputs(orchObs, nOrch);
    const roleProbs = await Promise.all(roles.map((x) => x.probs));
    const all = this.sampleDecisions(orchOut, nOrch);
    const work = pendings.map((p) => new Int32Array(p.workRole.length));
    roles.forEach(({ idx, model }, k) => {
      if (idx.length === 0) return;
      const actions = model.choose(roleProbs[k], idx.length, this.rng);
      idx.forEach(([pi, i], j) => (work[pi][i] = actions[j]));
    });
    const orch: OrchestratorDecisions[] = [];
    r = 0;
    for (const p of pendings) {
      const n = p.orchSlots.length;
      orch.push({ actions: all.actions.slice(r, r + n), logProbs: all.logProbs.slice(r, r + n), values: all.values.slice(r, r + n) });
      r += n;
    }
    return { orch, work };
  }

}
