/**
 * The decomposition task's rules: an orchestrator that must decide how to split heterogeneous work
 * among subagent kinds, with no oracle, a context budget and a HARD critical-step budget.
 *
 * Stages (critical steps, Kimi K2.5 section 3: Σ_t S_main(t) + max_i S_sub,i(t)):
 * - launch: the pending plan runs. The plan is built decision by decision with `createSubagent(kind,
 *   id)` (create_subagent + assign_task) and `addToSubagent(slot, id)` (assign_task to a subagent
 *   already in the plan: batching). S_main = ceil(subagents / callsPerMainStep) (one orchestrator
 *   step issues up to that many tool calls). Each subagent spends `setupSteps`, then works on its
 *   items in order; item steps are Σ_u (think + ℓ_u) (decompositionSkills.ts). An item that would
 *   end past `subagentStepCap` times out, with every item after it; the subagent returns at its
 *   last step. S_sub,i = that step.
 * - direct(id): the orchestrator works on one subtask itself: S_main = its steps, and every step
 *   costs context (`contextPerDirectStep`): its work is in its own context.
 * - check(id): the orchestrator checks the subtask's current claim: S_main = checkBaseSteps +
 *   ceil(checkStepsPerUnit · size); it learns whether the claim is right.
 * - finish: S_main = 1; the current claims are submitted.
 *
 * Context ("context sharding"): a subagent's work costs the orchestrator nothing until its result is
 * read back: resultOverhead + contextPerResultUnit · (summed size of the items it claimed). Results
 * are read in the order they arrive (end step, then plan order); one that does not fit in the
 * context left is LOST: its items are not completed. Nothing stops a plan from asking for more
 * results than the context holds; it just loses them.
 *
 * Hard budget: the episode's critical steps never exceed `criticalBudget` (finish included: stages
 * before it may use at most criticalBudget − 1). A launch or direct stage that would run past that
 * is CUT there: runs still going return nothing, and the episode ends (the current claims are
 * submitted). A check must fit whole.
 *
 * No oracle: a claim is (answer, confidence). A chained subtask may start only when its predecessor
 * has a claim, and takes that claim as input: a wrong input gives a wrong answer. The current claim
 * of a subtask is chosen among claims made on its predecessor's current answer (all claims for a
 * subtask with no predecessor) that no check has refuted: the verified one if any, else the answer
 * with the most claims, then the highest confidence, then the earliest. A second opinion is thus a
 * real action (agreement outvotes a single wrong claim), as is a check.
 *
 * r_perf = F1 of the submitted answers (each subtask's current claim) against the truth:
 *   precision = right submitted / submitted,  recall = right submitted / N.
 *
 * Counts for the PARL reward: subagents created, items assigned to subagents, items completed
 * (a claim came back and was read).
 *
 * Randomness: the run of subtask i's a-th attempt by agent kind k draws from a stream of (task seed,
 * i, a, k) alone, so policies that make the same attempt see the same draws (common random
 * numbers), whatever else they did.
 *
 * Invalid actions throw a DecompositionError saying why; a policy should use `observe()`'s masks.
 */
import { Rng } from '../../core/rng';
import {
  DEFAULT_SKILLS,
  DEFAULT_SUBAGENT_KINDS,
  ORCHESTRATOR_KIND,
  SUBTASK_KINDS,
  drawConfidence,
  drawWorkSteps,
  kindStream,
  type SkillSource,
} from './decompositionSkills';
import { ANSWER_SPACE, DecompositionError, DECOMPOSITION_MAX_SUBTASKS, type DecompositionTask, type DecompSubtask } from './decompositionTask';

export interface DecompositionLimits {
  /** Hard cap on the episode's critical steps, finish included (default: ceil(0.25 × serial baseline)). */
  criticalBudget: number;
  /** The orchestrator's context in units (default: round(0.8 × (summed size of all subtasks + 2 per subtask))). */
  contextBudget: number;
  subagentStepCap: number;
  maxSubagentsPerStage: number;
  /** Tool calls (create_subagent / assign_task) one orchestrator step can issue. */
  callsPerMainStep: number;
  setupSteps: number;
  resultOverhead: number;
  contextPerResultUnit: number;
  contextPerDirectStep: number;
  checkContext: number;
  checkBaseSteps: number;
  checkStepsPerUnit: number;
  /** Mean tool latency μ >= 1 (geometric). */
  toolLatencyMean: number;
  /** Confidence of an uncalibrated agent (b) and the noise σ of every reported confidence. */
  confidenceBase: number;
  confidenceNoise: number;
}

