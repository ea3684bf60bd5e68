import { describe, expect, it, vi } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from '../../../src/core/backend';
import { Rng } from '../../../src/core/rng';
import { nodePlatform } from '../../../src/cli/nodePlatform';
import { resolveExperiment } from '../../../src/config/config';
import type { RunRecord, SwarmUpdateRecord } from '../../../src/runs/records';
import { TrainingRun } from '../../../src/engine/trainer';
import { DecompositionSim } from '../../../src/envs/swarm/decomposition';
import { decompositionTaskFrom, generateDecomposition } from '../../../src/envs/swarm/decompositionTask';
import { makeSwarmSim, type SwarmTaskSpec } from '../../../src/swarm/swarmActor';
import { SwarmLearner, LocalSwarmActors, actorSpecOf, buildSwarmBatch, decisionRewardsToGo } from '../../../src/swarm/swarmLearner';
import { collectSwarmRollouts, SetInference } from '../../../src/swarm/swarmRollouts';
import {
  SP_MASK_OFFSET,
  SP_NUM_ACTIONS,
  SP_OBS_DIM,
  SP_SEGMENTS,
  SetPolicyModel,
  activeRowsOf,
  applySetAction,
  decodeSetAction,
  encodeSetObservation,
} from '../../../src/swarm/setPolicy';
import { MEASURED_KINDS, loadMeasuredSkillTable, measuredSkillTable } from '../../../src/swarm/subagentSkills';

const spec = (numSubtasks: number, extra: Partial<SwarmTaskSpec> = {}): SwarmTaskSpec => ({ task: { numSubtasks }, rules: {}, maxDecisions: 4 * numSubtasks + 20, ...extra });

function probsOf(model: SetPolicyModel, obs: Float32Array, n: number): Float32Array {
  model.activeRows = activeRowsOf(obs, n);
  const p = tf.tidy(() => tf.softmax(model.forward(tf.tensor2d(obs, [n, SP_OBS_DIM])).logits));
  const out = p.dataSync() as Float32Array;
  p.dispose();
  return new Float32Array(out);
}

describe('set policy: masking', () => {
  it('gives every illegal action probability exactly 0 and the legal ones all the mass, with a plan pending and without', async () => {
    await chooseBackend({ preferred: 'cpu' });
    // Two sims: an empty plan (launch illegal, finish illegal while work is open), and one with
    // a planned subagent (join legal for its kind, direct and check illegal while a plan is pending).
    const a = new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, 3));
    const b = new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, 4));
    b.createSubagent('small', b.candidates()[0]);
    const obs = new Float32Array(2 * SP_OBS_DIM);
    encodeSetObservation(a, obs, 0);
    encodeSetObservation(b, obs, SP_OBS_DIM);
    for (const seed of [2, 3, 4]) {
      const model = new SetPolicyModel({ hidden: 16, seed });
      const probs = probsOf(model, obs, 2);
      for (let r = 0; r < 2; r++) {
        let legal = 0;
        let illegalMass = 0;
        for (let j = 0; j < SP_NUM_ACTIONS; j++) {
          const p = probs[r * SP_NUM_ACTIONS + j];
          if (obs[r * SP_OBS_DIM + SP_MASK_OFFSET + j] > 0) legal += p;
          else illegalMass += p;
        }
        expect(illegalMass).toBe(0);
        expect(legal).toBeCloseTo(1, 5);
      }
      model.dispose();
    }
    const m = (r: number, j: number) => obs[r * SP_OBS_DIM + SP_MASK_OFFSET + j];
    expect(m(0, SP_SEGMENTS.launch.offset)).toBe(0); // nothing planned
    expect(m(0, SP_SEGMENTS.finish.offset)).toBe(0); // open work left
    expect(m(1, SP_SEGMENTS.launch.offset)).toBe(1);
    expect(m(1, SP_SEGMENTS.direct.offset)).toBe(0); // a plan is pending
    expect(m(1, SP_SEGMENTS.join.offset + 1 * 4 + 1)).toBe(1); // row 1 can join the planned 'small' (kind 1)
  });

  it('every seed starts with no lean: π(direct type) is 1 / (legal types) at near-zero type weights', async () => {
    await chooseBackend({ preferred: 'cpu' });
    const sim = new DecompositionSim(generateDecomposition({ numSubtasks: 30 }, 5));
    const obs = new Float32Array(SP_OBS_DIM);
    encodeSetObservation(sim, obs, 0);
    // Legal types on an empty plan at the start: assignNew, direct (no claims yet: no check, join, launch, finish).
    const model = new SetPolicyModel({ hidden: 16, seed: 9 });
    const p = probsOf(model, obs, 1);
    let direct = 0;
    for (let j = 0; j < SP_SEGMENTS.direct.length; j++) direct += p[SP_SEGMENTS.direct.offset + j];
    const expected = 1 / 2;
    expect(Math.abs(direct - expected)).toBeLessThan(0.03); // type weights start at scale 0.01
    model.dispose();
  });

  it('leaving out empty rows (activeRows) changes no probability', async () => {
    await chooseBackend({ preferred: 'cpu' });
    const sim = new DecompositionSim(generateDecomposition({ numSubtasks: 12 }, 8));
    const obs = new Float32Array(SP_OBS_DIM);
    encodeSetObservation(sim, obs, 0);
    const model = new SetPolicyModel({ hidden: 8, seed: 1 });
    const part = probsOf(model, obs, 1);
    model.activeRows = 100;
    const full = tf.tidy(() => tf.softmax(model.forward(tf.tensor2d(obs, [1, SP_OBS_DIM])).logits).dataSync());
    expect(activeRowsOf(obs, 1)).toBe(sim.candidates().length); // blocked chain links are no candidates
    expect(sim.candidates().length).toBeLessThan(100);
    for (let j = 0; j < SP_NUM_ACTIONS; j++) expect(part[j]).toBeCloseTo(full[j], 6);
    model.dispose();
  });

  it('decodes and applies actions as the tools they name', () => {
    const task = decompositionTaskFrom([{ kind: 'search', size: 2 }, { kind: 'lookup', size: 1 }]);
    const sim = new DecompositionSim(task, { budgetFraction: 1 });
    const ids = sim.candidates();
    expect(decodeSetAction(SP_SEGMENTS.assignNew.offset + 1 * 4 + 2)).toEqual({ type: 'assignNew', row: 1, kind: 2 });
    applySetAction(sim, ids, SP_SEGMENTS.assignNew.offset + 0 * 4 + 2); // searcher takes subtask 0
    applySetAction(sim, ids, SP_SEGMENTS.join.offset + 1 * 4 + 2); // and subtask 1, batched
    expect(sim.pendingPlan()).toEqual([{ kind: 'searcher', items: [0, 1] }]);
    expect(() => decodeSetAction(SP_NUM_ACTIONS)).toThrow(/outside/);
  });
});

