import { usePlayground } from '../store';
import { useSession } from '../session';

export function RunControls() {
  const status = usePlayground((s) => s.status);
  const { pauseRun, resetRun, resumeRun, startRun, stepRun, stopRun } = useSession();
  const active = status === 'running' || status === 'pausing' || status === 'paused' || status === 'starting';
  return (
    <div className="controls" role="toolbar" aria-label="Run control">
      <button type="button" className="primary" onClick={() => void startRun()} disabled={active || status === 'stopping'} data-testid="start">
        Start
      </button>
      {status === 'paused' ? (
        <button type="button" onClick={resumeRun} data-testid="resume">
          Resume
        </button>
      ) : (
        <button type="button" onClick={pauseRun} disabled={status !== 'running'} data-testid="pause">
          Pause
        </button>
      )}
      <button type="button" onClick={stepRun} disabled={status !== 'paused'} title="Run one more update, then pause again" data-testid="step">
        Step
      </button>
      <button type="button" onClick={stopRun} disabled={!active} data-testid="stop">
        Stop
      </button>
      <button type="button" onClick={resetRun} disabled={status === 'idle'} title="Stop, and clear the charts (settings stay)" data-testid="reset">
        Reset
      </button>
      <span className={`status status-${status}`} data-testid="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
