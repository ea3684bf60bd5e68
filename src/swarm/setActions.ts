/**
 * The set policy's observation and action space (no tfjs: the actors that own the episodes use
 * this, the network is in src/swarm/setPolicy.ts, whose comment describes both).
 */
import type { DecompositionSim, DecompStageRecord } from '../envs/swarm/decomposition';
import { ORCHESTRATOR_KIND } from '../envs/swarm/decompositionSkills';
import { visibleSkills, type SkillBelief } from '../envs/swarm/skillBelief';
import {
  DECOMP_GLOBAL_FEATURES,
  DECOMP_KIND_FEATURES,
  DECOMP_MAX_CANDIDATES,
  DECOMP_SUBTASK_FEATURES,
  expectedLoad,
  expectedSteps,
  observeDecomposition,
} from '../envs/swarm/decompositionFeatures';

export const SP_ROWS = DECOMP_MAX_CANDIDATES;
export const SP_MAX_KINDS = 4;
const M = SP_ROWS;
const KM = SP_MAX_KINDS;
const F = DECOMP_SUBTASK_FEATURES;
const KF = DECOMP_KIND_FEATURES;
const G = DECOMP_GLOBAL_FEATURES;

export const SP_TYPES = ['assignNew', 'join', 'direct', 'check', 'launch', 'finish'] as const;
export type SetActionType = (typeof SP_TYPES)[number];
/** Offset and length of each action type in the flat action index. */
export const SP_SEGMENTS: Readonly<Record<SetActionType, { offset: number; length: number }>> = {
  assignNew: { offset: 0, length: M * KM },
  join: { offset: M * KM, length: M * KM },
  direct: { offset: 2 * M * KM, length: M },
  check: { offset: 2 * M * KM + M, length: M },
  launch: { offset: 2 * M * KM + 2 * M, length: 1 },
  finish: { offset: 2 * M * KM + 2 * M + 1, length: 1 },
};
export const SP_NUM_ACTIONS = 2 * M * KM + 2 * M + 2;

const O_ROWS = 0;
const O_VALID = O_ROWS + M * F;
const O_KINDS = O_VALID + M;
const O_KVALID = O_KINDS + KM * KF;
const O_GLOBAL = O_KVALID + KM;
/**
 * Pair features of (candidate i, subagent kind k), what kind k would do with subtask i (no truth,
 * only the skill profile every agent kind publishes):
 *   [0] p_d: its success probability on this subtask's kind at this difficulty
 *   [1] its expected steps on it, size · (think + μ), / subagentStepCap
 *   [2] a new subagent of kind k on it alone: (setup + expected steps) / steps left (clipped at 2;
 *       above 1 it is not expected to return before the budget runs out)
 *   [3] kind k's newest planned subagent with it added: expected load / subagentStepCap (clipped
 *       at 2; above 1 the item is expected to time out), 0 with no such subagent
 */
export const SP_PAIR_FEATURES = 4;
const P = SP_PAIR_FEATURES;
const O_PAIRS = O_GLOBAL + G;
/** Extra global features: [0] open candidates not in the plan / N, [1] planned subagents / N. */
export const SP_EXTRA_GLOBAL = 2;
const O_EXTRA = O_PAIRS + M * KM * P;
const O_MASK = O_EXTRA + SP_EXTRA_GLOBAL;
/** Offsets of the blocks of an observation row (see setPolicy.ts). */
export const SP_OFFSETS = { rows: O_ROWS, valid: O_VALID, kinds: O_KINDS, kindValid: O_KVALID, global: O_GLOBAL, pairs: O_PAIRS, extra: O_EXTRA, mask: O_MASK } as const;
export const SP_OBS_DIM = O_MASK + SP_NUM_ACTIONS;
/** Offset of the action mask inside an observation row. */
export const SP_MASK_OFFSET = O_MASK;

export class SetPolicyError extends Error {
  override name = 'SetPolicyError';
}

