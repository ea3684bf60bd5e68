/**
 * What each decision of a swarm episode produced that the orchestrator can see, for the learner's
 * credit (swarmLearner.ts). Nothing here looks at whether a claim was right: r_perf is the
 * episode's outcome, paid at its end; the shaping terms are split over the decisions that caused
 * what they count, so that the parts plus r_perf sum to the episode's PARL reward exactly.
 *
 *   r_finish = n_completed / n_assigned = Σ_{assigned items i} [i completed] / n_assigned
 *     to the decision that assigned item i (completed: its result came back and was read;
 *     n_assigned = 0: the neutral 1 goes to the last decision).
 *   r_parallel = min(n_subagents, cap) / cap
 *     1/cap to each of the first `cap` launched subagents' creating decisions (launch order, then plan order).
 *
 * The actor records what the learner cannot see (which decision assigned which item, which item
 * came back): `DecisionLedger` follows one episode; `decisionRewards` combines its parts with λ1, λ2.
 */
import type { DecompositionSim, DecompStageRecord } from '../envs/swarm/decomposition';
import type { SetAction } from './setActions';

/** What one episode's decisions produced (plain data: it travels from a worker). */
export interface DecisionCreditParts {
  /** [T] 1 if the decision assigned an item that was launched (counted in n_assigned), else 0. */
  assigned: number[];
  /** [T] 1 if that item was completed (its claim came back and was read), else 0. */
  completed: number[];
  /** [T] the launch rank of the subagent the decision created (0, 1, …), or −1. */
  subagentRank: number[];
  /** [T] for an assignment, the decision that launched it (−1: the decision cap did, or never launched). */
  launchedBy: number[];
}

export class DecisionLedger {
  private decisions = 0;
  /** Per pending plan slot, the decision that put each item there. */
  private plan: number[][] = [];
  private readonly assigned: number[] = [];
  private readonly completed: number[] = [];
  private readonly subagentRank: number[] = [];
  private readonly launchedBy: number[] = [];
  private launchedSubagents = 0;

  constructor(private readonly sim: DecompositionSim) {}

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
    rec.subagents.forEach((s, j) => {
      s.outcomes.forEach((o, p) => {
        if (o === 'completed') this.completed[slots[j][p]] = 1;
      });
    });
  }

  /** The parts, once the episode has ended. */
  parts(): DecisionCreditParts {
    return { assigned: [...this.assigned], completed: [...this.completed], subagentRank: [...this.subagentRank], launchedBy: [...this.launchedBy] };
  }
}

/** The shaping terms' weights at this update, and r_parallel's cap. */
export interface CreditWeights {
  lambda1: number;
  lambda2: number;
  parallelCap: number;
}

/**
 * Each decision's shaping reward r_t = λ2·completed_t / n_assigned + λ1·[rank_t < cap] / cap, with
 * the neutral λ2 (n_assigned = 0) at the last decision; Σ_t r_t + r_perf = the episode's PARL reward.
 */
export function decisionRewards(parts: DecisionCreditParts, w: CreditWeights): Float64Array {
  const T = parts.assigned.length;
  const r = new Float64Array(T);
  const nAssigned = parts.assigned.reduce((a, x) => a + x, 0);
  const cap = w.parallelCap;
  for (let t = 0; t < T; t++) {
    if (nAssigned > 0 && parts.assigned[t]) r[t] += (w.lambda2 * parts.completed[t]) / nAssigned;
    const rank = parts.subagentRank[t];
    // min(n, cap)/cap: the first floor(cap) subagents pay 1/cap each, and a fractional cap its remainder.
    if (rank >= 0 && rank < cap) r[t] += (w.lambda1 * Math.min(1, cap - rank)) / cap;
  }
  if (nAssigned === 0 && T > 0) r[T - 1] += w.lambda2;
  return r;
}
