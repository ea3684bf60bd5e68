/** Pieces every training loop shares: episode bookkeeping and a reporting actor pool. */
import { ActorPool, type PoolEvent } from '../../core/remote/actorPool';
import { ActorDiedError } from '../../core/remote/errors';
import type { RemoteActor, RemoteClassHandle } from '../../core/remote/remoteClass';
import { remoteClass } from '../../core/remote/remoteClass';
import { getActorKey, type ActorClass } from '../../core/remote/registry';
import { fitUpdateRecord, reachesTarget, RECENT_EPISODES, type ActorStatusRecord, type InspectRecord, type SummaryRecord, type UpdateRecord } from '../../runs/records';
import { encodeCheckpoint } from '../../core/checkpoint';
import { betweenUpdates } from '../../core/backend';
import type { Model, ModelOutput } from '../../core/model';
import type { UpdateSteps } from '../../core/algorithm';
import type { MlpSpec } from '../../core/mlp';
import { modelSpecFor } from '../../config/modelSpec';
import { RolloutActor, type GreedyEpisode, type RolloutActorOptions } from '../rolloutActor';
import type { LoopContext, LoopOutcome } from './types';
import { inspectNetwork, type NetworkProbe } from '../inspect';
import { sleep } from '../../core/abortableSleep';

/** Returns of finished episodes, the mean of the last 20, and when the target was first reached. */
export class EpisodeTracker {
  private readonly returns: number[] = [];
  episodes = 0;
  solved: SummaryRecord['solved'] = null;

  constructor(private readonly threshold: number) {}

  add(returns: ArrayLike<number>, envSteps: number, wallSeconds: number): void {
    // Segments are checked for finite returns before they get here; this keeps the mean honest regardless.
    let counted = 0;
    for (let i = 0; i < returns.length; i++) {
      if (!Number.isFinite(returns[i])) continue;
      this.returns.push(returns[i]);
      counted += 1;
    }
    this.episodes += counted;
    if (this.returns.length > 4 * RECENT_EPISODES) this.returns.splice(0, this.returns.length - RECENT_EPISODES);
    if (!this.solved && reachesTarget({ episodes: this.episodes, meanReturn20: this.meanReturn20() }, this.threshold)) {
      this.solved = { episodes: this.episodes, envSteps, wallSeconds, threshold: this.threshold };
    }
  }

  meanReturn20(): number | null {
    const recent = this.returns.slice(-RECENT_EPISODES);
    return recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : null;
  }
}

export interface ReportingPool<T> {
  pool: ActorPool<T>;
  respawns(): number;
  emitStatus(): void;
  /** Resolves, with the reason, once every actor is gone for good (replacements kept failing). */
  whenAllGone(): Promise<string>;
  /** At the end of a run: report the actors' last status, detach the crash button, stop the workers. */
  close(): Promise<void>;
}

/**
 * The remote handle of an actor class, by the key the class declares. The platform may put a
 * stand-in in its place (tests inject faulty actors this way): `actorModules[key]`.
 */
export function actorHandle<C extends ActorClass>(ctx: LoopContext, cls: C): RemoteClassHandle<C> {
  const key = getActorKey(cls);
  const entry = key === undefined ? undefined : ctx.platform.actorModules?.[key];
  if (entry === undefined) return remoteClass(cls);
  return remoteClass(cls, typeof entry === 'string' ? { module: entry } : { module: entry.module, key: entry.key, name: key });
}

function poolNotice(event: PoolEvent): string {
  const why = event.error ? `: ${event.error.message}` : '';
  switch (event.type) {
    case 'died':
      return `actor ${event.index} (${event.actorName}) died${why}`;
    case 'replaced':
      return `actor ${event.index} replaced: ${event.actorName} started in place of the one that died`;
    case 'startFailed':
      return `actor ${event.index} did not start${why}; the pool keeps trying to start it in the background`;
    case 'started':
      return `${event.actorName} started late (actor ${event.index})`;
    case 'gone':
      return `actor ${event.index} is gone for good${why}`;
    case 'error':
      return `${event.actorName} reported an error${why}`;
  }
}

/**
 * An ActorPool that reports deaths and replacements as notices and actor-status records, and
 * that TrainingRun.crashActor can reach.
 */