export const DEFAULT_DECOMPOSITION_RULES: Readonly<Omit<DecompositionLimits, 'criticalBudget' | 'contextBudget'>> = {
  subagentStepCap: 64,
  maxSubagentsPerStage: 100,
  callsPerMainStep: 8,
  setupSteps: 2,
  resultOverhead: 2,
  contextPerResultUnit: 1,
  contextPerDirectStep: 1,
  checkContext: 1,
  checkBaseSteps: 1,
  checkStepsPerUnit: 0.5,
  toolLatencyMean: 2,
  confidenceBase: 0.8,
  confidenceNoise: 0.15,
};
/**
 * Chosen on seeds 1-5 only (npm run bench -- swarm-baselines; was 0.4 and 1.0): at 0.4 × serial the
 * budget bound only the serial baseline and every baseline finished everything; at 0.25 × serial a
 * lone orchestrator cannot finish, and at 0.8 of the context that one result per subtask needs
 * (2 + size each), handing every subtask to its own subagent loses results: batching matters.
 */
export const DEFAULT_BUDGET_FRACTION = 0.25;
export const DEFAULT_CONTEXT_FRACTION = 0.8;

export interface DecompositionOptions {
  limits?: Partial<DecompositionLimits>;
  /** The critical budget as a fraction of the serial baseline (used when limits.criticalBudget is not set). */
  budgetFraction?: number;
  /** The context budget as a fraction of Σ (size + 2) over the subtasks (used when limits.contextBudget is not set). */
  contextFraction?: number;
  /**
   * The skill table is hidden from the orchestrator (latent skills, skillPrior.ts): what it sees of
   * the kinds comes only from checks, returned subagents and agreements (skillBelief.ts).
   */
  skillsHidden?: boolean;
  /** Subagent kinds the orchestrator may create (default large, small, searcher). */
  subagentKinds?: readonly string[];
  /** Kind the "default kind" baseline uses (default: the first subagent kind). */
  defaultKind?: string;
  skills?: SkillSource;
}

export type SubtaskState = 'blocked' | 'open' | 'claimed' | 'verified';
export type ItemOutcome = 'completed' | 'timeout' | 'lost' | 'cut';

export interface Claim {
  answer: number;
  confidence: number;
  /** The predecessor's answer it was computed from (null for a subtask with no predecessor). */
  input: number | null;
  by: string;
  stage: number;
}

export interface SubagentRecord {
  kind: string;
  items: number[];
  /** Per item: how it ended ('timeout' also for items after a timed-out one). */
  outcomes: ItemOutcome[];
  steps: number;
  /** Context its result used (0 when lost or cut). */
  context: number;
}

export type DecompStageKind = 'launch' | 'direct' | 'check' | 'finish';

export interface DecompStageRecord {
  index: number;
  kind: DecompStageKind;
  mainSteps: number;
  subagents: SubagentRecord[];
  /** direct / check: the subtask. */
  subtask: number | null;
  /** direct: how it ended; check: 'right' or 'wrong'. */
  result: ItemOutcome | 'right' | 'wrong' | null;
  criticalStepsSoFar: number;
  contextUsedSoFar: number;
}

export interface DecompositionOutcome {
  rPerf: number;
  precision: number;
  recall: number;
  submitted: number;
  correct: number;
  criticalSteps: number;
  /** Every step of every agent (orchestrator and subagents, cut runs up to the cut). */
  totalCompute: number;
  serialBaseline: number;
  lowerBound: number;
  criticalBudget: number;
  contextUsed: number;
  contextBudget: number;
  nSubagents: number;
  nAssigned: number;
  nCompleted: number;
  nTimeout: number;
  nLost: number;
  nCut: number;
  nDirect: number;
  nChecks: number;
  nChecksWrong: number;
  endReason: 'finish' | 'budget';
  stages: DecompStageRecord[];
}

