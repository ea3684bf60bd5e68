/**
 * The orchestration simulator that both swarm tasks plug into. It models the limits of the Kimi
 * K2.5 report's agent swarm, and runs no network itself:
 *
 * - The orchestrator acts in stages. `direct(id)` works on one subtask itself (a stage of its own:
 *   its steps are the orchestrator's steps, and each one uses context). `assign(ids)` is
 *   create_subagent + assign_task: each subtask runs on its own subagent, all concurrently in one
 *   stage that costs 1 orchestrator step + the slowest subagent's steps. `finish()` answers
 *   (one orchestrator step) and ends the episode.
 * - Limits: `maxMainSteps` caps the orchestrator's own steps in direct and assign stages (finish
 *   adds its single step on top, so an episode can always end); `subagentStepCap` caps each
 *   subagent run; `directStepCap` caps one direct run; `contextBudget` is the orchestrator's
 *   context. Direct work uses `contextPerDirectStep` per step; a subagent's work uses none
 *   ("context sharding"), only its result, read back as an observation, costs `contextPerResult`.
 *   `assign(ids)` needs room for every result up front; a direct run is cut ('timeout') when the
 *   orchestrator's steps or context run out.
 * - Latency (optional soft deadline, as in the report's "time to reach a target score"): with
 *   `deadline` = d > 0 the episode's r_perf is the task score times a latency factor of its
 *   critical steps C, against the task's serial baseline S:
 *     D = d · S,   L = max(lateAt, d) · S,
 *     factor = 1 − (1 − lateFloor) · clip((C − D) / (L − D), 0, 1)     (a step at D when L = D)
 *   full credit at or under the deadline, falling linearly to `lateFloor` at L (and staying there
 *   beyond it). So serial work that gets everything right still earns only `lateFloor`, and
 *   parallelism has value in r_perf itself, but only once it cuts the critical steps below L: an
 *   answer that is merely less late than serial work earns nothing more. `deadline` = 0 turns it off.
 * - These rules are the same for every preset; only the λ schedules differ between them.
 * - Gating: a subtask can start only when every subtask it depends on is done. Invalid actions
 *   (blocked, already done, unknown or duplicated ids, no steps or context left, acting after
 *   finish) THROW an `OrchestrationError` with a message saying why; they are never silently
 *   dropped. An RL orchestrator should mask its choices with `readySubtasks()` and `canDirect()` /
 *   `canAssign(n)`.
 * - A subtask that failed or timed out can be tried again (each try counts as a new assignment).
 *
 * Whoever works on a subtask is a driver (src/envs/swarm/drivers.ts): each step of a stage gets
 * every active run at once and returns one action per run, so a neural driver does one batched
 * forward pass per step for all subagents of the stage. `beginDirect` / `beginAssign` return a
 * `StageRun` for callers that drive the loop themselves; `direct` / `assign` (sync drivers) and
 * `directAsync` / `assignAsync` (drivers that return promises) run the loop for them.
 */
import { ITEM_OBS_DIM, ItemSearchEnv } from './itemSearch';
import type { ActiveRun, AsyncWorkerDriver, WorkerBatch, WorkerDriver, WorkerRole } from './drivers';
import type { EpisodeLog, RunOutcome, SubtaskRun, Stage, StageRecord, SwarmTask } from './types';

export class OrchestrationError extends Error {
  override name = 'OrchestrationError';
}

export interface OrchestrationLimits {
  /** The orchestrator's own steps in direct and assign stages (default 1500, the report's scale). */
  maxMainSteps: number;
  /** Steps of one subagent run (default 100). */
  subagentStepCap: number;
  /** Steps of one direct run (default: subagentStepCap). */
  directStepCap: number;
  /** The orchestrator's context, in units (default 400). */
  contextBudget: number;
  /** Context used per step of direct work (default 1). */
  contextPerDirectStep: number;
  /** Context used per subagent result read back (default 1). */
  contextPerResult: number;
  /** Most subagents in one assign stage (default 100, the report's scale). */
  maxSubagentsPerStage: number;
  /** Soft deadline on critical steps as a fraction of the serial baseline, in [0, 1) (default 0: none). */
  deadline: number;
  /** The latency factor at and beyond `lateAt` × the serial baseline, in [0, 1] (default 1: no penalty). */
  lateFloor: number;
  /** Where the latency factor reaches `lateFloor`, as a fraction of the serial baseline, in (0, 1] (default 1). */
  lateAt: number;
}