export async function createReportingPool<C extends ActorClass>(
  ctx: LoopContext,
  handle: RemoteClassHandle<C>,
  n: number,
  argsFor: (index: number) => ConstructorParameters<C>,
  afterSpawn: (actor: RemoteActor<InstanceType<C>>, index: number) => Promise<void>,
): Promise<ReportingPool<InstanceType<C>>> {
  let respawns = 0;
  let pool: ActorPool<InstanceType<C>> | null = null;
  const emitStatus = () => {
    if (!pool) return;
    const record: ActorStatusRecord = {
      type: 'actors',
      actors: pool.status().map((a) => ({ index: a.index, name: a.name, state: a.state, respawns: a.respawns, lastError: a.lastError ?? null })),
    };
    ctx.emit(record);
  };
  let lastGone = '';
  pool = await ActorPool.create(handle, n, argsFor, {
    heartbeatMs: 2_000,
    heartbeatTimeoutMs: 30_000,
    afterSpawn,
    onEvent: (event) => {
      if (event.type === 'replaced') respawns += 1;
      if (event.type === 'gone') lastGone = event.error?.message ?? '';
      ctx.emit({ type: 'notice', level: event.type === 'replaced' || event.type === 'started' ? 'info' : 'warning', message: poolNotice(event) });
      emitStatus();
    },
  });
  const created = pool;
  ctx.live?.onResize(async (size) => {
    await created.resize(size);
    emitStatus();
  });
  ctx.setCrashTarget({
    async crashActor(index) {
      if (!Number.isInteger(index) || index < 0 || index >= created.size) throw new Error(`no actor ${index} in this run`);
      try {
        // Every actor can be crashed, whatever its class (the worker host gives each a crash method).
        await created.actor(index).crash(`actor ${index} crashed on request`);
      } catch (err) {
        // The worker may die before its reply gets out: that is the point of the call.
        if (!(err instanceof ActorDiedError)) throw err;
      }
    },
  });
  emitStatus();
  const close = async () => {
    emitStatus();
    ctx.setCrashTarget(null);
    ctx.live?.onResize(null);
    await created.terminate();
  };
  const whenAllGone = () =>
    created.whenAllGone().then(() => `every actor (${created.size}) is gone for good, its replacements having failed${lastGone ? ` (last: ${lastGone})` : ''}`);
  return { pool: created, respawns: () => respawns, emitStatus, whenAllGone, close };
}

/**
 * Wait at the gate before an update, telling the page when the loop really is paused and when
 * it runs again. False when the run should stop.
 */
export async function passGate(ctx: LoopContext): Promise<boolean> {
  const wasPaused = ctx.gate.current === 'paused';
  if (wasPaused) ctx.emit({ type: 'state', state: 'paused' });
  if (!(await ctx.gate.beforeUpdate())) return false;
  if (wasPaused && ctx.gate.isRunning()) ctx.emit({ type: 'state', state: 'running' });
  return true;
}

/** Metrics that must be finite after an update; diagnostics such as explained variance may be NaN. */
const MUST_BE_FINITE = /loss|entropy|gradnorm|approxkl/i;

/** Restore the last good weights and pause, with a message, when an update's loss is not finite. */
export function pauseOnNonFinite(ctx: LoopContext, metrics: Record<string, number>, update: number, restore: () => void): boolean {
  if (Object.entries(metrics).every(([k, v]) => !MUST_BE_FINITE.test(k) || Number.isFinite(v))) return false;
  restore();
  ctx.gate.pause();
  ctx.emit({
    type: 'notice',
    level: 'error',
    message: `Non-finite loss at update ${update} (${JSON.stringify(metrics)}): training is paused with the last good weights restored. Lower the learning rate, then resume.`,
  });
  return true;
}

/**
 * Every few seconds, ask actor 0 for a greedy episode with the latest weights and pass it
 * to the page (fire and forget: training never waits for it). Early in a run the greedy episodes come
 * sooner: the interval is an eighth of the time since the first greedy episode, between MIN_GREEDY_EPISODE_MS and
 * `everyMs`. A run that ends within seconds (QuickStart on wasm) once showed only its first,
 * untrained greedy episode; now its last greedy episode is from near its end.
 */
export const MIN_GREEDY_EPISODE_MS = 250;

export class GreedyEpisodeTicker {
  private first: number | null = null;
  private last = -Infinity;
  private inFlight = false;

