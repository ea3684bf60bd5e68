import type { BackendRecord } from '../../runs/records';
import { usePlayground } from '../store';

/**
 * The reason line in words: a backend set by hand says so instead of "preferred", with what its
 * attempt found (a software adapter is worth knowing about).
 */
export function backendReasonText(backend: Pick<BackendRecord, 'reason' | 'attempts'>): string {
  const hand = /^(\w+): preferred$/.exec(backend.reason);
  if (hand) {
    const found = backend.attempts.find((a) => a.name === hand[1] && a.ok)?.detail ?? '';
    const soft = /software adapter/.test(found) ? ` (${found})` : '';
    return `${hand[1]}: chosen by hand under Learner backend${soft}; choose auto to measure and pick the fastest here`;
  }
  const missing = /^(\w+): preferred (\w+) unavailable \((.*)\)$/.exec(backend.reason);
  if (missing) return `${missing[1]}: ${missing[2]} was chosen by hand but is not available here (${missing[3]})`;
  return backend.reason;
}

export function BackendBadge() {
  const backend = usePlayground((s) => s.backend);
  const setting = usePlayground((s) => s.config.settings.backend);
  return (
    // The reason line is given whole, in a column wide enough that a kept probe's longer note does not push the charts down; the tooltip adds each attempt.
    <div className="backend" title={backend ? [backendReasonText(backend), '', ...backend.attempts.map((a) => `${a.name}: ${a.ok ? 'ok' : 'no'} (${a.detail})`)].join('\n') : undefined}>
      <span className="muted">Learner backend{setting === 'auto' ? ' (auto: measured)' : ' (set by hand)'}</span>{' '}
      <strong data-testid="backend-name">{backend ? backend.name : 'measuring…'}</strong>
      {backend && (
        <div className="backend-reason" data-testid="backend-reason">
          {backendReasonText(backend)}
        </div>
      )}
    </div>
  );
}