/** What a check revealed: whose claim it was, what that claim said of itself, and whether it was right. */
export interface CheckEvidence {
  subtask: number;
  by: string;
  confidence: number;
  passed: boolean;
}

/** A subagent whose every item came back: its kind, the work units it did and the steps they took (setup left out). */
export interface SpeedEvidence {
  kind: string;
  units: number;
  steps: number;
}

interface PendingSubagent {
  kind: string;
  items: number[];
}

/**
 * Fewest work steps of a subtask by any agent: size × (min think + 1) (a tool call takes >= 1
 * step). The lower bound of a task is the longest chain of these.
 */
export function minWorkSteps(s: DecompSubtask, skills: SkillSource, kinds: readonly string[]): number {
  let think = Infinity;
  for (const k of [ORCHESTRATOR_KIND, ...kinds]) think = Math.min(think, skills.distribution(k, s).thinkStepsPerUnit);
  return s.size * (think + 1);
}

/** The largest sum of `cost` over the links of one chain (a subtask that stands alone is a chain of one). */
export function longestChain(task: DecompositionTask, cost: (id: number) => number): number {
  let best = 0;
  for (const s of task.subtasks) {
    if (s.after !== null) continue; // start of a chain, or one that stands alone
    let sum = 0;
    for (let v: number | null = s.id; v !== null; v = task.subtasks[v].next) sum += cost(v);
    best = Math.max(best, sum);
  }
  return best;
}

export function lowerBoundOf(task: DecompositionTask, skills: SkillSource, kinds: readonly string[]): number {
  return longestChain(task, (id) => minWorkSteps(task.subtasks[id], skills, kinds));
}

export class DecompositionSim {
  readonly limits: DecompositionLimits;
  readonly subagentKinds: readonly string[];
  readonly defaultKind: string;
  readonly skills: SkillSource;
  readonly skillsHidden: boolean;
  /** Σ_i steps of the orchestrator's first attempt at subtask i (the same draws a serial orchestrator gets). */
  readonly serialBaseline: number;
  readonly lowerBound: number;
  private readonly runs: Rng;
  private readonly claims: Claim[][];
  private readonly refuted: Set<number>[];
  private readonly verified: Array<number | null>;
  private readonly attemptCount: number[];
  private readonly right: Map<Claim, boolean> = new Map();
  /**
   * current(id) memoised: it depends only on claims, refuted and verified answers, so the cache is
   * cleared whenever one of them changes (addClaim, check). An observation asks for every
   * subtask's state many times (each legality test does); without it that was most of the
   * observation's cost at 100 subtasks. `undefined` = not computed yet.
   */
  private currentMemo: Array<Claim | null | undefined> = [];
  private pending: PendingSubagent[] = [];
  private readonly records: DecompStageRecord[] = [];
  private readonly checkLog: CheckEvidence[] = [];
  private readonly speedLog: SpeedEvidence[] = [];
  private critical = 0;
  private compute = 0;
  private context = 0;
  private nSubagents = 0;
  private nAssigned = 0;
  private nCompleted = 0;
  private nTimeout = 0;
  private nLost = 0;
  private nCut = 0;
  private nDirect = 0;
  private nChecks = 0;
  private nChecksWrong = 0;
  private ended: 'finish' | 'budget' | null = null;
  private result: DecompositionOutcome | null = null;

