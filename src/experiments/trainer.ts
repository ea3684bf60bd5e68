/**
 * The training loop that places the learner and the actors (centralized learning, distributed
 * execution). One ExperimentConfig drives it in the browser (inside the learner Web Worker) and
 * in Node (the CLI), and it reports through compact records.
 *
 * Episodic on-policy loop (REINFORCE):
 *   1. broadcast the current weights to every actor (one message per actor, transferred),
 *   2. every actor plays one episode on each of its env copies with its own copy of the policy,
 *   3. the learner checks the batches, concatenates them and takes one gradient step.
 * An actor that dies is replaced by the pool; its batch for that update is counted as lost and
 * training goes on with the others.
 */
import { Agent } from '../core/agent';
import { chooseBackend, type BackendChoice } from '../core/backend';
import { buildPolicyModel, type MlpSpec } from '../core/mlp';
import { ActorPool } from '../core/remote/actorPool';
import { ActorDiedError } from '../core/remote/errors';
import { remoteClass } from '../core/remote/remoteClass';
import { Reinforce, type ReinforceBatch } from '../algorithms/reinforce';
import { envSpec } from '../envs/registry';
import type { ExperimentConfig } from './config';
import type { ActorStatusRecord, RunRecord, SummaryRecord, UpdateRecord } from './records';
import { RunGate } from './runGate';
import { RolloutActor, validateEpisodeBatch, type EpisodeBatch, type RolloutActorOptions } from './rolloutActor';

export interface TrainerPlatform {
  /** Browser only: URL prefix of the tfjs wasm binaries served by the app. */
  wasmPaths?: string;
  /** Node only: module URL that registers RolloutActor inside worker threads. */
  actorModule?: string;
}

const RECENT_EPISODES = 20;

export function modelSpecFor(config: ExperimentConfig): MlpSpec {
  const s = config.settings;
  const spec = envSpec(s['env.id']);
  return {
    obsDim: spec.obsDim,
    numActions: spec.numActions,
    hidden: Array.from({ length: s['model.layers'] }, () => s['model.hidden']),
    activation: s['model.activation'],
    kind: 'policy',
  };
}

export class TrainingRun {
  private readonly gate = new RunGate();
  private backend: BackendChoice | null = null;
  private pool: ActorPool<RolloutActor> | null = null;

  constructor(
    readonly config: ExperimentConfig,
    private readonly emit: (record: RunRecord) => void,
    private readonly platform: TrainerPlatform = {},
  ) {}

  pause(): void {
    this.gate.pause();
  }
  resume(): void {
    this.gate.resume();
  }
  /** While paused, run exactly one more update. */
  step(): void {
    this.gate.step();
  }
  stop(): void {
    this.gate.stop();
  }
  /** Crash one actor's worker on purpose; the pool detects it and starts a replacement. */
  async crashActor(index: number): Promise<void> {
    if (!this.pool || index < 0 || index >= this.pool.size) throw new Error(`no actor ${index} in this run`);
    try {
      await this.pool.actor(index).crash(`actor ${index} crashed on request`);
    } catch (err) {
      // The worker may die before its reply gets out: that is the point of the call.
      if (!(err instanceof ActorDiedError)) throw err;
    }
  }

  get state(): 'running' | 'paused' | 'stopped' {
    return this.gate.current;
  }

