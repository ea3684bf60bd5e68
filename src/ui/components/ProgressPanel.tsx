import { usePlayground } from '../store';
import { isSwarm as isSwarmAlgorithm } from '../../config/watchable';

function formatSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '–';
  if (s < 60) return `${s.toFixed(0)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

export function ProgressPanel() {
  const isSwarm = usePlayground((s) => isSwarmAlgorithm(s.config.settings.algorithm));
  const stepBudget = usePlayground((s) => s.config.settings['run.envSteps']);
  const updateBudget = usePlayground((s) => s.config.settings['swarm.updates']);
  const envSteps = usePlayground((s) => s.envSteps);
  const updates = usePlayground((s) => s.updates);
  const episodes = usePlayground((s) => s.episodes);
  const wall = usePlayground((s) => s.wallSeconds);
  const summary = usePlayground((s) => s.summary);
  // A swarm run's budget is its orchestrator updates (the env-step budget is only a safety cap).
  const done = isSwarm ? updates : envSteps;
  const budget = isSwarm ? updateBudget : stepBudget;
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
          <span data-testid="env-steps">
            {envSteps.toLocaleString('en-US')} / {budget.toLocaleString('en-US')} steps
          </span>
        )}
        <span data-testid="episodes">{episodes} episodes</span>
        <span>{Math.round(rate).toLocaleString('en-US')} steps/s</span>
        <span>{summary ? `finished: ${summary.stopReason}` : Number.isFinite(left) ? `about ${formatSeconds(left)} left` : ''}</span>
      </div>
    </div>
  );
}
