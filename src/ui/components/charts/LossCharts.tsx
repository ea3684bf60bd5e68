import { memo } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { usePlayground, type UpdatePoint } from '../../store';
import { ChartFrame } from './ChartFrame';
import { AXIS_TICK, GRID, SERIES_COLORS, TOOLTIP_STYLE } from './theme';

const LABELS: Record<string, string> = {
  loss: 'loss',
  policyLoss: 'policy loss',
  valueLoss: 'value loss',
  entropy: 'entropy',
  approxKl: 'approx. KL',
  clipFrac: 'clip fraction',
  pgLoss: 'policy loss',
  gradNorm: 'gradient norm',
  returnMean: 'batch return mean',
  returnStd: 'batch return std',
};

const MiniChart = memo(function MiniChart({ metric, data, color }: { metric: string; data: UpdatePoint[]; color: string }) {
  return (
    <div className="mini-chart">
      <div className="mini-title">{LABELS[metric] ?? metric}</div>
      <ResponsiveContainer width="100%" height={110}>
        <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
          <XAxis dataKey="update" type="number" domain={['dataMin', 'dataMax']} tick={AXIS_TICK} height={18} />
          <YAxis tick={AXIS_TICK} width={52} tickFormatter={(v: number) => Number(v.toPrecision(2)).toString()} />
          <Tooltip contentStyle={TOOLTIP_STYLE} />
          <Line dataKey={(p: UpdatePoint) => p.metrics[metric]} name={LABELS[metric] ?? metric} stroke={color} dot={false} isAnimationActive={false} strokeWidth={1.5} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
});

/** One small chart per metric the algorithm reports (their scales differ too much to share an axis). */
export function LossCharts() {
  const keys = usePlayground((s) => s.metricKeys);
  const updates = usePlayground((s) => s.updatePoints);
  return (
    <ChartFrame title="Losses" caption="what the algorithm reports each update, by update" testId="loss-chart" points={updates.length} wide>
      <div className="mini-grid">
        {keys.map((k, i) => (
          <MiniChart key={k} metric={k} data={updates} color={SERIES_COLORS[(i + 1) % SERIES_COLORS.length]} />
        ))}
      </div>
    </ChartFrame>
  );
}
