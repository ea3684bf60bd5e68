/**
 * DQN with distributed actors (Ape-X style, synchronous): each update every actor runs its env
 * copies for T steps ε-greedily with the newest Q-network; the learner stores the transitions in
 * a replay buffer, takes one gradient step per `trainFrequency` environment steps once
 * `learningStarts` steps have been collected, and syncs the target network every
 * `targetUpdate` steps. ε decays linearly (linearEpsilon) over a fraction of the budget.
 */
import { QMlp } from '../../core/mlp';
import { Dqn, linearEpsilon } from '../../algorithms/dqn';
import { ReplayBuffer, type TransitionBatch } from '../../algorithms/replayBuffer';
import { deriveSeed } from '../../core/rng';
import { envSpec } from '../../envs/registry';
import type { UpdateRecord } from '../records';
import { RolloutActor, type RolloutActorOptions } from '../rolloutActor';
import { concatSegments, validateSegment, type Segment } from '../segments';
import { modelSpecFor } from '../modelSpec';
import { actorHandle, createReportingPool, DemoTicker, EpisodeTracker, passGate, pauseOnNonFinite } from './common';
import type { LoopContext, LoopOutcome } from './types';

/** Turn a [T, N] segment into transitions (s, a, r, s', terminated). */
export function segmentTransitions(seg: Segment): TransitionBatch {
  const { T, numEnvs: n, obsDim: d } = seg;
  const B = T * n;
  const nextObs = new Float32Array(B * d);
  for (let t = 0; t < T; t++) {
    const src = t + 1 < T ? seg.obs.subarray((t + 1) * n * d, (t + 2) * n * d) : seg.lastObs;
    nextObs.set(src, t * n * d);
  }
  // Where an episode ended, s' is its real last observation, not the next episode's first.
  seg.finalIndex.forEach((idx, k) => nextObs.set(seg.finalObs.subarray(k * d, (k + 1) * d), idx * d));
  return { obs: seg.obs, actions: seg.actions, rewards: seg.rewards, nextObs, dones: seg.dones, batchSize: B };
}

