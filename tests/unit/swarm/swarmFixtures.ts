/**
 * Shared fixtures of the swarm's tests: a skill table where every agent is always right, and
 * hand-made episodes (an outcome with every count, and decisions with given values), and a hand-played
 * episode on the three SUBTASKS with its per-decision credit parts.
 */
import { DecompositionSim, type DecompositionLimits } from '../../../src/envs/swarm/decomposition';
import { skillTable, type SkillTable } from '../../../src/envs/swarm/decompositionSkills';
import { decompositionTaskFrom } from '../../../src/envs/swarm/decompositionTask';
import { DecisionLedger } from '../../../src/swarm/decisionCredit';
import type { SwarmEpisodeOutcome } from '../../../src/swarm/swarmActor';
import type { SwarmEpisode } from '../../../src/swarm/swarmRollouts';
import { SP_MAX_KINDS, SP_OBS_DIM, SP_SEGMENTS, applySetAction, decodeSetAction, encodeSetObservation } from '../../../src/swarm/setActions';

// Every agent is always right (success 1). With tool latency 1, a unit of work takes think + 1 steps:
//   fast: think 1 (2 steps per unit), slow: think 3 (4 per unit), orchestrator: think 2 (3 per unit).
const always = (think: number) => ({ lookup: { success: 1, think, calibration: 1 }, search: { success: 1, think, calibration: 1 }, reason: { success: 1, think, calibration: 1 } });
export const CERTAIN_SKILLS: SkillTable = { orchestrator: always(2), fast: always(1), slow: always(3) };
export const FAST = 0;
export const SLOW = 1;
// Subtask 0: size 4 (fast 8 steps, slow 16, orchestrator 12); 1: size 2 (4, 8, 6); 2: size 1 (2, 4, 3).
export const SUBTASKS = [
  { kind: 'search' as const, size: 4 },
  { kind: 'lookup' as const, size: 2 },
  { kind: 'lookup' as const, size: 1 },
];

/** An episode of `values.length` direct decisions (actions 0, 1, …, log π −1) whose outcome scores `rPerf`. */
export function handMadeEpisode(values: number[], rPerf: number, taskSeed = 1, actorIndex = 0): SwarmEpisode {
  const outcome: SwarmEpisodeOutcome = {
    rPerf,
    precision: rPerf,
    recall: rPerf,
    submitted: 1,
    correct: 1,
    criticalSteps: 10,
    totalCompute: 10,
    serialBaseline: 40,
    lowerBound: 4,
    criticalBudget: 10,
    contextUsed: 0,
    contextBudget: 10,
    nSubagents: 0,
    nAssigned: 0,
    nCompleted: 0,
    nTimeout: 0,
    nLost: 0,
    nCut: 0,
    nDirect: values.length,
    nChecks: 0,
    nChecksWrong: 0,
    endReason: 'finish',
    launches: [],
    decisions: values.length,
    taskSeed,
    capped: false,
  };
  const none = () => values.map(() => 0);
  const credit = { assigned: none(), completed: none(), subagentRank: values.map(() => -1), launchedBy: values.map(() => -1) };
  return { actorIndex, slot: 0, outcome, credit, decisions: values.map((value, t) => ({ obs: new Float32Array(SP_OBS_DIM), action: t, logProb: -1, value })) };
}

export function simOf(limits: Partial<DecompositionLimits>, skills: SkillTable = CERTAIN_SKILLS): DecompositionSim {
  return new DecompositionSim(decompositionTaskFrom(SUBTASKS), {
    skills: skillTable(skills),
    subagentKinds: ['fast', 'slow'],
    limits: { toolLatencyMean: 1, setupSteps: 2, subagentStepCap: 64, resultOverhead: 2, contextPerResultUnit: 1, contextPerDirectStep: 1, criticalBudget: 100, ...limits },
  });
}

/** Plays decisions as the actor does (ledger before, stage after). */
export function player(sim: DecompositionSim) {
  const ledger = new DecisionLedger(sim);
  let t = 0;
  const play = (type: keyof typeof SP_SEGMENTS, id = -1, kind = -1) => {
    const obs = new Float32Array(SP_OBS_DIM);
    const ids = encodeSetObservation(sim, obs, 0);
    const row = ids.indexOf(id);
    const a = SP_SEGMENTS[type].offset + (kind >= 0 ? row * SP_MAX_KINDS + kind : Math.max(0, row));
    ledger.before(decodeSetAction(a));
    const rec = applySetAction(sim, ids, a);
    if (rec) ledger.stage(rec, t);
    t += 1;
  };
  return { ledger, play };
}

/** t0 fast takes 0, t1 joins 1 to it, t2 slow takes 0 again (a second opinion), t3 launch, t4 direct 2, t5 finish. */
export function handEpisode(contextBudget: number, skills: SkillTable = CERTAIN_SKILLS) {
  const sim = simOf({ contextBudget }, skills);
  const { ledger, play } = player(sim);
  play('assignNew', 0, FAST);
  play('join', 1, FAST);
  play('assignNew', 0, SLOW);
  play('launch');
  play('direct', 2);
  play('finish');
  return { sim, parts: ledger.parts() };
}
