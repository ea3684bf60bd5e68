import { SETTINGS, type Setting } from '../../config/settings';
import type { LiveValue } from '../../config/liveSettings';
import { isAtRest } from '../session/deps';
import { usePlayground } from '../store';

export function formatLiveValue(v: LiveValue): string {
  return typeof v === 'number' ? String(Number(v.toPrecision(4))) : String(v);
}

export function settingLabel(key: string): string {
  return key in SETTINGS ? (SETTINGS[key as keyof typeof SETTINGS] as Setting).label : key;
}

/**
 * The experiment's timed changes: what a run changed while it trained (or a link carried). They
 * are part of the experiment: its link carries them and Start replays them at the same updates.
 */
export function LiveChangesList() {
  const changes = usePlayground((s) => s.changes);
  const atRest = usePlayground((s) => isAtRest(s.status));
  const setChanges = usePlayground((s) => s.setChanges);
  if (changes.length === 0) return null;
  return (
    <section className="live-changes" data-testid="live-changes" aria-label="Changes while training">
      <p className="help">
        Changes while training (the link carries them; Start replays them at the same updates):
      </p>
      <ul>
        {changes.map((c) => (
          <li key={`${c.update} ${c.key}`}>
            before update {c.update}: {settingLabel(c.key)} = {formatLiveValue(c.value)}
          </li>
        ))}
      </ul>
      {atRest && (
        <button type="button" className="small" onClick={() => setChanges([])}>
          Clear changes
        </button>
      )}
    </section>
  );
}
