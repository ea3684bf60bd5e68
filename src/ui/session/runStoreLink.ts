/**
 * The session's saved-runs database: opened on first use, opened again after another tab's newer
 * version closed it, and null (runs not kept) where it cannot open.
 */
import type { StoreApi } from 'zustand';
import { RunStoreUnavailableError, type RunStore } from '../../runs/runStore';
import type { PlaygroundState } from '../store';
import { message, type OpenRunStore } from './deps';

export interface RunStoreLink {
  /** The database, or null where this browser has no IndexedDB (runs are then not kept). */
  get(): Promise<RunStore | null>;
  /** The database, or 'late' when it has not opened within `ms` (another tab can hold it). */
  within(ms: number): Promise<RunStore | null | 'late'>;
  /** Reload the saved-runs list into the store. */
  refresh(): Promise<void>;
}

export function createRunStoreLink(open: OpenRunStore, store: StoreApi<PlaygroundState>): RunStoreLink {
  let opening: Promise<RunStore | null> | null = null;
  const notify = (text: string) => store.getState().notify('warning', text);

  const get = (): Promise<RunStore | null> => {
    if (!opening) {
      const events = {
        blocked: () => notify('Saved runs are waiting for another tab of PARL Playground (an older version) to close or reload.'),
        closed: () => {
          opening = null;
          notify('A newer version of PARL Playground opened in another tab; reload this tab to keep saving runs.');
        },
      };
      opening = open(events).catch((err: unknown) => {
        notify(err instanceof RunStoreUnavailableError ? err.message : `Runs will not be saved: the saved-runs database did not open (${message(err)}).`);
        return null;
      });
    }
    return opening;
  };

  const within = (ms: number): Promise<RunStore | null | 'late'> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    return Promise.race([get(), late]).finally(() => clearTimeout(timer));
  };

  const refresh = async (): Promise<void> => {
    const db = await get();
    if (db) store.getState().setRuns(await db.list());
  };

  return { get, within, refresh };
}