  constructor(
    private readonly everyMs = 3_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** How long to wait after the last greedy episode, `elapsedMs` after the first one. */
  intervalAt(elapsedMs: number): number {
    return Math.min(this.everyMs, Math.max(MIN_GREEDY_EPISODE_MS, elapsedMs / 8));
  }

  tick(
    ctx: LoopContext,
    pool: { size: number; call(i: number, method: 'recordGreedyEpisode', weights: Float32Array[] | null): Promise<GreedyEpisode> },
    update: number,
    /** The weights after `update`, the episode's label (a copy, or a readback of the learner's). */
    weights: () => Float32Array[] | Promise<Float32Array[]>,
  ): void {
    const now = this.now();
    if (this.inFlight || pool.size === 0) return;
    if (this.first !== null && now - this.last < this.intervalAt(now - this.first)) return;
    this.first ??= now;
    this.last = now;
    this.inFlight = true;
    // The weights are read now (the executor runs at once), whatever the loop does next.
    new Promise<Float32Array[]>((resolve) => resolve(weights()))
      .then((w) => pool.call(0, 'recordGreedyEpisode', w))
      .then((d) => ctx.emit({ type: 'greedyEpisode', update, envId: d.envId, keys: d.keys, frames: Array.from(d.frames), episodeReturn: d.episodeReturn }))
      .catch(() => undefined) // a dead actor just skips one greedy episode
      .finally(() => (this.inFlight = false));
  }
}

/** Where a run's checkpoints are read from: the learner's model (for ES, θ put into one). */
export type WeightSource = Pick<Model<ModelOutput>, 'weightSpecs' | 'getWeightsAsync'>;

/** A running loop sends its weights about this often, and once more at the end. */
export const CHECKPOINT_EVERY_MS = 10_000;

/** Waits between retries of something that keeps failing: 50 ms, doubling, at most 1 s. */
export const BACKOFF_FIRST_MS = 50;
export const BACKOFF_MAX_MS = 1_000;

/** After a run is interrupted (Stop, or no actors left), how long the loop gets to unwind before its resources are freed. */
const UNWIND_MS = 2_000;


/**
 * One turn of the event loop: timers, signal handlers and messages run (setImmediate in Node; in
 * the page's worker a message to itself, which no timer clamp delays).
 */
function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The longest a loop computes without letting the event loop turn. */
export const SLICE_MS = 50;

/**
 * For work made of many synchronous steps (gradient steps): between steps, `stillRunning()` lets
 * timers, signal handlers and messages run about every SLICE_MS and says false once the run is
 * stopping, so Stop, Ctrl-C and SIGTERM wait neither for the whole update nor for a queue of actor
 * replies that Node would otherwise hand over without a turn. The steps, and so the numbers, are
 * the same wherever the turns fall, as long as what the loop computes does not depend on what
 * arrived during a turn: every loop takes its actors' data at fixed points (the off-policy loop
 * awaits exactly the round it asked for), IMPALA's queue excepted.
 */
export class UpdateSlicer {
  private sliceStarted = performance.now();
  constructor(
    private readonly gate: { readonly current: string },
    private readonly sliceMs = SLICE_MS,
  ) {}

  async stillRunning(): Promise<boolean> {
    if (performance.now() - this.sliceStarted >= this.sliceMs) {
      await yieldToEventLoop();
      this.sliceStarted = performance.now();
    }
    return this.gate.current !== 'stopped';
  }

  /** Take `step` n times (an update's gradient steps), stillRunning() before each; false, after `restore`, when the run stopped halfway. */
  async repeat(n: number, step: () => void, restore: () => void): Promise<boolean> {
    return (await this.runSteps(repeated(n, step), restore)) !== null;
  }

  /**
   * Take an update's steps (a PPO update's minibatches), calling stillRunning() before each. When
   * the run stops halfway the steps are closed and `restore` puts back the weights the update
   * started from, so the last checkpoint holds the last whole update; the result is then null.
   */
  async runSteps(steps: UpdateSteps, restore: () => void): Promise<Record<string, number> | null> {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (!(await this.stillRunning())) {
        steps.return({});
        restore();
        return null;
      }
    }
  }
}

/** `step` n times as an update's steps (see UpdateSteps). */
function* repeated(n: number, step: () => void): UpdateSteps {
  for (let k = 0; k < n; k++) {
    yield;
    step();
  }
  return {};
}

/** The values an inspect record carries beside the network, read from the learner's models. */
export type ValueProbe = () => Promise<Pick<InspectRecord, 'criticCurves' | 'team'>>;

/**
 * The bookkeeping every loop does: steps, updates, episodes, lost segments, why the run ended,
 * the update record it sends after each update, and the learner's checkpoints.
 */