  constructor(
    readonly task: DecompositionTask,
    options: DecompositionOptions = {},
  ) {
    this.skills = options.skills ?? DEFAULT_SKILLS;
    this.skillsHidden = options.skillsHidden === true;
    this.subagentKinds = [...(options.subagentKinds ?? DEFAULT_SUBAGENT_KINDS)];
    if (this.subagentKinds.length < 1) throw new DecompositionError('decomposition: at least one subagent kind is needed');
    for (const k of this.subagentKinds) {
      if (k === ORCHESTRATOR_KIND || !this.skills.kinds.includes(k)) {
        throw new DecompositionError(`decomposition: unknown subagent kind '${k}' (the skill source knows: ${this.skills.kinds.filter((x) => x !== ORCHESTRATOR_KIND).join(', ')})`);
      }
    }
    if (new Set(this.subagentKinds).size !== this.subagentKinds.length) throw new DecompositionError(`decomposition: subagent kinds repeat: ${this.subagentKinds.join(', ')}`);
    this.defaultKind = options.defaultKind ?? this.subagentKinds[0];
    if (!this.subagentKinds.includes(this.defaultKind)) throw new DecompositionError(`decomposition: default kind '${this.defaultKind}' is not one of the subagent kinds (${this.subagentKinds.join(', ')})`);
    const n = task.subtasks.length;
    this.runs = new Rng(task.seed).fork(0x5eed);
    this.claims = task.subtasks.map(() => []);
    this.refuted = task.subtasks.map(() => new Set());
    this.verified = task.subtasks.map(() => null);
    this.attemptCount = task.subtasks.map(() => 0);
    let serial = 0;
    for (const s of task.subtasks) {
      const d = this.skills.distribution(ORCHESTRATOR_KIND, s);
      serial += drawWorkSteps(this.runRng(s.id, 0, ORCHESTRATOR_KIND), s.size, d.thinkStepsPerUnit, options.limits?.toolLatencyMean ?? DEFAULT_DECOMPOSITION_RULES.toolLatencyMean);
    }
    this.serialBaseline = serial;
    this.lowerBound = lowerBoundOf(task, this.skills, this.subagentKinds);
    const totalSize = task.subtasks.reduce((a, s) => a + s.size, 0);
    const fraction = options.budgetFraction ?? DEFAULT_BUDGET_FRACTION;
    if (!(fraction > 0 && fraction <= 1)) throw new DecompositionError(`decomposition: budgetFraction must be in (0, 1], got ${fraction}`);
    const contextFraction = options.contextFraction ?? DEFAULT_CONTEXT_FRACTION;
    if (!(contextFraction > 0 && contextFraction <= 4)) throw new DecompositionError(`decomposition: contextFraction must be in (0, 4], got ${contextFraction}`);
    this.limits = {
      ...DEFAULT_DECOMPOSITION_RULES,
      criticalBudget: Math.ceil(fraction * serial),
      contextBudget: Math.round(contextFraction * (totalSize + 2 * n)),
      ...options.limits,
    };
    this.validateLimits();
  }

  private validateLimits(): void {
    const l = this.limits;
    const fail = (m: string) => {
      throw new DecompositionError(`decomposition limits: ${m}`);
    };
    for (const k of ['criticalBudget', 'subagentStepCap', 'maxSubagentsPerStage', 'callsPerMainStep', 'checkBaseSteps'] as const) {
      if (!(Number.isInteger(l[k]) && l[k] >= 1)) fail(`${k} must be an integer >= 1, got ${l[k]}`);
    }
    for (const k of ['contextBudget', 'setupSteps', 'resultOverhead', 'contextPerResultUnit', 'contextPerDirectStep', 'checkContext', 'checkStepsPerUnit', 'confidenceNoise'] as const) {
      if (!(Number.isFinite(l[k]) && l[k] >= 0)) fail(`${k} must be a non-negative number, got ${l[k]}`);
    }
    if (!Number.isInteger(l.setupSteps)) fail(`setupSteps must be an integer, got ${l.setupSteps}`);
    if (!(l.toolLatencyMean >= 1 && Number.isFinite(l.toolLatencyMean))) fail(`toolLatencyMean must be >= 1, got ${l.toolLatencyMean}`);
    if (!(l.confidenceBase >= 0 && l.confidenceBase <= 1)) fail(`confidenceBase must be in [0, 1], got ${l.confidenceBase}`);
    if (l.criticalBudget - 1 < this.lowerBound) {
      fail(
        `the task cannot be done: criticalBudget ${l.criticalBudget} leaves ${l.criticalBudget - 1} steps before finish, below the lower bound ${this.lowerBound} (the longest chain of work at the fastest speed any agent has)`,
      );
    }
  }

  // ---- state ----

