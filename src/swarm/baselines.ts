/**
 * Scripted orchestrators for the decomposition task (src/envs/swarm/decomposition.ts), run on the
 * same tasks and seeds as a learned one. Each plays one episode to its end and returns the outcome.
 *
 * - serial: the orchestrator does every subtask itself, in id order (chains wait for their input).
 * - assignAll: every open subtask to its own subagent of the default kind, stage after stage, until
 *   nothing is open; no batching, no checks, no regard for context.
 * - greedy: what a person would write. Route each subtask to the kind with the best success on its
 *   kind (ties: the faster); batch subtasks of size <= 2 in fours per kind; launch only what the
 *   context left can read back (keeping a small reserve for checks); then check every claim whose
 *   confidence is below 0.6; repeat until nothing is open.
 * - planner: a smarter hand policy, to show the greedy one is not near-optimal (an oracle-free
 *   upper-bound estimate of what a learned policy could reach): route chain links with work after
 *   them to the most reliable kind (an error there spoils the rest of the chain) and the rest to the
 *   kind with the best success per expected step; pack small subtasks into the stage's subagents
 *   up to the stage's makespan (first fit decreasing) instead of a fixed batch; check only chain
 *   links with work after them; get a second opinion on low-confidence leaves inside stages that run
 *   anyway, and check what is left only while the budget allows; skip work that cannot end in time.
 * - packer: the context is what runs out first (the planner ends with its context full at about half
 *   its critical budget), so spend time to save context: fewer, fuller subagents (each result costs
 *   `resultOverhead` once), no second opinions, and the context it has on the most subtasks (chain
 *   heads first, as later links wait on them, then the smallest). Every subtask goes to its most
 *   reliable kind; a stage packs subagents up to makespan
 *     T = min(0.75 · subagentStepCap, 0.8 · (steps left − 1) / links left in the longest open chain)
 *   (first fit, in that priority order), and leaves out what does not fit in T or in the context left.
 *   Checks as the planner's. Its two shares were chosen on seeds 1-5 only (BENCHMARKS.md).
 * - untrained: what the set policy does before it has learned anything (setPolicy.ts: a type
 *   nearly uniform over the legal types, then an action nearly uniform within it), played exactly:
 *   a legal type uniformly at random, then one of its legal actions uniformly at random, from a
 *   stream of the task's seed. Where it stands against serial is what "delegating badly" scores.
 */
import type { DecompositionOutcome, DecompositionSim } from '../envs/swarm/decomposition';
import { expectedLoad, expectedSteps } from '../envs/swarm/decompositionFeatures';
import { priorSkills, visibleSkills, type SkillBelief } from '../envs/swarm/skillBelief';
import type { DecompSubtask } from '../envs/swarm/decompositionTask';
import { Rng } from '../core/rng';
import { SP_MASK_OFFSET, SP_OBS_DIM, SP_SEGMENTS, SP_TYPES, applySetAction, encodeSetObservation } from './setActions';

export type Baseline = (sim: DecompositionSim) => DecompositionOutcome;

/** Finish now if possible (a plan would have to be launched first). */
function end(sim: DecompositionSim): DecompositionOutcome {
  if (sim.finished) return sim.outcome();
  if (sim.canLaunch()) sim.launch();
  return sim.finished ? sim.outcome() : sim.finish();
}

function openCandidates(sim: DecompositionSim): number[] {
  return sim.candidates().filter((id) => sim.state(id) === 'open');
}

export const serialBaseline: Baseline = (sim) => {
  while (!sim.finished) {
    const next = openCandidates(sim).find((id) => sim.whyNotDirect(id) === null);
    if (next === undefined) break;
    sim.direct(next);
  }
  return end(sim);
};

export const assignAllBaseline: Baseline = (sim) => {
  while (!sim.finished) {
    for (const id of openCandidates(sim)) if (sim.whyNotPlan(id, sim.defaultKind, null) === null) sim.createSubagent(sim.defaultKind, id);
    if (!sim.canLaunch()) break;
    sim.launch();
  }
  return end(sim);
};

function subtask(sim: DecompositionSim, id: number): DecompSubtask {
  return sim.task.subtasks[id];
}

/** The kind with the best success on the subtask (ties: fewer expected steps, then list order). */
export function mostReliableKind(sim: DecompositionSim, id: number, belief: SkillBelief = visibleSkills(sim)): string {
  let best = sim.subagentKinds[0];
  for (const k of sim.subagentKinds) {
    const p = belief.pCorrect(k, subtask(sim, id));
    const pb = belief.pCorrect(best, subtask(sim, id));
    if (p > pb + 1e-12 || (Math.abs(p - pb) <= 1e-12 && expectedSteps(sim, k, id, belief) < expectedSteps(sim, best, id, belief))) best = k;
  }
  return best;
}