describe('central inference of the set policy', () => {
  it('answers every episode of every actor with ONE forward pass per tick, at 100 subtasks and up to 100 subagents', async () => {
    await chooseBackend({ preferred: 'cpu' });
    const model = new SetPolicyModel({ hidden: 8, seed: 4 });
    // Type logits that favour create_subagent: plans grow to every candidate before a launch.
    const specs = model.weightSpecs();
    const ws = model.getWeights();
    ws[specs.findIndex((w) => w.name === 'setPolicy/bt')] = Float32Array.from([12, -12, -12, -12, -12, -12]);
    model.setWeights(ws);
    const forward = vi.spyOn(model, 'forward');
    const inference = new SetInference(model, new Rng(1));
    const actors = new LocalSwarmActors(spec(100, { maxDecisions: 150 }), 3, 7);
    const r = await collectSwarmRollouts(actors, inference, { update: 0, episodesPerActor: 2 });
    expect(r.episodes.length).toBe(6);
    expect(r.ticks).toBeGreaterThan(10);
    expect(forward).toHaveBeenCalledTimes(r.ticks);
    expect(inference.forwardCalls).toBe(r.ticks);
    // Every decision of every episode went through those passes.
    expect(inference.rows).toBe(r.decisions);
    // The first tick carried all 6 episodes in one batch.
    expect((forward.mock.calls[0][0] as tf.Tensor2D).shape[0]).toBe(6);
    const most = Math.max(...r.episodes.flatMap((e) => e.outcome.launches));
    expect(most).toBeGreaterThanOrEqual(90);
    expect(most).toBeLessThanOrEqual(100);
    model.dispose();
  }, 180_000); // 119 s was measured at load average 46
});

