/**
 * The multi-agent loop (MAPPO, MADDPG, QMIX, VDN, IQL on the MPE particle worlds). Each update:
 *   1. every MarlActor loads the newest acting weights and plays one whole episode of every
 *      agent on each of its env copies (one message of typed arrays per actor);
 *   2. the learner stores the episodes in its episode replay (src/engine/marlReplay.ts);
 *   3. it takes the gradient steps the algorithm says are due (QMIX: one per `trainEvery`
 *      episodes on `batchSize` whole episodes; MADDPG: one per `trainEvery` env steps on
 *      `batchSize` transitions; MAPPO: one once `episodesPerUpdate` episodes came in with the same
 *      weights, on exactly those), each on a batch drawn with the loop's seeded Rng;
 *   4. the update record carries the team return of each episode (Σ over agents), each agent's
 *      mean return and the scenario's metrics (collisions, occupied landmarks, catches) beside
 *      the algorithm's own (losses, per-agent Q, QMIX's mixing weights).
 * The gradient steps let the event loop turn about every SLICE_MS (common.ts), so Stop and Ctrl-C
 * end an update at once, keeping the weights it started from. Live changes of the update rule's
 * settings (MADDPG's learning rates) apply before an update, as in the other loops. The budget is the run's `run.envSteps` environment steps (one step moves every agent), the
 * number the progress bar and `train --steps` use (config/budget.ts).
 */
import type { MarlTaskSpec } from '../../algorithms/marl';
import type { ExperimentSettings } from '../../config/settings';
import { paramsOf } from '../../config/settings';
import { descriptorOf } from '../../config/registry';
import { Agent } from '../../core/agent';
import { deriveSeed, Rng } from '../../core/rng';
import { MarlActor, mpeTaskSpec, type MarlActorOptions, type MarlEpisodeMessage } from '../marlActor';
import { EpisodeReplay } from '../marlReplay';
import { actorHandle, actorRates, createReportingPool, GreedyEpisodeTicker, LoopProgress, pauseOnNonFinite } from './common';
import { probeState, sharedActorProbe, teamValues } from '../inspectValues';
import type { LoopContext, LoopOutcome } from './types';

/** Why a message from an actor cannot be used, or null. */
export function validateMarlMessage(m: MarlEpisodeMessage, task: MarlTaskSpec, envsPerActor: number): string | null {
  const A = task.agents.length;
  const E = m.numEpisodes;
  const T = task.episodeLength;
  if (E !== envsPerActor || m.T !== T) return `expected ${envsPerActor} episodes of ${T} steps, got ${E} of ${m.T}`;
  const sizes: [string, number, number][] = [
    ['state', m.state.length, E * (T + 1) * task.stateDim],
    ['actions', m.actions.length, E * T * A],
    ['rewards', m.rewards.length, E * T * A],
    ['returns', m.returns.length, E * A],
    ['metrics', m.metrics.length, E * m.metricNames.length],
  ];
  for (const [name, got, want] of sizes) if (got !== want) return `${name} holds ${got} values, expected ${want}`;
  for (let i = 0; i < m.actions.length; i++) {
    const a = i % A;
    if (!(m.actions[i] >= 0 && m.actions[i] < task.actionSizes[a])) return `action of agent "${task.agents[a]}" out of range: ${m.actions[i]}`;
  }
  return null;
}

/** Per-agent mean returns and mean episode metrics of a round, as update-record metrics. */
export function episodeMetrics(task: MarlTaskSpec, msgs: readonly MarlEpisodeMessage[]): { metrics: Record<string, number>; teamReturns: number[]; lengths: number[] } {
  const A = task.agents.length;
  const sums: Record<string, number> = {};
  const teamReturns: number[] = [];
  const lengths: number[] = [];
  let n = 0;
  for (const m of msgs) {
    const M = m.metricNames.length;
    for (let e = 0; e < m.numEpisodes; e++) {
      let team = 0;
      task.agents.forEach((name, a) => {
        const r = m.returns[e * A + a];
        team += r;
        sums[`return ${name}`] = (sums[`return ${name}`] ?? 0) + r;
      });
      m.metricNames.forEach((name, k) => (sums[name] = (sums[name] ?? 0) + m.metrics[e * M + k]));
      teamReturns.push(team);
      lengths.push(m.T);
      n += 1;
    }
  }
  const metrics: Record<string, number> = {};
  for (const [k, v] of Object.entries(sums)) metrics[k] = v / Math.max(n, 1);
  return { metrics, teamReturns, lengths };
}

