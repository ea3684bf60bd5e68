/**
 * The compact records a training run emits. The CLI writes them as JSON lines; the browser
 * learner posts them to the page. Plain data only (no tensors, no classes).
 */

import type { SwarmTrace } from './traces';

/** A run's target is judged on the mean return of this many episodes, and not before that many have ended. */
export const RECENT_EPISODES = 20;

/**
 * Whether an update shows the target reached: the mean return of the last 20 episodes at or above it, once 20 have
 * ended (an offline run's first evaluation has only a few). The learner, the page and its urgent records judge alike.
 */
export function reachesTarget(u: { episodes: number; meanReturn20: number | null }, target: number): boolean {
  return u.episodes >= RECENT_EPISODES && u.meanReturn20 !== null && u.meanReturn20 >= target;
}

export interface UpdateRecord {
  type: 'update';
  update: number;
  /** Environment steps so far, over all actors. */
  envSteps: number;
  /** Episodes finished so far. */
  episodes: number;
  wallSeconds: number;
  /** Returns and lengths of the episodes that finished in this update. */
  returns: number[];
  lengths: number[];
  /** Mean return of the last 20 episodes (null before the first episode ends). */
  meanReturn20: number | null;
  /** Environment steps per second over this update. */
  stepsPerSecond: number;
  /** The algorithm's metrics (loss, entropy, ...). */
  metrics: Record<string, number>;
  /** Per-actor throughput in this update (steps per second), by actor index. */
  actorStepsPerSecond: number[];
  /** Segments lost to dead or misbehaving actors in this update. */
  lostSegments: number;
  /**
   * Policy lag of each batch used in this update: the learner's version minus the version of the
   * weights that produced the batch (0 for synchronous on-policy updates).
   */
  policyLags?: number[];
}

export interface SummaryRecord {
  type: 'summary';
  preset: string;
  seed: number;
  backend: string;
  updates: number;
  envSteps: number;
  episodes: number;
  wallSeconds: number;
  finalMeanReturn20: number | null;
  /** When the mean return over 20 episodes first reached the env's "solved" threshold. */
  solved: { episodes: number; envSteps: number; wallSeconds: number; threshold: number } | null;
  stopReason: 'budget' | 'target' | 'stopped' | 'error';
  error?: string;
  lostSegments: number;
  actorRespawns: number;
}

export type ActorState = 'starting' | 'idle' | 'busy' | 'dead' | 'replaced';

export interface ActorStatusRecord {
  type: 'actors';
  actors: {
    index: number;
    name: string;
    state: ActorState;
    respawns: number;
    lastError: { message: string; remoteStack?: string } | null;
  }[];
}

