import { usePlayground } from '../store';

export function ActorsTable() {
  const actors = usePlayground((s) => s.actors);
  return (
    <section aria-label="Actors">
      <h2>Actors <span className="muted">(one Web Worker each)</span></h2>
      {actors.length === 0 ? (
        <p className="empty">No actors yet: they start with the run.</p>
      ) : (
        <table className="actors" data-testid="actors">
          <thead>
            <tr>
              <th>actor</th>
              <th>state</th>
              <th>respawns</th>
              <th>last error</th>
            </tr>
          </thead>
          <tbody>
            {actors.map((a) => (
              <tr key={a.index}>
                <td>{a.name}</td>
                <td className={`state-${a.state}`}>{a.state}</td>
                <td>{a.respawns}</td>
                <td title={a.lastError?.remoteStack}>{a.lastError?.message ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
