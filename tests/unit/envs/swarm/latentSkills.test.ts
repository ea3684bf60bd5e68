import { describe, expect, it } from 'vitest';
import { DecompositionSim } from '../../../../src/envs/swarm/decomposition';
import { observeDecomposition } from '../../../../src/envs/swarm/decompositionFeatures';
import { SUBTASK_KINDS, skillTable, type SkillTable } from '../../../../src/envs/swarm/decompositionSkills';
import { generateDecomposition } from '../../../../src/envs/swarm/decompositionTask';
import { ARCHETYPES, LATENT_KINDS, PRIOR, drawTaskSkills } from '../../../../src/envs/swarm/skillPrior';
import { encodeSetObservation, SP_OBS_DIM } from '../../../../src/swarm/setActions';

describe('latent subagent skills: the prior', () => {
  it('draws the same table for the same task seed, and another for another seed', () => {
    expect(drawTaskSkills(7)).toEqual(drawTaskSkills(7));
    expect(drawTaskSkills(7)).not.toEqual(drawTaskSkills(8));
  });

  it('gives each kind one archetype, and the calibration and confidence base inside their ranges', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const t = drawTaskSkills(seed);
      const thinks = LATENT_KINDS.map((k) => t[k].lookup.think).sort();
      expect(thinks).toEqual(ARCHETYPES.map((a) => a.think).sort());
      for (const k of LATENT_KINDS) {
        for (const sk of SUBTASK_KINDS) {
          const p = t[k][sk];
          expect(p.success).toBeGreaterThanOrEqual(PRIOR.successRange[0]);
          expect(p.success).toBeLessThanOrEqual(PRIOR.successRange[1]);
          expect(p.calibration).toBeGreaterThanOrEqual(PRIOR.calibration[0]);
          expect(p.calibration).toBeLessThanOrEqual(PRIOR.calibration[1]);
          expect(p.confidenceBase!).toBeGreaterThanOrEqual(PRIOR.confidenceBase[0]);
          expect(p.confidenceBase!).toBeLessThanOrEqual(PRIOR.confidenceBase[1]);
        }
      }
      // The orchestrator knows its own work: its row never changes.
      expect(t.orchestrator).toEqual(drawTaskSkills(1).orchestrator);
    }
  });

  it('permutes which kind is the generalist, and what each kind is good at, independently across tasks', () => {
    const generalist = new Map<string, number>();
    const bestKindOfSmall = new Map<string, number>();
    const N = 600;
    let sameAsPrevious = 0;
    let previous: string | null = null;
    for (let seed = 1; seed <= N; seed++) {
      const t = drawTaskSkills(seed);
      const g = LATENT_KINDS.find((k) => t[k].lookup.think === 2)!;
      generalist.set(g, (generalist.get(g) ?? 0) + 1);
      if (g === previous) sameAsPrevious += 1;
      previous = g;
      const best = SUBTASK_KINDS.reduce((a, sk) => (t.small[sk].success > t.small[a].success ? sk : a), SUBTASK_KINDS[0]);
      bestKindOfSmall.set(best, (bestKindOfSmall.get(best) ?? 0) + 1);
    }
    // Each of the three kinds is the generalist about a third of the time, and so is each subtask kind small's best.
    for (const k of LATENT_KINDS) expect(generalist.get(k)! / N).toBeGreaterThan(0.25);
    for (const sk of SUBTASK_KINDS) expect(bestKindOfSmall.get(sk)! / N).toBeGreaterThan(0.25);
    // Consecutive tasks are independent: the same generalist twice in a row about a third of the time.
    expect(sameAsPrevious / (N - 1)).toBeGreaterThan(0.25);
    expect(sameAsPrevious / (N - 1)).toBeLessThan(0.42);
  });
});

describe('latent subagent skills: what the orchestrator sees', () => {
  const task = generateDecomposition({ numSubtasks: 12 }, 5);
  const hidden = (table: SkillTable) => new DecompositionSim(task, { skills: skillTable(table), subagentKinds: LATENT_KINDS, skillsHidden: true });
  const known = (table: SkillTable) => new DecompositionSim(task, { skills: skillTable(table), subagentKinds: LATENT_KINDS });
  const observed = (sim: DecompositionSim) => {
    const out = new Float32Array(SP_OBS_DIM);
    encodeSetObservation(sim, out);
    return { features: observeDecomposition(sim), set: out };
  };
  // Two tables that differ in every kind's skills: the hidden truth.
  const a = drawTaskSkills(101);
  const b = drawTaskSkills(202);

  it('the same task with other hidden skills looks the same until something is revealed', () => {
    expect(observed(hidden(a))).toEqual(observed(hidden(b)));
    // With the table known the observation tells the two apart (the features a hidden table must not carry).
    expect(observed(known(a))).not.toEqual(observed(known(b)));
  });

  it('changing whether an unchecked claim is right leaves the observation unchanged; checking it reveals it', () => {
    const sim = hidden(a);
    const id = sim.candidates()[0];
    sim.createSubagent(LATENT_KINDS[0], id);
    sim.launch();
    const claim = sim.currentClaim(id);
    expect(claim).not.toBeNull();
    if (claim === null) return;
    const before = observed(sim);
    // The truth of the claim, flipped where only a check could see it.
    const truth = (sim as unknown as { right: Map<unknown, boolean> }).right;
    truth.set(claim, !truth.get(claim));
    expect(observed(sim)).toEqual(before);
    sim.check(id);
    expect(sim.checksSoFar()).toHaveLength(1);
    expect(observed(sim).features.kindFeatures).not.toEqual(before.features.kindFeatures);
  });
});

describe('latent subagent skills: the scripted packers', () => {
  it('the fixed-table packer cannot tell the kinds apart; the adaptive one routes by what its checks showed', async () => {
    const { packerBaseline } = await import('../../../../src/swarm/baselines');
    const { levelSim, taskLevel } = await import('../../../../src/swarm/levels');
    const level = taskLevel('latent skills');
    let adaptiveKinds = 0;
    for (let seed = 1; seed <= 5; seed++) {
      const task = generateDecomposition({ numSubtasks: 40 }, seed);
      const fixed = packerBaseline({ routeBy: 'prior' })(levelSim(level, task));
      const kindsUsed = (o: typeof fixed) => new Set(o.stages.flatMap((s) => s.subagents.map((a) => a.kind)));
      // Every kind has the same prior mean: the fixed-table packer hands everything to the first kind.
      expect([...kindsUsed(fixed)]).toEqual([LATENT_KINDS[0]]);
      const adaptive = packerBaseline()(levelSim(level, task));
      adaptiveKinds = Math.max(adaptiveKinds, kindsUsed(adaptive).size);
    }
    // Once checks have shown something, the adaptive packer moves work to other kinds on some task.
    expect(adaptiveKinds).toBeGreaterThan(1);
  });
});
