/**
 * Beside the swarm timeline: the orchestrator's action probabilities π(·|s) at each stage of the
 * recorded episode, one stacked bar per stage, with the action it took outlined.
 */
import { usePlayground } from '../store';

const COLORS = ['#60a5fa', '#a78bfa', '#c084fc', '#e879f9', '#f472b6', '#f97316', '#94a3b8'];
const MAX_ROWS = 40;

export function StageProbabilities() {
  const trace = usePlayground((s) => s.trace);
  const probs = trace?.stageProbs;
  const names = trace?.actionNames;
  if (!trace || !probs || !names || probs.length === 0) return null;
  const stages = trace.trace.stages;
  const rows = probs.slice(0, Math.min(MAX_ROWS, stages.length));
  return (
    <figure className="stage-probs" data-testid="stage-probs">
      <figcaption>
        <strong>What the orchestrator weighed</strong>{' '}
        <span className="muted">its action probabilities at each stage of this episode (update {trace.update}); the action it took is outlined</span>
      </figcaption>
      <ul style={{ display: 'flex', flexWrap: 'wrap', gap: 6, listStyle: 'none', padding: 0, margin: '4px 0', fontSize: 11 }}>
        {names.map((n, a) => (
          <li key={n}>
            <span style={{ display: 'inline-block', width: 10, height: 10, background: COLORS[a % COLORS.length], marginRight: 3 }} />
            {n}
          </li>
        ))}
      </ul>
      <ol style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((p, i) => {
          const taken = trace.stageActions?.[i];
          const best = p.indexOf(Math.max(...p));
          return (
            <li key={i} style={{ display: 'grid', gridTemplateColumns: '3.5em 1fr', alignItems: 'center', gap: 4, fontSize: 11 }} title={names.map((n, a) => `${n} ${(p[a] * 100).toFixed(1)}%`).join(', ')}>
              <span className="muted">stage {i}</span>
              <span style={{ display: 'flex', height: 10 }} role="img" aria-label={`stage ${i}: took ${taken === undefined ? '?' : names[taken]}; most likely ${names[best]} ${(p[best] * 100).toFixed(0)}%`}>
                {p.map((x, a) => (
                  <span key={a} style={{ width: `${x * 100}%`, background: COLORS[a % COLORS.length], outline: a === taken ? '1px solid #fff' : undefined }} />
                ))}
              </span>
            </li>
          );
        })}
      </ol>
      {stages.length > rows.length && <p className="muted">… and {stages.length - rows.length} more stages.</p>}
    </figure>
  );
}
