import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { memo } from 'react';
import type { LambdaPoint, PlaygroundState, SmoothedKey, SwarmPoint } from '../../store';
import { NUMBER_AXIS, COUNT_AXIS } from './axis';
import { ChartFrame } from './ChartFrame';
import { ChartLegend, LEGEND_HEIGHT, type LegendItem } from './legend';
import { staticLine } from './staticLine';
import { forDisplay, useChartValue } from './live';
import { axisLabel, CHART_HEIGHT, GRID, MARGIN, SERIES_COLORS, TOOLTIP_STYLE } from './theme';

const selectSwarm = (s: PlaygroundState) => s.swarmPoints;
const selectLambdas = (s: PlaygroundState) => s.lambdaPoints;
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
  { name: 'r_perf', color: SERIES_COLORS[0] },
  { name: 'λ1·r_parallel', color: SERIES_COLORS[2] },
  { name: 'λ2·r_finish', color: SERIES_COLORS[3] },
];
const LAMBDA_LEGEND: LegendItem[] = [
  { name: 'λ1', color: SERIES_COLORS[2] },
  { name: 'λ2', color: SERIES_COLORS[3] },
];
const STEPS_LEGEND: LegendItem[] = [
  { name: 'critical', color: SERIES_COLORS[0] },
  { name: 'total', color: SERIES_COLORS[1] },
  { name: 'serial baseline', color: '#f59e0b', dashed: true },
];
const BOUND_LEGEND: LegendItem = { name: 'lower bound', color: '#4ade80', dashed: true };
const PARALLELISM_LEGEND: LegendItem[] = [
  { name: 'mean parallelism', color: SERIES_COLORS[0] },
  { name: 'max parallelism', color: SERIES_COLORS[1], dashed: true },
  { name: 'finish rate', color: SERIES_COLORS[3] },
];

export const RewardComponentsChart = memo(function RewardComponentsChart() {
  const data = forDisplay(useChartValue(selectSwarm), byTotal);
  return (
    <ChartFrame title="PARL reward" caption="r = r_perf + λ1·r_parallel + λ2·r_finish; faint: each episode, bold: the mean of its update" testId="reward-chart" points={data.length} emptyHint="Fills in as the first swarm episodes finish.">
      <ChartLegend items={REWARD_LEGEND} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="episode" type="number" domain={['dataMin', 'dataMax']} {...COUNT_AXIS} label={axisLabel('episode')} />
          <YAxis {...NUMBER_AXIS} width={40} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {trend('rPerf', 'r_perf', SERIES_COLORS[0])}
          {trend('shapedParallel', 'λ1·r_parallel', SERIES_COLORS[2])}
          {trend('shapedFinish', 'λ2·r_finish', SERIES_COLORS[3])}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

export const LambdaChart = memo(function LambdaChart() {
  const data = forDisplay(useChartValue(selectLambdas), byLambda1);
  return (
    <ChartFrame title="Annealing" caption="λ1 and λ2 against orchestrator training steps" testId="lambda-chart" points={data.length} emptyHint="λ1 and λ2 appear after the first orchestrator update.">
      <ChartLegend items={LAMBDA_LEGEND} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="trainSteps" type="number" domain={['dataMin', 'dataMax']} {...COUNT_AXIS} label={axisLabel('training steps')} />
          <YAxis {...NUMBER_AXIS} width={40} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          <Line dataKey="lambda1" name="λ1" stroke={SERIES_COLORS[2]} dot={false} isAnimationActive={false} shape={staticLine} />
          <Line dataKey="lambda2" name="λ2" stroke={SERIES_COLORS[3]} dot={false} isAnimationActive={false} shape={staticLine} />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});

export const CriticalStepsChart = memo(function CriticalStepsChart() {
  const data = forDisplay(useChartValue(selectSwarm), bySteps);
  const hasBound = data.some((p) => p.lowerBound !== null);
  return (
    <ChartFrame title="Critical vs total steps" caption="faint: each episode, bold: the mean of its update; dashed: serial baseline and lower bound" testId="critical-chart" points={data.length} emptyHint="Fills in as the first swarm episodes finish.">
      <ChartLegend items={hasBound ? [...STEPS_LEGEND, BOUND_LEGEND] : STEPS_LEGEND} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="episode" type="number" domain={['dataMin', 'dataMax']} {...COUNT_AXIS} label={axisLabel('episode')} />
          <YAxis {...NUMBER_AXIS} width={44} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {trend('criticalSteps', 'critical', SERIES_COLORS[0])}
          {trend('totalSteps', 'total', SERIES_COLORS[1])}
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
    <ChartFrame title="Parallelism and finish rate" caption="subagents per launching stage (left), finish rate (right); bold: update means" testId="parallelism-chart" points={data.length} emptyHint="Fills in as the first swarm episodes finish.">
      <ChartLegend items={PARALLELISM_LEGEND} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={data} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="episode" type="number" domain={['dataMin', 'dataMax']} {...COUNT_AXIS} label={axisLabel('episode')} />
          <YAxis yAxisId="n" {...NUMBER_AXIS} width={36} />
          <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} {...NUMBER_AXIS} width={36} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {trend('avgParallelism', 'mean parallelism', SERIES_COLORS[0], 'n')}
          <Line yAxisId="n" dataKey="maxParallelism" name="max parallelism" stroke={SERIES_COLORS[1]} strokeOpacity={EPISODE_OPACITY} dot={false} isAnimationActive={false} shape={staticLine} strokeDasharray="4 3" />
          {trend('finishRate', 'finish rate', SERIES_COLORS[3], 'rate')}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
});