export const DEFAULT_LIMITS: Readonly<Omit<OrchestrationLimits, 'directStepCap'>> = {
  maxMainSteps: 1500,
  subagentStepCap: 100,
  contextBudget: 400,
  contextPerDirectStep: 1,
  contextPerResult: 1,
  maxSubagentsPerStage: 100,
  deadline: 0,
  lateFloor: 1,
  lateAt: 1,
};

export function resolveLimits(partial: Partial<OrchestrationLimits> = {}): OrchestrationLimits {
  const l: OrchestrationLimits = {
    ...DEFAULT_LIMITS,
    directStepCap: partial.subagentStepCap ?? DEFAULT_LIMITS.subagentStepCap,
    ...partial,
  };
  for (const k of ['maxMainSteps', 'subagentStepCap', 'directStepCap', 'maxSubagentsPerStage'] as const) {
    if (!Number.isInteger(l[k]) || l[k] < 1) throw new OrchestrationError(`limits: ${k} must be a positive integer, got ${l[k]}`);
  }
  for (const k of ['contextBudget', 'contextPerDirectStep', 'contextPerResult'] as const) {
    if (!Number.isFinite(l[k]) || l[k] < 0) throw new OrchestrationError(`limits: ${k} must be a non-negative number, got ${l[k]}`);
  }
  if (!(Number.isFinite(l.deadline) && l.deadline >= 0 && l.deadline < 1)) throw new OrchestrationError(`limits: deadline must be in [0, 1) (a fraction of the serial baseline), got ${l.deadline}`);
  if (!(Number.isFinite(l.lateFloor) && l.lateFloor >= 0 && l.lateFloor <= 1)) throw new OrchestrationError(`limits: lateFloor must be in [0, 1], got ${l.lateFloor}`);
  if (!(Number.isFinite(l.lateAt) && l.lateAt > 0 && l.lateAt <= 1)) throw new OrchestrationError(`limits: lateAt must be in (0, 1] (a fraction of the serial baseline), got ${l.lateAt}`);
  return l;
}

/** The latency factor of an episode with `critical` critical steps (see the soft deadline above). */
export function latencyFactor(
  critical: number,
  serialBaseline: number,
  limits: Pick<OrchestrationLimits, 'deadline' | 'lateFloor'> & { lateAt?: number },
): number {
  if (limits.deadline <= 0 || serialBaseline <= 0) return 1;
  const D = limits.deadline * serialBaseline;
  const L = Math.max(limits.lateAt ?? 1, limits.deadline) * serialBaseline;
  const late = L <= D ? (critical > D ? 1 : 0) : Math.min(1, Math.max(0, (critical - D) / (L - D)));
  return 1 - (1 - limits.lateFloor) * late;
}

export type SubtaskStatus = 'blocked' | 'ready' | 'done';

interface Run {
  subtaskId: number;
  duplicate: boolean;
  role: WorkerRole;
  slot: number;
  env: ItemSearchEnv;
  steps: number;
  ended: boolean;
  outcome: RunOutcome;
  answer: number | null;
}

/** One stage in progress. Loop `while (!run.done) run.step(actions(run.batch()))`, then read `run.record`. */
export class StageRun {
  private readonly obs: Float32Array;
  private readonly active: Run[];
  private result: StageRecord | null = null;

  /** @internal Made by OrchestrationSim.beginDirect / beginAssign. */
  constructor(
    readonly action: 'direct' | 'assign',
    private readonly runs: Run[],
    private readonly commit: (runs: Run[]) => StageRecord,
  ) {
    this.obs = new Float32Array(runs.length * ITEM_OBS_DIM);
    this.active = [...runs];
  }

  get done(): boolean {
    return this.result !== null;
  }