function resultContext(sim: DecompositionSim, items: readonly number[]): number {
  const l = sim.limits;
  return l.resultOverhead + l.contextPerResultUnit * items.reduce((a, id) => a + subtask(sim, id).size, 0);
}

export interface GreedyOptions {
  /** Subtasks of at most this size are batched (default 2). */
  smallSize?: number;
  /** Items per batch (default 4). */
  batchSize?: number;
  /** Claims below this confidence are checked (default 0.6). */
  checkBelow?: number;
  /** Context kept back for checks (default 4). */
  contextReserve?: number;
}

export function greedyBaseline(options: GreedyOptions = {}): Baseline {
  const smallSize = options.smallSize ?? 2;
  const batchSize = options.batchSize ?? 4;
  const checkBelow = options.checkBelow ?? 0.6;
  const reserve = options.contextReserve ?? 4;
  return (sim) => {
    while (!sim.finished) {
      const open = openCandidates(sim);
      if (open.length === 0) break;
      const groups: Array<{ kind: string; items: number[] }> = [];
      const batches = new Map<string, number[][]>();
      for (const id of open) {
        const kind = mostReliableKind(sim, id);
        if (subtask(sim, id).size > smallSize) {
          groups.push({ kind, items: [id] });
          continue;
        }
        const list = batches.get(kind) ?? [];
        if (list.length === 0 || list[list.length - 1].length >= batchSize) list.push([]);
        list[list.length - 1].push(id);
        batches.set(kind, list);
      }
      for (const [kind, list] of batches) for (const items of list) groups.push({ kind, items });
      let context = sim.contextLeft - reserve;
      for (const g of groups) {
        const cost = resultContext(sim, g.items);
        if (cost > context || sim.whyNotPlan(g.items[0], g.kind, null) !== null) continue;
        context -= cost;
        const slot = sim.createSubagent(g.kind, g.items[0]);
        for (const id of g.items.slice(1)) sim.addToSubagent(slot, id);
      }
      if (!sim.canLaunch()) break;
      sim.launch();
      for (let id = 0; id < sim.numSubtasks && !sim.finished; id++) {
        const c = sim.currentClaim(id);
        if (c && c.confidence < checkBelow && sim.whyNotCheck(id) === null) sim.check(id);
      }
    }
    return end(sim);
  };
}

/** Links from `id` to the end of its chain, itself included (1 for a subtask that stands alone). */
function linksLeft(sim: DecompositionSim, id: number): number {
  const s = subtask(sim, id);
  return s.chain === null ? 1 : sim.task.chains[s.chain].length - s.position;
}

/** Unverified claims below `doubt` that can be checked now, least sure first. */
function doubtfulClaims(sim: DecompositionSim, doubt: number): number[] {
  const left = sim.finished ? [] : sim.candidates().filter((id) => sim.state(id) === 'claimed' && (sim.currentClaim(id)?.confidence ?? 1) < doubt && sim.whyNotCheck(id) === null);
  return left.sort((a, b) => (sim.currentClaim(a)?.confidence ?? 0) - (sim.currentClaim(b)?.confidence ?? 0));
}

function leastSureDoubtful(sim: DecompositionSim, doubt: number): number | null {
  return doubtfulClaims(sim, doubt)[0] ?? null;
}

/** Checks every claim below `doubt` while budget and context allow, least sure first. */
function checkLeastSure(sim: DecompositionSim, doubt: number): void {
  for (const id of doubtfulClaims(sim, doubt)) if (!sim.finished && sim.whyNotCheck(id) === null) sim.check(id);
}

/** Checks the current claim of every chain link with work after it that is below `doubt`. */
function checkDoubtfulLinks(sim: DecompositionSim, doubt: number): void {
  for (let id = 0; id < sim.numSubtasks && !sim.finished; id++) {
    const c = sim.currentClaim(id);
    if (c && subtask(sim, id).next !== null && c.confidence < doubt && sim.whyNotCheck(id) === null) sim.check(id);
  }
}

export interface PlannerOptions {
  /** Claims below this confidence get a second opinion or a check (default 0.6). */
  doubtBelow?: number;
  /** Context kept back for checks (default 4). */
  contextReserve?: number;
  /** Subtasks whose chosen kind succeeds with less than this get a second opinion in the same stage (default 0.8). */
  hedgeBelow?: number;
}