export interface NoticeRecord {
  type: 'notice';
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface BackendRecord {
  type: 'backend';
  name: string;
  reason: string;
  attempts: { name: string; ok: boolean; detail: string }[];
}

/** The loop really is paused (it has finished the update in flight) or running again. */
export interface StateRecord {
  type: 'state';
  state: 'paused' | 'running';
}

/** One swarm episode's figures (Kimi K2.5's PARL), as the charts plot them. */
export interface SwarmEpisodeStats {
  criticalSteps: number;
  totalSteps: number;
  serialBaseline: number;
  /** Longest chain of dependent work, where the task has one. */
  lowerBound: number | null;
  /** Mean subagents per stage that launched any, and the most at once. */
  avgParallelism: number;
  maxParallelism: number;
  /** Completed / assigned subtasks (0 when none assigned). */
  finishRate: number;
  rPerf: number;
  rParallel: number;
  rFinish: number;
  lambda1: number;
  lambda2: number;
  /** λ1·r_parallel, the shaped parallelism term of `total`, as the reward computed it. */
  shapedParallel: number;
  /** λ2·r_finish, the shaped finish term of `total`, as the reward computed it. */
  shapedFinish: number;
  /** λ1·r_parallel + λ2·r_finish + r_perf */
  total: number;
}

/** The swarm episodes that finished in one orchestrator update. */
export interface SwarmUpdateRecord {
  type: 'swarm';
  update: number;
  /** Orchestrator training steps so far (the x axis of the annealing curves). */
  trainSteps: number;
  episodes: SwarmEpisodeStats[];
}

/** A recorded episode of the swarm (decomposition task) for the timeline: subagents by kind, checks, retries. */
export interface SwarmTraceRecord {
  type: 'swarmTrace';
  update: number;
  trace: SwarmTrace;
}

/** A greedy episode played by an actor with recent weights, for the live environment view. */
export interface GreedyEpisodeRecord {
  type: 'greedyEpisode';
  update: number;
  envId: string;
  keys: string[];
  /** Frame f's value of keys[k] is frames[f·keys.length + k]. */
  frames: number[];
  episodeReturn: number;
  /** Played from a saved run's weights (Watch), not by a running actor. */
  saved?: boolean;
}

/**
 * The learner's weights after an update, as a PARLCKPT file (src/core/checkpoint.ts): sent now
 * and then during a run and once at its end. The page keeps the newest one with the saved run.
 */
export interface CheckpointRecord {
  type: 'checkpoint';
  update: number;
  envSteps: number;
  bytes: Uint8Array;
}

/**
 * A live change (src/config/liveSettings.ts): before update `update`, setting `key` went from
 * `from` to `to`. A run's changes, with its config, are what its link carries.
 */
export interface ChangeRecord {
  type: 'change';
  update: number;
  key: string;
  from: number | string | boolean;
  to: number | string | boolean;
}

/**
 * A look inside the learner's network now and then (src/engine/inspect.ts): its layers' weights
 * and the activations on one observation, and for classic-control tasks the policy and value over
 * a 2-D slice of the state space. Plain arrays, computed in one batched pass.
 */
export interface InspectRecord {
  type: 'inspect';
  update: number;
  /** The dense stack drawn as a network; null where there is none to draw (the multi-agent nets). */
  network: NetworkSnapshot | null;
  heatmap: HeatmapSnapshot | null;
  /** Box-action actor-critics (DDPG, TD3, SAC, CQL): the critics' Q(s, a) over the action range, one per probe state. */
  criticCurves?: CriticCurveSnapshot[];
  /** Multi-agent value learners (QMIX, VDN, IQL, MADDPG): each agent's values and the team's. */
  team?: TeamSnapshot;
}

/** Each critic's Q(s, a) on one state as the first action dimension sweeps its range (any others at the actor's). */
export interface CriticCurveSnapshot {
  stateNames: string[];
  state: number[];
  /** What the state is, in the env's words ("hanging straight down, at rest"). */
  stateLabel: string;
  actionName: string;
  /** The swept action values, low to high. */
  actions: number[];
  /** One curve per critic ('Q1', 'Q2' for the twin critics; 'Q' for DDPG): q[k] at actions[k]. */
  critics: { name: string; q: number[] }[];
  /** The action the actor takes there without exploration noise (SAC: the squashed mean), and each critic's Q of it. */
  actorAction: number;
  actorQ: number[];
}

/** One agent's values on the probe state. */
export interface AgentValues {
  name: string;
  actionNames: string[];
  /** QMIX, VDN, IQL: the agent's own Q(o, u); MADDPG: its centralised critic's Q with the others at their chosen actions. */
  q: number[];
  /** MADDPG: the actor's probability of each action; null for the Q learners. */
  prob: number[] | null;
  /** The action it picks without exploration (greedy Q, or the actor's most likely action). */
  chosen: number;
}

/** What every agent makes of the first state of an episode (a fixed reset), and the team's value of their choice. */
export interface TeamSnapshot {
  /** 'qmix' and 'vdn' mix the chosen Qs into Q_tot; 'none' (IQL) has no team value; 'maddpg' has a critic per agent. */
  mixer: 'qmix' | 'vdn' | 'none' | 'maddpg';
  stateLabel: string;
  agents: AgentValues[];
  /** Q_tot of the chosen joint action (QMIX's mixer, VDN's sum); null where the algorithm has none. */
  teamQ: number | null;
}

/** One dense stack (policy, value or Q): layer widths, weights and the activations on `input`. */
export interface NetworkSnapshot {
  /** Which stack: 'policy', 'value', 'q' or a continuous-control 'actor'. */
  stack: string;
  /** Names of the inputs (the env's observation keys) and of the outputs (actions, or 'V'). */
  inputNames: string[];
  outputNames: string[];
  /** Units per layer, inputs first: [obsDim, hidden..., outputs]. */
  sizes: number[];
  /** Layer l's kernel, row-major [sizes[l], sizes[l + 1]]: weights[l][i · sizes[l + 1] + j]. */
  weights: number[][];
  /** Layer l's bias, [sizes[l + 1]]. */
  biases: number[][];
  /** The observation the activations are for. */
  input: number[];
  /** What that observation is, where it is not the env's usual example state (a multi-agent probe). */
  stateLabel?: string;
  /** Activations per layer (after the nonlinearity; the last layer raw), inputs first. */
  activations: number[][];
}

/** The policy and value over a grid on two state variables, the others held at `fixed`. */
export interface HeatmapSnapshot {
  xKey: string;
  yKey: string;
  /** The observation of the slice: `base` with obs[xIndex] = x and obs[yIndex] = y. */
  base: number[];
  xIndex: number;
  yIndex: number;
  xRange: [number, number];
  yRange: [number, number];
  /** Cells per side. Cell (i, j) is x = xs[i], y = ys[j], at index j · n + i. */
  n: number;
  /** The action whose probability `prob` shows, and the names of every action. */
  action: number;
  actionNames: string[];
  /** π(action | s) per cell (the Q-greedy share for DQN: 1 where it is the greedy action). */
  prob: number[];
  /** The greedy action per cell. */
  greedy: number[];
  /** V(s) per cell, or max_a Q(s, a); null for a policy-only network. */
  value: number[] | null;
}

export type RunRecord = UpdateRecord | SummaryRecord | ActorStatusRecord | NoticeRecord | BackendRecord | StateRecord | SwarmUpdateRecord | SwarmTraceRecord | GreedyEpisodeRecord | CheckpointRecord | ChangeRecord | InspectRecord;

/**
 * Caps on what one record may hold. The run-file schema (src/runs/runFile.ts) refuses files past
 * them, and the helpers below keep produced records inside them, so a run's own export always
 * imports again, and no renderer or store sees a count it was not built for.
 */
export const RECORD_LIMITS = {
  /** Episodes (returns and lengths) one update record lists. */
  episodesPerUpdate: 65_536,
  /** Metric keys one update record carries, and the length of a key. */
  metricKeys: 64,
  metricKeyChars: 64,
  /** Distinct metric keys over a whole run. */
  metricKeysPerRun: 256,
  /** Actors (actorStepsPerSecond entries). */
  actors: 64,
  /** Batches (policyLags entries) one update used, and the largest lag kept. */
  policyLags: 4_096,
  maxPolicyLag: 1_000_000,
  /** Swarm episodes in one swarm record. */
  swarmEpisodes: 4_096,
  /** A swarm trace: stages, subagents, their items in all, and subagent kinds (an episode has at most 5,000 decisions). */
  swarmTraceStages: 6_000,
  swarmTraceSubagents: 6_000,
  swarmTraceItems: 12_000,
  swarmTraceKinds: 8,
  /** Nesting depth of any JSON value in a run file (a real one is about 10 deep). */
  jsonDepth: 32,
} as const;

/**
 * An update record inside RECORD_LIMITS: episodes whose return or length is not a finite number
 * are dropped (they would poison the mean return and could not be saved), only the newest
 * episodes are kept past the cap, metric keys past the cap are dropped, lags are clamped.
 * Returns without lengths (ES scores perturbations, not episodes of one policy) are kept alone.
 */
export function fitUpdateRecord(r: UpdateRecord): UpdateRecord {
  const L = RECORD_LIMITS;
  const returns: number[] = [];
  const lengths: number[] = [];
  const paired = r.lengths.length > 0;
  const n = paired ? Math.min(r.returns.length, r.lengths.length) : r.returns.length;
  for (let i = Math.max(0, n - L.episodesPerUpdate); i < n; i++) {
    if (!Number.isFinite(r.returns[i])) continue;
    if (paired && !(Number.isInteger(r.lengths[i]) && r.lengths[i] >= 0)) continue;
    returns.push(r.returns[i]);
    if (paired) lengths.push(r.lengths[i]);
  }
  const metrics: Record<string, number> = {};
  for (const k of Object.keys(r.metrics).filter((key) => key.length <= L.metricKeyChars).slice(0, L.metricKeys)) metrics[k] = r.metrics[k];
  const out: UpdateRecord = {
    ...r,
    returns,
    lengths,
    meanReturn20: r.meanReturn20 !== null && Number.isFinite(r.meanReturn20) ? r.meanReturn20 : null,
    metrics,
    actorStepsPerSecond: r.actorStepsPerSecond.slice(0, L.actors).map((x) => (Number.isFinite(x) && x > 0 ? x : 0)),
  };
  if (r.policyLags) out.policyLags = r.policyLags.slice(0, L.policyLags).map((lag) => Math.min(L.maxPolicyLag, Math.max(0, Math.round(lag))));
  return out;
}