  /** The stage's record, once `done`. */
  get record(): StageRecord {
    if (!this.result) throw new OrchestrationError('StageRun: the stage is still running');
    return this.result;
  }

  /** The active runs and their packed observations (row i is runs[i]). */
  batch(): WorkerBatch {
    if (this.result) throw new OrchestrationError('StageRun: the stage has ended');
    const n = this.active.length;
    const runs: ActiveRun[] = [];
    for (let i = 0; i < n; i++) {
      const r = this.active[i];
      r.env.writeObs(this.obs, i * ITEM_OBS_DIM);
      runs.push({ subtaskId: r.subtaskId, role: r.role, slot: r.slot, steps: r.steps, env: r.env, duplicate: r.duplicate });
    }
    return { n, obsDim: ITEM_OBS_DIM, obs: this.obs.subarray(0, n * ITEM_OBS_DIM), runs };
  }

  /** One step of every active run; `actions[i]` is for row i of the last `batch()`. */
  step(actions: ArrayLike<number>): void {
    if (this.result) throw new OrchestrationError('StageRun: the stage has ended');
    if (actions.length < this.active.length) {
      throw new OrchestrationError(`StageRun: driver returned ${actions.length} actions for ${this.active.length} active runs`);
    }
    const scratch = new Float32Array(ITEM_OBS_DIM);
    for (let i = 0; i < this.active.length; i++) {
      const r = this.active[i];
      r.env.stepInto(actions[i], scratch, 0);
      r.steps += 1;
      const claim = r.env.lastClaim;
      if (claim) {
        r.ended = true;
        r.answer = claim.cell;
        r.outcome = claim.correct ? 'done' : 'failed';
      } else if (r.env.lastTruncated) {
        r.ended = true;
        r.outcome = 'timeout';
      }
    }
    for (let i = this.active.length - 1; i >= 0; i--) if (this.active[i].ended) this.active.splice(i, 1);
    if (this.active.length === 0) this.result = this.commit(this.runs);
  }
}

/** A deep copy, so callers cannot change the simulator's own records. */
function cloneRecord(r: StageRecord): StageRecord {
  return {
    ...r,
    subtaskIds: [...r.subtaskIds],
    subagents: r.subagents.map((s) => ({ ...s })),
    direct: r.direct ? { ...r.direct } : null,
  };
}

function record(r: Run): SubtaskRun {
  const rec: SubtaskRun = { subtaskId: r.subtaskId, steps: r.steps, outcome: r.outcome, answer: r.answer };
  if (r.duplicate) rec.duplicate = true;
  return rec;
}

export class OrchestrationSim {
  readonly limits: OrchestrationLimits;
  private readonly doneSet = new Set<number>();
  private readonly answers = new Map<number, number>();
  private readonly attemptCount: number[];
  private readonly lastOutcomes: Array<RunOutcome | null>;
  private readonly records: StageRecord[] = [];
  private open: StageRun | null = null;
  private mainUsed = 0;
  private contextUsedTotal = 0;
  private critical = 0;
  private nAssigned = 0;
  private nCompleted = 0;
  private nDirect = 0;
  private nDirectCompleted = 0;
  private ended = false;
  private exhaustedAtFinish = false;
  private rPerf = 0;
  private quality = 0;
  private latency = 1;

  constructor(
    readonly task: SwarmTask,
    limits: Partial<OrchestrationLimits> = {},
  ) {
    this.limits = resolveLimits(limits);
    this.attemptCount = task.subtasks.map(() => 0);
    this.lastOutcomes = task.subtasks.map(() => null);
  }

  get numSubtasks(): number {
    return this.task.subtasks.length;
  }
  get finished(): boolean {
    return this.ended;
  }
  get mainStepsUsed(): number {
    return this.mainUsed;
  }
  get mainStepsLeft(): number {
    return this.limits.maxMainSteps - this.mainUsed;
  }
  get contextUsed(): number {
    return this.contextUsedTotal;
  }
  get contextLeft(): number {
    return this.limits.contextBudget - this.contextUsedTotal;
  }
  /** Critical steps of the stages so far (the same as criticalSteps(this.stages())). */
  get elapsedCriticalSteps(): number {
    return this.critical;
  }

