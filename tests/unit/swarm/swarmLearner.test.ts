import { describe, expect, it } from 'vitest';
import { chooseBackend } from '../../../src/core/backend';
import { Ppo } from '../../../src/algorithms/ppo';
import { runSwarmStory } from '../../../bench/swarmStory';
import type { SwarmTaskSpec } from '../../../src/swarm/swarmActor';
import { SwarmLearner, validateCreditOptions, type SwarmTrainingOptions } from '../../../src/swarm/swarmLearner';
import { handEpisode, handMadeEpisode } from './swarmFixtures';

describe('the learner and the story bench: invalid values are rejected with a message that names them', () => {
  const spec = (perTask: number): SwarmTaskSpec => ({ task: { numSubtasks: 10 }, rules: {}, maxDecisions: 40, episodesPerTask: perTask });
  const base: SwarmTrainingOptions = {
    spec: spec(2),
    seed: 1,
    hidden: 8,
    lr: 1e-3,
    entCoef: 0.01,
    updateEpochs: 1,
    numMinibatches: 1,
    updates: 1,
    actors: 1,
    episodesPerActor: 2,
    lambda1: { kind: 'constant', start: 0, horizon: 1 },
    lambda2: { kind: 'constant', start: 0, horizon: 1 },
    parallelCap: 4,
  };

  it('validateCreditOptions and SwarmLearner.create', () => {
    expect(() => validateCreditOptions({ ...base, vfCoef: 0 })).toThrow('vfCoef must be a positive number, got 0');
    expect(() => validateCreditOptions({ ...base, vfCoef: Number.NaN })).toThrow('vfCoef must be a positive number, got NaN');
    expect(() => validateCreditOptions({ ...base, gaeLambda: 1.5 })).toThrow('gaeLambda must be in [0, 1], got 1.5');
    expect(() => validateCreditOptions({ ...base, vfCoef: 2 })).not.toThrow();
    expect(() => SwarmLearner.create({ ...base, gaeLambda: -0.1 })).toThrow(/gaeLambda must be in \[0, 1\]/);
  });

  it('a learner records the parts it needs on every episode and trains; vfCoef reaches PPO', async () => {
    await chooseBackend({ preferred: 'cpu' });
    const learner = SwarmLearner.create({ ...base, vfCoef: 2 });
    try {
      const alg = learner.agent.alg;
      expect(alg instanceof Ppo && alg.config.vfCoef).toBe(2);
      const r = await learner.update();
      expect(r.rollouts.episodes.every((e) => e.credit !== undefined)).toBe(true);
      expect(Number.isFinite(r.metrics.valueLoss)).toBe(true);
    } finally {
      learner.dispose();
    }
  }, 30_000);

  it("each story row trains its preset's settings, as the swarm loop maps them", async () => {
    const { resolveExperiment } = await import('../../../src/config/config');
    const { swarmOptionsFrom } = await import('../../../src/engine/loops/swarm');
    const { STORY_ROWS, storyRowOptions } = await import('../../../bench/swarmStory');
    expect(STORY_ROWS.map((r) => r.name)).toEqual(['annealed', 'no shaping', 'λ1 only', 'λ2 only', 'constant λ1']);
    for (const row of STORY_ROWS) expect(storyRowOptions(row, 6)).toEqual(swarmOptionsFrom(resolveExperiment(row.preset, { seed: 6 }).settings));
    // the rows differ from the annealed preset only in what their names say
    const [annealed, noShaping, , , constant] = STORY_ROWS.map((r) => storyRowOptions(r, 6));
    expect({ ...noShaping, lambda1: annealed.lambda1, lambda2: annealed.lambda2 }).toEqual(annealed);
    expect([noShaping.lambda1.start, noShaping.lambda2.start]).toEqual([0, 0]);
    expect({ ...constant, lambda1: annealed.lambda1 }).toEqual(annealed);
    expect(constant.lambda1.kind).toBe('constant');
  });

  it('the bench rejects bad flags before it trains', async () => {
    const run = (flags: Record<string, string>) => runSwarmStory({ seeds: [], flags: { updates: '1', ...flags } });
    await expect(run({ 'vf-coef': '-1' })).rejects.toThrow('--vf-coef must be a positive number, got -1');
    await expect(run({ 'update-epochs': '1.5' })).rejects.toThrow('--update-epochs must be a positive integer, got 1.5');
    await expect(run({ 'gae-lambda': '' })).rejects.toThrow('--gae-lambda must be a number in [0, 1], got ');
    await expect(run({ hidden: '300' })).rejects.toThrow('--hidden must be an integer in 1..256, got 300');
    await expect(run({ 'ent-coef': '-0.1' })).rejects.toThrow('--ent-coef must be a number >= 0, got -0.1');
    await expect(run({ run: '-1' })).rejects.toThrow('--run must be an integer >= 0, got -1');
    await expect(run({ rows: 'start bias 6' })).rejects.toThrow(/no row named "start bias 6"/);
  }, 30_000);

  it('--run K trains from another seed and judges it on the same evaluation tasks', async () => {
    const story = (run: string) => runSwarmStory({ seeds: [], flags: { updates: '1', rows: 'annealed', split: 'tuning', seeds: '1', eval: '2', subtasks: '12', run } });
    type Fig = { seed: number; rPerf: number; criticalSteps?: number; critical: number };
    const [a, b] = [await story('0'), await story('1')];
    const rows = (r: Awaited<ReturnType<typeof story>>) => (r.figures as Record<string, Record<string, Fig[]>>)['seeds 1-5'];
    expect((b.figures as Record<string, unknown>).run).toBe(1);
    expect((a.figures as Record<string, unknown>).run).toBeUndefined();
    expect(rows(b).annealed.map((f) => f.seed)).toEqual([1]);
    // another training run: other weights, so other evaluation episodes (the figures without their wall time)
    const learned = (r: Awaited<ReturnType<typeof story>>) => ({ ...rows(r).annealed[0], trainSeconds: 0 });
    expect(learned(b)).not.toEqual(learned(a));
    // the scripted rows play the same evaluation tasks in both runs
    expect(rows(b)['baseline: greedy']).toEqual(rows(a)['baseline: greedy']);
  }, 60_000);

  it('--runs R trains runs 0..R-1 of each learned row, and judges each seed on its median over them', async () => {
    const story = (flags: Record<string, string>) => runSwarmStory({ seeds: [], flags: { updates: '1', rows: 'annealed', split: 'tuning', seeds: '1,2', eval: '2', subtasks: '12', ...flags } });
    type Fig = { seed: number; rPerf: number; criticalOverSerial: number; subagents: number; target: boolean; trainSeconds: number };
    const rows = (r: Awaited<ReturnType<typeof story>>) => (r.figures as Record<string, Record<string, Fig[]>>)['seeds 1-5'];
    const noTime = (f: Fig) => ({ ...f, trainSeconds: 0 });
    const [three, run0, run2] = [await story({ runs: '3' }), await story({}), await story({ run: '2' })];
    const r = rows(three);
    // run k is what --run k trains
    expect(r['annealed (run 0)'].map(noTime)).toEqual(rows(run0).annealed.map(noTime));
    expect(r['annealed (run 2)'].map(noTime)).toEqual(rows(run2).annealed.map(noTime));
    const med = r['annealed (median of 3 runs)'];
    expect(med.map((f) => f.seed)).toEqual([1, 2]);
    med.forEach((f, i) => {
      const each = [0, 1, 2].map((k) => r[`annealed (run ${k})`][i]);
      expect(f.rPerf).toBe([...each.map((x) => x.rPerf)].sort((a, b) => a - b)[1]);
      expect(f.subagents).toBe([...each.map((x) => x.subagents)].sort((a, b) => a - b)[1]);
      expect(f.target).toBe(f.rPerf >= 0.9 && f.criticalOverSerial <= 1 / 3);
    });
    expect(r.annealed).toBeUndefined();
    expect((three.figures as Record<string, unknown>).runs).toBe(3);
    await expect(story({ runs: '2', run: '1' })).rejects.toThrow('give --run K (one run) or --runs R (runs 0..R-1), not both');
    await expect(story({ runs: '0' })).rejects.toThrow('--runs must be an integer in 1..10, got 0');
  }, 120_000);

  it('--greedy true adds each learned row played greedily, and leaves the sampled row as it was', async () => {
    const story = (greedy?: string) => runSwarmStory({ seeds: [], flags: { updates: '1', rows: 'annealed', split: 'tuning', seeds: '1', eval: '2', subtasks: '12', ...(greedy === undefined ? {} : { greedy }) } });
    type Fig = { seed: number; rPerf: number; trainSeconds: number };
    const rows = (r: Awaited<ReturnType<typeof story>>) => (r.figures as Record<string, Record<string, Fig[]>>)['seeds 1-5'];
    const [plain, both] = [await story(), await story('true')];
    const noTime = (f: Fig) => ({ ...f, trainSeconds: 0 });
    expect(rows(both).annealed.map(noTime)).toEqual(rows(plain).annealed.map(noTime));
    expect(rows(plain)['annealed (greedy)']).toBeUndefined();
    expect(rows(both)['annealed (greedy)'].map((f) => f.seed)).toEqual([1]);
    expect((both.figures as Record<string, unknown>).greedy).toBe(true);
    expect(both.table).toContain('annealed (greedy)');
    await expect(story('yes')).rejects.toThrow('--greedy must be true or false, got yes');
  }, 60_000);
});

describe('the update metrics of batching', () => {
  it('subtasks per subagent and the context used, from hand-played and hand-made episodes', async () => {
    const { swarmUpdateMetrics } = await import('../../../src/swarm/swarmLearner');
    const { summariseOutcome } = await import('../../../src/swarm/swarmActor');
    // The hand episode: fast takes 0 and 1 (a batch of two), slow takes 0 again: 3 subtasks handed out to 2 subagents.
    const { sim } = handEpisode(100);
    const played = summariseOutcome(sim.outcome(), 6, 1, false);
    expect([played.nAssigned, played.nSubagents]).toEqual([3, 2]);
    const alone = { ...handMadeEpisode([0.1], 0.5).outcome, nAssigned: 0, nSubagents: 0, contextUsed: 3, contextBudget: 10 };
    const m = swarmUpdateMetrics([], [played, alone]);
    expect(m.subtasksPerSubagent).toBe(3 / 2);
    expect(m.contextUsed).toBeCloseTo((played.contextUsed / played.contextBudget + 0.3) / 2, 12);
    expect(swarmUpdateMetrics([], [alone]).subtasksPerSubagent).toBe(0);
  });
});