export class LoopProgress {
  readonly tracker: EpisodeTracker;
  envSteps = 0;
  update = 0;
  lostSegments = 0;
  /** Lost segments not yet reported in an update record (an update can lose every segment). */
  private unreported = 0;
  stopReason: LoopOutcome['stopReason'] = 'budget';
  error: string | undefined;
  private weights: WeightSource | null = null;
  private checkpointedUpdate = 0;
  private checkpointedAt = performance.now();
  /** Aborted when the run is ending (Stop, or every actor gone): waits and backoffs end at once. */
  private readonly ending = new AbortController();
  /** The update count at the last proceed(): an iteration that finished no update backs off. */
  private updateAtProceed = -1;
  private readonly failures = new Map<string | number, { count: number; at: number }>();
  private inspectedAt = -Infinity;
  private inspectedUpdate = -1;
  /** Lets the event loop turn between updates, and within an update that asks (see UpdateSlicer). */
  readonly slicer: UpdateSlicer;
  private valueProbe: ValueProbe | null = null;
  private networkProbe: NetworkProbe | null = null;

  constructor(private readonly ctx: LoopContext) {
    this.slicer = new UpdateSlicer(ctx.gate, ctx.platform.sliceMs ?? SLICE_MS);
    this.tracker = new EpisodeTracker(ctx.config.settings['run.targetReturn']);
    void ctx.gate.whenStopped().then(() => this.ending.abort());
  }

  /** Send the learner's weights as checkpoint records: every CHECKPOINT_EVERY_MS and at the end. */
  keepCheckpoints(source: WeightSource): void {
    this.weights = source;
  }

  /** What the inspect records show beside the network: the critics' Q-values, or every agent's (src/engine/inspectValues.ts). */
  inspectValuesWith(probe: ValueProbe): void {
    this.valueProbe = probe;
  }

  /** Draw the network on this state (a shared multi-agent actor's probe) instead of the env's example state. */
  drawNetworkOn(probe: NetworkProbe): void {
    this.networkProbe = probe;
  }

  /** The update rule that applies live changes of the algorithm's settings (see src/engine/liveChanges.ts). */
  applyChangesTo(algorithm: object): void {
    this.ctx.live?.tune(algorithm);
  }

  private async checkpoint(): Promise<void> {
    if (!this.weights || this.update === this.checkpointedUpdate) return;
    this.checkpointedUpdate = this.update;
    this.checkpointedAt = performance.now();
    const specs = this.weights.weightSpecs();
    let weights: Float32Array[];
    try {
      weights = await this.weights.getWeightsAsync();
    } catch {
      return; // a failed read only skips this checkpoint; the next one tries again
    }
    const s = this.ctx.config.settings;
    const bytes = encodeCheckpoint({
      weights,
      shapes: specs.map((w) => w.shape),
      names: specs.map((w) => w.name),
      meta: { preset: this.ctx.config.preset, algorithm: s.algorithm, env: s['env.id'], seed: s.seed, update: this.update, envSteps: this.envSteps },
    });
    this.ctx.emit({ type: 'checkpoint', update: this.update, envSteps: this.envSteps, bytes });
  }

  /** Send a look inside the network (weights, activations, policy heatmap); a failed read skips one. */
  private async inspect(): Promise<void> {
    this.inspectedAt = performance.now();
    this.inspectedUpdate = this.update;
    if (!this.weights) return;
    try {
      const record = inspectNetwork(this.ctx.config, this.weights.weightSpecs(), await this.weights.getWeightsAsync(), this.update, this.networkProbe);
      const values = this.valueProbe ? await this.valueProbe() : {};
      if (record || values.criticCurves || values.team) this.ctx.emit({ type: 'inspect', update: this.update, network: null, heatmap: null, ...record, ...values });
    } catch {
      // Nothing to show this time (a loop whose network is not an MLP stack); training goes on.
    }
  }

  /** Env steps left in the run's budget (config/budget.ts); the swarm and offline loops count their own budgets instead. */
  get budgetLeft(): boolean {
    return this.envSteps < this.ctx.config.settings['run.envSteps'];
  }