  status(id: number): SubtaskStatus {
    this.checkId(id);
    if (this.doneSet.has(id)) return 'done';
    return this.task.subtasks[id].deps.every((d) => this.doneSet.has(d)) ? 'ready' : 'blocked';
  }

  /** Subtasks that can start now (not done, every dependency done), in id order. */
  readySubtasks(): number[] {
    const out: number[] = [];
    for (let id = 0; id < this.numSubtasks; id++) if (this.status(id) === 'ready') out.push(id);
    return out;
  }

  attempts(id: number): number {
    this.checkId(id);
    return this.attemptCount[id];
  }

  lastOutcome(id: number): RunOutcome | null {
    this.checkId(id);
    return this.lastOutcomes[id];
  }

  /** Whether a direct stage is possible now (on some ready subtask). */
  canDirect(): boolean {
    return this.whyNotDirect() === null && this.readySubtasks().length > 0;
  }

  /** Whether an assign stage of n subagents is possible now (enough ready subtasks). */
  canAssign(n = 1): boolean {
    return this.whyNotAssign(n) === null && this.readySubtasks().length >= n;
  }

  /** Whether any stage other than finish is possible. */
  canAct(): boolean {
    return this.canDirect() || this.canAssign(1);
  }

  /** The stages so far, in the form criticalSteps() takes. */
  stages(): Stage[] {
    return this.records.map((r) => ({ mainSteps: r.mainSteps, subagentSteps: r.subagents.map((s) => s.steps) }));
  }

  /** The answers received so far (subtask id -> claimed cell; the latest claim of each subtask). */
  receivedAnswers(): Map<number, number> {
    return new Map(this.answers);
  }

  beginDirect(id: number): StageRun {
    this.checkCanStart();
    const why = this.whyNotDirect();
    if (why) throw new OrchestrationError(`direct(${id}): ${why}`);
    this.checkStartable(id, 'direct');
    const l = this.limits;
    const byContext = l.contextPerDirectStep > 0 ? Math.floor(this.contextLeft / l.contextPerDirectStep) : Infinity;
    const cap = Math.min(l.directStepCap, this.mainStepsLeft, byContext);
    const run = this.makeRun(id, 'orchestrator', 0, cap);
    this.open = new StageRun('direct', [run], (runs) => this.commitDirect(runs[0]));
    return this.open;
  }

  beginAssign(ids: readonly number[]): StageRun {
    this.checkCanStart();
    const why = this.whyNotAssign(ids.length);
    if (why) throw new OrchestrationError(`assign([${ids.join(', ')}]): ${why}`);
    const seen = new Set<number>();
    for (const id of ids) {
      if (seen.has(id)) throw new OrchestrationError(`assign: subtask ${id} appears twice in one stage`);
      seen.add(id);
      this.checkStartable(id, 'assign');
    }
    const runs = ids.map((id, slot) => this.makeRun(id, 'subagent', slot, this.limits.subagentStepCap));
    this.open = new StageRun('assign', runs, (rs) => this.commitAssign(rs));
    return this.open;
  }

  /**
   * create_subagent + assign_task with more subagents than subtasks: `ids` run as in
   * `beginAssign`, and `extra` more subagents each get a duplicate of one of `ids` (round robin;
   * of any subtask when `ids` is empty). Duplicates run and cost steps and context like any
   * subagent, but their results are discarded ('failed', never completing anything): the
   * spurious parallelism that r_finish exists to punish.
   */
  beginAssignWithDuplicates(ids: readonly number[], extra: number): StageRun {
    if (!Number.isInteger(extra) || extra < 0) throw new OrchestrationError(`assign: extra must be a non-negative integer, got ${extra}`);
    if (extra === 0) return this.beginAssign(ids);
    this.checkCanStart();
    const why = this.whyNotAssign(ids.length + extra);
    if (why) throw new OrchestrationError(`assign([${ids.join(', ')}] + ${extra} duplicates): ${why}`);
    const seen = new Set<number>();
    for (const id of ids) {
      if (seen.has(id)) throw new OrchestrationError(`assign: subtask ${id} appears twice in one stage`);
      seen.add(id);
      this.checkStartable(id, 'assign');
    }
    const cap = this.limits.subagentStepCap;
    const runs = ids.map((id, slot) => this.makeRun(id, 'subagent', slot, cap));
    for (let j = 0; j < extra; j++) {
      const id = ids.length > 0 ? ids[j % ids.length] : j % this.numSubtasks;
      const env = new ItemSearchEnv({ maxEpisodeSteps: cap });
      env.resetToProblem(this.task.subtasks[id].problem);
      runs.push({ subtaskId: id, duplicate: true, role: 'subagent', slot: runs.length, env, steps: 0, ended: false, outcome: 'timeout', answer: null });
    }
    this.open = new StageRun('assign', runs, (rs) => this.commitAssign(rs));
    return this.open;
  }

