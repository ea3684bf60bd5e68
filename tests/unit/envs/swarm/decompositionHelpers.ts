import { DecompositionSim, type DecompositionLimits } from '../../../../src/envs/swarm/decomposition';
import { skillTable, type SkillProfile, type SkillSource, type SkillTable } from '../../../../src/envs/swarm/decompositionSkills';
import { decompositionTaskFrom } from '../../../../src/envs/swarm/decompositionTask';

type Spec = Parameters<typeof decompositionTaskFrom>[0][number];

const row = (p: SkillProfile) => ({ lookup: p, search: p, reason: p });

/** Kinds with fixed behaviour: 'good' always right, 'bad' always wrong, both think 2; orchestrator always right, think 2. */
export const FIXED_TABLE: SkillTable = {
  orchestrator: row({ success: 1, think: 2, calibration: 1 }),
  good: row({ success: 1, think: 2, calibration: 1 }),
  bad: row({ success: 1e-9, think: 2, calibration: 1 }),
};
export const FIXED_SKILLS: SkillSource = skillTable(FIXED_TABLE);

/** A sim with deterministic latency (μ = 1: every tool call takes 1 step) and no confidence noise. */
export function fixedSim(specs: Spec[], limits: Partial<DecompositionLimits> = {}, kinds = ['good', 'bad']): DecompositionSim {
  return new DecompositionSim(decompositionTaskFrom(specs, 3), {
    skills: FIXED_SKILLS,
    subagentKinds: kinds,
    limits: { toolLatencyMean: 1, confidenceNoise: 0, criticalBudget: 200, contextBudget: 200, ...limits },
  });
}