  get numSubtasks(): number {
    return this.task.subtasks.length;
  }
  get finished(): boolean {
    return this.ended !== null;
  }
  get criticalSteps(): number {
    return this.critical;
  }
  /** Steps stages may still use before the finish step. */
  get stepsLeft(): number {
    return this.limits.criticalBudget - 1 - this.critical;
  }
  get contextUsed(): number {
    return this.context;
  }
  get contextLeft(): number {
    return this.limits.contextBudget - this.context;
  }
  get totalCompute(): number {
    return this.compute;
  }
  attempts(id: number): number {
    this.checkId(id);
    return this.attemptCount[id];
  }
  /** Claims made on a subtask so far (copies). */
  claimsOf(id: number): Claim[] {
    this.checkId(id);
    return this.claims[id].map((c) => ({ ...c }));
  }
  /** Answers of the subtask that checks have refuted. */
  refutedCount(id: number): number {
    this.checkId(id);
    return this.refuted[id].size;
  }
  /** Every check so far, in order: all the truth the orchestrator has seen. */
  checksSoFar(): readonly CheckEvidence[] {
    return this.checkLog;
  }

  /** Every subagent so far that brought all its items back, with the steps it took. */
  speedsSoFar(): readonly SpeedEvidence[] {
    return this.speedLog;
  }

  pendingPlan(): Array<{ kind: string; items: number[] }> {
    return this.pending.map((p) => ({ kind: p.kind, items: [...p.items] }));
  }

  /** The subtask's current claim (see the file comment), or null. */
  currentClaim(id: number): Claim | null {
    this.checkId(id);
    const c = this.current(id);
    return c ? { ...c } : null;
  }

  private current(id: number): Claim | null {
    const memo = this.currentMemo[id];
    if (memo !== undefined) return memo;
    const c = this.computeCurrent(id);
    this.currentMemo[id] = c;
    return c;
  }

  private computeCurrent(id: number): Claim | null {
    const s = this.task.subtasks[id];
    let input: number | null = null;
    if (s.after !== null) {
      const prev = this.current(s.after);
      if (!prev) return null;
      input = prev.answer;
    }
    const eligible = this.claims[id].filter((c) => c.input === input && !this.refuted[id].has(c.answer));
    if (eligible.length === 0) return null;
    const v = this.verified[id];
    if (v !== null) {
      const c = eligible.find((x) => x.answer === v);
      if (c) return c;
    }
    const count = new Map<number, number>();
    for (const c of eligible) count.set(c.answer, (count.get(c.answer) ?? 0) + 1);
    let best = eligible[0];
    for (const c of eligible) {
      const dc = (count.get(c.answer) ?? 0) - (count.get(best.answer) ?? 0);
      if (dc > 0 || (dc === 0 && c.confidence > best.confidence)) best = c;
    }
    return best;
  }

  /** How many eligible claims agree with the current one (0 with none). */
  support(id: number): number {
    const cur = this.currentClaim(id);
    if (!cur) return 0;
    return this.claims[id].filter((c) => c.input === cur.input && c.answer === cur.answer).length;
  }

  state(id: number): SubtaskState {
    this.checkId(id);
    const s = this.task.subtasks[id];
    if (s.after !== null && !this.currentClaim(s.after)) return 'blocked';
    const cur = this.currentClaim(id);
    if (!cur) return 'open';
    return this.verified[id] === cur.answer ? 'verified' : 'claimed';
  }

  /** How many planned subagents have the subtask. */
  inPlan(id: number): number {
    return this.pending.filter((p) => p.items.includes(id)).length;
  }

  /**
   * Subtasks a plan may take now: neither blocked nor verified (id order). One already in the plan
   * may be given to another subagent too (a duplicate: a second opinion in the same stage).
   */
  candidates(): number[] {
    const out: number[] = [];
    for (let id = 0; id < this.numSubtasks; id++) {
      const st = this.state(id);
      if (st === 'open' || st === 'claimed') out.push(id);
    }
    return out;
  }

  // ---- what is legal ----

