/**
 * Look inside the agent: the policy's heatmap over a slice of the state space beside its network.
 * Pointing at a cell of the heatmap shows the network's activations on that state.
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
      <NetworkView network={inspect.network} activation={activation} input={pointed} />
    </section>
  );
}
