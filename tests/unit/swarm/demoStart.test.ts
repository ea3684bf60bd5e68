import { beforeAll, describe, expect, it } from 'vitest';
import { chooseBackend } from '../../../src/core/backend';
import { generateDecomposition } from '../../../src/envs/swarm/decompositionTask';
import { DecompositionSim } from '../../../src/envs/swarm/decomposition';
import { greedyBaseline, packerBaseline, plannerBaseline } from '../../../src/swarm/baselines';
import { decompSimOptions, type DecompTaskSpec } from '../../../src/swarm/decompActor';
import { DemoRehearsal, RecordingDecompositionSim, cloneDemonstrations, collectDemonstrations, demoNegLogLikelihood, demoTaskSeed } from '../../../src/swarm/demoStart';
import { SP_OBS_DIM, SetPolicyModel, applySetAction, encodeSetObservation } from '../../../src/swarm/setPolicy';

const spec: DecompTaskSpec = { task: { numSubtasks: 12 }, rules: {}, maxDecisions: 100 };

beforeAll(async () => {
  await chooseBackend({ preferred: 'cpu' });
});

describe('demonstrations of a scripted orchestrator as set-policy decisions', () => {
  it('replaying the recorded actions on a fresh sim plays the same episode (planner, greedy, packer)', () => {
    let replayed = 0;
    for (const policy of [plannerBaseline(), greedyBaseline(), packerBaseline()]) {
      for (let i = 0; i < 6; i++) {
        const task = generateDecomposition(spec.task, demoTaskSeed(3, i));
        const rec = new RecordingDecompositionSim(task, decompSimOptions(spec, demoTaskSeed(3, i)));
        const scripted = policy(rec);
        if (rec.skipped > 0) continue; // a call the policy's mask forbids cannot be replayed
        replayed += 1;
        const sim = new DecompositionSim(generateDecomposition(spec.task, demoTaskSeed(3, i)), decompSimOptions(spec, demoTaskSeed(3, i)));
        rec.actions.forEach((a, t) => {
          const obs = new Float32Array(SP_OBS_DIM);
          const rows = encodeSetObservation(sim, obs, 0);
          expect(obs).toEqual(rec.observations[t]); // the same state, seen the same way
          applySetAction(sim, rows, a);
        });
        expect(sim.finished).toBe(true);
        const o = sim.outcome();
        expect([o.rPerf, o.criticalSteps, o.nSubagents, o.nAssigned, o.nChecks]).toEqual([scripted.rPerf, scripted.criticalSteps, scripted.nSubagents, scripted.nAssigned, scripted.nChecks]);
      }
    }
    expect(replayed).toBeGreaterThanOrEqual(6);
  });

  it('records joins as batching onto the newest planned subagent of the kind', () => {
    const d = collectDemonstrations(spec, 1, 4, plannerBaseline());
    expect(d.infeasible).toBe(0);
    expect(d.n).toBe(d.actions.length);
    expect(d.obs.length).toBe(d.n * SP_OBS_DIM);
    const subagents = d.outcomes.reduce((a, o) => a + o.nSubagents, 0);
    const assigned = d.outcomes.reduce((a, o) => a + o.nAssigned, 0);
    expect(assigned).toBeGreaterThan(subagents); // the planner batches
  });
});

