import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { memo, useMemo } from 'react';
import type { EpisodePoint, PlaygroundState } from '../../store';
import { NUMBER_AXIS, countXAxis } from './axis';
import { ChartFrame } from './ChartFrame';
import { ChartLegend, LEGEND_HEIGHT } from './legend';
import { staticLine } from './staticLine';
import { Deferred, forDisplay, useChartValue } from './live';
import { changeLines, selectChangeMarks } from './ChangeMarkers';
import { axisLabel, CHART_HEIGHT, GRID, MARGIN, SERIES_COLORS, TOOLTIP_STYLE } from './theme';
import { describeDifference } from '../configDiff';
import { usePlayground } from '../../store';
import { budgetOf } from '../../../config/budget';
import { returnScaleOf, type ReturnScale } from '../../../config/returnScales';
import { hasTargetReturn } from '../../../config/targetReturn';

const selectEpisodes = (s: PlaygroundState) => s.episodePoints;
const selectUpdates = (s: PlaygroundState) => s.updatePoints;
const selectOverlays = (s: PlaygroundState) => s.overlays;
const selectTarget = (s: PlaygroundState) => s.config.settings['run.targetReturn'];
// Classic and continuous control have a target return, and the particle worlds that have a scale; a swarm's would be a stray 1000.
const selectScale = (s: PlaygroundState): ReturnScale | null => returnScaleOf(s.config.settings);
const selectHasTarget = (s: PlaygroundState) => hasTargetReturn(s.config.settings);
const SCALE_COLOR = '#94a3b8';

/** The random and scripted teams' returns as dashed lines, and their legend items. */
function scaleLines(scale: ReturnScale | null) {
  if (!scale) return { items: [], lines: null };
  const items = [
    { name: `random ${scale.random}`, color: SCALE_COLOR, dashed: true },
    { name: `${scale.scriptedLabel} ${scale.scripted}`, color: SCALE_COLOR, dashed: true },
  ];
  const lines = [scale.random, scale.scripted].map((y) => <ReferenceLine key={y} y={y} stroke={SCALE_COLOR} strokeDasharray="2 4" ifOverflow="extendDomain" />);
  return { items, lines };
}
const byReturn = (p: EpisodePoint) => p.ret;
const TARGET_COLOR = '#f59e0b';
const byMean = (p: { mean: number }) => p.mean;
// Offline runs take no env steps until they evaluate: their curve is by gradient steps, their budget.
const selectByGradientSteps = (s: PlaygroundState) => budgetOf(s.config.settings.algorithm).unit === 'gradientSteps';

const selectEpisodeCount = (s: PlaygroundState) => s.episodePoints.length;
const selectOverlayCount = (s: PlaygroundState) => s.overlays.length;

