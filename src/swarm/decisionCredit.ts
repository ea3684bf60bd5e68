/**
 * Per-decision credit of the second swarm's reward (the learner's `credit: 'decision'`): each term
 * of the episode's PARL reward is split over the decisions that produced it, so that the parts sum
 * to the episode's reward exactly (the objective is unchanged; only who gets the credit changes).
 *
 *   r_perf = F1 = 2·correct / (submitted + N)            (F1 = 2PR/(P+R) with P = c/s, R = c/N)
 *          = Σ_{submitted subtasks j} 2·[claim_j right] / (s + N)
 *     subtask j's share goes to the decision that FIRST gave its submitted answer (same answer, same
 *     input; claims in the order they were read): an assignment whose item came back and was read,
 *     or direct work. A second opinion that only agrees with it earns nothing (it changed nothing
 *     submitted); one that outvoted a wrong claim, or came first, earns the share. A result that
 *     was lost, timed out or cut earns none.
 *   With perfCredit 'wrong-at-end' the same F1 is split so that a wrong answer costs where it is
 *   submitted, at the episode's end (F1·(s + N) = 2c gives F1 = (1/N)·Σ_{submitted j} (2·[right_j] − F1)):
 *     each right submitted claim pays (2 − F1)/N to the decision that first gave it, and each wrong
 *     submitted one costs F1/N at the end. A check or a retry that takes a wrong answer out of the
 *     submission then sees that cost leave its reward to go; with the default split ('right-claims') the
 *     gain lands on the producers of the right claims, which are mostly earlier decisions.
 *   r_finish = n_completed / n_assigned = Σ_{assigned items i} [i completed] / n_assigned
 *     to the decision that assigned item i (n_assigned = 0: the neutral 1 goes to the last decision).
 *   r_parallel = min(n_subagents, cap) / cap
 *     1/cap to each of the first `cap` launched subagents' creating decisions (launch order, then plan order),
 *     or, with parallelCredit 'launch', to the decision that launched them (the stage's launch: within a
 *     stage a new subagent and a join then earn the same, and r_parallel judges only how many subagents
 *     a stage runs; a subagent the decision cap launched keeps it on its creator).
 *
 * How the learner turns these parts into each decision's return (by stage) is in decompLearner.ts.
 *
 * The actor records what the learner cannot see (which decision made which claim, which item came
 * back): `DecisionLedger` follows one episode; `decisionRewards` combines its parts with λ1, λ2.
 */
import type { DecompositionSim, DecompStageRecord } from '../envs/swarm/decomposition';
import type { SetAction } from './setActions';

/** What one episode's decisions produced (plain data: it travels from a worker). */
export interface DecisionCreditParts {
  /** [T] each decision's share of r_perf (Σ = r_perf). */
  perf: number[];
  /** [T] 1 if the decision assigned an item that was launched (counted in n_assigned), else 0. */
  assigned: number[];
  /** [T] 1 if that item was completed (its claim came back and was read), else 0. */
  completed: number[];
  /** [T] the launch rank of the subagent the decision created (0, 1, …), or −1. */
  subagentRank: number[];
  /** [T] for an assignment, the decision that launched it (−1: the decision cap did, or never launched). */
  launchedBy: number[];
  /** Answers submitted at the end (s), and the task's subtasks (N): F1 = 2c / (s + N). */
  submitted: number;
  numSubtasks: number;
}

export class DecisionLedger {
  private decisions = 0;
  /** Per pending plan slot, the decision that put each item there. */
  private plan: number[][] = [];
  /** Per subtask, the decision that made each of its claims (the sim's claim order). */
  private readonly producers: number[][];
  private readonly assigned: number[] = [];
  private readonly completed: number[] = [];
  private readonly subagentRank: number[] = [];
  private readonly launchedBy: number[] = [];
  private launchedSubagents = 0;

  constructor(private readonly sim: DecompositionSim) {
    this.producers = Array.from({ length: sim.numSubtasks }, () => []);
  }

  /** Call BEFORE the decision's action is played (the plan slot it touches is read from the sim). */
  before(action: SetAction): void {
    const t = this.decisions;
    this.decisions += 1;
    this.assigned.push(0);
    this.completed.push(0);
    this.subagentRank.push(-1);
    this.launchedBy.push(-1);
    if (action.type === 'assignNew') {
      this.plan.push([t]);
    } else if (action.type === 'join') {
      const slot = this.sim.lastPendingOf(this.sim.subagentKinds[action.kind]);
      if (slot === null) throw new Error('DecisionLedger: join with no planned subagent of its kind');
      this.plan[slot].push(t);
    }
  }

  /**
   * Call AFTER a stage ran (a launch, by a decision or by the decision cap; direct work), with the
   * stage it produced; `decision` is the decision that played it, −1 for the decision cap's launch.
   */
  stage(rec: DecompStageRecord, decision: number): void {
    if (rec.kind === 'direct') {
      if (rec.result === 'completed' && rec.subtask !== null) this.producers[rec.subtask].push(decision);
      return;
    }
    if (rec.kind !== 'launch') return;
    const slots = this.plan;
    this.plan = [];
    if (slots.length !== rec.subagents.length) throw new Error(`DecisionLedger: ${slots.length} planned subagents, the launch ran ${rec.subagents.length}`);
    slots.forEach((items, j) => {
      this.subagentRank[items[0]] = this.launchedSubagents + j;
      for (const t of items) {
        this.assigned[t] = 1;
        this.launchedBy[t] = decision;
      }
    });
    this.launchedSubagents += slots.length;
    // Claims are added in the order results are read: by the subagent's steps, then plan order
    // (a cut subagent adds none), each subagent's completed items in item order.
    const order = rec.subagents.map((_, j) => j).sort((a, b) => rec.subagents[a].steps - rec.subagents[b].steps || a - b);
    for (const j of order) {
      const s = rec.subagents[j];
      s.outcomes.forEach((o, p) => {
        if (o !== 'completed') return;
        const t = slots[j][p];
        this.completed[t] = 1;
        this.producers[s.items[p]].push(t);
      });
    }
  }

