import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { createSession, openBrowserRunStore, SessionContext } from './ui/session';
import { usePlayground } from './ui/store';
import { followHashChange, loadFromHash, syncHash } from './ui/urlSync';
import { takeJoinLink } from './ui/session/clusterJoinLink';
import { useCluster } from './ui/session/clusterControl';
import { createLearner } from './workers/learnerClient';
import './ui/styles.css';

// A join link's token leaves the address bar before anything else reads the hash.
takeJoinLink(useCluster);
// The link is read before the first render, so the page never shows the defaults first.
const autostart = loadFromHash();
syncHash();
// One session for the page; nothing starts until it is used (the learner after the first paint).
const session = createSession({ learner: createLearner, runStore: openBrowserRunStore, store: usePlayground });
window.addEventListener('hashchange', () => {
  if (!takeJoinLink(useCluster)) followHashChange(session.resetRun);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionContext value={session}>
      <App autostart={autostart} />
    </SessionContext>
  </StrictMode>,
);
