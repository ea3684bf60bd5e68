import { usePlayground } from '../store';
import { useSession } from '../session';

/** Every actor worker, like xparl's cluster monitor, with a button to crash one on purpose. */
export function ActorsTable() {
  const { crashActor } = useSession();
  const actors = usePlayground((s) => s.actors);
  const stats = usePlayground((s) => s.actorStats);
  const status = usePlayground((s) => s.status);
  const lost = usePlayground((s) => s.lostSegments);
  const lags = usePlayground((s) => s.lagHistogram);
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
            Segments lost to dead actors: <span data-testid="lost-segments">{lost}</span>
            {meanLag !== null && <> · mean policy lag {meanLag.toFixed(2)} updates</>}
          </p>
          <div className="table-scroll">
            <table className="actors" data-testid="actors">
              <thead>
                <tr>
                  <th scope="col">actor</th>
                  <th scope="col">state</th>
                  <th scope="col">steps/s</th>
                  <th scope="col">segments</th>
                  <th scope="col">respawns</th>
                  <th scope="col">last error</th>
                  <th scope="col">
                    <span className="sr-only">actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {actors.map((a) => (
                  <tr key={a.index} data-state={a.state}>
                    <td>{a.name}</td>
                    <td className={`state-${a.state}`}>{a.state}</td>
                    <td>{stats[a.index] ? Math.round(stats[a.index].stepsPerSecond).toLocaleString('en-US') : '–'}</td>
                    <td>{stats[a.index]?.segments ?? 0}</td>
                    <td data-testid={`respawns-${a.index}`}>{a.respawns}</td>
                    <td className="error-cell">
                      {a.lastError ? (
                        <details>
                          <summary>{a.lastError.message}</summary>
                          <pre>{a.lastError.remoteStack ?? 'no remote stack'}</pre>
                        </details>
                      ) : (
                        '–'
                      )}
                    </td>
                    <td>
                      <button type="button" className="small danger" disabled={!canCrash} onClick={() => void crashActor(a.index)} data-testid={`crash-${a.index}`} aria-label={`Crash actor ${a.index}`}>
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
