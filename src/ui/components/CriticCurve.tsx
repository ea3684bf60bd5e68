/**
 * What the critics think of every action on one state: Q(s, a) as the action sweeps its range
 * (one line per critic: TD3's and SAC's twins, DDPG's one), and where the actor's own action sits
 * on them, for the state picked among a few probe states. The learner computes the curves every
 * few seconds (src/engine/inspectValues.ts).
 */
import { useState, type ReactNode } from 'react';
import type { CriticCurveSnapshot } from '../../runs/records';

const W = 360;
const H = 170;
const PAD = { left: 46, right: 10, top: 10, bottom: 26 };
const COLORS = ['#38bdf8', '#f59e0b'];

function fmt(x: number, digits = 2): string {
  const s = x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

/** Decimals that tell the axis's ends apart: none over a range of 100 or more, up to 3 for a narrow one. */
export function axisDigits(lo: number, hi: number): number {
  const span = hi - lo;
  return span >= 100 ? 0 : Math.min(3, Math.max(1, Math.ceil(-Math.log10(span)) + 1));
}

/** The action where a curve is highest (the first, on a tie). */
export function bestAction(actions: readonly number[], q: readonly number[]): number {
  let best = 0;
  for (let k = 1; k < q.length; k++) if (q[k] > q[best]) best = k;
  return actions[best];
}

export function CriticCurve({ curve, update, picker }: { curve: CriticCurveSnapshot; update: number; picker?: ReactNode }) {
  const all = [...curve.critics.flatMap((c) => c.q), ...curve.actorQ];
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (!(hi > lo)) [lo, hi] = [lo - 1, hi + 1];
  const [a0, a1] = [curve.actions[0], curve.actions[curve.actions.length - 1]];
  const x = (a: number) => PAD.left + ((a - a0) / (a1 - a0)) * (W - PAD.left - PAD.right);
  const y = (q: number) => PAD.top + ((hi - q) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const twin = curve.critics.length > 1;
  const digits = axisDigits(lo, hi);
  const actionDigits = Number.isInteger(a0) && Number.isInteger(a1) ? 0 : 2;
  const name = curve.actionName;
  return (
    <figure className="critic-curve" data-testid="critic-curve" data-update={update}>
      <figcaption>
        <strong>
          What the critic{twin ? 's' : ''} expect{twin ? '' : 's'} for each {name}
        </strong>{' '}
        <span className="muted">
          Q(s, {name}) with the state {curve.stateLabel}; update {update}
        </span>
      </figcaption>
      {picker}
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={`Q over ${name} from ${fmt(a0)} to ${fmt(a1)}, and the actor’s ${name}`}>
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} stroke="#475569" />
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={H - PAD.bottom} stroke="#475569" />
        <text x={PAD.left - 4} y={PAD.top + 8} textAnchor="end" fontSize="10" fill="#94a3b8">
          {fmt(hi, digits)}
        </text>
        <text x={PAD.left - 4} y={H - PAD.bottom} textAnchor="end" fontSize="10" fill="#94a3b8">
          {fmt(lo, digits)}
        </text>
        <text x={PAD.left} y={H - 8} fontSize="10" fill="#94a3b8">
          {fmt(a0, actionDigits)}
        </text>
        <text x={W - PAD.right} y={H - 8} textAnchor="end" fontSize="10" fill="#94a3b8">
          {fmt(a1, actionDigits)}
        </text>
        <text x={(PAD.left + W - PAD.right) / 2} y={H - 8} textAnchor="middle" fontSize="10" fill="#94a3b8">
          {name}
        </text>
        {curve.critics.map((c, k) => (
          <polyline
            key={c.name}
            fill="none"
            stroke={COLORS[k % COLORS.length]}
            strokeWidth={1.8}
            strokeDasharray={k === 1 ? '5 3' : undefined}
            points={c.q.map((q, i) => `${x(curve.actions[i]).toFixed(1)},${y(q).toFixed(1)}`).join(' ')}
          />
        ))}
        <line x1={x(curve.actorAction)} x2={x(curve.actorAction)} y1={PAD.top} y2={H - PAD.bottom} stroke="#4ade80" strokeDasharray="2 3" />
        {curve.actorQ.map((q, k) => (
          <circle key={k} cx={x(curve.actorAction)} cy={y(q)} r={3.5} fill="#4ade80" stroke={COLORS[k % COLORS.length]} />
        ))}
      </svg>
      <p className="critic-legend" data-testid="critic-readout">
        {curve.critics.map((c, k) => (
          <span key={c.name} style={{ color: COLORS[k % COLORS.length] }}>
            {c.name}
            {k === 1 ? ' (dashed)' : ''} ·{' '}
          </span>
        ))}
        <span style={{ color: '#4ade80' }}>the actor’s {name} (green): {fmt(curve.actorAction)}</span>, rated {curve.critics.map((c, k) => `${c.name} ${fmt(curve.actorQ[k])}`).join(', ')}. {twin ? 'Q1' : 'The critic'} rates {name} {fmt(bestAction(curve.actions, curve.critics[0].q))} highest.
      </p>
    </figure>
  );
}

/** The curves of the probe state picked (the first, until another is). */
export function CriticCurves({ curves, update }: { curves: CriticCurveSnapshot[]; update: number }) {
  const [picked, setPicked] = useState(0);
  const shown = curves[Math.min(picked, curves.length - 1)];
  const picker = curves.length > 1 && (
    <div role="radiogroup" aria-label="The state the critics are asked about" className="heatmap-modes" data-testid="critic-states">
      {curves.map((c, k) => (
        <label key={c.stateLabel}>
          <input type="radio" name="critic-state" checked={shown === c} onChange={() => setPicked(k)} /> {c.stateLabel}
        </label>
      ))}
    </div>
  );
  return <CriticCurve curve={shown} update={update} picker={picker} />;
}
