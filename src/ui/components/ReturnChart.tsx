import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { usePlayground } from '../store';

export function ReturnChart() {
  const episodes = usePlayground((s) => s.episodePoints);
  const updates = usePlayground((s) => s.updatePoints);
  const target = usePlayground((s) => s.config.settings['run.targetReturn']);
  const data = episodes.map((p) => ({ episode: p.episode, ret: p.ret }));
  const mean = updates
    .filter((u) => u.meanReturn20 !== null)
    .map((u) => ({ envSteps: u.envSteps, mean: u.meanReturn20 }));
  return (
    <figure className="chart" data-testid="return-chart" data-points={data.length}>
      <figcaption>
        <strong>Episode return</strong> <span className="muted">each finished episode, and the mean of the last 20 by update</span>
      </figcaption>
      <div className="chart-pair">
        <ResponsiveContainer width="100%" height={220}>
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#2a3342" />
            <XAxis dataKey="episode" type="number" domain={['dataMin', 'dataMax']} tick={{ fill: '#94a3b8', fontSize: 11 }} label={{ value: 'episode', position: 'insideBottom', offset: -8, fill: '#94a3b8', fontSize: 11 }} />
            <YAxis tick={{ fill: '#94a3b8', fontSize: 11 }} />
            <Tooltip contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
            <ReferenceLine y={target} stroke="#f59e0b" strokeDasharray="4 4" label={{ value: `target ${target}`, fill: '#f59e0b', fontSize: 11, position: 'insideTopLeft' }} />
            <Line type="monotone" dataKey="ret" name="return" stroke="#38bdf8" dot={false} isAnimationActive={false} strokeWidth={1.5} />
          </LineChart>
        </ResponsiveContainer>
        <ResponsiveContainer width="100%" height={220}>
          <LineChart data={mean} margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#2a3342" />
            <XAxis dataKey="envSteps" type="number" domain={['dataMin', 'dataMax']} tick={{ fill: '#94a3b8', fontSize: 11 }} label={{ value: 'environment steps', position: 'insideBottom', offset: -8, fill: '#94a3b8', fontSize: 11 }} />
            <YAxis tick={{ fill: '#94a3b8', fontSize: 11 }} />
            <Tooltip contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
            <Legend verticalAlign="top" height={20} />
            <ReferenceLine y={target} stroke="#f59e0b" strokeDasharray="4 4" />
            <Line type="monotone" dataKey="mean" name="mean of last 20" stroke="#a78bfa" dot={false} isAnimationActive={false} strokeWidth={2} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      {data.length === 0 && <p className="empty">Press Start: returns appear here as the actors finish episodes.</p>}
    </figure>
  );
}
