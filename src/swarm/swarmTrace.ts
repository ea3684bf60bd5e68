/**
 * Episode traces of the swarm (decomposition task): who did what along the critical-step
 * axis, as plain data for the timeline and the run file.
 *
 * Times follow the sim's critical steps (Kimi K2.5: Σ_t S_main(t) + max_i S_sub,i(t)). A stage t
 * starts at C(t−1) (C = criticalStepsSoFar) and ends at C(t). In a launch stage the orchestrator
 * spends S_main(t) issuing the calls, then every subagent i of the stage works from
 *   start_i = C(t−1) + S_main(t)   to   end_i = start_i + S_sub,i(t).
 *
 * A retry is a subtask handed out again (to a subagent or done directly) in a later stage than an
 * earlier attempt at it. Its reason, looking back from the new attempt:
 *   refuted    a check since the last attempt found the current claim wrong;
 *   failed     else, the last attempt brought no claim (timed out, lost for context, or cut);
 *   unchecked  else: the subtask had an unchecked claim (a second opinion).
 * A subtask given to two subagents of the SAME stage is a duplicate, not a retry.
 */
import { deriveSeed, Rng } from '../core/rng';
import { ORCHESTRATOR_KIND } from '../envs/swarm/decompositionSkills';
import type { DecompositionOutcome } from '../envs/swarm/decomposition';
import { makeSwarmSim, type SwarmTaskSpec } from './swarmActor';
import { applySetAction, decodeSetAction, encodeSetObservation, SP_OBS_DIM } from './setActions';
import type { SwarmTrace, SwarmTraceCheck, SwarmTraceRetry, SwarmTraceStage, SwarmTraceSubagent, RetryReason } from '../runs/traces';

export type { SwarmTrace, SwarmTraceCheck, SwarmTraceRetry, SwarmTraceStage, SwarmTraceSubagent, SwarmTraceTotals, RetryReason } from '../runs/traces';

/** The claim a check stage looked at: who made it and in which stage. */
export interface CheckedClaim {
  checkStage: number;
  by: string;
  claimStage: number;
}

/** A played episode as the trace builder reads it. */
export interface TracedSwarmEpisode {
  outcome: DecompositionOutcome;
  kinds: readonly string[];
  numSubtasks: number;
  mode: SwarmTrace['mode'];
  taskSeed: number;
  decisions: number;
  capped: boolean;
  checkedClaims: readonly CheckedClaim[];
}

export interface SwarmTraceCaps {
  stages: number;
  subagents: number;
  items: number;
}

