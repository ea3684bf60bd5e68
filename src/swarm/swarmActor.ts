/**
 * SwarmActor: the remote class that owns the task simulations (one OrchestrationSim per episode)
 * and runs no network at all. Inference is central (SEED style): every tick the actor reports
 * what its episodes are waiting for, as typed arrays,
 *   - orchestrator observations of the episodes waiting for a decision, and
 *   - item observations of every active worker run (direct work and subagents) of every episode,
 * and the learner answers with one action per row (`advance`). The learner runs ONE orchestrator
 * forward pass and ONE subagent forward pass for the rows of all actors and all episodes.
 *
 * One tick = one orchestrator decision for each waiting episode, and one step of every running
 * stage. A finished episode returns its EpisodeLog (small, plain data).
 *
 * An optional "serial twin" replays the task of one episode with no subagents (direct work on
 * every subtask, with the step and context limits lifted) for the trace's serial baseline. Its
 * decisions are the rule "direct until nothing is ready, then finish" and are made here; its
 * worker rows go through the same batched pass as the rest (role 'direct').
 */
import { ITEM_OBS_DIM } from '../envs/swarm/itemSearch';
import { OrchestrationSim, type OrchestrationLimits, type StageRun } from '../envs/swarm/orchestration';
import type { EpisodeLog, StageRecord } from '../envs/swarm/types';
import { ORCH_OBS_DIM, assignCounts, decodeAction, readyOrder, writeOrchestratorObs } from './orchestrator';
import { episodeSeed, makeSwarmTask, type SwarmTaskConfig } from './tasks';

export interface SwarmActorOptions {
  task: SwarmTaskConfig;
  actorIndex: number;
  seed: number;
}

export interface FinishedEpisode {
  slot: number;
  /** True for the serial twin (not a training episode). */
  serial: boolean;
  log: EpisodeLog;
}

/** What the actor's episodes wait for. Row order is the order `advance` expects actions in. */
export interface SwarmPending {
  actorIndex: number;
  /** [nOrch · ORCH_OBS_DIM] */
  orchObs: Float32Array;
  /** [nOrch] episode slot of each orchestrator row. */
  orchSlots: Int32Array;
  /** [nWork · ITEM_OBS_DIM] */
  workObs: Float32Array;
  /** [nWork] 0 = the orchestrator's own direct work, 1 = a subagent. */
  workRole: Uint8Array;
  /** [nWork] episode slot of each worker row. */
  workSlots: Int32Array;
  finished: FinishedEpisode[];
  /** Episodes (twin included) still running. */
  running: number;
}

interface Episode {
  slot: number;
  serial: boolean;
  sim: OrchestrationSim;
  stage: StageRun | null;
  last: StageRecord | null;
  done: boolean;
}

export class SwarmActor {
  /** Its remote-actor key (see src/core/remote/registry.ts); the worker hosts list the class in src/workers/actorClasses.ts. */
  static readonly actorKey: string = 'SwarmActor';
  private episodes: Episode[] = [];
  private lastOrchSlots = new Int32Array(0);
  private lastWorkRows: Array<{ ep: Episode; n: number }> = [];

  constructor(private readonly options: SwarmActorOptions) {}

  /**
   * Start `numEpisodes` episodes of update `update` (tasks seeded by run seed, update, actor and
   * slot); with `serialTwinOf` set, also the serial twin of that slot.
   */
  start(update: number, numEpisodes: number, serialTwinOf: number | null = null, seeds?: number[]): SwarmPending {
    const { task, actorIndex, seed } = this.options;
    this.episodes = [];
    for (let i = 0; i < numEpisodes; i++) {
      const s = seeds?.[i] ?? episodeSeed(seed, update, actorIndex, i);
      this.episodes.push({ slot: i, serial: false, sim: new OrchestrationSim(makeSwarmTask(task, s), task.limits), stage: null, last: null, done: false });
    }
    if (serialTwinOf !== null && serialTwinOf >= 0 && serialTwinOf < numEpisodes) {
      const twinTask = this.episodes[serialTwinOf].sim.task;
      const lifted: Partial<OrchestrationLimits> = { ...task.limits, maxMainSteps: 1_000_000, contextBudget: 1_000_000 };
      this.episodes.push({ slot: serialTwinOf, serial: true, sim: new OrchestrationSim(twinTask, lifted), stage: null, last: null, done: false });
    }
    this.lastOrchSlots = new Int32Array(0);
    this.lastWorkRows = [];
    return this.collect([]);
  }