/** The most reliable kind other than `not` (null with one kind). */
function secondKind(sim: DecompositionSim, id: number, not: string): string | null {
  let best: string | null = null;
  for (const k of sim.subagentKinds) {
    if (k === not) continue;
    if (best === null || visibleSkills(sim).pCorrect(k, subtask(sim, id)) > visibleSkills(sim).pCorrect(best, subtask(sim, id))) best = k;
  }
  return best;
}

/** Kind for a subtask: the most reliable for chain links with work after them, else best success per expected step. */
function plannerKind(sim: DecompositionSim, id: number): string {
  if (subtask(sim, id).next !== null) return mostReliableKind(sim, id);
  let best = sim.subagentKinds[0];
  let score = -Infinity;
  for (const k of sim.subagentKinds) {
    const p = visibleSkills(sim).pCorrect(k, subtask(sim, id));
    // Success matters more than speed: a failure costs a whole retry stage.
    const v = p ** 4 / (expectedSteps(sim, k, id) + sim.limits.setupSteps);
    if (v > score) {
      score = v;
      best = k;
    }
  }
  return best;
}

export function plannerBaseline(options: PlannerOptions = {}): Baseline {
  const doubt = options.doubtBelow ?? 0.6;
  const reserve = options.contextReserve ?? 4;
  const hedgeBelow = options.hedgeBelow ?? 0.8;
  return (sim) => {
    const secondOpinion = new Set<number>();
    while (!sim.finished) {
      const open = openCandidates(sim);
      const doubtful = sim
        .candidates()
        .filter((id) => sim.state(id) === 'claimed' && !secondOpinion.has(id) && subtask(sim, id).next === null && (sim.currentClaim(id)?.confidence ?? 1) < doubt);
      if (open.length === 0) break;
      const room = sim.stepsLeft - 1;
      const first = open.map((id) => ({ id, kind: plannerKind(sim, id) }));
      // Hard subtasks get a second opinion from another kind in the same stage: it costs compute and
      // context, not critical steps, where a failure found later costs a whole retry stage.
      const hedge = first
        .filter((w) => visibleSkills(sim).pCorrect(w.kind, subtask(sim, w.id)) < hedgeBelow)
        .map((w) => ({ id: w.id, kind: secondKind(sim, w.id, w.kind) }))
        .filter((w): w is { id: number; kind: string } => w.kind !== null);
      const work = [...first, ...hedge, ...doubtful.map((id) => ({ id, kind: mostReliableKind(sim, id) }))].filter((w) => expectedLoad(sim, w.kind, [w.id]) <= room);
      // Makespan of the stage: its longest single item; pack the rest into subagents up to it.
      const makespan = Math.max(...work.map((w) => expectedLoad(sim, w.kind, [w.id])));
      work.sort((a, b) => expectedSteps(sim, b.kind, b.id) - expectedSteps(sim, a.kind, a.id) || a.id - b.id);
      const bins: Array<{ kind: string; items: number[]; load: number }> = [];
      for (const w of work) {
        const add = expectedSteps(sim, w.kind, w.id);
        const bin = bins.find((b) => b.kind === w.kind && b.load + add <= makespan && !b.items.includes(w.id));
        if (bin) {
          bin.items.push(w.id);
          bin.load += add;
        } else bins.push({ kind: w.kind, items: [w.id], load: sim.limits.setupSteps + add });
      }
      let context = sim.contextLeft - reserve;
      for (const b of bins) {
        const cost = resultContext(sim, b.items);
        if (cost > context || sim.whyNotPlan(b.items[0], b.kind, null) !== null) continue;
        context -= cost;
        const slot = sim.createSubagent(b.kind, b.items[0]);
        for (const id of b.items.slice(1)) sim.addToSubagent(slot, id);
        for (const id of b.items) if (doubtful.includes(id)) secondOpinion.add(id);
      }
      if (!sim.canLaunch()) break;
      sim.launch();
      // Chain links feed later work: a wrong one spoils the rest of its chain, so check it now.
      checkDoubtfulLinks(sim, doubt);
    }
    // Nothing open: spend what budget is left on checking the least sure claims.
    checkLeastSure(sim, doubt);
    return end(sim);
  };
}

export interface PackerOptions {
  /** Largest subagent makespan as a share of subagentStepCap (default 0.75: room for slow tool calls). */
  capShare?: number;
  /** Share of the steps left, split over the links left, that one stage may take (default 0.8). */
  timeShare?: number;
  /** Chain links and leftover claims below this confidence are checked (default 0.6). */
  doubtBelow?: number;
  /** Context kept back for checks (default 4). */
  contextReserve?: number;
  /**
   * What it routes by: 'visible' (default) the skills as the orchestrator sees them (the table when
   * known; with latent skills the posterior from what the task has shown: the adaptive packer), or
   * 'prior' the prior's means whatever the task shows (the fixed-table packer).
   */
  routeBy?: 'visible' | 'prior';
}

