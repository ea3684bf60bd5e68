import { usePlayground } from '../store';

export function BackendBadge() {
  const backend = usePlayground((s) => s.backend);
  return (
    <div className="backend" title={backend?.attempts.map((a) => `${a.name}: ${a.ok ? 'ok' : 'no'} (${a.detail})`).join('\n')}>
      <span className="muted">Learner backend</span>{' '}
      <strong data-testid="backend-name">{backend ? backend.name : 'probing…'}</strong>
      {backend && <div className="backend-reason" data-testid="backend-reason">{backend.reason}</div>}
    </div>
  );
}
