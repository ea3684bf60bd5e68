/**
 * What a batch of records does to the page's state, as a pure function (state, records) -> patch,
 * so the live run and a saved run opened later replay the same way. Every series is decimated to
 * about MAX_POINTS points, keeping the extremes.
 */
import { decimateKeepingExtremes } from '../../runs/decimate';
import type { BackendRecord, RunRecord } from '../../runs/records';
import { MAX_NOTICES, MAX_POINTS, SMOOTHED_KEYS, type EpisodePoint, type IngestedRecord, type LambdaPoint, type MetricsData, type Notice, type Overlay, type SavedSwarmEpisode, type RunStatus, type SmoothedKey, type SwarmPoint, type UpdatePoint } from './types';

/** The part of the state records read and write. */
export interface RecordsState extends MetricsData {
  status: RunStatus;
  backend: BackendRecord | null;
  notices: Notice[];
  nextNoticeId: number;
}

/** The shaped reward terms λ1·r_parallel and λ2·r_finish: the record's own, else computed from it. */
export function shapedTerms(e: SavedSwarmEpisode): { shapedParallel: number; shapedFinish: number } {
  return { shapedParallel: e.shapedParallel ?? e.lambda1 * e.rParallel, shapedFinish: e.shapedFinish ?? e.lambda2 * e.rFinish };
}

export function applyRecords(s: RecordsState, records: readonly IngestedRecord[]): Partial<RecordsState> {
  const patch: Partial<RecordsState> = {};
  const newEpisodes: EpisodePoint[] = [];
  const newUpdates: UpdatePoint[] = [];
  const newSwarm: SwarmPoint[] = [];
  const newLambdas: LambdaPoint[] = [];
  let metricKeys = s.metricKeys;
  let lagHistogram = s.lagHistogram;
  let actorStats = s.actorStats;
  let lostSegments = s.lostSegments;
  let swarmEpisodes = s.swarmPoints.length > 0 ? s.swarmPoints[s.swarmPoints.length - 1].episode : 0;
  const notices = [...s.notices];
  let nextNoticeId = s.nextNoticeId;

  for (const r of records) {
    switch (r.type) {
      case 'update': {
        const first = r.episodes - r.returns.length;
        r.returns.forEach((ret, i) => newEpisodes.push({ episode: first + i + 1, envSteps: r.envSteps, ret, length: r.lengths[i] }));
        newUpdates.push({ update: r.update, envSteps: r.envSteps, episodes: r.episodes, wallSeconds: r.wallSeconds, meanReturn20: r.meanReturn20, stepsPerSecond: r.stepsPerSecond, metrics: r.metrics });
        const keys = Object.keys(r.metrics).filter((k) => Number.isFinite(r.metrics[k]));
        if (keys.some((k) => !metricKeys.includes(k))) metricKeys = [...new Set([...metricKeys, ...keys])];
        if (r.policyLags && r.policyLags.length > 0) {
          lagHistogram = { ...lagHistogram };
          for (const lag of r.policyLags) lagHistogram[lag] = (lagHistogram[lag] ?? 0) + 1;
        }
        actorStats = r.actorStepsPerSecond.map((sps, i) => ({
          stepsPerSecond: sps,
          segments: (actorStats[i]?.segments ?? 0) + (sps > 0 ? 1 : 0),
        }));
        lostSegments += r.lostSegments;
        Object.assign(patch, { envSteps: r.envSteps, episodes: r.episodes, updates: r.update, wallSeconds: r.wallSeconds, stepsPerSecond: r.stepsPerSecond });
        if (Number.isFinite(r.metrics.gradientSteps)) patch.gradientSteps = r.metrics.gradientSteps;
        break;
      }
      case 'swarm': {
        const points = r.episodes.map((e) => ({ ...e, ...shapedTerms(e) }));
        const updateMean = {} as Record<SmoothedKey, number>;
        for (const k of SMOOTHED_KEYS) updateMean[k] = points.reduce((a, p) => a + p[k], 0) / Math.max(1, points.length);
        for (const p of points) {
          swarmEpisodes += 1;
          newSwarm.push({ ...p, episode: swarmEpisodes, trainSteps: r.trainSteps, updateMean });
        }
        if (r.episodes.length > 0) newLambdas.push({ trainSteps: r.trainSteps, lambda1: r.episodes[0].lambda1, lambda2: r.episodes[0].lambda2 });
        break;
      }
      case 'swarmTrace':
        patch.swarmTrace = r;
        break;
      case 'greedyEpisode':
        if (r.frames.length > 0 && r.keys.length > 0) patch.greedyEpisode = r;
        break;
      case 'summary':
        patch.summary = r;
        break;
      case 'actors':
        patch.actors = r.actors;
        break;
      case 'backend':
        patch.backend = r;
        break;
      case 'state':
        // A Stop pressed meanwhile wins over the loop's 'running' or 'paused'.
        if (s.status !== 'stopping') patch.status = r.state;
        break;
      case 'notice':
        notices.push({ id: nextNoticeId++, level: r.level, message: r.message });
        break;
      case 'checkpoint':
        // Weights go to the saved run only, never to the charts.
        break;
      case 'change': {
        // Records arrive in order: the store's counts are those before the update the change applied to.
        const before = { envSteps: patch.envSteps ?? s.envSteps, gradientSteps: patch.gradientSteps ?? s.gradientSteps, episode: patch.episodes ?? s.episodes };
        patch.changeMarks = [...(patch.changeMarks ?? s.changeMarks), { update: r.update, key: r.key, from: r.from, to: r.to, ...before }];
        patch.liveValues = { ...(patch.liveValues ?? s.liveValues), [r.key]: r.to };
        break;
      }
      case 'inspect':
        patch.inspect = r;
        break;
    }
  }
  if (newEpisodes.length > 0) patch.episodePoints = decimateKeepingExtremes(s.episodePoints.concat(newEpisodes), (p) => p.ret, MAX_POINTS);
  if (newUpdates.length > 0) patch.updatePoints = decimateKeepingExtremes(s.updatePoints.concat(newUpdates), (p) => p.meanReturn20 ?? 0, MAX_POINTS);
  if (newSwarm.length > 0) patch.swarmPoints = decimateKeepingExtremes(s.swarmPoints.concat(newSwarm), (p) => p.total, MAX_POINTS);
  if (newLambdas.length > 0) patch.lambdaPoints = decimateKeepingExtremes(s.lambdaPoints.concat(newLambdas), (p) => p.lambda1, MAX_POINTS);
  if (metricKeys !== s.metricKeys) patch.metricKeys = metricKeys;
  if (lagHistogram !== s.lagHistogram) patch.lagHistogram = lagHistogram;
  if (actorStats !== s.actorStats) patch.actorStats = actorStats;
  if (lostSegments !== s.lostSegments) patch.lostSegments = lostSegments;
  if (nextNoticeId !== s.nextNoticeId) {
    patch.notices = notices.slice(-MAX_NOTICES);
    patch.nextNoticeId = nextNoticeId;
  }
  return patch;
}

/** The mean-return curve of a saved run, for overlays (with its gradient steps where the run reports them). */
export function meanReturnCurve(records: readonly RunRecord[]): Overlay['points'] {
  const out: Overlay['points'] = [];
  for (const r of records) {
    if (r.type !== 'update' || r.meanReturn20 === null) continue;
    const g = r.metrics.gradientSteps;
    out.push({ envSteps: r.envSteps, mean: r.meanReturn20, ...(Number.isFinite(g) ? { gradientSteps: g } : {}) });
  }
  return decimateKeepingExtremes(out, (p) => p.mean, MAX_POINTS);
}
