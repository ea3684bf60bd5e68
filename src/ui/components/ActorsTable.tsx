import { usePlayground } from '../store';
import { useSession } from '../session';
import { useCluster } from '../session/clusterControl';

/** Every actor worker, like xparl's cluster monitor, with a button to crash one on purpose. */
export function ActorsTable() {
  const { crashActor } = useSession();
  const actors = usePlayground((s) => s.actors);
  const stats = usePlayground((s) => s.actorStats);
  const status = usePlayground((s) => s.status);
  const lost = usePlayground((s) => s.lostSegments);
  const lags = usePlayground((s) => s.lagHistogram);
  // With cluster actors: the host or tab each one runs on.
  const placements = useCluster((s) => s.learner.report?.placements);
  const hostOf = new Map(placements?.map((p) => [p.actor, p.hostName]));
  const lagCount = Object.values(lags).reduce((a, b) => a + b, 0);
  const meanLag = lagCount > 0 ? Object.entries(lags).reduce((a, [lag, n]) => a + Number(lag) * n, 0) / lagCount : null;
  const canCrash = status === 'running' || status === 'paused';
  return (
    <section aria-label="Actors" id="actors">
      <h2>
        Actors <span className="muted">(one Web Worker each)</span>
      </h2>
      {actors.length === 0 ? (
        <p className="empty">No actors yet: they start with the run.</p>
      ) : (
        <>
          <p className="muted small-print">
            Batches lost to actors that died: <span data-testid="lost-segments">{lost}</span>
            {meanLag !== null && <> · mean policy lag {meanLag.toFixed(2)} updates</>}
          </p>
          <div className="table-scroll">
            <table className="actors" data-testid="actors">
              <thead>
                <tr>
                  <th scope="col">actor</th>
                  <th scope="col">state</th>
                  <th scope="col" title="Environment steps it contributed per second of wall time in the last update">steps/s</th>
                  <th scope="col" title="Updates it contributed data to">batches</th>
                  <th scope="col" title="Times its worker was restarted">restarts</th>
                  <th scope="col">last error</th>
                  <th scope="col">
                    <span className="sr-only">actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {actors.map((a) => (
                  <tr key={a.index} data-state={a.state}>
                    <td data-label="actor">
                      actor {a.index} <span className="muted">({a.name})</span>
                      {hostOf.has(a.name) && (
                        <span className="muted" data-testid={`actor-host-${a.index}`}>
                          {' '}
                          on {hostOf.get(a.name)}
                        </span>
                      )}
                    </td>
                    <td data-label="state" className={`state-${a.state}`}>{a.state}</td>
                    <td data-label="steps/s">{stats[a.index] ? Math.round(stats[a.index].stepsPerSecond).toLocaleString('en-US') : '–'}</td>
                    <td data-label="batches">{stats[a.index]?.segments ?? 0}</td>
                    <td data-label="restarts" data-testid={`respawns-${a.index}`}>{a.respawns}</td>
                    <td data-label="last error" className="error-cell">
                      {a.lastError ? (
                        <details>
                          <summary>{a.lastError.message}</summary>
                          <pre>{a.lastError.remoteStack ?? 'no remote stack'}</pre>
                        </details>
                      ) : (
                        '–'
                      )}
                    </td>
                    <td className="action-cell">
                      <button
                        type="button"
                        className="small danger"
                        disabled={!canCrash}
                        onClick={() => void crashActor(a.index)}
                        data-testid={`crash-${a.index}`}
                        aria-label={`Crash actor ${a.index} (${a.name})`}
                        title={`Crash ${a.name}, actor ${a.index}: the pool starts a new worker in its place`}
                      >
                        Crash
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
