import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { memo } from 'react';
import type { LambdaPoint, PlaygroundState, SmoothedKey, SwarmPoint } from '../../store';
import { NUMBER_AXIS, countXAxis } from './axis';
import { ChartFrame } from './ChartFrame';
import { ChartLegend, LEGEND_HEIGHT, type LegendItem } from './legend';
import { staticLine } from './staticLine';
import { forDisplay, useChartValue } from './live';
import { changeLines, selectChangeMarks } from './ChangeMarkers';
import { axisLabel, CHART_HEIGHT, GRID, MARGIN, SERIES_COLORS, TOOLTIP_STYLE } from './theme';
import { usePlayground } from '../../store';
import { swarmScoreScaleOf } from '../../../config/swarmScoreScale';

const selectSwarm = (s: PlaygroundState) => s.swarmPoints;
const selectLambdas = (s: PlaygroundState) => s.lambdaPoints;
const selectScoreScale = (s: PlaygroundState) => swarmScoreScaleOf(s.config.settings);
const SCALE_COLOR = '#94a3b8';
const byTotal = (p: SwarmPoint) => p.total;
const byLambda1 = (p: LambdaPoint) => p.lambda1;
const bySteps = (p: SwarmPoint) => p.criticalSteps;
const byParallelism = (p: SwarmPoint) => p.avgParallelism;

const EPISODE_OPACITY = 0.3;

/**
 * A per-episode series as a faint line, with the mean of each update's episodes over it in full
 * colour: the episodes show the spread, the update means show the trend.
 */
function trend(key: SmoothedKey, name: string, color: string, yAxisId?: string) {
  return [
    <Line key={key} yAxisId={yAxisId} dataKey={key} name={`${name} (episode)`} stroke={color} strokeOpacity={EPISODE_OPACITY} dot={false} isAnimationActive={false} shape={staticLine} />,
    <Line key={`${key}-mean`} yAxisId={yAxisId} dataKey={`updateMean.${key}`} name={`${name} (update mean)`} stroke={color} strokeWidth={2} dot={false} isAnimationActive={false} shape={staticLine} />,
  ];
}

const REWARD_LEGEND: LegendItem[] = [
  { name: 'task score', color: SERIES_COLORS[0] },
  { name: 'parallel bonus (λ1)', color: SERIES_COLORS[2] },
  { name: 'finish bonus (λ2)', color: SERIES_COLORS[3] },
];
const STEPS_LEGEND: LegendItem[] = [
  { name: 'critical steps', color: SERIES_COLORS[0] },
  { name: 'total steps', color: SERIES_COLORS[1] },
  { name: 'serial baseline', color: '#f59e0b', dashed: true },
];
const BOUND_LEGEND: LegendItem = { name: 'lower bound', color: '#4ade80', dashed: true };
const PARALLELISM_LEGEND: LegendItem[] = [
  { name: 'subagents per stage, mean', color: SERIES_COLORS[0] },
  { name: 'subagents per stage, most', color: SERIES_COLORS[1], dashed: true },
  { name: 'finish rate', color: SERIES_COLORS[3] },
];