  /** The parts, once the episode has ended. */
  parts(): DecisionCreditParts {
    const sim = this.sim;
    const o = sim.outcome();
    const T = this.decisions;
    const perf = new Array<number>(T).fill(0);
    const share = 2 / (o.submitted + sim.numSubtasks);
    for (let id = 0; id < sim.numSubtasks; id++) {
      const cur = sim.currentClaim(id);
      if (!cur || cur.answer !== sim.task.subtasks[id].truth) continue;
      const claims = sim.claimsOf(id);
      if (claims.length !== this.producers[id].length) throw new Error(`DecisionLedger: subtask ${id} has ${claims.length} claims, ${this.producers[id].length} recorded`);
      // The first claim (in the order they were read) that gave the submitted answer on its input.
      const k = claims.findIndex((c) => c.answer === cur.answer && c.input === cur.input);
      perf[this.producers[id][k]] += share;
    }
    return { perf, assigned: [...this.assigned], completed: [...this.completed], subagentRank: [...this.subagentRank], launchedBy: [...this.launchedBy], submitted: o.submitted, numSubtasks: sim.numSubtasks };
  }
}

/** Who gets r_parallel's shares: the decision that created the subagent, or the one that launched it. */
export const PARALLEL_CREDITS = ['creator', 'launch'] as const;
export type ParallelCredit = (typeof PARALLEL_CREDITS)[number];

/** How r_perf is split: right claims only, or with each wrong submitted answer's cost at the end. */
export const PERF_CREDITS = ['right-claims', 'wrong-at-end'] as const;
export type PerfCredit = (typeof PERF_CREDITS)[number];

/** The reward's weights, where r_parallel's credit goes (default 'creator') and how r_perf is split (default 'right-claims'). */
export interface CreditWeights {
  lambda1: number;
  lambda2: number;
  parallelCap: number;
  parallelCredit?: ParallelCredit;
  perfCredit?: PerfCredit;
}

/**
 * The part of the reward paid at the episode's end rather than to a decision: with perfCredit
 * 'wrong-at-end', −F1/N per wrong submitted answer; else 0. Σ_t decisionRewards + this = the reward.
 */
export function endReward(parts: DecisionCreditParts, w: CreditWeights): number {
  return perfSplit(parts, w).end;
}

/**
 * r_perf's split: the factor on each producer's share 2/(s + N), and what is paid at the end. With
 * 'wrong-at-end' (c = F1·(s + N)/2 right answers): a right claim's share becomes (2 − F1)/N, and the
 * s − c wrong ones cost F1/N each at the end.
 */
function perfSplit(parts: DecisionCreditParts, w: CreditWeights): { scale: number; end: number } {
  if (w.perfCredit !== 'wrong-at-end') return { scale: 1, end: 0 };
  const { submitted: s, numSubtasks: n } = parts;
  const f1 = parts.perf.reduce((a, x) => a + x, 0);
  const right = (f1 * (s + n)) / 2;
  return { scale: ((s + n) / 2) * ((2 - f1) / n), end: (-(s - right) * f1) / n };
}

/**
 * Each decision's reward r_t = perf_t + λ2·completed_t / n_assigned + λ1·[rank_t < cap] / cap, with
 * the neutral λ2 (n_assigned = 0) at the last decision; Σ_t r_t + endReward = the episode's PARL reward. With
 * parallelCredit 'launch' the λ1 share of the creator t moves to launchedBy[t] (when it is >= 0).
 */
export function decisionRewards(parts: DecisionCreditParts, w: CreditWeights): Float64Array {
  const T = parts.perf.length;
  const r = new Float64Array(T);
  const nAssigned = parts.assigned.reduce((a, x) => a + x, 0);
  const cap = w.parallelCap;
  const perfScale = perfSplit(parts, w).scale; // the wrong answers' cost, if split off, is endReward
  for (let t = 0; t < T; t++) {
    r[t] += parts.perf[t] * perfScale; // += : a later launch may already hold earlier creators' λ1 shares
    if (nAssigned > 0 && parts.assigned[t]) r[t] += (w.lambda2 * parts.completed[t]) / nAssigned;
    const rank = parts.subagentRank[t];
    // min(n, cap)/cap: the first floor(cap) subagents pay 1/cap each, and a fractional cap its remainder.
    if (rank >= 0 && rank < cap) {
      const to = w.parallelCredit === 'launch' && parts.launchedBy[t] >= 0 ? parts.launchedBy[t] : t;
      r[to] += (w.lambda1 * Math.min(1, cap - rank)) / cap;
    }
  }
  if (nAssigned === 0 && T > 0) r[T - 1] += w.lambda2;
  return r;
}