export async function dqnLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s = ctx.config.settings;
  const spec = envSpec(s['env.id']);
  const modelSpec = modelSpecFor(ctx.config, 'q');
  const online = new QMlp(modelSpec, s.seed);
  const target = new QMlp(modelSpec, s.seed);
  const dqn = new Dqn(online, target, {
    lr: s['dqn.lr'],
    gamma: s['dqn.gamma'],
    doubleDqn: s['dqn.double'],
    batchSize: s['dqn.batchSize'],
  });
  const buffer = new ReplayBuffer(s['dqn.bufferSize'], spec.obsDim, deriveSeed(s.seed, 0xb0f));
  const T = s['sampling.segmentLength'];
  const budget = s['run.envSteps'];

  const actorOptions = (actorIndex: number): RolloutActorOptions => ({
    envId: s['env.id'],
    numEnvs: s.envsPerActor,
    seed: s.seed,
    actorIndex,
    model: modelSpec,
    backend: 'wasm',
    wasmPaths: ctx.platform.wasmPaths,
  });
  const { pool, respawns, emitStatus } = await createReportingPool(
    ctx,
    actorHandle(ctx, RolloutActor, 'RolloutActor'),
    s.actors,
    (i): [RolloutActorOptions] => [actorOptions(i)],
    async (actor) => {
      await actor.init();
    },
  );

  const demo = new DemoTicker();
  const tracker = new EpisodeTracker(s['run.targetReturn']);
  let envSteps = 0;
  let update = 0;
  let lostSegments = 0;
  // Lost segments not yet reported in an update record (an update can lose every segment).
  let unreported = 0;
  let gradientSteps = 0;
  let sinceTrain = 0;
  let sinceTarget = 0;
  let stopReason: LoopOutcome['stopReason'] = 'budget';
  let error: string | undefined;

  try {
    while (envSteps < budget) {
      if (!(await passGate(ctx))) {
        stopReason = 'stopped';
        break;
      }
      const t0 = performance.now();
      const epsilon = linearEpsilon(envSteps, s['dqn.epsStart'], s['dqn.epsEnd'], s['dqn.epsFraction'], budget);
      const weights = await online.getWeightsAsync();
      const results = await pool.map('sampleSegment', () => [weights.map((w) => w.slice()), update, T, epsilon]);
      const segs: Segment[] = [];
      let lostNow = 0;
      results.forEach((r, i) => {
        if (r.status === 'rejected') {
          lostNow += 1;
          return;
        }
        const problem = validateSegment(r.value, spec.obsDim, spec.numActions);
        if (problem) {
          lostNow += 1;
          ctx.emit({ type: 'notice', level: 'warning', message: `Rejected a segment from actor ${i}: ${problem}` });
        } else segs.push(r.value);
      });
      lostSegments += lostNow;
      unreported += lostNow;
      if (segs.length === 0) continue;
      const seg = concatSegments(segs);
      buffer.addBatch(segmentTransitions(seg));
      const steps = seg.T * seg.numEnvs;
      envSteps += steps;
      sinceTrain += steps;
      sinceTarget += steps;

      const sums: Record<string, number> = {};
      let n = 0;
      if (envSteps >= s['dqn.learningStarts']) {
        while (sinceTrain >= s['dqn.trainFrequency']) {
          sinceTrain -= s['dqn.trainFrequency'];
          const m = dqn.learn(buffer.sample(s['dqn.batchSize']));
          for (const [k, v] of Object.entries(m)) sums[k] = (sums[k] ?? 0) + v;
          n += 1;
          gradientSteps += 1;
        }
        while (sinceTarget >= s['dqn.targetUpdate']) {
          sinceTarget -= s['dqn.targetUpdate'];
          dqn.syncTarget(1);
        }
      } else sinceTrain = 0;
      const metrics: Record<string, number> = { epsilon, gradientSteps, bufferSize: buffer.size };
      for (const [k, v] of Object.entries(sums)) metrics[k] = v / n;
      if (pauseOnNonFinite(ctx, metrics, update + 1, () => online.setWeights(weights))) continue;

      update += 1;
      tracker.add(seg.episodeReturns, envSteps, ctx.clock());
      const dt = (performance.now() - t0) / 1000;
      const record: UpdateRecord = {
        type: 'update',
        update,
        envSteps,
        episodes: tracker.episodes,
        wallSeconds: ctx.clock(),
        returns: Array.from(seg.episodeReturns),
        lengths: Array.from(seg.episodeLengths),
        meanReturn20: tracker.meanReturn20(),
        stepsPerSecond: steps / Math.max(dt, 1e-9),
        metrics,
        actorStepsPerSecond: Array.from({ length: s.actors }, (_, i) => {
          const x = segs.find((g) => g.actorIndex === i);
          return x ? (x.T * x.numEnvs) / Math.max(x.seconds, 1e-9) : 0;
        }),
        lostSegments: unreported,
        policyLags: segs.map(() => 0),
      };
      unreported = 0;
      ctx.emit(record);
      demo.tick(ctx, pool, update, () => weights.map((w) => w.slice()));
      if (tracker.solved && s['run.stopAtTarget']) {
        stopReason = 'target';
        break;
      }
    }
  } catch (err) {
    stopReason = 'error';
    error = err instanceof Error ? err.message : String(err);
    ctx.emit({ type: 'notice', level: 'error', message: `Training stopped: ${error}` });
  } finally {
    emitStatus();
    ctx.setCrashTarget(null);
    await pool.terminate();
    dqn.dispose();
  }

  return {
    updates: update,
    envSteps,
    episodes: tracker.episodes,
    finalMeanReturn20: tracker.meanReturn20(),
    solved: tracker.solved,
    stopReason,
    lostSegments,
    actorRespawns: respawns(),
    ...(error ? { error } : {}),
  };
}