export async function marlLoop(ctx: LoopContext): Promise<LoopOutcome> {
  const s: ExperimentSettings = ctx.config.settings;
  const d = descriptorOf(s.algorithm);
  const loaded = await d.load?.();
  if (loaded?.kind !== 'marl') throw new Error(`algorithm ${d.id} is not a multi-agent algorithm`);
  const task = mpeTaskSpec(s['marl.env']);
  const algorithm = loaded.create(task, paramsOf(s, d), s.seed);
  const agent = new Agent(algorithm);
  const replay = new EpisodeReplay(algorithm.replayEpisodes, task.episodeLength, task.stateDim, task.agents.length);
  const rng = new Rng(deriveSeed(s.seed, 0x3a7));
  const options = (actorIndex: number): MarlActorOptions => ({ task, acting: algorithm.acting, numEnvs: s.envsPerActor, seed: s.seed, actorIndex });
  const actors = await createReportingPool(ctx, actorHandle(ctx, MarlActor), s.actors, (i): [MarlActorOptions] => [options(i)], async (actor) => {
    await actor.init();
  });
  const { pool } = actors;
  const progress = new LoopProgress(ctx);
  progress.keepCheckpoints(algorithm.model);
  progress.applyChangesTo(algorithm);
  const probe = probeState(task, s.seed);
  const actorProbe = sharedActorProbe(task, algorithm.acting, probe);
  if (actorProbe) progress.drawNetworkOn(actorProbe);
  progress.inspectValuesWith(async () => {
    const team = await teamValues(algorithm, probe);
    return team ? { team } : {};
  });
  const greedyEpisodes = new GreedyEpisodeTicker();
  let episodes = 0;
  let gradientSteps = 0;

  return progress.run(
    actors,
    async () => {
      while (progress.budgetLeft && (await progress.proceed())) {
        const startedAt = performance.now();
        const epsilon = algorithm.explorationAt(progress.envSteps);
        const weights = algorithm.model.getWeights();
        const results = await pool.map('collectEpisodes', () => [weights.map((w) => w.slice()), epsilon]);
        // A failed round (e.g. the env refused a joint action) is lost; say why, naming the actor.
        results.forEach((r, i) => {
          if (r.status === 'rejected') ctx.emit({ type: 'notice', level: 'warning', message: `Lost the episodes of actor ${i}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}` });
        });
        const msgs = progress.accept(results, (m) => validateMarlMessage(m, task, s.envsPerActor), 'episode batch');
        if (msgs.length === 0) continue;
        let steps = 0;
        for (const m of msgs) {
          replay.add(m);
          steps += m.numEpisodes * m.T;
          episodes += m.numEpisodes;
        }
        algorithm.afterCollect(episodes);
        const due = algorithm.gradientStepsDue(progress.envSteps + steps, steps, episodes);
        const sums: Record<string, number> = {};
        const learnStep = () => {
          const m = agent.learn(algorithm.sampleBatch(replay, rng));
          for (const [key, v] of Object.entries(m)) sums[key] = (sums[key] ?? 0) + v;
        };
        if (!(await progress.slicer.repeat(due, learnStep, () => algorithm.model.setWeights(weights)))) break;
        gradientSteps += due;
        const round = episodeMetrics(task, msgs);
        const metrics: Record<string, number> = {};
        for (const [key, v] of Object.entries(sums)) metrics[key] = v / due;
        Object.assign(metrics, round.metrics, { gradientSteps, bufferSize: replay.size });
        if (algorithm.acting.kind === 'rnnShared') metrics.epsilon = epsilon;
        if (pauseOnNonFinite(ctx, metrics, progress.update + 1, () => algorithm.model.setWeights(weights))) continue;
        const stop = progress.finishUpdate({
          steps,
          startedAt,
          returns: round.teamReturns,
          lengths: round.lengths,
          metrics,
          actorStepsPerSecond: actorRates(s.actors, msgs.map((m) => ({ actorIndex: m.actorIndex, steps: m.numEpisodes * m.T })), (performance.now() - startedAt) / 1000),
        });
        greedyEpisodes.tick(ctx, pool, progress.update, () => algorithm.model.getWeights());
        if (stop) break;
      }
    },
    { release: () => agent.alg.dispose() },
  );
}