/** Write the observation of the sim at out[offset..]; returns the candidate ids (row order). */
export function encodeSetObservation(sim: DecompositionSim, out: Float32Array, offset = 0): number[] {
  const K = sim.subagentKinds.length;
  if (K > KM) throw new SetPolicyError(`set policy: at most ${KM} subagent kinds, got ${K} (${sim.subagentKinds.join(', ')})`);
  const o = observeDecomposition(sim);
  out.fill(0, offset, offset + SP_OBS_DIM);
  out.set(o.subtaskFeatures, offset + O_ROWS);
  for (let i = 0; i < M; i++) out[offset + O_VALID + i] = o.candidateValid[i];
  for (let k = 0; k < K; k++) {
    out.set(o.kindFeatures.subarray(k * KF, (k + 1) * KF), offset + O_KINDS + k * KF);
    out[offset + O_KVALID + k] = 1;
  }
  out.set(o.globalFeatures, offset + O_GLOBAL);
  writePairFeatures(sim, o.candidates, out, offset + O_PAIRS);
  const m = offset + O_MASK;
  const canReturn = sim.finished ? null : new ReturnBounds(sim);
  for (let i = 0; i < o.candidates.length; i++) {
    const id = o.candidates[i];
    for (let k = 0; k < K; k++) {
      out[m + SP_SEGMENTS.assignNew.offset + i * KM + k] = o.assignNew[i * K + k] && canReturn?.planned(id, k, false) ? 1 : 0;
      out[m + SP_SEGMENTS.join.offset + i * KM + k] = o.join[i * K + k] && canReturn?.planned(id, k, true) ? 1 : 0;
    }
    out[m + SP_SEGMENTS.direct.offset + i] = o.direct[i] && canReturn?.direct(id) ? 1 : 0;
    out[m + SP_SEGMENTS.check.offset + i] = o.check[i];
  }
  out[m + SP_SEGMENTS.launch.offset] = o.launch ? 1 : 0;
  // A candidate is open (no claim) iff its feature [8] is 0; in the plan iff its feature [13] is not.
  const isOpen = (i: number) => o.subtaskFeatures[i * F + 8] === 0;
  const legal = (type: SetActionType, j: number) => out[m + SP_SEGMENTS[type].offset + j] > 0;
  let openWork = false;
  let openUnplanned = 0;
  o.candidates.forEach((_id, i) => {
    if (!isOpen(i)) return;
    if (o.subtaskFeatures[i * F + 13] === 0) openUnplanned += 1;
    if (legal('direct', i)) openWork = true;
    for (let k = 0; k < K; k++) if (legal('assignNew', i * KM + k) || legal('join', i * KM + k)) openWork = true;
  });
  out[offset + O_EXTRA] = openUnplanned / sim.numSubtasks;
  out[offset + O_EXTRA + 1] = sim.pendingPlan().length / sim.numSubtasks;
  out[m + SP_SEGMENTS.finish.offset] = o.finish && !openWork ? 1 : 0;
  return o.candidates;
}

/**
 * Whether a piece of work can still come back as a claim the orchestrator reads, from bounds that
 * hold whatever the draws (the sim's rules stay as they are; this only keeps the policy from
 * actions that are certain waste). A unit of work takes think + ℓ steps with tool latency ℓ >= 1,
 * so kind k needs at least
 *   minSteps_k(s) = size(s) · (think_k(s) + 1)
 * on subtask s. Item s planned on a subagent (a new one, or joined to kind k's newest planned one
 * whose items are P) completes only if
 *   setup + Σ_{j in P ∪ {s}} minSteps_k(j) <= min(subagentStepCap, stepsLeft − ceil(n / callsPerMainStep))
 * (it would time out, or run past the hard budget and be cut; n = planned subagents at launch,
 * at least the plan's size now, so the right side only shrinks), and its result is read only if
 *   resultOverhead + contextPerResultUnit · Σ_{j in P ∪ {s}} size(j) <= contextLeft
 * (context left only shrinks, and a result that fits is the prefix of completed items, so when the
 * whole result does not fit the new item is never read). Direct work on s completes only if
 *   minSteps_orchestrator(s) <= min(stepsLeft, contextLeft / contextPerDirectStep).
 * Anything else is still allowed: duplicates, tiny subtasks, plans whose results together exceed
 * the context (which of them is lost depends on the draws), so spurious parallelism stays possible
 * through ordinary actions and costs what it costs.
 */
export class ReturnBounds {
  private readonly planSize: number;
  /** Per subagent kind: its newest planned subagent's Σ minSteps and Σ size, or null with none. */
  private readonly newest: Array<{ steps: number; size: number } | null>;

  private readonly belief: SkillBelief;

  constructor(private readonly sim: DecompositionSim) {
    this.belief = visibleSkills(sim);
    const plan = sim.pendingPlan();
    this.planSize = plan.length;
    this.newest = sim.subagentKinds.map((kind) => {
      const slot = sim.lastPendingOf(kind);
      if (slot === null) return null;
      const items = plan[slot].items;
      return { steps: items.reduce((a, j) => a + this.minSteps(kind, j), 0), size: items.reduce((a, j) => a + sim.task.subtasks[j].size, 0) };
    });
  }

  minSteps(kind: string, id: number): number {
    const s = this.sim.task.subtasks[id];
    return s.size * (this.belief.minThink(kind, s) + 1);
  }

