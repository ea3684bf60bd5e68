import { useState } from 'react';
import { HIDEABLE } from '../../config/urlState';
import { usePlayground } from '../store';
import { shareLink } from '../urlSync';

/** What each hideable part is called on screen (a teaching link's hide list uses the keys). */
export const HIDE_LABELS: Record<string, string> = {
  config: 'settings',
  presets: 'presets',
  runs: 'saved runs',
  actors: 'actors',
  teaching: 'teaching notes',
  'charts.losses': 'loss charts',
  'charts.throughput': 'throughput chart',
};

/** Copy a link to this experiment, next to Start; its options (autostart, hide) make a clean teaching link. */
export function SharePanel() {
  const [autostart, setAutostart] = useState(false);
  const [hide, setHide] = useState<string[]>([]);
  const [shown, setShown] = useState(false);
  const notify = usePlayground((s) => s.notify);
  // Subscribed so the link shown below follows the settings as they change.
  usePlayground((s) => s.config);
  const link = shown ? shareLink({ autostart, hide }) : '';
  const copy = async () => {
    const url = shareLink({ autostart, hide });
    setShown(true);
    try {
      await navigator.clipboard.writeText(url);
      notify('info', 'Link copied: it opens this experiment with the same settings and seed.');
    } catch {
      notify('info', 'Copy the link from the box under the button (the clipboard is not available here).');
    }
  };
  return (
    <div className="share" id="share" data-testid="share">
      <button type="button" onClick={() => void copy()} data-testid="copy-link" title="Copy a link that opens this experiment with the same settings and seed">
        Copy link
      </button>
      <details className="share-options">
        <summary>Share this experiment</summary>
        <div className="share-popover">
          <label className="check">
            <input type="checkbox" checked={autostart} onChange={(e) => setAutostart(e.target.checked)} /> Start training when the link opens
          </label>
          <fieldset className="hide-list">
            <legend>Hide for a teaching link</legend>
            {HIDEABLE.map((h) => (
              <label key={h} className="check">
                <input type="checkbox" checked={hide.includes(h)} onChange={(e) => setHide(e.target.checked ? [...hide, h] : hide.filter((x) => x !== h))} /> {hideLabel(h)}
              </label>
            ))}
          </fieldset>
          <p className="help">Copy link then makes a teaching link with these choices.</p>
        </div>
      </details>
      {link && <input className="share-link" readOnly value={link} aria-label="Link to this experiment" data-testid="share-link" onFocus={(e) => e.target.select()} />}
    </div>
  );
}

/** A hideable part's name on screen: its label, else the key spelled out ("charts.losses" -> "losses chart"). */
export function hideLabel(key: string): string {
  if (Object.hasOwn(HIDE_LABELS, key)) return HIDE_LABELS[key];
  const [head, tail] = key.split('.');
  return tail ? `${tail.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} ${head === 'charts' ? 'chart' : head}` : head;
}
