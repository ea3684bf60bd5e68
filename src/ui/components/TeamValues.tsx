/**
 * What every agent of a team makes of one state: a row per agent, a column per move, each cell the
 * agent's Q-value for that move (QMIX, VDN, IQL) or, for MADDPG, its actor's probability and its
 * centralised critic's Q; the chosen move outlined. Under it the team's value of the joint choice
 * where the algorithm has one (QMIX's mixer, VDN's sum). Computed by the learner
 * (src/engine/inspectValues.ts).
 */
import type { AgentValues, TeamSnapshot } from '../../runs/records';

/** Two decimals for the small values a young network gives, three significant digits past 100; never "-0". */
export function formatValue(x: number): string {
  const v = Math.abs(x) >= 100 ? Number(x.toPrecision(3)) : Math.round(x * 100) / 100;
  return (v === 0 ? 0 : v).toLocaleString('en-US', { minimumFractionDigits: Math.abs(v) >= 100 ? 0 : 2, maximumFractionDigits: 2 });
}
const fmt = formatValue;

/** Each value's place between its row's lowest (0) and highest (1); ½ for a flat row. */
export function rowShares(values: readonly number[]): number[] {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return values.map((v) => (hi > lo ? (v - lo) / (hi - lo) : 0.5));
}

const TEAM_LINE: Record<TeamSnapshot['mixer'], string> = {
  qmix: 'QMIX’s mixer turns the chosen moves’ Qs into the team’s value Q_tot (it can only rise when an agent’s Q rises)',
  vdn: 'VDN adds the chosen moves’ Qs into the team’s value Q_tot',
  none: 'IQL has no team value: each agent learns alone from the shared reward',
  maddpg: 'Each agent’s critic sees every agent’s observation and move; its Q is shown for each of the agent’s own moves, the others at their likeliest',
};

function AgentRow({ agent, withProb }: { agent: AgentValues; withProb: boolean }) {
  const shares = rowShares(agent.q);
  return (
    <tr>
      <th scope="row">{agent.name}</th>
      {agent.q.map((q, u) => (
        <td
          key={u}
          className={u === agent.chosen ? 'chosen' : undefined}
          style={{ background: `linear-gradient(to right, rgba(56, 189, 248, 0.32) ${(shares[u] * 100).toFixed(0)}%, transparent ${(shares[u] * 100).toFixed(0)}%)` }}
          title={`${agent.name}, ${agent.actionNames[u]}${u === agent.chosen ? ' (chosen)' : ''}`}
        >
          {fmt(q)}
          {withProb && agent.prob && <span className="team-prob">{(agent.prob[u] * 100).toFixed(0)}%</span>}
          {u === agent.chosen && <span className="sr-only"> (chosen)</span>}
        </td>
      ))}
    </tr>
  );
}

export function TeamValues({ team, update }: { team: TeamSnapshot; update: number }) {
  const withProb = team.mixer === 'maddpg';
  const names = team.agents[0]?.actionNames ?? [];
  const sameMoves = team.agents.every((a) => a.actionNames.join() === names.join());
  return (
    <figure className="team-values" data-testid="team-values" data-update={update} data-mixer={team.mixer}>
      <figcaption>
        <strong>{withProb ? 'Each agent’s choice and its critic’s Q' : 'Each agent’s Q for each move'}</strong>{' '}
        <span className="muted">
          at {team.stateLabel}; update {update}
        </span>
      </figcaption>
      <table className="team-table">
        <thead>
          <tr>
            <th scope="col">agent</th>
            {(sameMoves ? names : names.map((_, u) => `move ${u}`)).map((n) => (
              <th scope="col" key={n}>
                {n}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {team.agents.map((a) => (
            <AgentRow key={a.name} agent={a} withProb={withProb} />
          ))}
        </tbody>
      </table>
      <p className="help" data-testid="team-readout">
        {withProb ? 'Each cell: the critic’s Q, and under it the actor’s probability of the move. ' : ''}Outlined: the move the agent takes without exploring. {TEAM_LINE[team.mixer]}
        {team.teamQ !== null && (
          <>
            : <strong data-testid="team-q">Q_tot = {fmt(team.teamQ)}</strong>
          </>
        )}
        .
      </p>
    </figure>
  );
}