export function packerBaseline(options: PackerOptions = {}): Baseline {
  const capShare = options.capShare ?? 0.75;
  const routeBy = options.routeBy ?? 'visible';
  const timeShare = options.timeShare ?? 0.8;
  const doubt = options.doubtBelow ?? 0.6;
  const reserve = options.contextReserve ?? 4;
  return (sim) => {
    const l = sim.limits;
    let stages = true;
    while (!sim.finished) {
      const open = stages ? openCandidates(sim) : [];
      if (open.length > 0) {
        const depth = Math.max(...open.map((id) => linksLeft(sim, id)));
        const makespan = Math.min(capShare * l.subagentStepCap, (timeShare * (sim.stepsLeft - 1)) / depth);
        const belief = routeBy === 'prior' ? priorSkills(sim.skills) : visibleSkills(sim);
        const work = open.map((id) => ({ id, kind: mostReliableKind(sim, id, belief), links: linksLeft(sim, id), size: subtask(sim, id).size }));
        work.sort((a, b) => b.links - a.links || a.size - b.size || a.id - b.id);
        let context = sim.contextLeft - reserve;
        const bins: Array<{ kind: string; items: number[]; load: number }> = [];
        for (const w of work) {
          const add = expectedSteps(sim, w.kind, w.id, belief);
          if (l.setupSteps + add > makespan) continue;
          const bin = bins.find((b) => b.kind === w.kind && b.load + add <= makespan);
          const cost = l.contextPerResultUnit * w.size + (bin ? 0 : l.resultOverhead);
          if (cost > context) continue;
          context -= cost;
          if (bin) {
            bin.items.push(w.id);
            bin.load += add;
          } else bins.push({ kind: w.kind, items: [w.id], load: l.setupSteps + add });
        }
        for (const b of bins) {
          if (sim.whyNotPlan(b.items[0], b.kind, null) !== null) continue;
          const slot = sim.createSubagent(b.kind, b.items[0]);
          for (const id of b.items.slice(1)) sim.addToSubagent(slot, id);
        }
        if (sim.canLaunch()) {
          sim.launch();
          checkDoubtfulLinks(sim, doubt);
          continue;
        }
        stages = false; // nothing more fits: what is left of the budget goes to checks
      }
      // Nothing open (or nothing more fits): check the least sure claim; one found wrong opens again and, while stages still fit, is retried.
      const next = leastSureDoubtful(sim, doubt);
      if (next === null) break;
      sim.check(next);
    }
    return end(sim);
  };
}

/** The untrained set policy's law, played exactly (see the file comment); at most `maxDecisions` decisions, as an actor's episode. */
export function untrainedBaseline(maxDecisions: number): Baseline {
  return (sim) => {
    const rng = new Rng(sim.task.seed).fork(0x0417);
    const obs = new Float32Array(SP_OBS_DIM);
    for (let n = 0; n < maxDecisions && !sim.finished; n++) {
      const rows = encodeSetObservation(sim, obs);
      const legalByType = SP_TYPES.map((t) => {
        const { offset, length } = SP_SEGMENTS[t];
        const legal: number[] = [];
        for (let a = offset; a < offset + length; a++) if (obs[SP_MASK_OFFSET + a] > 0) legal.push(a);
        return legal;
      }).filter((l) => l.length > 0);
      if (legalByType.length === 0) break;
      const legal = legalByType[rng.int(legalByType.length)];
      applySetAction(sim, rows, legal[rng.int(legal.length)]);
    }
    return end(sim);
  };
}

export const BASELINES: ReadonlyArray<{ name: string; run: Baseline }> = [
  { name: 'serial', run: serialBaseline },
  { name: 'assign-all (default kind)', run: assignAllBaseline },
  { name: 'greedy', run: greedyBaseline() },
  { name: 'planner (smarter hand policy)', run: plannerBaseline() },
  { name: 'packer (fuller subagents, no second opinions)', run: packerBaseline() },
  { name: 'fixed-table packer (routes by the prior means)', run: packerBaseline({ routeBy: 'prior' }) },
  // The presets' cap on decisions (4 per subtask + 40) at 40 subtasks; a bigger task gets the same cap per subtask.
  { name: 'untrained (a legal type, then a legal action, at random)', run: (sim) => untrainedBaseline(4 * sim.numSubtasks + 40)(sim) },
];
