/**
 * What the orchestrator may believe about each subagent kind's skills.
 *
 * With the skill table known (the default task), the belief is the table itself. With latent skills
 * (a table drawn per task, skillPrior.ts) the belief is built only from what the task has shown:
 *   - checks (sim.checksSoFar()): for kind k and subtask kind j, `passed` and `failed` counts;
 *     the posterior mean success at difficulty 0.5 is
 *       m = (c · m0 + passed) / (c + passed + failed),   m0 = prior mean at difficulty 0.5,  c = PRIOR_WEIGHT
 *     and at difficulty d it is m^((1 + HARDNESS·d) / (1 + HARDNESS·0.5)) (the task's own difficulty law);
 *   - speeds (sim.speedsSoFar()): reasoning steps per unit
 *       θ = (c_u · θ0 + Σ steps − μ · Σ units) / (c_u + Σ units),   θ0 = prior mean,  c_u = PRIOR_UNITS
 *     (each unit's tool call takes μ steps on average, and the rest is reasoning);
 *   - claims (sim.claimsOf): how often a kind's claim agreed with another kind's claim on the same input;
 *   - the confidence a kind reported on claims that checks found right, and on claims found wrong.
 * Nothing here reads the table or a claim's truth beyond what a check revealed.
 */
import { ORCHESTRATOR_KIND, HARDNESS, SUBTASK_KINDS, type SkillSource, type SubtaskKind, type SubtaskView } from './decompositionSkills';
import type { DecompositionSim } from './decomposition';
import { PRIOR_MEAN_SUCCESS, PRIOR_MEAN_THINK } from './skillPrior';

export interface SkillBelief {
  /** Believed probability that `kind` gets subtask `s` right (given a right input). */
  pCorrect(kind: string, s: SubtaskView): number;
  /** Believed reasoning steps per unit of work. */
  think(kind: string, s: SubtaskView): number;
  /** The fewest reasoning steps per unit the kind can take (what could still fit in the time left). */
  minThink(kind: string, s: SubtaskView): number;
}

/** Pseudo-checks the prior mean is worth. */
export const PRIOR_WEIGHT = 2;
/** Pseudo-units of work the prior speed is worth. */
export const PRIOR_UNITS = 4;
/** The fastest any archetype of the prior reasons (steps per unit). */
const FASTEST_THINK = 1;

const atHalf = (p: number) => p ** (1 + HARDNESS * 0.5);
const atDifficulty = (pHalf: number, d: number) => pHalf ** ((1 + HARDNESS * d) / (1 + HARDNESS * 0.5));

const knownMemo = new WeakMap<SkillSource, SkillBelief>();

/** The table itself: what an orchestrator believes when the skills are known (one object per table: this is on every decision's path). */
export function knownSkills(skills: SkillSource): SkillBelief {
  let belief = knownMemo.get(skills);
  if (!belief) {
    belief = knownBelief(skills);
    knownMemo.set(skills, belief);
  }
  return belief;
}

function knownBelief(skills: SkillSource): SkillBelief {
  return {
    pCorrect: (kind, s) => skills.distribution(kind, s).pCorrect,
    think: (kind, s) => skills.distribution(kind, s).thinkStepsPerUnit,
    minThink: (kind, s) => skills.distribution(kind, s).thinkStepsPerUnit,
  };
}

/** The prior's means, the same for every subagent kind (the orchestrator's own work is known). */
export function priorSkills(skills: SkillSource): SkillBelief {
  const own = knownSkills(skills);
  return {
    pCorrect: (kind, s) => (kind === ORCHESTRATOR_KIND ? own.pCorrect(kind, s) : atDifficulty(atHalf(PRIOR_MEAN_SUCCESS), s.difficulty)),
    think: (kind, s) => (kind === ORCHESTRATOR_KIND ? own.think(kind, s) : PRIOR_MEAN_THINK),
    minThink: (kind, s) => (kind === ORCHESTRATOR_KIND ? own.minThink(kind, s) : FASTEST_THINK),
  };
}

/** Per subagent kind, what the task has shown so far. */
export interface KindEvidence {
  /** Per subtask kind (SUBTASK_KINDS order). */
  passed: number[];
  failed: number[];
  /** Work units of the subagents of this kind that came back whole, and the steps they took (setup left out). */
  units: number;
  steps: number;
  /** Of its claims that another kind also answered on the same input: how many agreed. */
  compared: number;
  agreed: number;
  /** Summed reported confidence of its checked claims, right and wrong. */
  confidenceRight: number;
  confidenceWrong: number;
}

