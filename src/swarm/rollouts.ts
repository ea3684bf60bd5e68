/**
 * One update's rollouts of the swarm: every SwarmActor starts its episodes, then, tick by tick,
 * the learner answers what every episode of every actor waits for with one batched pass per model
 * (src/swarm/inference.ts), until every episode has finished. The orchestrator's decisions are
 * kept per episode for PPO; the actors keep the sims and send back each episode's log.
 */
import type { EpisodeLog } from '../envs/swarm/types';
import type { CentralInference } from './inference';
import { ORCH_OBS_DIM } from './orchestrator';
import type { SwarmActor, SwarmPending } from './swarmActor';

/** One orchestrator decision as PPO needs it: s_t, a_t, log π_old(a_t|s_t), V_old(s_t). */
export interface SwarmDecision {
  obs: Float32Array;
  action: number;
  logProb: number;
  value: number;
}

/** A finished training episode with the decisions that made it. */
export interface SwarmEpisode {
  actorIndex: number;
  slot: number;
  log: EpisodeLog;
  decisions: SwarmDecision[];
}

export interface SwarmRollouts {
  /** Finished episodes with at least one decision, by actor, then slot: the batch's order. */
  episodes: SwarmEpisode[];
  /** The serial twin of actor 0's first episode, when one was asked for. */
  serialLog: EpisodeLog | null;
  /** Worker steps (direct work and subagents) plus orchestrator decisions, over all actors. */
  steps: number;
  /** The same, per actor. */
  actorSteps: number[];
}

/** The calls made to the actors (an ActorPool<SwarmActor> has them). */
export interface SwarmActors {
  readonly size: number;
  map(method: 'start', argsFor: (index: number) => Parameters<SwarmActor['start']>): Promise<PromiseSettledResult<SwarmPending>[]>;
  call(index: number, method: 'advance', ...args: Parameters<SwarmActor['advance']>): Promise<SwarmPending>;
}

export interface RolloutRequest {
  /** The update number, from which every episode's seed follows. */
  update: number;
  episodesPerActor: number;
  /** Also run actor 0's first task serially, for a trace. */
  serialTwin: boolean;
}

/**
 * Run one update's episodes on every actor. An actor whose call fails loses its episodes of this
 * update; `onLost` is told (with a notice to show when an actor failed mid-rollout).
 */
export async function collectSwarmRollouts(
  actors: SwarmActors,
  inference: CentralInference,
  req: RolloutRequest,
  onLost: (actorIndex: number, notice: string | null) => void,
): Promise<SwarmRollouts> {
  const n = actors.size;
  const E = req.episodesPerActor;
  const noDecisions = () => Array.from({ length: E }, (): SwarmDecision[] => []);
  const noLogs = () => new Array<EpisodeLog | null>(E).fill(null);
  const decisions = Array.from({ length: n }, noDecisions);
  const logs = Array.from({ length: n }, noLogs);
  let serialLog: EpisodeLog | null = null;
  const actorSteps = new Array<number>(n).fill(0);

  const pendings: SwarmPending[] = [];
  const alive = new Set<number>();
  const started = await actors.map('start', (i) => [req.update, E, req.serialTwin && i === 0 ? 0 : null]);
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') {
      pendings[i] = r.value;
      alive.add(i);
    } else onLost(i, null);
  });

  while (alive.size > 0) {
    for (const i of [...alive]) {
      for (const f of pendings[i].finished) {
        if (f.serial) serialLog = f.log;
        else logs[i][f.slot] = f.log;
      }
      if (pendings[i].running === 0) alive.delete(i);
    }
    const active = [...alive];
    if (active.length === 0) break;
    const answer = await inference.tick(active.map((i) => pendings[i]));
    active.forEach((i, k) => {
      const p = pendings[i];
      const d = answer.orch[k];
      for (let r = 0; r < p.orchSlots.length; r++) {
        decisions[i][p.orchSlots[r]].push({
          obs: p.orchObs.slice(r * ORCH_OBS_DIM, (r + 1) * ORCH_OBS_DIM),
          action: d.actions[r],
          logProb: d.logProbs[r],
          value: d.values[r],
        });
      }
      actorSteps[i] += p.orchSlots.length + p.workRole.length;
    });
    const next = await Promise.allSettled(active.map((i, k) => actors.call(i, 'advance', answer.orch[k].actions, answer.work[k])));
    next.forEach((r, k) => {
      const i = active[k];
      if (r.status === 'fulfilled') pendings[i] = r.value;
      else {
        alive.delete(i);
        decisions[i] = noDecisions();
        logs[i] = noLogs();
        onLost(i, `Lost the episodes of actor ${i} this update: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`);
      }
    });
  }

  const episodes: SwarmEpisode[] = [];
  for (let i = 0; i < n; i++) {
    for (let slot = 0; slot < E; slot++) {
      const log = logs[i][slot];
      if (log && decisions[i][slot].length > 0) episodes.push({ actorIndex: i, slot, log, decisions: decisions[i][slot] });
    }
  }
  return { episodes, serialLog, steps: actorSteps.reduce((a, b) => a + b, 0), actorSteps };
}
