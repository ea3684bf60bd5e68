import { useState } from 'react';
import { joinLinkFor, MAX_TAB_ACTORS } from '../../workers/clusterClient';
import { usePlayground } from '../store';
import { isAtRest } from '../session/deps';
import { useCluster } from '../session/clusterControl';
import { clusterControl } from '../session/clusterPage';
import { hostRows } from './clusterRows';

/**
 * Connect this tab to a cluster (npm run cluster): contribute its Web Workers as actors for
 * someone else's run (a student opening the join link), and/or train with the cluster's actors
 * (the teacher's tab), with every host and tab that contributes listed (the xparl monitor).
 */
export function ClusterPanel() {
  const c = useCluster();
  const notify = usePlayground((s) => s.notify);
  const actors = usePlayground((s) => s.actors);
  const actorStats = usePlayground((s) => s.actorStats);
  // A run keeps the actors it started with: the learner switches only between runs.
  const atRest = usePlayground((s) => isAtRest(s.status));
  const [url, setUrl] = useState(c.target?.url ?? '');
  const [token, setToken] = useState(c.target?.token ?? '');
  const joinLink = c.target ? joinLinkFor(window.location.href, c.target) : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(joinLink);
      notify('info', 'Join link copied. Whoever opens it can run actors on this cluster: share it only with your class.');
    } catch {
      notify('info', 'Copy the join link from its box (the clipboard is not available here).');
    }
  };
  const rows = c.learner.report ? hostRows(c.learner.report, actors, actorStats) : [];
  const busy = (phase: string) => phase !== 'off';
  return (
    <section aria-label="Cluster" id="cluster" data-testid="cluster-panel">
      <h2>
        Cluster <span className="muted">(actors in other tabs and on other machines)</span>
      </h2>
      {c.joinedByLink && c.target && (
        <p className="notice notice-warning" role="note" data-testid="cluster-join-note">
          <span>
            You opened a join link: it grants access to the cluster at <code>{c.target.url}</code>. Contribute actors to run part of someone else&apos;s training in this tab&apos;s Web Workers.
          </span>
        </p>
      )}
      {c.problem && (
        <p className="notice notice-error" role="alert" data-testid="cluster-problem">
          {c.problem}
        </p>
      )}
      {!c.target || (!busy(c.host.phase) && !busy(c.learner.phase)) ? (
        <details className="group" open={!!c.target} data-testid="cluster-connect">
          <summary>{c.target ? 'Another cluster' : 'Connect to a cluster (optional: for a class or several machines)'}</summary>
          <form
            className="group-fields"
            onSubmit={(e) => {
              e.preventDefault();
              clusterControl.use(url, token);
            }}
          >
            <p className="help">Whoever runs the cluster starts it with <code>npm run cluster</code>, which prints its address and token; a join link fills in both.</p>
            <label>
              Server (ws://… or wss://…, or a whole join link)
              <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="ws://127.0.0.1:8443" data-testid="cluster-url" autoComplete="off" />
            </label>
            <label>
              Token
              <input type="password" value={token} onChange={(e) => setToken(e.target.value)} data-testid="cluster-token" autoComplete="off" />
            </label>
            <button type="submit" className="small" data-testid="cluster-use">
              Use this cluster
            </button>
          </form>
        </details>
      ) : null}
      {c.target && (
        <>
          <div className="group-fields">
            <label>
              This tab&apos;s name on the cluster
              <input value={c.name} onChange={(e) => c.setName(e.target.value)} disabled={busy(c.host.phase)} data-testid="cluster-name" maxLength={64} />
            </label>
            <label>
              Actors to offer
              <input type="number" min={1} max={MAX_TAB_ACTORS} value={c.offer} onChange={(e) => c.setOffer(Math.max(1, Math.min(MAX_TAB_ACTORS, Math.round(Number(e.target.value)) || 1)))} disabled={busy(c.host.phase)} data-testid="cluster-offer" />
            </label>
          </div>
          <div className="group-fields">
            {c.host.phase === 'off' ? (
              <button type="button" onClick={() => void clusterControl.contribute()} data-testid="cluster-contribute">
                Contribute {c.offer} actor{c.offer === 1 ? '' : 's'}
              </button>
            ) : (
              <button type="button" onClick={() => void clusterControl.stopContributing()} data-testid="cluster-stop-contributing" disabled={c.host.phase === 'connecting'}>
                Stop contributing
              </button>
            )}
            {c.learner.phase === 'off' ? (
              <button type="button" onClick={() => void clusterControl.learn()} data-testid="cluster-learn" disabled={!atRest} title="The next runs of this tab get every actor from the cluster's hosts and tabs (between runs)">
                Train with the cluster&apos;s actors
              </button>
            ) : (
              <button type="button" onClick={() => void clusterControl.stopLearning()} data-testid="cluster-stop-learning" disabled={c.learner.phase === 'connecting' || !atRest} title="The next runs of this tab use its own Web Workers (between runs)">
                Train with this tab&apos;s actors
              </button>
            )}
          </div>
          {c.host.error && <p className="notice notice-error" role="alert">Contributing failed: {c.host.error}</p>}
          {c.learner.error && <p className="notice notice-error" role="alert">Training with the cluster failed: {c.learner.error}</p>}
          <p className="muted small-print" data-testid="cluster-host-status" data-phase={c.host.phase}>
            {c.host.phase === 'off' && 'This tab contributes no actors.'}
            {c.host.phase === 'connecting' && 'Connecting…'}
            {c.host.phase === 'on' && c.host.report && (
              <>
                {c.host.report.connected ? 'Contributing' : 'Reconnecting'} as <strong>{c.host.report.hostName}</strong>: <span data-testid="cluster-host-actors">{c.host.report.actors.length}</span> of {c.host.report.capacity} actors running, <span data-testid="cluster-host-answered">{c.host.report.work.answered}</span> calls answered, <span data-testid="cluster-host-segments">{c.host.report.work.segments}</span> segments sent
                {c.host.report.work.died > 0 && <>, {c.host.report.work.died} actor{c.host.report.work.died === 1 ? '' : 's'} died (last: {c.host.report.work.lastError})</>}.
              </>
            )}
          </p>
          <details className="group" open={c.learner.phase !== 'off'}>
            <summary>Join link for other tabs</summary>
            <p className="small-print">
              <strong>This link grants access to the cluster</strong> (it holds its token): whoever opens it can run actors for, and read, the cluster&apos;s runs. Share it only with your class. The Copy link button of the experiment never includes it.
            </p>
            <input className="share-link" readOnly value={joinLink} aria-label="Join link (grants access to the cluster)" data-testid="cluster-join-link" onFocus={(e) => e.target.select()} />
            <button type="button" className="small" onClick={() => void copy()} data-testid="cluster-copy-join">
              Copy join link
            </button>
          </details>
        </>
      )}
      {c.learner.phase !== 'off' && (
        <div data-testid="cluster-learner-status">
          <p className="muted small-print">
            {c.learner.phase === 'connecting' ? 'Connecting the learner…' : c.learner.report?.connected === false ? 'Learner reconnecting…' : `The learner's runs take their actors from the cluster (${rows.filter((r) => r.state === 'live').length} live hosts).`}
            {c.learner.report?.stream && (
              <>
                {' '}
                Stream: <span data-testid="cluster-stream-taken">{c.learner.report.stream.taken}</span> segments learned, {c.learner.report.stream.redelivered} redelivered, {c.learner.report.stream.rejected.malformed + c.learner.report.stream.rejected.oversized + c.learner.report.stream.rejected.replayed} rejected.
              </>
            )}
          </p>
          {rows.length > 0 && (
            <div className="table-scroll">
              <table className="actors" data-testid="cluster-hosts">
                <thead>
                  <tr>
                    <th scope="col">host or tab</th>
                    <th scope="col">state</th>
                    <th scope="col" title="This run's actors on it / actors it runs for everyone / its slots">actors</th>
                    <th scope="col" title="Environment steps per second of its actors in the last update">steps/s</th>
                    <th scope="col" title="Segments its actors put in the run's stream (or calls answered, for loops without a stream)">segments</th>
                    <th scope="col" title="This run's actors that died on it (each replaced by the pool)">respawns</th>
                    <th scope="col">last error</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((h) => (
                    <tr key={h.hostId} data-state={h.state} data-host={h.hostName}>
                      <td data-label="host">{h.hostName}</td>
                      <td data-label="state" className={`state-${h.state === 'live' ? 'busy' : 'dead'}`}>{h.state}</td>
                      <td data-label="actors" data-testid="cluster-host-row-actors">
                        {h.ours} / {h.running} / {h.capacity}
                      </td>
                      <td data-label="steps/s">{h.stepsPerSecond > 0 ? Math.round(h.stepsPerSecond).toLocaleString('en-US') : '–'}</td>
                      <td data-label="segments" data-testid="cluster-host-row-segments">
                        {h.segments > 0 ? h.segments : h.answered}
                      </td>
                      <td data-label="respawns" data-testid="cluster-host-row-respawns">
                        {h.died}
                      </td>
                      <td data-label="last error" className="error-cell">
                        {h.lastError ?? '–'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
