import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { progressView, startingLine, usePlayground, type PlaygroundState } from '../store';
import type { ProgressState } from '../store/progress';
import { budgetValue } from '../../config/budget';
import type { ExperimentSettings } from '../../config/settings';
import { reachesTarget } from '../../runs/records';
import { hasTargetReturn } from '../../config/targetReturn';

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '–';
  if (s < 60) return `${s < 10 ? s.toFixed(1) : s.toFixed(0)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

const STOP_WORDS: Record<string, string> = {
  budget: 'used its whole budget',
  target: 'stopped at the target',
  stopped: 'stopped by you',
  error: 'ended with an error',
};

/**
 * When the mean return of the last 20 episodes first reached the target: the summary's, else the first update that
 * shows it with 20 episodes behind it, as the learner judges it (an offline run's first evaluation has only a few).
 */
export function targetReached(s: Pick<PlaygroundState, 'summary' | 'updatePoints'>, target: number): { wallSeconds: number; envSteps: number } | null {
  if (s.summary?.solved) return { wallSeconds: s.summary.solved.wallSeconds, envSteps: s.summary.solved.envSteps };
  if (s.summary) return null;
  const hit = s.updatePoints.find((p) => reachesTarget(p, target));
  return hit ? { wallSeconds: hit.wallSeconds, envSteps: hit.envSteps } : null;
}

/** An offline run's gradient steps at the first update at or after `wallSeconds` (the run's last, if none). */
export function gradientStepsAt(points: PlaygroundState['updatePoints'], wallSeconds: number): number {
  const at = points.find((p) => p.wallSeconds >= wallSeconds) ?? points[points.length - 1];
  return at?.metrics.gradientSteps ?? 0;
}

/** What the progress bar counts to: the run's one budget (config/budget.ts). */
export function runBudget(settings: ExperimentSettings): number {
  return budgetValue(settings);
}

/** The page's clock, ticking once a second while `active` (the elapsed time and the time left move between updates). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setNow(performance.now()), 1_000);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

// Only what the line reads: a new chart point elsewhere must not re-render it.
const selectProgress = (s: PlaygroundState): ProgressState => ({
  config: s.config,
  status: s.status,
  summary: s.summary,
  envSteps: s.envSteps,
  updates: s.updates,
  gradientSteps: s.gradientSteps,
  wallSeconds: s.wallSeconds,
  updatePoints: s.updatePoints,
  startedAt: s.startedAt,
  endedAt: s.endedAt,
  lastUpdateAt: s.lastUpdateAt,
});

export function ProgressPanel() {
  const state = usePlayground(useShallow(selectProgress));
  const target = state.config.settings['run.targetReturn'];
  const hasTarget = usePlayground((s) => hasTargetReturn(s.config.settings));
  const episodes = usePlayground((s) => s.episodes);
  const starting = usePlayground(startingLine);
  const live = state.startedAt !== null && state.endedAt === null;
  const now = useNow(live);
  const view = progressView(state, now);
  const { summary, updatePoints, envSteps, updates } = state;
  // Computed here, not in a selector: a selector must not return a fresh object each call.
  const reached = hasTarget ? targetReached({ summary, updatePoints }, target) : null;
  const fmt = (n: number) => n.toLocaleString('en-US');
  const rate = view.rate === null ? 0 : view.rate;
  const rateUnit = view.unit === 'updates' ? 'updates/s' : view.unit === 'gradientSteps' ? 'gradient steps/s' : 'steps/s';
  const elapsedText = view.elapsed === null ? null : view.finished ? `took ${formatSeconds(view.elapsed)}` : `${formatSeconds(view.elapsed)} so far`;
  return (
    <div className="progress-panel">
      <div className="progress" role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={view.budget} aria-valuenow={view.done} data-testid="progress">
        <div className="progress-fill" style={{ width: `${(view.fraction * 100).toFixed(2)}%` }} />
      </div>
      <div className="progress-stats">
        {view.unit === 'envSteps' ? (
          <>
            <span data-testid="env-steps">
              {fmt(envSteps)} / {fmt(view.budget)} steps
            </span>
            <span data-testid="updates">{fmt(updates)} updates</span>
          </>
        ) : (
          <span data-testid="env-steps">
            {fmt(view.done)} / {fmt(view.budget)} {view.label} · {view.unit === 'gradientSteps' ? `${fmt(updates)} evaluation${updates === 1 ? '' : 's'}` : `${fmt(envSteps)} steps`}
          </span>
        )}
        <span data-testid="episodes">{fmt(episodes)} {view.unit === 'gradientSteps' ? 'evaluation episodes' : 'episodes'}</span>
        <span data-testid="rate">
          {rate >= 10 ? fmt(Math.round(rate)) : rate.toFixed(1)} {rateUnit}
        </span>
        {elapsedText && <span data-testid="elapsed">{elapsedText}</span>}
        {reached && (
          <span className="reached" data-testid="time-to-target">
            reached the target ({target}) after {formatSeconds(reached.wallSeconds)}, {view.unit === 'gradientSteps' ? `${fmt(gradientStepsAt(updatePoints, reached.wallSeconds))} gradient steps` : `${fmt(reached.envSteps)} steps`}
          </span>
        )}
        <span data-testid="run-end">
          {summary
            ? `finished: ${STOP_WORDS[summary.stopReason] ?? summary.stopReason}${view.elapsed === null ? '' : ` after ${formatSeconds(view.elapsed)}`}`
            : view.left !== null
              ? `about ${formatSeconds(view.left)} left`
              : ''}
        </span>
      </div>
      {starting && (
        <p className="help starting-line" role="status" data-testid="starting-line">
          {starting}
        </p>
      )}
    </div>
  );
}
