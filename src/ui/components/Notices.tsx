import { usePlayground } from '../store';

/** Non-blocking notices (a crashed actor, a bad link, a paused run), newest last. */
export function Notices() {
  const notices = usePlayground((s) => s.notices);
  const dismiss = usePlayground((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`}>
          <span>{n.message}</span>
          <button type="button" aria-label="Dismiss notice" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
