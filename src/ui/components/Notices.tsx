import { useEffect, useRef, useState } from 'react';
import { usePlayground } from '../store';

/** How long a notice stays before it dismisses itself, by level (hovering or focusing it holds it). */
export const NOTICE_MS = { info: 6_000, warning: 12_000, error: 30_000 } as const;
/** A notice with a button (Undo) stays longer: time to read it and reach the button. */
export const ACTION_NOTICE_MS = 12_000;

/**
 * Non-blocking notices (a crashed actor, a bad link, a refused file), newest last. They sit in
 * the page's flow under the header, never over a panel, and go away by themselves.
 */
export function Notices() {
  const notices = usePlayground((s) => s.notices);
  const dismiss = usePlayground((s) => s.dismiss);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const [held, setHeld] = useState(false);

  useEffect(() => {
    const live = timers.current;
    if (held) {
      for (const t of live.values()) clearTimeout(t);
      live.clear();
      return;
    }
    for (const n of notices) {
      if (live.has(n.id)) continue;
      live.set(
        n.id,
        setTimeout(() => {
          live.delete(n.id);
          dismiss(n.id);
        }, n.action ? Math.max(ACTION_NOTICE_MS, NOTICE_MS[n.level]) : NOTICE_MS[n.level]),
      );
    }
    for (const [id, t] of live) {
      if (!notices.some((n) => n.id === id)) {
        clearTimeout(t);
        live.delete(id);
      }
    }
  }, [notices, dismiss, held]);

  useEffect(() => {
    const live = timers.current;
    return () => {
      for (const t of live.values()) clearTimeout(t);
      live.clear();
    };
  }, []);

  if (notices.length === 0) return null;
  return (
    <div
      className="notices"
      role="status"
      aria-live="polite"
      data-testid="notices"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
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
          <div className="notice-buttons">
            {n.action && (
              <button
                type="button"
                data-testid="notice-action"
                onClick={() => {
                  n.action?.run();
                  dismiss(n.id);
                }}
              >
                {n.action.label}
              </button>
            )}
            <button type="button" aria-label="Dismiss notice" onClick={() => dismiss(n.id)}>
              ×
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