  whyNotPlan(id: number, kind: string, slot: number | null): string | null {
    if (this.ended) return 'the episode has ended';
    if (!this.subagentKinds.includes(kind)) return `unknown subagent kind '${kind}' (kinds: ${this.subagentKinds.join(', ')})`;
    if (!Number.isInteger(id) || id < 0 || id >= this.numSubtasks) return `unknown subtask ${id}`;
    const st = this.state(id);
    if (st === 'blocked') return `subtask ${id} is blocked: its predecessor ${this.task.subtasks[id].after} has no claim yet`;
    if (st === 'verified') return `subtask ${id} is verified already`;
    if (slot === null) {
      if (this.pending.length >= this.limits.maxSubagentsPerStage) return `at most ${this.limits.maxSubagentsPerStage} subagents per stage`;
      if (this.launchSteps(this.pending.length + 1) + 1 > this.stepsLeft) return 'not enough critical steps left to launch one more subagent';
    } else if (!(Number.isInteger(slot) && slot >= 0 && slot < this.pending.length)) {
      return `no subagent ${slot} in the plan (it has ${this.pending.length})`;
    } else if (this.pending[slot].kind !== kind) {
      return `subagent ${slot} is a '${this.pending[slot].kind}', not a '${kind}'`;
    } else if (this.pending[slot].items.includes(id)) {
      return `subagent ${slot} has subtask ${id} already`;
    }
    return null;
  }

  canLaunch(): boolean {
    return !this.ended && this.pending.length > 0;
  }

  whyNotDirect(id: number): string | null {
    if (this.ended) return 'the episode has ended';
    if (this.pending.length > 0) return 'a plan is pending; launch it first';
    const st = this.state(id);
    if (st === 'blocked' || st === 'verified') return `subtask ${id} is ${st}`;
    if (this.stepsLeft < 1) return 'no critical steps left before finish';
    if (this.contextLeft < Math.max(this.limits.contextPerDirectStep, Number.MIN_VALUE)) return 'no context left for direct work';
    return null;
  }

  checkSteps(id: number): number {
    return this.limits.checkBaseSteps + Math.ceil(this.limits.checkStepsPerUnit * this.task.subtasks[id].size);
  }

  whyNotCheck(id: number): string | null {
    if (this.ended) return 'the episode has ended';
    if (this.pending.length > 0) return 'a plan is pending; launch it first';
    if (this.state(id) !== 'claimed') return `subtask ${id} has no unchecked claim (it is ${this.state(id)})`;
    if (this.checkSteps(id) > this.stepsLeft) return `a check of subtask ${id} takes ${this.checkSteps(id)} steps, ${this.stepsLeft} are left`;
    if (this.limits.checkContext > this.contextLeft) return 'no context left for a check';
    return null;
  }

  canFinish(): boolean {
    return !this.ended && this.pending.length === 0;
  }

  // ---- actions ----

  /** create_subagent(kind) + assign_task(id): a new subagent in the pending plan; returns its slot. */
  createSubagent(kind: string, id: number): number {
    const why = this.whyNotPlan(id, kind, null);
    if (why) throw new DecompositionError(`createSubagent(${kind}, ${id}): ${why}`);
    this.pending.push({ kind, items: [id] });
    return this.pending.length - 1;
  }

  /** assign_task(id) to subagent `slot` of the pending plan (batching). */
  addToSubagent(slot: number, id: number): void {
    const kind = this.pending[slot]?.kind ?? '?';
    const why = this.whyNotPlan(id, kind, slot);
    if (why) throw new DecompositionError(`addToSubagent(${slot}, ${id}): ${why}`);
    this.pending[slot].items.push(id);
  }

  /** The newest pending subagent of a kind, or null. */
  lastPendingOf(kind: string): number | null {
    for (let j = this.pending.length - 1; j >= 0; j--) if (this.pending[j].kind === kind) return j;
    return null;
  }

  private launchSteps(nSub: number): number {
    return Math.ceil(nSub / this.limits.callsPerMainStep);
  }

  private runRng(id: number, attempt: number, kind: string): Rng {
    return this.runs.fork(id, attempt, kindStream(kind));
  }

  /** One attempt of `kind` at subtask `id` on the current input: its steps and its claim. */
  private attempt(id: number, kind: string, stage: number): { steps: number; claim: Claim; right: boolean } {
    const s = this.task.subtasks[id];
    const rng = this.runRng(id, this.attemptCount[id], kind);
    this.attemptCount[id] += 1;
    const d = this.skills.distribution(kind, s);
    const steps = drawWorkSteps(rng, s.size, d.thinkStepsPerUnit, this.limits.toolLatencyMean);
    let input: number | null = null;
    let inputRight = true;
    if (s.after !== null) {
      const prev = this.current(s.after);
      if (!prev) throw new DecompositionError(`internal: subtask ${id} started without an input`);
      input = prev.answer;
      inputRight = prev.answer === this.task.subtasks[s.after].truth;
    }
    const right = inputRight && rng.uniform() < d.pCorrect;
    const answer = right ? s.truth : (s.truth + 1 + rng.int(ANSWER_SPACE - 1)) % ANSWER_SPACE;
    const confidence = drawConfidence(rng, right, d.calibration, d.confidenceBase ?? this.limits.confidenceBase, this.limits.confidenceNoise);
    return { steps, claim: { answer, confidence, input, by: kind, stage }, right };
  }

