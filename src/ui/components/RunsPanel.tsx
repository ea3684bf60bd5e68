import { useEffect, useRef, useState } from 'react';
import { runStoreUnavailable, type RunMeta } from '../../runs/runStore';
import { usePlayground } from '../store';
import { useSession } from '../session';
import { canWatch } from '../../config/watchable';
import { DatasetButton } from './DatasetButton';

function RunRow({ run, overlaid, current, busy }: { run: RunMeta; overlaid: boolean; current: boolean; busy: boolean }) {
  const { deleteRun, exportCsv, exportRun, exportWeights, openRun, renameRun, toggleOverlay, watchRun } = useSession();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(run.name);
  const commit = () => {
    setEditing(false);
    if (name.trim() && name !== run.name) void renameRun(run.id, name.trim());
  };
  return (
    <li className={`run${current ? ' run-current' : ''}`} data-testid="run" data-run-id={run.id} data-status={run.status}>
      <div className="run-head">
        <label className="check" title="Overlay this run's mean return on the return chart">
          <input type="checkbox" checked={overlaid} onChange={() => void toggleOverlay(run.id)} aria-label={`Overlay ${run.name}`} data-testid="overlay" />
        </label>
        {editing ? (
          <input
            className="run-name-input"
            value={name}
            autoFocus
            aria-label="Run name"
            onChange={(e) => setName(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commit();
              if (e.key === 'Escape') {
                setName(run.name);
                setEditing(false);
              }
            }}
          />
        ) : (
          <span className="run-name" data-testid="run-name">
            {run.name}
          </span>
        )}
      </div>
      <div className="run-meta muted">
        <span className={`run-status run-status-${run.status}`}>{run.status}</span> · {run.envSteps.toLocaleString('en-US')} steps
        {run.finalMeanReturn20 !== null && <> · mean {run.finalMeanReturn20.toFixed(1)}</>}
        {run.weights && <> · weights at update {run.weights.update}</>}
      </div>
      <div className="run-actions">
        <button type="button" className="small" onClick={() => void openRun(run.id)} disabled={busy} data-testid="open-run">
          Open
        </button>
        {run.weights && canWatch(run.config) && (
          <button
            type="button"
            className="small"
            onClick={() => void watchRun(run.id)}
            disabled={busy}
            title="Open this run and play a greedy episode with its saved weights in the live view"
            data-testid="watch-run"
          >
            Watch
          </button>
        )}
        <button type="button" className="small" onClick={() => setEditing(true)} data-testid="rename-run">
          Rename
        </button>
        <button type="button" className="small" onClick={() => void exportRun(run.id)} data-testid="export-run">
          JSON
        </button>
        <button type="button" className="small" onClick={() => void exportCsv(run.id)} data-testid="export-csv">
          CSV
        </button>
        {run.weights && (
          <button
            type="button"
            className="small"
            onClick={() => void exportWeights(run.id)}
            title={`The learner's weights at update ${run.weights.update} (${run.weights.envSteps.toLocaleString('en-US')} steps), as a PARLCKPT file`}
            data-testid="export-weights"
          >
            Weights
          </button>
        )}
        <DatasetButton run={run} />
        <button type="button" className="small danger" onClick={() => void deleteRun(run.id)} disabled={current && busy} data-testid="delete-run" aria-label={`Delete ${run.name}`}>
          Delete
        </button>
      </div>
    </li>
  );
}

/** Saved runs (IndexedDB): open, rename, delete, overlay, export and import. */
export function RunsPanel() {
  const runs = usePlayground((s) => s.runs);
  const overlays = usePlayground((s) => s.overlays);
  const currentRunId = usePlayground((s) => s.currentRunId);
  const status = usePlayground((s) => s.status);
  const busy = !['idle', 'done', 'error'].includes(status);
  const fileRef = useRef<HTMLInputElement>(null);
  const unavailable = runStoreUnavailable();
  const { importRunFile, refreshRuns } = useSession();
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);
  return (
    <section aria-label="Saved runs" id="runs">
      <h2>
        Runs <span className="muted">(saved in this browser)</span>
      </h2>
      <div className="run-tools">
        <button type="button" className="small" onClick={() => fileRef.current?.click()} data-testid="import-run">
          Import run…
        </button>
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          aria-label="Import a run file"
          data-testid="import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            // A failure past the file's checks (the store refused it) still gets a message.
            if (file) importRunFile(file).catch((err: unknown) => usePlayground.getState().notify('error', `Could not import ${file.name}: ${err instanceof Error ? err.message : String(err)}`));
          }}
        />
      </div>
      {unavailable ? (
        <p className="empty" role="note" data-testid="runs-not-saved">
          {unavailable.message} Export a run's records before you close the page.
        </p>
      ) : runs.length === 0 ? (
        <p className="empty">Every run you start is saved here as it goes.</p>
      ) : (
        <ul className="runs" data-testid="runs">
          {runs.map((r) => (
            <RunRow key={r.id} run={r} overlaid={overlays.some((o) => o.id === r.id)} current={r.id === currentRunId} busy={busy} />
          ))}
        </ul>
      )}
    </section>
  );
}