  /** Can subtask `id`, given to kind index `k` (a new subagent, or joined to its newest one), come back and be read? */
  planned(id: number, k: number, join: boolean): boolean {
    const sim = this.sim;
    const l = sim.limits;
    const prior = join ? this.newest[k] : null;
    if (join && prior === null) return false;
    const subagents = join ? this.planSize : this.planSize + 1;
    const room = Math.min(l.subagentStepCap, sim.stepsLeft - Math.ceil(subagents / l.callsPerMainStep));
    const steps = l.setupSteps + (prior?.steps ?? 0) + this.minSteps(sim.subagentKinds[k], id);
    const context = l.resultOverhead + l.contextPerResultUnit * ((prior?.size ?? 0) + sim.task.subtasks[id].size);
    return steps <= room && context <= sim.contextLeft;
  }

  /** Can the orchestrator's own work on `id` complete? */
  direct(id: number): boolean {
    const l = this.sim.limits;
    const byContext = l.contextPerDirectStep > 0 ? this.sim.contextLeft / l.contextPerDirectStep : Infinity;
    return this.minSteps(ORCHESTRATOR_KIND, id) <= Math.min(this.sim.stepsLeft, byContext);
  }
}

function writePairFeatures(sim: DecompositionSim, candidates: readonly number[], out: Float32Array, at: number): void {
  if (sim.finished) return;
  const cap = sim.limits.subagentStepCap;
  const left = Math.max(1, sim.stepsLeft);
  const plan = sim.pendingPlan();
  const kinds = sim.subagentKinds;
  const belief = visibleSkills(sim);
  const newestLoad = kinds.map((kind) => {
    const slot = sim.lastPendingOf(kind);
    return slot === null ? null : expectedLoad(sim, kind, plan[slot].items);
  });
  candidates.forEach((id, i) => {
    const s = sim.task.subtasks[id];
    kinds.forEach((kind, k) => {
      const o = at + (i * KM + k) * P;
      const steps = expectedSteps(sim, kind, id);
      out[o] = belief.pCorrect(kind, s);
      out[o + 1] = steps / cap;
      out[o + 2] = Math.min(2, (sim.limits.setupSteps + steps) / left);
      const load = newestLoad[k];
      out[o + 3] = load === null ? 0 : Math.min(2, (load + steps) / cap);
    });
  });
}

export interface SetAction {
  type: SetActionType;
  /** Candidate row (assignNew, join, direct, check). */
  row: number;
  /** Subagent kind index (assignNew, join). */
  kind: number;
}

export function decodeSetAction(a: number): SetAction {
  if (!(Number.isInteger(a) && a >= 0 && a < SP_NUM_ACTIONS)) throw new SetPolicyError(`set policy: action ${a} is outside 0..${SP_NUM_ACTIONS - 1}`);
  for (const type of SP_TYPES) {
    const s = SP_SEGMENTS[type];
    if (a < s.offset || a >= s.offset + s.length) continue;
    const j = a - s.offset;
    if (type === 'assignNew' || type === 'join') return { type, row: Math.floor(j / KM), kind: j % KM };
    return { type, row: type === 'launch' || type === 'finish' ? -1 : j, kind: -1 };
  }
  throw new SetPolicyError(`set policy: action ${a} has no type`);
}

/** Play action `a` on the sim; `candidates` are the ids of the observation's rows. Returns the stage a launch or direct work ran, else null. */
export function applySetAction(sim: DecompositionSim, candidates: readonly number[], a: number): DecompStageRecord | null {
  const d = decodeSetAction(a);
  const id = d.row >= 0 ? candidates[d.row] : -1;
  if (d.row >= 0 && id === undefined) throw new SetPolicyError(`set policy: action ${a} points at row ${d.row}, which holds no candidate`);
  const kind = d.kind >= 0 ? sim.subagentKinds[d.kind] : '';
  if (d.kind >= 0 && kind === undefined) throw new SetPolicyError(`set policy: action ${a} names kind ${d.kind}; the task has ${sim.subagentKinds.length}`);
  switch (d.type) {
    case 'assignNew':
      sim.createSubagent(kind, id);
      return null;
    case 'join': {
      const slot = sim.lastPendingOf(kind);
      if (slot === null) throw new SetPolicyError(`set policy: join to kind '${kind}', which has no planned subagent`);
      sim.addToSubagent(slot, id);
      return null;
    }
    case 'direct':
      return sim.direct(id);
    case 'check':
      sim.check(id);
      return null;
    case 'launch':
      return sim.launch();
    case 'finish':
      sim.finish();
      return null;
  }
}