// Two charts, each following its own store values, so each updates in its own task (see live.tsx).
const EpisodesChart = memo(function EpisodesChart() {
  const episodes = forDisplay(useChartValue(selectEpisodes), byReturn);
  const target = useChartValue(selectTarget);
  const hasTarget = usePlayground(selectHasTarget);
  const scale = scaleLines(usePlayground(selectScale));
  const marks = useChartValue(selectChangeMarks);
  // A legend like the right-hand chart's, so both plots start at the same height.
  return (
    <div>
      <ChartLegend
        items={[
          { name: 'each episode', color: SERIES_COLORS[0] },
          ...(hasTarget ? [{ name: `target ${target}`, color: TARGET_COLOR, dashed: true }] : []),
          ...scale.items,
        ]}
      />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart data={episodes} margin={MARGIN} title="Return of each finished episode, by episode">
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="episode" {...countXAxis(episodes.map((p) => p.episode))} label={axisLabel('episodes')} />
          <YAxis {...NUMBER_AXIS} width={44} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {hasTarget && <ReferenceLine y={target} stroke={TARGET_COLOR} strokeDasharray="4 4" />}
          {scale.lines}
          {changeLines(marks, 'episode', episodes.length > 0 ? episodes[episodes.length - 1].episode : 0)}
          <Line dataKey="ret" name="return" stroke={SERIES_COLORS[0]} dot={false} isAnimationActive={false} shape={staticLine} strokeWidth={1.2} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
});

const MeanChart = memo(function MeanChart() {
  const updates = useChartValue(selectUpdates);
  const overlays = useChartValue(selectOverlays);
  const target = useChartValue(selectTarget);
  const hasTarget = usePlayground(selectHasTarget);
  const scale = scaleLines(usePlayground(selectScale));
  const marks = useChartValue(selectChangeMarks);
  const runs = usePlayground((s) => s.runs);
  const config = usePlayground((s) => s.config);
  // Each overlay named with what differs from this run's settings ("seed 3, Learning rate 0.003").
  const overlayName = (o: { id: string; name: string }) => {
    const run = runs.find((r) => r.id === o.id);
    return run ? `${o.name} (${describeDifference(run.config, config)})` : o.name;
  };
  const byGradientSteps = usePlayground(selectByGradientSteps);
  const mean = useMemo(
    () => forDisplay(updates.flatMap((u) => (u.meanReturn20 === null ? [] : [{ x: byGradientSteps ? (u.metrics.gradientSteps ?? 0) : u.envSteps, mean: u.meanReturn20 }])), byMean),
    [updates, byGradientSteps],
  );
  const overlayPoints = useMemo(
    () => overlays.map((o) => o.points.map((p) => ({ x: byGradientSteps ? (p.gradientSteps ?? p.envSteps) : p.envSteps, mean: p.mean }))),
    [overlays, byGradientSteps],
  );
  const xName = byGradientSteps ? 'gradient steps' : 'environment steps';
  return (
    <div>
      <ChartLegend
        items={[
          { name: 'this run', color: SERIES_COLORS[1] },
          ...overlays.map((o, i) => ({ name: overlayName(o), color: SERIES_COLORS[(i + 2) % SERIES_COLORS.length], dashed: true })),
          ...scale.items,
        ]}
      />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT - LEGEND_HEIGHT}>
        <LineChart margin={MARGIN} data-testid="mean-chart" title={`Average return of the last 20 episodes, by ${xName}`}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="x" {...countXAxis([...mean.map((p) => p.x), ...overlayPoints.flatMap((o) => o.map((p) => p.x))])} label={axisLabel(xName)} allowDuplicatedCategory={false} />
          <YAxis {...NUMBER_AXIS} width={44} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          {hasTarget && <ReferenceLine y={target} stroke={TARGET_COLOR} strokeDasharray="4 4" />}
          {scale.lines}
          {changeLines(marks, byGradientSteps ? 'gradientSteps' : 'envSteps', mean.length > 0 ? mean[mean.length - 1].x : 0)}
          <Line data={mean} dataKey="mean" name="this run" stroke={SERIES_COLORS[1]} dot={false} isAnimationActive={false} shape={staticLine} strokeWidth={2} />
          {overlays.map((o, i) => (
            <Line key={o.id} data={overlayPoints[i]} dataKey="mean" name={overlayName(o)} stroke={SERIES_COLORS[(i + 2) % SERIES_COLORS.length]} dot={false} isAnimationActive={false} shape={staticLine} strokeWidth={1.5} strokeDasharray="5 3" />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
});

export const ReturnChart = memo(function ReturnChart() {
  const episodeCount = useChartValue(selectEpisodeCount);
  const overlayCount = useChartValue(selectOverlayCount);
  return (
    <ChartFrame
      title="Episode return"
      caption="every finished episode, and the average of the last 20 (saved runs dashed)"
      testId="return-chart"
      points={episodeCount}
      wide
      emptyHint={overlayCount === 0 ? 'Press Start: returns appear here as the actors finish episodes.' : undefined}
    >
      <div className="chart-pair">
        <Deferred>
          <EpisodesChart />
        </Deferred>
        <Deferred>
          <MeanChart />
        </Deferred>
      </div>
    </ChartFrame>
  );
});