  /**
   * Wait at the gate; false (and stopReason 'stopped') when the run should end. An iteration
   * that finished no update (its actors failed or are being replaced) backs off first, so a loop
   * never retries at once: it yields to timers, messages and signal handlers (Stop, SIGINT).
   */
  async proceed(): Promise<boolean> {
    await this.slicer.stillRunning();
    if (this.update === this.updateAtProceed) await this.backoff('update');
    else this.failures.delete('update');
    this.updateAtProceed = this.update;
    if (this.ending.signal.aborted) return this.end();
    if (performance.now() - this.checkpointedAt >= (this.ctx.platform.checkpointEveryMs ?? CHECKPOINT_EVERY_MS)) await this.checkpoint();
    if (this.ctx.inspectEveryMs && performance.now() - this.inspectedAt >= this.ctx.inspectEveryMs) await this.inspect();
    if ((await passGate(this.ctx)) && !this.ending.signal.aborted) {
      // Changes apply here, before the update they are named for, in the page and in the CLI alike.
      await this.ctx.live?.applyDue(this.update + 1);
      return true;
    }
    return this.end();
  }

  private end(): false {
    if (this.stopReason === 'budget' && this.ctx.gate.current === 'stopped') this.stopReason = 'stopped';
    return false;
  }

  /**
   * Wait before retrying `key` after a failure: 50 ms, doubling with each failure in a row, at
   * most 1 s (a failure more than 2 s after the last one starts again at 50 ms). Ends at once
   * when the run ends.
   */
  async backoff(key: string | number): Promise<void> {
    const now = performance.now();
    const last = this.failures.get(key);
    const count = last && now - last.at < 2 * BACKOFF_MAX_MS ? last.count + 1 : 0;
    this.failures.set(key, { count, at: now });
    await sleep(Math.min(BACKOFF_FIRST_MS * 2 ** count, BACKOFF_MAX_MS), this.ending.signal);
  }

  lose(n = 1): void {
    this.lostSegments += n;
    this.unreported += n;
  }

  /**
   * Keep the fulfilled, well-formed results of a round of actor calls; count the rest as lost,
   * with a notice naming the actor and the problem.
   */
  accept<T>(results: PromiseSettledResult<T>[], validate: (value: T) => string | null, what = 'segment'): T[] {
    const kept: T[] = [];
    results.forEach((r, i) => {
      if (r.status === 'rejected') return this.lose();
      const problem = validate(r.value);
      if (problem) {
        this.lose();
        this.ctx.emit({ type: 'notice', level: 'warning', message: `Rejected a ${what} from actor ${i}: ${problem}` });
      } else kept.push(r.value);
    });
    return kept;
  }

  /** Count one finished update and send its record. Returns true when the run should stop at its target. */
  finishUpdate(u: {
    steps: number;
    startedAt: number;
    returns: ArrayLike<number>;
    lengths: ArrayLike<number>;
    metrics: Record<string, number>;
    actorStepsPerSecond: number[];
    policyLags?: number[];
  }): boolean {
    this.envSteps += u.steps;
    this.update += 1;
    this.tracker.add(u.returns, this.envSteps, this.ctx.clock());
    const dt = (performance.now() - u.startedAt) / 1000;
    const record: UpdateRecord = {
      type: 'update',
      update: this.update,
      envSteps: this.envSteps,
      episodes: this.tracker.episodes,
      wallSeconds: this.ctx.clock(),
      returns: Array.from(u.returns),
      lengths: Array.from(u.lengths),
      meanReturn20: this.tracker.meanReturn20(),
      stepsPerSecond: u.steps / Math.max(dt, 1e-9),
      metrics: u.metrics,
      actorStepsPerSecond: u.actorStepsPerSecond,
      lostSegments: this.unreported,
      ...(u.policyLags ? { policyLags: u.policyLags } : {}),
    };
    this.unreported = 0;
    this.ctx.emit(fitUpdateRecord(record));
    // Between updates only the variables are in use: the backend's tuning may free what it pooled.
    betweenUpdates();
    if (this.tracker.solved && this.ctx.config.settings['run.stopAtTarget']) {
      this.stopReason = 'target';
      return true;
    }
    return false;
  }