describe('swarm learner', () => {
  it('pays each decision the reward to go of its stage, r_perf at the end: the earliest stage gets R = λ1·r_parallel + λ2·r_finish + r_perf, A_t = G_t − V_old(s_t)', async () => {
    await chooseBackend({ preferred: 'cpu' });
    const model = new SetPolicyModel({ hidden: 8, seed: 4 });
    const r = await collectSwarmRollouts(new LocalSwarmActors(actorSpecOf({ spec: spec(10) }), 1, 2), new SetInference(model, new Rng(3)), { update: 0, episodesPerActor: 2 });
    const w = { lambda1: 0.5, lambda2: 0.25, parallelCap: 4 };
    const built = buildSwarmBatch(r.episodes, w);
    expect(built).not.toBeNull();
    let row = 0;
    r.episodes.forEach((e, k) => {
      const o = e.outcome;
      const rFinish = o.nAssigned > 0 ? o.nCompleted / o.nAssigned : 1;
      const R = 0.5 * (Math.min(o.nSubagents, 4) / 4) + 0.25 * rFinish + o.rPerf;
      expect(built?.stats[k].total).toBeCloseTo(R, 10);
      const G = decisionRewardsToGo(e, w);
      expect(Math.max(...G)).toBeCloseTo(R, 10);
      for (const [t, d] of e.decisions.entries()) {
        expect(G[t]).toBeGreaterThanOrEqual(o.rPerf - 1e-12);
        expect(built?.batch.returns?.[row]).toBeCloseTo(G[t], 5);
        expect(built?.batch.advantages?.[row]).toBeCloseTo(G[t] - d.value, 5);
        row += 1;
      }
    });
    model.dispose();
  }, 30_000);

  it('rejects bad input before any network is built', () => {
    const base = { seed: 1, hidden: 8, lr: 1e-3, entCoef: 0.01, updateEpochs: 1, numMinibatches: 1, updates: 1, actors: 1, episodesPerActor: 1, lambda1: { kind: 'constant' as const, start: 0, horizon: 1 }, lambda2: { kind: 'constant' as const, start: 0, horizon: 1 }, parallelCap: 4 };
    expect(() => SwarmLearner.create({ ...base, spec: spec(20, { rules: { budgetFraction: 0.02 } }) })).toThrow(/below the lower bound/);
    expect(() => SwarmLearner.create({ ...base, spec: spec(20, { rules: { subagentKinds: ['large', 'wizard'] } }) })).toThrow(/unknown subagent kind 'wizard'/);
    expect(() => makeSwarmSim(spec(20, { rules: { subagentKinds: ['large', 'small', 'searcher', 'large'] } }), 1)).toThrow(/repeat/);
  });

  it('rejects a subagent checkpoint entry without the figures a skill profile needs, and an orchestrator checkpoint of the wrong shape', async () => {
    await chooseBackend({ preferred: 'cpu' });
    const good = { successRate: 0.9, meanSteps: 8 };
    const entry = (file: string, grids: string[]) => ({ file, byGrid: Object.fromEntries(grids.map((g) => [g, good])) });
    const all = [...MEASURED_KINDS];
    expect(() => measuredSkillTable(all.map((f) => entry(`${f}.ckpt`, ['3', '5', '8'])))).not.toThrow();
    expect(() => measuredSkillTable(all.map((f) => entry(`${f}.ckpt`, f === 'searcher' ? ['3', '5'] : ['3', '5', '8'])))).toThrow(/'searcher' has no figures for grid 8/);
    expect(() => measuredSkillTable(all.slice(1).map((f) => entry(`${f}.ckpt`, ['3', '5', '8'])))).toThrow(/no checkpoint 'small-u10.ckpt'/);
    // success 0.9 → 0.9, think = round(8 / 8) = 1
    expect(measuredSkillTable(all.map((f) => entry(`${f}.ckpt`, ['3', '5', '8']))).skills.large.search).toEqual({ success: 0.9, think: 1, calibration: 0.6 });
    // The shipped manifest: the search specialist (small network trained on grid 8) beats its
    // parent 'small' at search; the measured table carries its figures.
    const shipped = await loadMeasuredSkillTable();
    expect(shipped.rules.subagentKinds).toEqual([...MEASURED_KINDS]);
    expect(makeSwarmSim({ ...spec(20), skills: shipped.skills, rules: shipped.rules }, 1).subagentKinds).toEqual([...MEASURED_KINDS]);
    const a = new SetPolicyModel({ hidden: 8, seed: 1 });
    const b = new SetPolicyModel({ hidden: 16, seed: 1 });
    expect(() => a.setWeights(b.getWeights())).toThrow(/setWeights/);
    a.dispose();
    b.dispose();
  });
});

describe('swarm training loop (worker threads)', () => {
  it('trains a few updates end to end, with the headline figures in every update record', async () => {
    const records: RunRecord[] = [];
    const config = resolveExperiment('swarm-annealed', { seed: 2, 'swarm.updates': 2, 'swarm.subtasks': 8, 'swarm.hidden': 8, envsPerActor: 2, actors: 2, backend: 'cpu' });
    const summary = await new TrainingRun(config, (r) => records.push(r), nodePlatform()).run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.updates).toBe(2);
    const swarm = records.filter((r): r is SwarmUpdateRecord => r.type === 'swarm');
    expect(swarm.length).toBe(2);
    for (const rec of swarm) {
      expect(rec.episodes.length).toBe(4);
      for (const e of rec.episodes) {
        expect(e.criticalSteps).toBeLessThanOrEqual(Math.ceil(0.25 * e.serialBaseline)); // the hard budget
        expect(e.total).toBeCloseTo(e.lambda1 * e.rParallel + e.lambda2 * e.rFinish + e.rPerf, 10);
      }
    }
    for (const u of records) {
      if (u.type !== 'update') continue;
      for (const k of ['criticalSteps', 'serialBaseline', 'criticalOverSerial', 'rPerf', 'avgParallelism', 'finishRate', 'totalCompute']) expect(Number.isFinite(u.metrics[k])).toBe(true);
      expect(u.metrics.forwardCallsPerTick).toBe(1);
    }
  }, 120_000);

  it('ends with a clear error before training when the budget is below the lower bound', async () => {
    const records: RunRecord[] = [];
    const config = resolveExperiment('swarm-annealed', { 'swarm.updates': 1, 'swarm.budgetFraction': 0.02, backend: 'cpu' });
    const summary = await new TrainingRun(config, (r) => records.push(r), nodePlatform()).run();
    expect(summary.stopReason).toBe('error');
    expect(summary.updates).toBe(0);
    expect(summary.error).toMatch(/lower bound/);
  }, 60_000);
});