  private addClaim(id: number, claim: Claim, right: boolean): void {
    this.claims[id].push(claim);
    this.currentMemo = [];
    this.right.set(claim, right);
  }

  /** Run the pending plan as one stage. */
  launch(): DecompStageRecord {
    if (!this.canLaunch()) throw new DecompositionError(this.ended ? 'launch: the episode has ended' : 'launch: the plan is empty');
    const l = this.limits;
    const plan = this.pending;
    this.pending = [];
    const stage = this.records.length;
    const mainSteps = this.launchSteps(plan.length);
    const room = this.stepsLeft - mainSteps; // sub-steps that fit before the cut (>= 1 by the plan checks)
    const runs = plan.map((p) => {
      let t = l.setupSteps;
      const outcomes: ItemOutcome[] = [];
      const done: Array<{ id: number; claim: Claim; right: boolean }> = [];
      let stopped = false;
      for (const id of p.items) {
        if (stopped) {
          outcomes.push('timeout');
          continue;
        }
        const a = this.attempt(id, p.kind, stage);
        if (t + a.steps > l.subagentStepCap) {
          outcomes.push('timeout');
          t = l.subagentStepCap;
          stopped = true;
        } else {
          t += a.steps;
          outcomes.push('completed'); // provisional: it may yet be lost or cut
          done.push({ id, ...a });
        }
      }
      return { p, steps: Math.max(t, 0), outcomes, done };
    });
    this.nSubagents += plan.length;
    let slowest = 0;
    let cut = false;
    const records: SubagentRecord[] = runs.map((r) => ({ kind: r.p.kind, items: [...r.p.items], outcomes: r.outcomes, steps: r.steps, context: 0 }));
    const order = runs.map((_, j) => j).sort((a, b) => runs[a].steps - runs[b].steps || a - b);
    for (const j of order) {
      const r = runs[j];
      const rec = records[j];
      this.nAssigned += r.p.items.length;
      if (r.steps > room) {
        cut = true;
        rec.steps = room;
        rec.outcomes = rec.outcomes.map(() => 'cut');
        this.nCut += r.p.items.length;
      } else {
        const cost = l.resultOverhead + l.contextPerResultUnit * r.done.reduce((a, x) => a + this.task.subtasks[x.id].size, 0);
        if (cost > this.contextLeft) {
          rec.outcomes = rec.outcomes.map((o) => (o === 'completed' ? 'lost' : o));
        } else {
          this.context += cost;
          rec.context = cost;
          for (const x of r.done) this.addClaim(x.id, x.claim, x.right);
          if (r.done.length === r.p.items.length) {
            this.speedLog.push({ kind: r.p.kind, units: r.p.items.reduce((a, id) => a + this.task.subtasks[id].size, 0), steps: r.steps - l.setupSteps });
          }
        }
      }
      for (const o of rec.outcomes) {
        if (o === 'completed') this.nCompleted += 1;
        else if (o === 'timeout') this.nTimeout += 1;
        else if (o === 'lost') this.nLost += 1;
      }
      slowest = Math.max(slowest, rec.steps);
      this.compute += rec.steps;
    }
    this.compute += mainSteps;
    const rec = this.push('launch', mainSteps + slowest, mainSteps, records, null, null);
    if (cut) this.end('budget');
    return rec;
  }