/** The evidence of every subagent kind (sim.subagentKinds order), from the sim's public history only. */
export function kindEvidence(sim: DecompositionSim): KindEvidence[] {
  const index = new Map(sim.subagentKinds.map((k, i) => [k, i]));
  const ev: KindEvidence[] = sim.subagentKinds.map(() => ({ passed: [0, 0, 0], failed: [0, 0, 0], units: 0, steps: 0, compared: 0, agreed: 0, confidenceRight: 0, confidenceWrong: 0 }));
  for (const c of sim.checksSoFar()) {
    const k = index.get(c.by);
    if (k === undefined) continue; // the orchestrator's own claims
    const j = SUBTASK_KINDS.indexOf(sim.task.subtasks[c.subtask].kind);
    if (c.passed) {
      ev[k].passed[j] += 1;
      ev[k].confidenceRight += c.confidence;
    } else {
      ev[k].failed[j] += 1;
      ev[k].confidenceWrong += c.confidence;
    }
  }
  for (const s of sim.speedsSoFar()) {
    const k = index.get(s.kind);
    if (k === undefined) continue;
    ev[k].units += s.units;
    ev[k].steps += s.steps;
  }
  for (let id = 0; id < sim.numSubtasks; id++) {
    const claims = sim.claimsOf(id);
    for (const a of claims) {
      const k = index.get(a.by);
      if (k === undefined) continue;
      const others = claims.filter((b) => b !== a && b.by !== a.by && b.input === a.input);
      if (others.length === 0) continue;
      ev[k].compared += 1;
      if (others.some((b) => b.answer === a.answer)) ev[k].agreed += 1;
    }
  }
  return ev;
}

/** Posterior mean success at difficulty 0.5 of one kind on subtask kind j. */
export function posteriorSuccess(e: KindEvidence, j: number): number {
  return (PRIOR_WEIGHT * atHalf(PRIOR_MEAN_SUCCESS) + e.passed[j]) / (PRIOR_WEIGHT + e.passed[j] + e.failed[j]);
}

/** Posterior mean reasoning steps per unit of one kind (at least 0). */
export function posteriorThink(e: KindEvidence, toolLatencyMean: number): number {
  return Math.max(0, (PRIOR_UNITS * PRIOR_MEAN_THINK + e.steps - toolLatencyMean * e.units) / (PRIOR_UNITS + e.units));
}

const revealedMemo = new WeakMap<DecompositionSim, { checks: number; speeds: number; belief: SkillBelief }>();

/** What the task has shown, as a belief (the orchestrator's own work is known). Kept until the next check or returned subagent. */
export function revealedSkills(sim: DecompositionSim): SkillBelief {
  const checks = sim.checksSoFar().length;
  const speeds = sim.speedsSoFar().length;
  const memo = revealedMemo.get(sim);
  if (memo && memo.checks === checks && memo.speeds === speeds) return memo.belief;
  const belief = revealedBelief(sim);
  revealedMemo.set(sim, { checks, speeds, belief });
  return belief;
}

function revealedBelief(sim: DecompositionSim): SkillBelief {
  const own = knownSkills(sim.skills);
  const ev = kindEvidence(sim);
  const at = (kind: string) => sim.subagentKinds.indexOf(kind);
  const j = (s: SubtaskView) => SUBTASK_KINDS.indexOf(s.kind as SubtaskKind);
  return {
    pCorrect: (kind, s) => (kind === ORCHESTRATOR_KIND ? own.pCorrect(kind, s) : atDifficulty(posteriorSuccess(ev[at(kind)], j(s)), s.difficulty)),
    think: (kind, s) => (kind === ORCHESTRATOR_KIND ? own.think(kind, s) : posteriorThink(ev[at(kind)], sim.limits.toolLatencyMean)),
    minThink: (kind, s) => (kind === ORCHESTRATOR_KIND ? own.minThink(kind, s) : FASTEST_THINK),
  };
}

/** The belief an orchestrator (learned or scripted) acts on: the table when it is known, else what the task has shown. */
export function visibleSkills(sim: DecompositionSim): SkillBelief {
  return sim.skillsHidden ? revealedSkills(sim) : knownSkills(sim.skills);
}
