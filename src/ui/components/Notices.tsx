import { usePlayground } from '../store';

/** Non-blocking notices (a crashed actor, a bad link, a refused file), newest last. */
export function Notices() {
  const notices = usePlayground((s) => s.notices);
  const dismiss = usePlayground((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status" aria-live="polite" data-testid="notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} data-level={n.level}>
          <div>
            <span>{n.message}</span>
            {n.details && (
              <ul className="notice-details">
                {n.details.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            )}
          </div>
          <button type="button" aria-label="Dismiss notice" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