  /**
   * Run a loop's updates to the end and return the run's outcome. A throw ends the run as
   * 'error' with a notice. The updates are raced against Stop and against the loss of every
   * actor, so neither waits for an actor call that may never return: the run then ends at once
   * ('stopped', or 'error' with the reason). Whatever happens, `stopping` runs first (tell
   * producers to stop), then the actors are closed (their pending calls reject, so the loop
   * unwinds), the last checkpoint is sent, and `release` frees what the loop owns.
   */
  async run(
    actors: Pick<ReportingPool<unknown>, 'close' | 'respawns'> & Partial<Pick<ReportingPool<unknown>, 'whenAllGone'>>,
    updates: () => Promise<void>,
    cleanup: { stopping?: () => void; release: () => void | Promise<void> },
  ): Promise<LoopOutcome> {
    let threw = false;
    const work = updates().then(
      () => 'done' as const,
      (err: unknown) => {
        // Once the run is ending, errors from calls cut short by closing the actors are expected.
        if (this.ending.signal.aborted) return 'done' as const;
        threw = true;
        this.fail(err);
        return 'done' as const;
      },
    );
    const stopped = this.ctx.gate.whenStopped().then(() => ({ gone: null }));
    const gone = actors.whenAllGone ? actors.whenAllGone().then((reason) => ({ gone: reason })) : new Promise<never>(() => {});
    const first = await Promise.race([work, stopped, gone]);
    try {
      if (first !== 'done') {
        if (first.gone !== null && this.stopReason === 'budget') this.endWithoutActors(first.gone);
        this.end();
        // Stopping the gate also releases a paused loop and ends its backoff waits.
        this.ctx.gate.stop();
        this.ending.abort();
      }
      cleanup.stopping?.();
      await actors.close();
      if (first !== 'done') await Promise.race([work, sleep(UNWIND_MS, new AbortController().signal)]);
      // A run that threw may have stopped halfway through an update: keep the last good checkpoint.
      if (!threw) await this.checkpoint();
      // A look at the final network too (a run shorter than the interval would otherwise show only its start).
      if (!threw && this.ctx.inspectEveryMs && this.update !== this.inspectedUpdate) await this.inspect();
    } finally {
      await cleanup.release();
    }
    return this.outcome(actors.respawns());
  }

  private endWithoutActors(reason: string): void {
    this.stopReason = 'error';
    this.error = `no actors left: ${reason}`;
    this.ctx.emit({
      type: 'notice',
      level: 'error',
      message: `Training stopped: ${this.error}. The run ends after update ${this.update} with its records and its last weights.`,
    });
  }

  fail(err: unknown): void {
    this.stopReason = 'error';
    this.error = err instanceof Error ? err.message : String(err);
    this.ctx.emit({ type: 'notice', level: 'error', message: `Training stopped: ${this.error}` });
  }

  outcome(actorRespawns: number): LoopOutcome {
    return {
      updates: this.update,
      envSteps: this.envSteps,
      episodes: this.tracker.episodes,
      finalMeanReturn20: this.tracker.meanReturn20(),
      solved: this.tracker.solved,
      stopReason: this.stopReason,
      lostSegments: this.lostSegments,
      actorRespawns,
      ...(this.error ? { error: this.error } : {}),
    };
  }
}

/**
 * Throughput of each actor, by actor index: the environment steps it contributed to this update
 * per second of the update's wall time (`updateSeconds`: from the update's start to now, learner
 * time included), 0 for an actor that contributed nothing. The actors' figures add up to the
 * run's steps per second. (An actor's own segment time would say how fast it steps in isolation,
 * thousands of steps a second, however slow the run.)
 */
export function actorRates(actors: number, segs: readonly { actorIndex: number; steps?: number; T?: number; numEnvs?: number }[], updateSeconds: number): number[] {
  const steps = new Array<number>(actors).fill(0);
  for (const x of segs) {
    if (x.actorIndex >= 0 && x.actorIndex < actors) steps[x.actorIndex] += x.steps ?? (x.T ?? 0) * (x.numEnvs ?? 0);
  }
  return steps.map((n) => n / Math.max(updateSeconds, 1e-9));
}

/**
 * The engine's pool of RolloutActors for this experiment: `numEnvs` copies of the env each, and
 * a copy of the network of the given kind for actor-side inference.
 */
export function rolloutPool(ctx: LoopContext, kind: NonNullable<MlpSpec['kind']>, numEnvs = ctx.config.settings.envsPerActor, afterInit?: (index: number) => void) {
  const s = ctx.config.settings;
  const model = modelSpecFor(ctx.config, kind);
  const options = (actorIndex: number): RolloutActorOptions => ({
    envId: s['env.id'],
    numEnvs,
    seed: s.seed,
    actorIndex,
    model,
    backend: 'wasm',
    wasmPaths: ctx.platform.wasmPaths,
  });
  return createReportingPool(ctx, actorHandle(ctx, RolloutActor), s.actors, (i): [RolloutActorOptions] => [options(i)], async (actor, index) => {
    await actor.init();
    afterInit?.(index);
  });
}
