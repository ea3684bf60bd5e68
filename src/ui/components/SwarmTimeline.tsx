/**
 * A recorded swarm episode as a timeline along the critical-step axis: each orchestrator stage is
 * a column as wide as its critical steps (its own steps, then its slowest subagent), each
 * subagent a bar in its stage coloured by outcome, and the bar that set the stage's latency
 * outlined (the critical path). The serial episode of the same task is drawn below it on the
 * same scale, so the latency cut reads as a difference in length.
 */
import type { EpisodeTrace } from '../../swarm/trace';
import { usePlayground } from '../store';

const OUTCOME_COLORS = { done: '#4ade80', failed: '#f87171', timeout: '#f59e0b' } as const;
const ORCH = '#38bdf8';
const W = 560;
const LABEL_W = 70;

function Lane({ trace, title, scale, testId }: { trace: EpisodeTrace; title: string; scale: number; testId: string }) {
  const rows = Math.max(1, ...trace.stages.map((s) => s.subagents.length));
  const rowH = Math.max(3, Math.min(12, 120 / rows));
  const height = 16 + (rows + 1) * (rowH + 2) + 4;
  // Stage start positions along the critical-step axis (criticalStepsSoFar ends each stage).
  const lefts = trace.stages.map((s) => LABEL_W + (s.criticalStepsSoFar - s.mainSteps - Math.max(0, ...s.subagents.map((a) => a.steps))) * scale);
  return (
    <svg className="export-surface timeline" viewBox={`0 0 ${W} ${height}`} width="100%" role="img" aria-label={`${title}: ${trace.totals.criticalSteps} critical steps`} data-testid={testId}>
      <text x="0" y="12" fill="#e2e8f0" fontSize="11">
        {title}
      </text>
      <text x="0" y="26" fill="#94a3b8" fontSize="10">
        {trace.totals.criticalSteps} crit.
      </text>
      {trace.stages.map((stage, i) => {
        const crit = trace.criticalPath[i];
        const stageW = stage.mainSteps + Math.max(0, ...stage.subagents.map((s) => s.steps));
        const left = lefts[i];
        const orchColor = stage.direct ? OUTCOME_COLORS[stage.direct.outcome] : ORCH;
        return (
          <g key={stage.index}>
            <rect x={left} y={16} width={Math.max(1, stageW * scale)} height={height - 20} fill={i % 2 ? '#ffffff08' : 'none'} />
            <rect x={left} y={18} width={Math.max(1, stage.mainSteps * scale)} height={rowH} fill={orchColor} stroke={crit?.setBy === 'orchestrator' ? '#fff' : 'none'} strokeWidth={1}>
              <title>{`stage ${stage.index}: ${stage.action}, orchestrator ${stage.mainSteps} steps`}</title>
            </rect>
            {stage.subagents.map((sub, j) => {
              const critical = crit?.setBy === 'subagent' && crit.subtaskId === sub.subtaskId;
              return (
                <rect
                  key={j}
                  x={left + stage.mainSteps * scale}
                  y={18 + (j + 1) * (rowH + 2)}
                  width={Math.max(1, sub.steps * scale)}
                  height={rowH}
                  fill={OUTCOME_COLORS[sub.outcome]}
                  opacity={critical ? 1 : 0.7}
                  stroke={critical ? '#fff' : 'none'}
                  strokeWidth={1.5}
                >
                  <title>{`stage ${stage.index}, subtask ${sub.subtaskId}: ${sub.steps} steps, ${sub.outcome}${critical ? ' (critical path)' : ''}`}</title>
                </rect>
              );
            })}
          </g>
        );
      })}
    </svg>
  );
}

export function SwarmTimeline() {
  const trace = usePlayground((s) => s.trace);
  if (!trace) return null;
  const longest = Math.max(trace.trace.totals.criticalSteps, trace.serialTrace.totals.criticalSteps, 1);
  const scale = (W - LABEL_W - 4) / longest;
  const t = trace.trace.totals;
  return (
    <section aria-label="Swarm timeline" id="swarm-timeline" data-testid="swarm-timeline">
      <h2>
        Swarm episode <span className="muted">(update {trace.update}, {trace.trace.task})</span>
      </h2>
      <Lane trace={trace.trace} title="PARL" scale={scale} testId="timeline-parl" />
      <Lane trace={trace.serialTrace} title="serial" scale={scale} testId="timeline-serial" />
      <p className="help">
        {t.criticalSteps} critical steps against {trace.serialTrace.totals.criticalSteps} serial ({t.totalSteps} total steps of work; serial baseline {t.serialBaseline}
        {t.lowerBound !== null ? `, lower bound ${t.lowerBound}` : ''}). Bars: <span style={{ color: ORCH }}>orchestrator</span>,{' '}
        <span style={{ color: OUTCOME_COLORS.done }}>done</span>, <span style={{ color: OUTCOME_COLORS.failed }}>failed</span>,{' '}
        <span style={{ color: OUTCOME_COLORS.timeout }}>timeout</span>; white outline: the critical path.
      </p>
    </section>
  );
}