  async run(): Promise<SummaryRecord> {
    const s = this.config.settings;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;

    this.backend = await chooseBackend({ preferred: s.backend, wasmPaths: this.platform.wasmPaths });
    this.emit({ type: 'backend', ...this.backend });

    const spec = envSpec(s['env.id']);
    const modelSpec = modelSpecFor(this.config);
    const agent = new Agent<ReinforceBatch>(
      new Reinforce(buildPolicyModel(modelSpec, s.seed), {
        lr: s['reinforce.lr'],
        gamma: s['reinforce.gamma'],
        entCoef: s['reinforce.entropyCoef'],
      }),
    );

    const actorOptions = (actorIndex: number): RolloutActorOptions => ({
      envId: s['env.id'],
      numEnvs: s.envsPerActor,
      seed: s.seed,
      actorIndex,
      model: modelSpec,
      backend: 'wasm',
      wasmPaths: this.platform.wasmPaths,
    });
    const handle = remoteClass(RolloutActor, this.platform.actorModule ? { module: this.platform.actorModule } : {});
    let lostSegments = 0;
    let respawns = 0;
    const pool = await ActorPool.create(handle, s.actors, (i) => [actorOptions(i)], {
      heartbeatMs: 2_000,
      heartbeatTimeoutMs: 30_000,
      afterSpawn: async (actor) => {
        await actor.init();
      },
      onEvent: (event) => {
        if (event.type === 'replaced') respawns += 1;
        const verb = event.type === 'died' ? 'died' : event.type === 'replaced' ? 'was replaced' : 'reported an error';
        this.emit({ type: 'notice', level: event.type === 'replaced' ? 'info' : 'warning', message: `${event.actorName} ${verb}${event.error ? `: ${event.error.message}` : ''}` });
        this.emitActors(pool);
      },
    });
    this.pool = pool;
    this.emitActors(pool);

    const returns: number[] = [];
    let envSteps = 0;
    let episodes = 0;
    let update = 0;
    let solved: SummaryRecord['solved'] = null;
    let stopReason: SummaryRecord['stopReason'] = 'budget';
    let error: string | undefined;
    const threshold = s['run.targetReturn'];

    try {
      while (envSteps < s['run.envSteps']) {
        const wasPaused = this.gate.current === 'paused';
        if (wasPaused) this.emit({ type: 'state', state: 'paused' });
        if (!(await this.gate.beforeUpdate())) {
          stopReason = 'stopped';
          break;
        }
        if (wasPaused && this.state === 'running') this.emit({ type: 'state', state: 'running' });
        const t0 = performance.now();
        const version = update;
        // Last good weights: broadcast copies of them, and restore them if the update goes bad.
        const weights = await agent.getWeightsAsync();
        const results = await pool.map('rollEpisodes', () => [weights.map((w) => w.slice()), version]);
        const batches: EpisodeBatch[] = [];
        let lostNow = 0;
        results.forEach((r, i) => {
          if (r.status === 'rejected') {
            lostNow += 1;
            return;
          }
          const problem = validateEpisodeBatch(r.value, spec.obsDim, spec.numActions);
          if (problem) {
            lostNow += 1;
            this.emit({ type: 'notice', level: 'warning', message: `Rejected a batch from actor ${i}: ${problem}` });
          } else batches.push(r.value);
        });
        lostSegments += lostNow;
        if (batches.length === 0) continue;

        const merged = concatBatches(batches, spec.obsDim);
        const metrics = agent.learn(merged);
        if (!Object.values(metrics).every(Number.isFinite)) {
          agent.setWeights(weights);
          this.gate.pause();
          this.emit({
            type: 'notice',
            level: 'error',
            message: `Non-finite loss at update ${update + 1} (${JSON.stringify(metrics)}): training is paused with the last good weights restored. Lower the learning rate, then resume.`,
          });
          continue;
        }

        const newReturns = batches.flatMap((b) => Array.from(b.episodeReturns));
        const newLengths = batches.flatMap((b) => Array.from(b.episodeLengths));
        returns.push(...newReturns);
        episodes += newReturns.length;
        envSteps += merged.batchSize;
        update += 1;
        const recent = returns.slice(-RECENT_EPISODES);
        const meanReturn20 = recent.length > 0 ? recent.reduce((a, b) => a + b, 0) / recent.length : null;
        const dt = (performance.now() - t0) / 1000;
        const record: UpdateRecord = {
          type: 'update',
          update,
          envSteps,
          episodes,
          wallSeconds: seconds(),
          returns: newReturns,
          lengths: newLengths,
          meanReturn20,
          stepsPerSecond: merged.batchSize / Math.max(dt, 1e-9),
          metrics,
          actorStepsPerSecond: Array.from({ length: s.actors }, (_, i) => {
            const b = batches.find((x) => x.actorIndex === i);
            return b ? b.steps / Math.max(b.seconds, 1e-9) : 0;
          }),
          lostSegments: lostNow,
        };
        this.emit(record);
        if (!solved && recent.length >= RECENT_EPISODES && meanReturn20 !== null && meanReturn20 >= threshold) {
          solved = { episodes, envSteps, wallSeconds: seconds(), threshold };
          if (s['run.stopAtTarget']) {
            stopReason = 'target';
            break;
          }
        }
      }
    } catch (err) {
      stopReason = 'error';
      error = err instanceof Error ? err.message : String(err);
      this.emit({ type: 'notice', level: 'error', message: `Training stopped: ${error}` });
    } finally {
      this.emitActors(pool);
      this.pool = null;
      await pool.terminate();
    }

    const recent = returns.slice(-RECENT_EPISODES);
    const summary: SummaryRecord = {
      type: 'summary',
      preset: this.config.preset,
      seed: s.seed,
      backend: this.backend.name,
      updates: update,
      envSteps,
      episodes,
      wallSeconds: seconds(),
      finalMeanReturn20: recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : null,
      solved,
      stopReason,
      lostSegments,
      actorRespawns: respawns,
      ...(error ? { error } : {}),
    };
    agent.dispose();
    this.emit(summary);
    return summary;
  }

  private emitActors(pool: ActorPool<RolloutActor>): void {
    const record: ActorStatusRecord = {
      type: 'actors',
      actors: pool.status().map((a) => ({
        index: a.index,
        name: a.name,
        state: a.state,
        respawns: a.respawns,
        lastError: a.lastError ?? null,
      })),
    };
    this.emit(record);
  }
}

function concatBatches(batches: EpisodeBatch[], obsDim: number): ReinforceBatch {
  const steps = batches.reduce((n, b) => n + b.steps, 0);
  const obs = new Float32Array(steps * obsDim);
  const actions = new Int32Array(steps);
  const rewards = new Float32Array(steps);
  const dones = new Uint8Array(steps);
  let t = 0;
  for (const b of batches) {
    obs.set(b.obs, t * obsDim);
    actions.set(b.actions, t);
    rewards.set(b.rewards, t);
    dones.set(b.dones, t);
    t += b.steps;
  }
  return { obs, actions, rewards, dones, batchSize: steps };
}