  direct(id: number, driver: WorkerDriver): StageRecord {
    return drive(this.beginDirect(id), driver);
  }

  assign(ids: readonly number[], driver: WorkerDriver): StageRecord {
    return drive(this.beginAssign(ids), driver);
  }

  directAsync(id: number, driver: AsyncWorkerDriver): Promise<StageRecord> {
    return driveAsync(this.beginDirect(id), driver);
  }

  assignAsync(ids: readonly number[], driver: AsyncWorkerDriver): Promise<StageRecord> {
    return driveAsync(this.beginAssign(ids), driver);
  }

  /**
   * Answer and end the episode (one orchestrator step, always allowed while no stage is running).
   * `report` picks the subtasks whose answers are reported (default: every subtask with an
   * answer, wrong ones included, as an orchestrator that cannot check them would).
   */
  finish(options: { report?: readonly number[] } = {}): StageRecord {
    this.checkCanStart();
    let reported: Map<number, number>;
    if (options.report) {
      reported = new Map();
      for (const id of options.report) {
        this.checkId(id);
        const a = this.answers.get(id);
        if (a === undefined) throw new OrchestrationError(`finish: subtask ${id} has no answer to report`);
        reported.set(id, a);
      }
    } else {
      reported = new Map(this.answers);
    }
    this.exhaustedAtFinish = this.readySubtasks().length > 0 && !this.canAct();
    this.quality = this.task.performance(reported, this.doneSet);
    this.ended = true;
    this.mainUsed += 1;
    const rec = this.push('finish', [], [], null, 1);
    this.latency = latencyFactor(this.critical, this.task.serialBaseline, this.limits);
    this.rPerf = this.quality * this.latency;
    return rec;
  }

  log(): EpisodeLog {
    return {
      task: this.task.kind,
      numSubtasks: this.numSubtasks,
      stages: this.records.map(cloneRecord),
      nAssigned: this.nAssigned,
      nCompleted: this.nCompleted,
      nDirect: this.nDirect,
      nDirectCompleted: this.nDirectCompleted,
      nSubtasksDone: this.doneSet.size,
      rPerf: this.rPerf,
      quality: this.quality,
      latencyFactor: this.latency,
      serialBaseline: this.task.serialBaseline,
      lowerBound: this.task.lowerBound,
      contextBudget: this.limits.contextBudget,
      contextUsed: this.contextUsedTotal,
      mainStepCap: this.limits.maxMainSteps,
      mainStepsUsed: this.mainUsed,
      finished: this.ended,
      budgetExhausted: this.exhaustedAtFinish,
    };
  }

  // ---- internals ----