  /** The orchestrator works on subtask `id` itself. */
  direct(id: number): DecompStageRecord {
    const why = this.whyNotDirect(id);
    if (why) throw new DecompositionError(`direct(${id}): ${why}`);
    const l = this.limits;
    const a = this.attempt(id, ORCHESTRATOR_KIND, this.records.length);
    const byContext = l.contextPerDirectStep > 0 ? Math.floor(this.contextLeft / l.contextPerDirectStep) : Infinity;
    const cap = Math.min(this.stepsLeft, byContext);
    this.nDirect += 1;
    let steps = a.steps;
    let result: ItemOutcome = 'completed';
    if (a.steps > cap) {
      steps = cap;
      result = cap === this.stepsLeft ? 'cut' : 'lost';
    } else {
      this.addClaim(id, a.claim, a.right);
    }
    this.context += steps * l.contextPerDirectStep;
    this.compute += steps;
    const rec = this.push('direct', steps, steps, [], id, result);
    if (result === 'cut') this.end('budget');
    return rec;
  }

  /** The orchestrator checks subtask `id`'s current claim; returns whether it was right. */
  check(id: number): boolean {
    const why = this.whyNotCheck(id);
    if (why) throw new DecompositionError(`check(${id}): ${why}`);
    const cur = this.current(id) as Claim;
    const ok = this.right.get(cur) === true;
    this.checkLog.push({ subtask: id, by: cur.by, confidence: cur.confidence, passed: ok });
    if (ok) this.verified[id] = cur.answer;
    else this.refuted[id].add(cur.answer);
    this.currentMemo = [];
    this.nChecks += 1;
    if (!ok) this.nChecksWrong += 1;
    const steps = this.checkSteps(id);
    this.context += this.limits.checkContext;
    this.compute += steps;
    this.push('check', steps, steps, [], id, ok ? 'right' : 'wrong');
    return ok;
  }

  /** Submit every current claim and end the episode. */
  finish(): DecompositionOutcome {
    if (!this.canFinish()) throw new DecompositionError(this.ended ? 'finish: the episode has ended' : 'finish: a plan is pending; launch it first');
    this.end('finish');
    return this.outcome();
  }

  outcome(): DecompositionOutcome {
    if (!this.result) throw new DecompositionError('outcome: the episode has not ended');
    return { ...this.result, stages: this.result.stages.map((s) => ({ ...s, subagents: s.subagents.map((x) => ({ ...x, items: [...x.items], outcomes: [...x.outcomes] })) })) };
  }

  // ---- internals ----

  private end(reason: 'finish' | 'budget'): void {
    this.compute += 1;
    this.push('finish', 1, 1, [], null, null);
    this.ended = reason;
    let submitted = 0;
    let correct = 0;
    for (let id = 0; id < this.numSubtasks; id++) {
      const c = this.currentClaim(id);
      if (!c) continue;
      submitted += 1;
      if (c.answer === this.task.subtasks[id].truth) correct += 1;
    }
    const precision = submitted > 0 ? correct / submitted : 0;
    const recall = correct / this.numSubtasks;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    this.result = {
      rPerf: f1,
      precision,
      recall,
      submitted,
      correct,
      criticalSteps: this.critical,
      totalCompute: this.compute,
      serialBaseline: this.serialBaseline,
      lowerBound: this.lowerBound,
      criticalBudget: this.limits.criticalBudget,
      contextUsed: this.context,
      contextBudget: this.limits.contextBudget,
      nSubagents: this.nSubagents,
      nAssigned: this.nAssigned,
      nCompleted: this.nCompleted,
      nTimeout: this.nTimeout,
      nLost: this.nLost,
      nCut: this.nCut,
      nDirect: this.nDirect,
      nChecks: this.nChecks,
      nChecksWrong: this.nChecksWrong,
      endReason: reason,
      stages: this.records,
    };
  }

  private push(kind: DecompStageKind, critical: number, mainSteps: number, subagents: SubagentRecord[], subtask: number | null, result: DecompStageRecord['result']): DecompStageRecord {
    this.critical += critical;
    const rec: DecompStageRecord = { index: this.records.length, kind, mainSteps, subagents, subtask, result, criticalStepsSoFar: this.critical, contextUsedSoFar: this.context };
    this.records.push(rec);
    return { ...rec, subagents: subagents.map((x) => ({ ...x, items: [...x.items], outcomes: [...x.outcomes] })) };
  }

  private checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.numSubtasks) throw new DecompositionError(`unknown subtask ${id} (ids are 0..${this.numSubtasks - 1})`);
  }
}

export { DECOMPOSITION_MAX_SUBTASKS, SUBTASK_KINDS };