export function buildSwarmTrace(ep: TracedSwarmEpisode, caps: SwarmTraceCaps): SwarmTrace {
  const o = ep.outcome;
  const claimOf = new Map(ep.checkedClaims.map((c) => [c.checkStage, c]));
  const stages: SwarmTraceStage[] = [];
  const subagents: SwarmTraceSubagent[] = [];
  const checks: SwarmTraceCheck[] = [];
  const retries: SwarmTraceRetry[] = [];
  // Per subtask: the stage of its last attempt, whether that attempt brought a claim, a failed check since.
  const last = new Map<number, { stage: number; claimed: boolean; refuted: boolean }>();
  // Subagent ids by stage, for finding whose claim a check looked at.
  const byStage = new Map<number, SwarmTraceSubagent[]>();
  let items = 0;
  let truncated = false;
  let prevEnd = 0;

  const attempt = (subtask: number, stage: number, claimed: boolean, subagent: number | null, at: number) => {
    const before = last.get(subtask);
    if (before && before.stage < stage) {
      const reason: RetryReason = before.refuted ? 'refuted' : !before.claimed ? 'failed' : 'unchecked';
      retries.push({ stage, subtask, reason, subagent, at });
    }
    // A duplicate in the same stage: the subtask has a claim if any of this stage's attempts brought one.
    const sameStage = before && before.stage === stage;
    last.set(subtask, { stage, claimed: claimed || (sameStage ? before.claimed : false), refuted: false });
  };

  for (const r of o.stages) {
    if (stages.length >= caps.stages) {
      truncated = true;
      break;
    }
    const start = prevEnd;
    prevEnd = r.criticalStepsSoFar;
    stages.push({ index: r.index, kind: r.kind, start, mainSteps: r.mainSteps, end: r.criticalStepsSoFar, subtask: r.subtask, result: r.result });
    if (r.kind === 'launch') {
      const list: SwarmTraceSubagent[] = [];
      for (const s of r.subagents) {
        if (subagents.length >= caps.subagents || items + s.items.length > caps.items) {
          truncated = true;
          break;
        }
        const a: SwarmTraceSubagent = {
          id: subagents.length,
          kind: s.kind,
          stage: r.index,
          start: start + r.mainSteps,
          end: start + r.mainSteps + s.steps,
          items: s.items.map((subtask, k) => ({ subtask, outcome: s.outcomes[k] })),
        };
        items += s.items.length;
        subagents.push(a);
        list.push(a);
        a.items.forEach((it) => attempt(it.subtask, r.index, it.outcome === 'completed', a.id, a.start));
      }
      byStage.set(r.index, list);
    } else if (r.kind === 'direct' && r.subtask !== null) {
      attempt(r.subtask, r.index, r.result === 'completed', null, start);
    } else if (r.kind === 'check' && r.subtask !== null) {
      const passed = r.result === 'right';
      const claim = claimOf.get(r.index);
      let subagent: number | null = null;
      if (claim && claim.by !== ORCHESTRATOR_KIND) {
        const maker = (byStage.get(claim.claimStage) ?? []).find((a) => a.kind === claim.by && a.items.some((it) => it.subtask === r.subtask && it.outcome === 'completed'));
        subagent = maker ? maker.id : null;
      }
      checks.push({ stage: r.index, subtask: r.subtask, at: r.criticalStepsSoFar, passed, subagent, claimBy: claim ? claim.by : null });
      const l = last.get(r.subtask);
      if (l && !passed) l.refuted = true;
    }
  }

  return {
    numSubtasks: ep.numSubtasks,
    kinds: [...ep.kinds],
    mode: ep.mode,
    taskSeed: ep.taskSeed,
    decisions: ep.decisions,
    capped: ep.capped,
    stages,
    subagents,
    checks,
    retries,
    totals: {
      criticalSteps: o.criticalSteps,
      criticalBudget: o.criticalBudget,
      serialBaseline: o.serialBaseline,
      lowerBound: o.lowerBound,
      totalCompute: o.totalCompute,
      rPerf: o.rPerf,
      contextUsed: o.contextUsed,
      contextBudget: o.contextBudget,
      endReason: o.endReason,
      nSubagents: o.nSubagents,
      nChecks: o.nChecks,
      nChecksWrong: o.nChecksWrong,
    },
    truncated,
  };
}

/** Picks the action of one observation [SP_OBS_DIM] (a policy's forward pass, or a script). */
export type DecideOne = (obs: Float32Array) => Promise<number> | number;

/**
 * Play one episode of task `taskSeed` under `spec` with `decide`, with the same decision cap as a
 * SwarmActor (at the cap the pending plan is launched, then finish), noting before each check
 * which claim it looks at (the sim's current claim then: its maker and stage).
 */
export async function playTracedSwarmEpisode(spec: SwarmTaskSpec, taskSeed: number, decide: DecideOne, mode: SwarmTrace['mode']): Promise<TracedSwarmEpisode> {
  const sim = makeSwarmSim(spec, taskSeed);
  const obs = new Float32Array(SP_OBS_DIM);
  const checkedClaims: CheckedClaim[] = [];
  let decisions = 0;
  let capped = false;
  // Launch, direct, check and finish each add one stage record (assign and join add none).
  let stages = 0;
  while (!sim.finished) {
    obs.fill(0);
    const candidates = encodeSetObservation(sim, obs, 0);
    const a = await decide(obs);
    const d = decodeSetAction(a);
    if (d.type === 'check') {
      const id = candidates[d.row];
      const claim = id === undefined ? null : sim.currentClaim(id);
      if (claim) checkedClaims.push({ checkStage: stages, by: claim.by, claimStage: claim.stage });
    }
    if (d.type !== 'assignNew' && d.type !== 'join') stages += 1;
    applySetAction(sim, candidates, a);
    decisions += 1;
    if (!sim.finished && decisions >= spec.maxDecisions) {
      capped = true;
      if (sim.canLaunch()) sim.launch();
      if (!sim.finished) sim.finish();
    }
  }
  return { outcome: sim.outcome(), kinds: sim.subagentKinds, numSubtasks: sim.numSubtasks, mode, taskSeed, decisions, capped, checkedClaims };
}

/** The trace's task seed at an update: its own stream, so it is never a training task of that update. */
export function swarmTraceSeed(seed: number, update: number): number {
  return deriveSeed(seed, 0x7ace, update);
}

/** A fresh random stream for the traced episode's sampled actions (the learner's own is left alone). */
export function swarmTraceRng(seed: number, update: number): Rng {
  return new Rng(deriveSeed(seed, 0x7ace, update, 1));
}