  private checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.numSubtasks) {
      throw new OrchestrationError(`unknown subtask ${id} (ids are 0..${this.numSubtasks - 1})`);
    }
  }

  private checkCanStart(): void {
    if (this.ended) throw new OrchestrationError('the episode has finished; no more stages');
    if (this.open && !this.open.done) throw new OrchestrationError('a stage is still running; finish driving it first');
  }

  private whyNotDirect(): string | null {
    if (this.ended) return 'the episode has finished';
    if (this.mainStepsLeft < 1) return `the orchestrator's step cap (${this.limits.maxMainSteps}) is reached; only finish() is possible`;
    if (this.contextLeft < this.limits.contextPerDirectStep || this.contextLeft <= 0) {
      return `the context budget (${this.limits.contextBudget}) is used up; only finish() is possible`;
    }
    return null;
  }

  private whyNotAssign(n: number): string | null {
    const l = this.limits;
    if (this.ended) return 'the episode has finished';
    if (n < 1) return 'assign needs at least one subtask';
    if (n > l.maxSubagentsPerStage) return `at most ${l.maxSubagentsPerStage} subagents per stage, got ${n}`;
    if (this.mainStepsLeft < 1) return `the orchestrator's step cap (${l.maxMainSteps}) is reached; only finish() is possible`;
    const need = n * l.contextPerResult;
    if (need > this.contextLeft) {
      return `the results of ${n} subagents need ${need} context units but ${this.contextLeft} are left`;
    }
    return null;
  }

  private checkStartable(id: number, what: string): void {
    this.checkId(id);
    if (this.doneSet.has(id)) throw new OrchestrationError(`${what}: subtask ${id} is already done`);
    const missing = this.task.subtasks[id].deps.filter((d) => !this.doneSet.has(d));
    if (missing.length > 0) {
      throw new OrchestrationError(
        `${what}: subtask ${id} is blocked; its inputs ${missing.join(', ')} are not done (use readySubtasks())`,
      );
    }
  }

  private makeRun(id: number, role: WorkerRole, slot: number, cap: number): Run {
    const env = new ItemSearchEnv({ maxEpisodeSteps: cap });
    env.resetToProblem(this.task.subtasks[id].problem);
    this.attemptCount[id] += 1;
    return { subtaskId: id, duplicate: false, role, slot, env, steps: 0, ended: false, outcome: 'timeout', answer: null };
  }

  private settle(r: Run): void {
    this.lastOutcomes[r.subtaskId] = r.outcome;
    if (r.answer !== null) this.answers.set(r.subtaskId, r.answer);
    if (r.outcome === 'done') this.doneSet.add(r.subtaskId);
  }

  private commitDirect(r: Run): StageRecord {
    this.open = null;
    this.settle(r);
    this.nDirect += 1;
    if (r.outcome === 'done') this.nDirectCompleted += 1;
    this.mainUsed += r.steps;
    this.contextUsedTotal += r.steps * this.limits.contextPerDirectStep;
    return this.push('direct', [r.subtaskId], [], record(r), r.steps);
  }

  private commitAssign(runs: Run[]): StageRecord {
    this.open = null;
    for (const r of runs) {
      if (r.duplicate) {
        r.outcome = 'failed'; // a duplicate's result is discarded
        continue;
      }
      this.settle(r);
      if (r.outcome === 'done') this.nCompleted += 1;
    }
    this.nAssigned += runs.length;
    this.mainUsed += 1;
    this.contextUsedTotal += runs.length * this.limits.contextPerResult;
    return this.push('assign', runs.map((r) => r.subtaskId), runs.map(record), null, 1);
  }

  private push(
    action: StageRecord['action'],
    subtaskIds: number[],
    subagents: SubtaskRun[],
    direct: SubtaskRun | null,
    mainSteps: number,
  ): StageRecord {
    let slowest = 0;
    for (const s of subagents) slowest = Math.max(slowest, s.steps);
    this.critical += mainSteps + slowest;
    const rec: StageRecord = {
      index: this.records.length,
      action,
      subtaskIds,
      subagents,
      direct,
      mainSteps,
      criticalStepsSoFar: this.critical,
      contextUsedSoFar: this.contextUsedTotal,
    };
    this.records.push(rec);
    return cloneRecord(rec);
  }
}

/** Drive a stage to its end with a synchronous driver. */
export function drive(run: StageRun, driver: WorkerDriver): StageRecord {
  while (!run.done) run.step(driver(run.batch()));
  return run.record;
}

/** Drive a stage to its end with a driver that may return promises (a GPU readback, a worker). */
export async function driveAsync(run: StageRun, driver: AsyncWorkerDriver): Promise<StageRecord> {
  while (!run.done) run.step(await driver(run.batch()));
  return run.record;
}