  /** Apply one action per row of the last pending (orchestrator rows, then worker rows), then report. */
  advance(orchActions: Int32Array, workActions: Int32Array): SwarmPending {
    if (orchActions.length !== this.lastOrchSlots.length) {
      throw new Error(`SwarmActor.advance: ${orchActions.length} orchestrator actions for ${this.lastOrchSlots.length} waiting episodes`);
    }
    const nWork = this.lastWorkRows.reduce((a, r) => a + r.n, 0);
    if (workActions.length !== nWork) throw new Error(`SwarmActor.advance: ${workActions.length} worker actions for ${nWork} active runs`);
    const finished: FinishedEpisode[] = [];
    // 1. One step of every running stage.
    let row = 0;
    for (const { ep, n } of this.lastWorkRows) {
      const stage = ep.stage as StageRun;
      stage.step(workActions.subarray(row, row + n));
      row += n;
      if (stage.done) {
        ep.last = stage.record;
        ep.stage = null;
      }
    }
    // 2. The orchestrator's decisions.
    const training = this.episodes.filter((e) => !e.serial);
    for (let i = 0; i < orchActions.length; i++) {
      const ep = training[this.lastOrchSlots[i]];
      this.decide(ep, orchActions[i], finished);
    }
    return this.collect(finished);
  }


  private decide(ep: Episode, action: number, finished: FinishedEpisode[]): void {
    const a = decodeAction(action);
    const sim = ep.sim;
    if (a.kind === 'finish') {
      ep.last = sim.finish();
      ep.done = true;
      finished.push({ slot: ep.slot, serial: ep.serial, log: sim.log() });
      return;
    }
    const order = readyOrder(sim);
    if (a.kind === 'direct') {
      ep.stage = sim.beginDirect(order[0]);
    } else {
      const { real, extra } = assignCounts(a, order.length, sim.limits.maxSubagentsPerStage);
      ep.stage = sim.beginAssignWithDuplicates(order.slice(0, real), extra);
    }
  }

  /** Serial twins decide here: direct on the next ready subtask, finish when none is possible. */
  private stepTwins(finished: FinishedEpisode[]): void {
    for (const ep of this.episodes) {
      if (!ep.serial || ep.done || ep.stage) continue;
      if (ep.sim.canDirect()) ep.stage = ep.sim.beginDirect(readyOrder(ep.sim)[0]);
      else {
        ep.sim.finish();
        ep.done = true;
        finished.push({ slot: ep.slot, serial: true, log: ep.sim.log() });
      }
    }
  }

  private collect(finished: FinishedEpisode[]): SwarmPending {
    this.stepTwins(finished);
    const waiting = this.episodes.filter((e) => !e.serial && !e.done && !e.stage);
    const orchObs = new Float32Array(waiting.length * ORCH_OBS_DIM);
    const orchSlots = new Int32Array(waiting.length);
    waiting.forEach((ep, i) => {
      writeOrchestratorObs(ep.sim, ep.last, orchObs, i * ORCH_OBS_DIM);
      orchSlots[i] = ep.slot;
    });
    const rows: Array<{ ep: Episode; n: number }> = [];
    const batches = [];
    let nWork = 0;
    for (const ep of this.episodes) {
      if (!ep.stage) continue;
      const b = ep.stage.batch();
      batches.push(b);
      rows.push({ ep, n: b.n });
      nWork += b.n;
    }
    const workObs = new Float32Array(nWork * ITEM_OBS_DIM);
    const workRole = new Uint8Array(nWork);
    const workSlots = new Int32Array(nWork);
    let r = 0;
    batches.forEach((b, j) => {
      workObs.set(b.obs, r * ITEM_OBS_DIM);
      for (let i = 0; i < b.n; i++) {
        workRole[r + i] = b.runs[i].role === 'subagent' ? 1 : 0;
        workSlots[r + i] = rows[j].ep.slot;
      }
      r += b.n;
    });
    this.lastOrchSlots = orchSlots.slice();
    this.lastWorkRows = rows;
    const running = this.episodes.filter((e) => !e.done).length;
    return { actorIndex: this.options.actorIndex, orchObs, orchSlots, workObs, workRole, workSlots, finished, running };
  }
}
