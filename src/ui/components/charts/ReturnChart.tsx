import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { memo, useMemo } from 'react';
import type { EpisodePoint, PlaygroundState } from '../../store';
import { ChartFrame } from './ChartFrame';
import { forDisplay, useChartValue } from './live';

const selectEpisodes = (s: PlaygroundState) => s.episodePoints;
const selectUpdates = (s: PlaygroundState) => s.updatePoints;
const selectOverlays = (s: PlaygroundState) => s.overlays;
const selectTarget = (s: PlaygroundState) => s.config.settings['run.targetReturn'];
const byReturn = (p: EpisodePoint) => p.ret;
const byMean = (p: { mean: number }) => p.mean;
import { AXIS_TICK, axisLabel, CHART_HEIGHT, GRID, MARGIN, SERIES_COLORS, TOOLTIP_STYLE } from './theme';

export const ReturnChart = memo(function ReturnChart() {
  const allEpisodes = useChartValue(selectEpisodes);
  const updates = useChartValue(selectUpdates);
  const overlays = useChartValue(selectOverlays);
  const target = useChartValue(selectTarget);
  const episodes = forDisplay(allEpisodes, byReturn);
  const mean = useMemo(
    () => forDisplay(updates.flatMap((u) => (u.meanReturn20 === null ? [] : [{ envSteps: u.envSteps, mean: u.meanReturn20 }])), byMean),
    [updates],
  );
  return (
    <ChartFrame title="Episode return" caption="each finished episode, and the mean of the last 20 by env steps (saved runs overlaid)" testId="return-chart" points={allEpisodes.length} wide>
      {allEpisodes.length === 0 && overlays.length === 0 ? (
        <p className="empty chart-empty">Press Start: returns appear here as the actors finish episodes.</p>
      ) : (
        <div className="chart-pair">
          <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
            <LineChart data={episodes} margin={MARGIN}>
              <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
              <XAxis dataKey="episode" type="number" domain={['dataMin', 'dataMax']} tick={AXIS_TICK} label={axisLabel('episode')} />
              <YAxis tick={AXIS_TICK} width={44} />
              <Tooltip contentStyle={TOOLTIP_STYLE} />
              <ReferenceLine y={target} stroke="#f59e0b" strokeDasharray="4 4" label={{ value: `target ${target}`, fill: '#f59e0b', fontSize: 11, position: 'insideTopLeft' }} />
              <Line dataKey="ret" name="return" stroke={SERIES_COLORS[0]} dot={false} isAnimationActive={false} strokeWidth={1.2} />
            </LineChart>
          </ResponsiveContainer>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
            <LineChart margin={MARGIN} data-testid="mean-chart">
              <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
              <XAxis dataKey="envSteps" type="number" domain={['dataMin', 'dataMax']} tick={AXIS_TICK} label={axisLabel('environment steps')} allowDuplicatedCategory={false} />
              <YAxis tick={AXIS_TICK} width={44} />
              <Tooltip contentStyle={TOOLTIP_STYLE} />
              <Legend verticalAlign="top" wrapperStyle={{ fontSize: 11, paddingBottom: 4 }} />
              <ReferenceLine y={target} stroke="#f59e0b" strokeDasharray="4 4" />
              <Line data={mean} dataKey="mean" name="this run" stroke={SERIES_COLORS[1]} dot={false} isAnimationActive={false} strokeWidth={2} />
              {overlays.map((o, i) => (
                <Line key={o.id} data={o.points} dataKey="mean" name={o.name} stroke={SERIES_COLORS[(i + 2) % SERIES_COLORS.length]} dot={false} isAnimationActive={false} strokeWidth={1.5} strokeDasharray="5 3" />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </ChartFrame>
  );
});
