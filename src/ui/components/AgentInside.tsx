/**
 * Look inside the agent: the policy's heatmap over a slice of the state space beside its network.
 * Pointing at a cell of the heatmap shows the network's activations on that state. A
 * continuous-control run shows its actor, with the state its activations are for.
 */
import { useState } from 'react';
import { usePlayground } from '../store';
import { NetworkView } from './NetworkView';
import { PolicyHeatmap } from './PolicyHeatmap';

export function AgentInside() {
  const inspect = usePlayground((s) => s.inspect);
  const activation = usePlayground((s) => s.config.settings['model.activation']);
  const [pointed, setPointed] = useState<number[] | null>(null);
  if (!inspect) return null;
  const h = inspect.heatmap;
  const onPoint = (cell: { x: number; y: number } | null) => {
    if (!cell || !h) return setPointed(null);
    const obs = [...h.base];
    obs[h.xIndex] = cell.x;
    obs[h.yIndex] = cell.y;
    setPointed(obs);
  };
  return (
    <section className="agent-inside" aria-label="Inside the agent" data-testid="agent-inside">
      <h2>Inside the agent</h2>
      {h && <PolicyHeatmap heatmap={h} update={inspect.update} onPoint={onPoint} />}
      {inspect.network.stack === 'actor' && (
        <p className="help" data-testid="actor-note">
          The actor at update {inspect.update}: from what it sees to the action it takes, before the tanh that keeps the action in its range. The critics that rate its actions learn beside it and are not drawn.
        </p>
      )}
      <NetworkView network={inspect.network} activation={activation} input={pointed} />
      {!h && (
        <p className="help" data-testid="shown-state">
          Activations for the state {inspect.network.inputNames.map((name, i) => `${name} = ${String(inspect.network.input[i])}`).join(', ')}.
        </p>
      )}
    </section>
  );
}
