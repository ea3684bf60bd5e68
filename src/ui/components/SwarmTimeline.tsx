/**
 * A recorded swarm episode as a timeline along the critical-step axis: each orchestrator stage is
 * a column as wide as its critical steps (its own steps, then its slowest subagent), each
 * subagent a bar in its stage coloured by outcome, and the bar that set the stage's latency
 * outlined (the critical path). The serial episode of the same task is drawn below it on the
 * same scale, so the latency cut reads as a difference in length.
 */
import type { EpisodeTrace } from '../../swarm/trace';
import { usePlayground } from '../store';
import { ChartExplain } from './charts/ChartFrame';

const OUTCOME_COLORS = { done: '#4ade80', failed: '#f87171', timeout: '#f59e0b' } as const;
const ORCH = '#38bdf8';
const W = 560;
const LABEL_W = 96;
/** Subagent bars drawn per lane at most; past it each stage shows its slowest ones (a 200k-bar trace once blocked the page for 10 s). */
export const MAX_SUBAGENT_BARS = 2_000;
/** Past this many stages the alternate-stage shading is left out (one more rect per stage). */
const MAX_SHADED_STAGES = 400;

type StageRecord = EpisodeTrace['stages'][number];
type SubagentRun = StageRecord['subagents'][number];

export interface LaneStage {
  stage: StageRecord;
  /** The stage's critical steps (own steps, then its slowest subagent). */
  width: number;
  /** Where it starts along the critical-step axis. */
  start: number;
  /** The subagent bars to draw, slowest first when some are left out, with their row. */
  bars: { sub: SubagentRun; row: number; critical: boolean }[];
  hidden: number;
}

/** What one lane draws: every stage, and at most `maxBars` subagent bars in all. */
export function laneStages(trace: Pick<EpisodeTrace, 'stages' | 'criticalPath'>, maxBars = MAX_SUBAGENT_BARS): LaneStage[] {
  const total = trace.stages.reduce((n, s) => n + s.subagents.length, 0);
  const perStage = total <= maxBars ? Infinity : Math.max(1, Math.floor(maxBars / Math.max(1, trace.stages.length)));
  return trace.stages.map((stage, i) => {
    const crit = trace.criticalPath[i];
    const slowest = stage.subagents.reduce((m, a) => Math.max(m, a.steps), 0);
    const isCritical = (sub: SubagentRun) => crit?.setBy === 'subagent' && crit.subtaskId === sub.subtaskId;
    let shown = stage.subagents.map((sub, row) => ({ sub, row, critical: isCritical(sub) }));
    if (shown.length > perStage) {
      shown = [...shown].sort((a, b) => Number(b.critical) - Number(a.critical) || b.sub.steps - a.sub.steps).slice(0, perStage);
      shown = shown.map((bar, row) => ({ ...bar, row }));
    }
    return { stage, width: stage.mainSteps + slowest, start: stage.criticalStepsSoFar - stage.mainSteps - slowest, bars: shown, hidden: stage.subagents.length - shown.length };
  });
}

function Lane({ trace, title, scale, testId }: { trace: EpisodeTrace; title: string; scale: number; testId: string }) {
  const stages = laneStages(trace);
  const hidden = stages.reduce((n, s) => n + s.hidden, 0);
  const rows = Math.max(1, ...stages.map((s) => s.bars.length));
  const rowH = Math.max(3, Math.min(12, 120 / rows));
  const height = 16 + (rows + 1) * (rowH + 2) + 4;
  const shade = stages.length <= MAX_SHADED_STAGES;
  return (
    <svg className="export-surface timeline" viewBox={`0 0 ${W} ${height}`} width="100%" role="img" aria-label={`${title}: ${trace.totals.criticalSteps} critical steps`} data-testid={testId} data-hidden-bars={hidden}>
      <text x="0" y="12" fill="#e2e8f0" fontSize="11">
        {title}
      </text>
      <text x="0" y="26" fill="#94a3b8" fontSize="10">
        {trace.totals.criticalSteps} critical steps
      </text>
      {hidden > 0 && (
        <text x="0" y="40" fill="#94a3b8" fontSize="9">
          {`slowest ${MAX_SUBAGENT_BARS} bars`}
        </text>
      )}
      {stages.map(({ stage, width, start, bars, hidden: more }, i) => {
        const crit = trace.criticalPath[i];
        const left = LABEL_W + start * scale;
        const orchColor = stage.direct ? OUTCOME_COLORS[stage.direct.outcome] : ORCH;
        return (
          <g key={i}>
            {shade && i % 2 === 1 && <rect x={left} y={16} width={Math.max(1, width * scale)} height={height - 20} fill="#ffffff08" />}
            <rect x={left} y={18} width={Math.max(1, stage.mainSteps * scale)} height={rowH} fill={orchColor} stroke={crit?.setBy === 'orchestrator' ? '#fff' : 'none'} strokeWidth={1}>
              <title>{`stage ${stage.index}: ${stage.action}, orchestrator ${stage.mainSteps} steps${more > 0 ? ` (${more} shorter subagent runs not drawn)` : ''}`}</title>
            </rect>
            {bars.map(({ sub, row, critical }) => (
              <rect
                key={row}
                x={left + stage.mainSteps * scale}
                y={18 + (row + 1) * (rowH + 2)}
                width={Math.max(1, sub.steps * scale)}
                height={rowH}
                fill={OUTCOME_COLORS[sub.outcome]}
                opacity={critical ? 1 : 0.7}
                stroke={critical ? '#fff' : 'none'}
                strokeWidth={1.5}
              >
                <title>{`stage ${stage.index}, subtask ${sub.subtaskId}: ${sub.steps} steps, ${sub.outcome}${critical ? ' (critical path)' : ''}`}</title>
              </rect>
            ))}
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
      <ChartExplain testId="swarm-timeline" />
      <Lane trace={trace.trace} title="with subagents" scale={scale} testId="timeline-parl" />
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
