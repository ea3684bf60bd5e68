/**
 * Opening a join link (`#join=<ws url>&token=<token>`, see src/cluster/joinLink.ts): before the
 * page reads its experiment link, the fragment is taken out of the address bar (replaceState, so
 * no history entry keeps the token and a Copy link made later cannot carry it) and handed to the
 * Cluster panel, which says what it grants and waits for the user to contribute.
 */
import { parseJoinFragment } from '../../workers/clusterClient';
import type { ClusterStore } from './clusterStore';

export function takeJoinLink(store: ClusterStore, location: Pick<Location, 'hash' | 'pathname' | 'search'> = window.location, history: Pick<History, 'replaceState' | 'state'> = window.history): boolean {
  const parsed = parseJoinFragment(location.hash);
  if (!parsed) return false;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  if ('problem' in parsed) store.getState().setTarget(null, parsed.problem, true);
  else store.getState().setTarget(parsed, null, true);
  return true;
}
