/**
 * Look inside the agent: the policy's heatmap over a slice of the state space beside its network.
 * Pointing at a cell of the heatmap shows the network's activations on that state. A
 * continuous-control run shows its actor, with the state its activations are for, and what its
 * critics expect of every action there; a multi-agent run shows each agent's values and the team's.
 */
import { useState } from 'react';
import { usePlayground } from '../store';
import { ChartExplain } from './charts/ChartFrame';
import { CriticCurves } from './CriticCurve';
import { NetworkView } from './NetworkView';
import { PolicyHeatmap } from './PolicyHeatmap';
import { TeamValues } from './TeamValues';

export function AgentInside() {
  const update = usePlayground((s) => s.inspect?.update ?? 0);
  const network = usePlayground((s) => s.inspect?.network ?? null);
  const h = usePlayground((s) => s.inspect?.heatmap ?? null);
  const curves = usePlayground((s) => s.inspect?.criticCurves);
  const critic = curves !== undefined && curves.length > 0 ? curves : null;
  const team = usePlayground((s) => s.inspect?.team);
  const activation = usePlayground((s) => s.config.settings['model.activation']);
  const [pointed, setPointed] = useState<number[] | null>(null);
  if (!network && !critic && !team) return null;
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
      <ChartExplain testId="agent-inside" />
      {h && <PolicyHeatmap heatmap={h} update={update} onPoint={onPoint} />}
      {team && <TeamValues team={team} update={update} />}
      {critic && <CriticCurves curves={critic} update={update} />}
      {network?.stack === 'actor' && (
        <p className="help" data-testid="actor-note">
          The actor at update {update}: from what it sees to the action it takes, before the tanh that keeps the action in its range.{' '}
          {critic ? 'Its critics are the curves above: it learns to push its action towards where they are highest.' : 'It has no critic that rates single actions to show.'}
        </p>
      )}
      {network && <NetworkView network={network} activation={activation} input={pointed} />}
      {network && !h && (
        <p className="help" data-testid="shown-state">
          Activations for {network.stateLabel ?? 'the state'} {network.inputNames.map((name, i) => `${name} = ${String(network.input[i])}`).join(', ')}.
        </p>
      )}
    </section>
  );
}