describe('cloning the demonstrations into the set policy', () => {
  it('lowers −log π(a|s) on them, the same way for the same seed', () => {
    const demos = collectDemonstrations(spec, 2, 3, plannerBaseline());
    const fit = () => {
      const model = new SetPolicyModel({ hidden: 8, seed: 5, startBias: 0 });
      const before = demoNegLogLikelihood(model, demos);
      const curve = cloneDemonstrations(model, demos, { epochs: 15, batchSize: 32, lr: 1e-2, seed: 5 });
      const after = demoNegLogLikelihood(model, demos);
      const weights = model.variables().map((v) => Array.from(v.dataSync()));
      model.dispose();
      return { before, after, curve, weights };
    };
    const a = fit();
    expect(a.curve).toHaveLength(15);
    expect(a.after).toBeLessThan(a.before - 0.5);
    expect(a.curve[14]).toBeLessThan(a.curve[0]);
    const b = fit();
    expect(b.weights).toEqual(a.weights);
  }, 60_000);

  it('leaves out tasks the rules make impossible, and says how many', () => {
    // 8 subtasks under a budget of 0.1 × serial: some tasks' longest chain does not fit.
    const tight: DecompTaskSpec = { task: { numSubtasks: 8 }, rules: { budgetFraction: 0.1 }, maxDecisions: 60 };
    const d = collectDemonstrations(tight, 1, 20, plannerBaseline());
    expect(d.infeasible).toBeGreaterThan(0);
    expect(d.outcomes.length).toBe(20 - d.infeasible);
  });

  it('refuses an empty set of demonstrations', () => {
    const model = new SetPolicyModel({ hidden: 8, seed: 1, startBias: 0 });
    const empty = { obs: new Float32Array(0), actions: new Int32Array(0), n: 0, skipped: 0, infeasible: 0, outcomes: [] };
    expect(() => cloneDemonstrations(model, empty, { epochs: 1, batchSize: 8, lr: 1e-3, seed: 1 })).toThrow('nothing was recorded');
    model.dispose();
  });
});

describe('rehearsing the demonstrations during RL', () => {
  it('steps at a rate falling linearly to 0 over the horizon, lowers −log π(a|s) while it runs, then leaves the policy alone', () => {
    const demos = collectDemonstrations(spec, 2, 3, packerBaseline());
    const model = new SetPolicyModel({ hidden: 8, seed: 5, startBias: 0 });
    const r = new DemoRehearsal(model, demos, { batchSize: 32, lr: 1e-2, horizon: 20, seed: 5 });
    try {
      expect([0, 5, 10, 20, 30].map((k) => r.learningRateAt(k))).toEqual([1e-2, 1e-2 * 0.75, 1e-2 * 0.5, 0, 0]);
      const before = demoNegLogLikelihood(model, demos);
      for (let k = 0; k < 20; k++) expect(r.step(k)).not.toBeNull();
      const after = demoNegLogLikelihood(model, demos);
      expect(after).toBeLessThan(before - 0.2);
      const weights = model.variables().map((v) => Array.from(v.dataSync()));
      expect(r.step(20)).toBeNull();
      expect(model.variables().map((v) => Array.from(v.dataSync()))).toEqual(weights);
    } finally {
      r.dispose();
      model.dispose();
    }
  }, 60_000);

  it('refuses a horizon that is not a positive integer', () => {
    const demos = collectDemonstrations(spec, 2, 1, packerBaseline());
    const model = new SetPolicyModel({ hidden: 8, seed: 5, startBias: 0 });
    expect(() => new DemoRehearsal(model, demos, { batchSize: 32, lr: 1e-2, horizon: 0, seed: 5 })).toThrow("the rehearsal's horizon must be a positive integer, got 0");
    model.dispose();
  });

  it('follows each of the learner\'s updates while it runs: the update reports demoNll', async () => {
    const { DecompLearner } = await import('../../../src/swarm/decompLearner');
    const { annealedOptions } = await import('../../../bench/swarmV2');
    const small: DecompTaskSpec = { ...spec, episodesPerTask: 2 };
    const learner = DecompLearner.create({ ...annealedOptions(3, 2, small), hidden: 8, actors: 1, episodesPerActor: 2 });
    try {
      // the anneal horizon of 2 updates is 1: a step after update 1, none after update 2
      learner.rehearse(collectDemonstrations(small, 3, 2, packerBaseline()));
      const first = await learner.update();
      expect(Number.isFinite(first.metrics.demoNll)).toBe(true);
      const second = await learner.update();
      expect(second.metrics.demoNll).toBeUndefined();
    } finally {
      learner.dispose();
    }
  }, 60_000);
});

