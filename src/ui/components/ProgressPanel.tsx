import { usePlayground, type PlaygroundState } from '../store';
import { budgetKey, isSwarm as isSwarmAlgorithm } from '../../config/watchable';
import type { ExperimentSettings } from '../../config/settings';

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

/** When the mean return of the last 20 episodes first reached the target: the summary's, else the first update that shows it. */
export function targetReached(s: Pick<PlaygroundState, 'summary' | 'updatePoints' | 'episodes'>, target: number): { wallSeconds: number; envSteps: number } | null {
  if (s.summary?.solved) return { wallSeconds: s.summary.solved.wallSeconds, envSteps: s.summary.solved.envSteps };
  if (s.summary) return null;
  const hit = s.updatePoints.find((p) => p.meanReturn20 !== null && p.meanReturn20 >= target);
  return hit ? { wallSeconds: hit.wallSeconds, envSteps: hit.envSteps } : null;
}

/** What the progress bar counts to: a swarm run's own orchestrator updates (`swarm.updates` or `swarm2.updates`), else its env steps. */
export function runBudget(settings: ExperimentSettings): number {
  // Every budget key is a whole-number setting (tested against each preset).
  return settings[budgetKey(settings.algorithm) as 'run.envSteps'];
}

export function ProgressPanel() {
  const isSwarm = usePlayground((s) => isSwarmAlgorithm(s.config.settings.algorithm));
  const budget = usePlayground((s) => runBudget(s.config.settings));
  const target = usePlayground((s) => s.config.settings['run.targetReturn']);
  const envSteps = usePlayground((s) => s.envSteps);
  const updates = usePlayground((s) => s.updates);
  const episodes = usePlayground((s) => s.episodes);
  const wall = usePlayground((s) => s.wallSeconds);
  const summary = usePlayground((s) => s.summary);
  const updatePoints = usePlayground((s) => s.updatePoints);
  // Computed here, not in a selector: a selector must not return a fresh object each call.
  const reached = isSwarm ? null : targetReached({ summary, updatePoints, episodes }, target);
  // A swarm run's budget is its orchestrator updates (the step budget is only a safety cap).
  const done = isSwarm ? updates : envSteps;
  const frac = Math.min(1, done / budget);
  const rate = wall > 0 ? envSteps / wall : 0;
  const doneRate = wall > 0 ? done / wall : 0;
  const left = doneRate > 0 ? (budget - done) / doneRate : NaN;
  return (
    <div className="progress-panel">
      <div className="progress" role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={budget} aria-valuenow={done} data-testid="progress">
        <div className="progress-fill" style={{ width: `${(frac * 100).toFixed(2)}%` }} />
      </div>
      <div className="progress-stats">
        {isSwarm ? (
          <span data-testid="env-steps">
            {updates.toLocaleString('en-US')} / {budget.toLocaleString('en-US')} updates · {envSteps.toLocaleString('en-US')} steps
          </span>
        ) : (
          <>
            <span data-testid="env-steps">
              {envSteps.toLocaleString('en-US')} / {budget.toLocaleString('en-US')} steps
            </span>
            <span data-testid="updates">{updates.toLocaleString('en-US')} updates</span>
          </>
        )}
        <span data-testid="episodes">{episodes.toLocaleString('en-US')} episodes</span>
        <span>{Math.round(rate).toLocaleString('en-US')} steps/s</span>
        {wall > 0 && <span data-testid="elapsed">{formatSeconds(wall)} so far</span>}
        {reached && (
          <span className="reached" data-testid="time-to-target">
            reached the target ({target}) after {formatSeconds(reached.wallSeconds)}, {reached.envSteps.toLocaleString('en-US')} steps
          </span>
        )}
        <span data-testid="run-end">{summary ? `finished: ${STOP_WORDS[summary.stopReason] ?? summary.stopReason} after ${formatSeconds(summary.wallSeconds)}` : Number.isFinite(left) ? `about ${formatSeconds(left)} left` : ''}</span>
      </div>
    </div>
  );
}
