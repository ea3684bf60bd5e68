/**
 * The experiment lives in the URL hash: read once on load (a bad link loads what it can and
 * lists the rest in a notice), then rewritten with replaceState whenever the settings or the
 * view options change, so reload and back keep the experiment. A link pasted into the address bar
 * of the open tab (only the hash changes, so nothing reloads) is followed too.
 */
import { decodeExperiment, experimentUrl, type UiOptions } from '../config/urlState';
import { usePlayground, type PlaygroundState } from './store';

/**
 * True while a link is being applied: its config, changes and view land in three store updates,
 * and the address must not be rewritten in between (a reload at that moment would open a link
 * with the new config and the old view).
 */
let applyingLink = false;

/** Apply the link in the current hash; returns whether it asks to start training right away. */
export function loadFromHash(): boolean {
  const hash = window.location.hash.slice(1);
  if (hash.length === 0) return false;
  const decoded = decodeExperiment(hash);
  const s = usePlayground.getState();
  applyingLink = true;
  try {
    s.replaceConfig(decoded.config);
    s.setChanges(decoded.changes);
    s.setView({ autostart: decoded.ui.autostart, hide: decoded.ui.hide });
  } finally {
    applyingLink = false;
  }
  if (decoded.ignored.length > 0) {
    s.notify(
      'warning',
      `Parts of this link could not be used, so they were ignored; the rest loaded.`,
      // The codec lists every known key for an unknown one: too long for a notice.
      decoded.ignored.map((p) => `${p.field}: ${p.reason.replace(/ \(known: [^)]*\)/, '')}`),
    );
  }
  return decoded.ui.autostart;
}

/** The experiment's link: its config and its timed changes (a link's, or those a run applied). */
function linkFor(s: PlaygroundState, ui: Partial<UiOptions>): string {
  return experimentUrl(window.location.href, s.config, ui, s.changes);
}

export function shareLink(ui: Partial<UiOptions>): string {
  return linkFor(usePlayground.getState(), ui);
}

/** The address this module last wrote, so a hash change can tell a new link from its own writes. */
let lastWritten = '';

function writeHash(): void {
  const s = usePlayground.getState();
  const url = linkFor(s, s.view);
  if (url !== lastWritten) {
    lastWritten = url;
    window.history.replaceState(window.history.state, '', url);
  }
}

const BUSY: ReadonlySet<PlaygroundState['status']> = new Set(['starting', 'running', 'pausing', 'paused', 'stopping']);

/**
 * Follow a new link in the address bar of the open tab. During a run the run's settings stay: the
 * address goes back to the running experiment and a notice says why, so nothing the run had is lost.
 * A run that has ended is cleared from the charts first by `clearEndedRun` (it stays in Runs).
 */
export function followHashChange(clearEndedRun: () => void): void {
  if (window.location.href === lastWritten) return;
  const s = usePlayground.getState();
  if (BUSY.has(s.status)) {
    lastWritten = '';
    writeHash();
    s.notify('warning', 'The link in the address bar was not loaded because a run is going on. Stop the run, then open the link again.');
    return;
  }
  if (s.status !== 'idle') clearEndedRun();
  loadFromHash();
  writeHash();
}

/** Keep the hash in step with the store; returns the unsubscribe function. */
export function syncHash(): () => void {
  const write = writeHash;
  write();
  return usePlayground.subscribe((s, prev) => {
    if (applyingLink) return;
    if (s.config !== prev.config || s.view !== prev.view || s.changes !== prev.changes) write();
  });
}