describe('the swarm-v2-demo-start preset', () => {
  it('differs from swarm-v2-annealed only in its start, and says what it did before the first update', async () => {
    const { resolveExperiment } = await import('../../../src/config/config');
    const { TrainingRun } = await import('../../../src/engine/trainer');
    const { nodePlatform } = await import('../../../src/cli/nodePlatform');
    const a = resolveExperiment('swarm-v2-annealed', {}).settings as Record<string, unknown>;
    const d = resolveExperiment('swarm-v2-demo-start', {}).settings as Record<string, unknown>;
    expect(Object.keys(d).filter((k) => d[k] !== a[k])).toEqual(['swarm2.start']);

    const records: { type: string; message?: string }[] = [];
    const config = resolveExperiment('swarm-v2-demo-start', { seed: 2, 'swarm2.updates': 1, 'swarm2.subtasks': 12, 'swarm2.hidden': 8, envsPerActor: 4, actors: 1, backend: 'wasm' });
    const summary = await new TrainingRun(config, (r) => records.push(r), nodePlatform()).run();
    expect(summary.stopReason).toBe('budget');
    expect(summary.updates).toBe(1);
    const notices = records.filter((r) => r.type === 'notice').map((r) => r.message ?? '');
    // Every 10th pass, and more often when passes are slow (at least one line every 5 s): in order, each with the time left.
    const passLines = notices.filter((m) => m.startsWith('Demonstrations: pass'));
    const passes = passLines.map((m) => Number(/^Demonstrations: pass (\d+) of 30, −log π\(a\|s\) [\d.]+, about \d+ s left\.$/.exec(m)?.[1]));
    expect(passes).toEqual(expect.arrayContaining([10, 20]));
    expect(passes.every((p, i) => p > 0 && p < 30 && (i === 0 || p > passes[i - 1]))).toBe(true);
    const started = notices.find((m) => m.startsWith('Started from'));
    expect(started).toMatch(/^Started from \d+ of the planner's decisions: −log π\(a\|s\) [\d.]+ → [\d.]+\.$/);
    const [before, after] = (started ?? '').split('−log π(a|s) ')[1].replace(/\.$/, '').split(' → ').map(Number);
    expect(after).toBeLessThan(before);
  }, 120_000);

  it('takes its teacher and the rehearsal from the settings', async () => {
    const { resolveExperiment } = await import('../../../src/config/config');
    const { TrainingRun } = await import('../../../src/engine/trainer');
    const { nodePlatform } = await import('../../../src/cli/nodePlatform');
    const records: { type: string; message?: string; metrics?: Record<string, number> }[] = [];
    const config = resolveExperiment('swarm-v2-demo-start', {
      seed: 2, 'swarm2.updates': 2, 'swarm2.annealUpdates': 1, 'swarm2.subtasks': 12, 'swarm2.hidden': 8, envsPerActor: 4, actors: 1, backend: 'wasm',
      'swarm2.teacher': 'packer', 'swarm2.rehearse': true,
    });
    await new TrainingRun(config, (r) => records.push(r), nodePlatform()).run();
    const notices = records.filter((r) => r.type === 'notice').map((r) => r.message ?? '');
    expect(notices.some((m) => m.startsWith("Fitting the policy to the packer's demonstrations"))).toBe(true);
    expect(notices.some((m) => /^Started from \d+ of the packer's decisions/.test(m))).toBe(true);
    // the rate falls to 0 over the anneal horizon (1 update): a rehearsal step after update 1, none after update 2
    const updates = records.filter((r) => r.type === 'update');
    expect(updates).toHaveLength(2);
    expect(Number.isFinite(updates[0].metrics?.demoNll)).toBe(true);
    expect(updates[1].metrics?.demoNll).toBeUndefined();
  }, 120_000);
});