export const RewardComponentsChart = memo(function RewardComponentsChart() {
  const data = forDisplay(useChartValue(selectSwarm), byTotal);
  // On the story's task, the task score read against working alone and the scripted packer (their held-out scores).
  const scale = usePlayground(selectScoreScale);
  // Named on the lines themselves, so the legend (and the chart's height) stays the same.
  const lines = scale
    ? [
        { y: scale.alone, name: `working alone ${scale.alone.toFixed(3)}` },
        { y: scale.packer, name: `scripted packer ${scale.packer.toFixed(3)}` },
      ]
    : [];
  return (
    <ChartFrame title="Orchestrator reward" caption="task score plus the two shaping bonuses; faint: each episode, bold: the mean of its update" testId="reward-chart" points={data.length} emptyHint="Fills in as the first swarm episodes finish.">
      <ChartLegend items={REWARD_LEGEND} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN} title="Orchestrator reward and its parts, by episode">
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="episode" {...countXAxis(data.map((p) => p.episode))} label={axisLabel('episodes')} />
          <YAxis {...NUMBER_AXIS} width={40} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {trend('rPerf', 'task score', SERIES_COLORS[0])}
          {trend('shapedParallel', 'parallel bonus', SERIES_COLORS[2])}
          {trend('shapedFinish', 'finish bonus', SERIES_COLORS[3])}
          {lines.map(({ y, name }) => (
            <ReferenceLine key={name} y={y} stroke={SCALE_COLOR} strokeDasharray="2 4" ifOverflow="extendDomain" label={{ value: name, position: 'insideBottomRight', fill: SCALE_COLOR, fontSize: 11 }} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

/** What the λ chart's legend and note say: both weights at zero, or λ1 and λ2 the same all along. */
export function lambdaNote(points: readonly LambdaPoint[]): { allZero: boolean; same: boolean } {
  const allZero = points.length > 0 && points.every((p) => p.lambda1 === 0 && p.lambda2 === 0);
  const same = points.length > 0 && points.every((p) => p.lambda1 === p.lambda2);
  return { allZero, same };
}

export const LambdaChart = memo(function LambdaChart() {
  const data = forDisplay(useChartValue(selectLambdas), byLambda1);
  const marks = useChartValue(selectChangeMarks);
  const { allZero, same } = lambdaNote(data);
  const legend: LegendItem[] = same
    ? [{ name: 'λ1 = λ2 (one line: they are equal)', color: SERIES_COLORS[2] }]
    : [
        { name: 'λ1 (parallel bonus)', color: SERIES_COLORS[2] },
        { name: 'λ2 (finish bonus)', color: SERIES_COLORS[3], dashed: true },
      ];
  const max = data.reduce((m, p) => Math.max(m, p.lambda1, p.lambda2), 0);
  return (
    <ChartFrame title="Annealing" caption="the weights λ1 and λ2 of the two bonuses, by update" testId="lambda-chart" points={data.length} emptyHint="λ1 and λ2 appear after the first orchestrator update.">
      <ChartLegend items={legend} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN} title="λ1 and λ2 by update">
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="trainSteps" {...countXAxis(data.map((p) => p.trainSteps))} label={axisLabel('updates')} />
          {/* A fixed range from 0, so lines at 0 sit above the axis instead of on it. */}
          <YAxis {...NUMBER_AXIS} width={40} domain={[0, max > 0 ? 'auto' : 1]} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {/* λ1 wide and solid under a thin dashed λ2: equal values still show both. */}
          {changeLines(marks, 'update', data.length > 0 ? data[data.length - 1].trainSteps : 0)}
          <Line dataKey="lambda1" name="λ1" stroke={SERIES_COLORS[2]} strokeWidth={3} dot={false} isAnimationActive={false} shape={staticLine} />
          <Line dataKey="lambda2" name="λ2" stroke={SERIES_COLORS[3]} strokeWidth={1.5} strokeDasharray="5 4" dot={false} isAnimationActive={false} shape={staticLine} />
        </LineChart>
      </ResponsiveContainer>
      {allZero && (
        <p className="chart-note" data-testid="lambda-zero">
          λ1 and λ2 are 0 for this run: no shaping bonus, only the task score counts (both lines lie on the bottom of the chart).
        </p>
      )}
    </ChartFrame>
  );
});

export const CriticalStepsChart = memo(function CriticalStepsChart() {
  const data = forDisplay(useChartValue(selectSwarm), bySteps);
  const hasBound = data.some((p) => p.lowerBound !== null);
  return (
    <ChartFrame title="Critical steps and total steps" caption="latency against all work done; faint: each episode, bold: the mean of its update" testId="critical-chart" points={data.length} emptyHint="Fills in as the first swarm episodes finish.">
      <ChartLegend items={hasBound ? [...STEPS_LEGEND, BOUND_LEGEND] : STEPS_LEGEND} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN} title="Critical steps and total steps, by episode">
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="episode" {...countXAxis(data.map((p) => p.episode))} label={axisLabel('episodes')} />
          <YAxis {...NUMBER_AXIS} width={44} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {trend('criticalSteps', 'critical steps', SERIES_COLORS[0])}
          {trend('totalSteps', 'total steps', SERIES_COLORS[1])}
          <Line dataKey="serialBaseline" name="serial baseline" stroke="#f59e0b" strokeDasharray="5 4" dot={false} isAnimationActive={false} shape={staticLine} />
          {hasBound && <Line dataKey="lowerBound" name="lower bound" stroke="#4ade80" strokeDasharray="2 4" dot={false} isAnimationActive={false} shape={staticLine} />}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

export const ParallelismChart = memo(function ParallelismChart() {
  const data = forDisplay(useChartValue(selectSwarm), byParallelism);
  return (
    <ChartFrame title="Parallelism and finish rate" caption="subagents started per stage (left axis) and the share that finish (right axis); bold: update means" testId="parallelism-chart" points={data.length} emptyHint="Fills in as the first swarm episodes finish.">
      <ChartLegend items={PARALLELISM_LEGEND} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN} title="Subagents per stage and finish rate, by episode">
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="episode" {...countXAxis(data.map((p) => p.episode))} label={axisLabel('episodes')} />
          <YAxis yAxisId="n" {...NUMBER_AXIS} width={36} />
          <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} {...NUMBER_AXIS} width={36} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {trend('avgParallelism', 'subagents per stage', SERIES_COLORS[0], 'n')}
          <Line yAxisId="n" dataKey="maxParallelism" name="most subagents in a stage" stroke={SERIES_COLORS[1]} strokeOpacity={EPISODE_OPACITY} dot={false} isAnimationActive={false} shape={staticLine} strokeDasharray="4 3" />
          {trend('finishRate', 'finish rate', SERIES_COLORS[3], 'rate')}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});
