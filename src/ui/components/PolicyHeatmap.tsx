/**
 * What the policy computes, as a picture: over a 2-D slice of the state space (two state variables
 * on a grid, the others fixed), the probability of one action, the greedy action, or the value.
 * The learner computes the grid every few seconds in one batched pass (src/engine/inspect.ts);
 * this draws the record it sends. Pointing at a cell picks that state for the network view.
 */
import { useEffect, useRef, useState } from 'react';
import type { HeatmapSnapshot } from '../../runs/records';

export type HeatmapMode = 'prob' | 'greedy' | 'value';

/** Diverging blue (0) → near-black (½) → orange (1), after TensorFlow Playground's colours. */
export function divergingColor(t: number): [number, number, number] {
  const c = Math.min(1, Math.max(0, t));
  const lo: [number, number, number] = [8, 119, 189];
  const mid: [number, number, number] = [24, 24, 32];
  const hi: [number, number, number] = [245, 147, 34];
  const [a, b, f] = c < 0.5 ? [lo, mid, c * 2] : [mid, hi, (c - 0.5) * 2];
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * f)) as [number, number, number];
}

const ACTION_COLORS: [number, number, number][] = [
  [8, 119, 189],
  [120, 120, 130],
  [245, 147, 34],
];

/** The colour of a greedy action: the first blue, the last orange, one in between grey. */
function actionColor(action: number, numActions: number): [number, number, number] {
  if (action === 0) return ACTION_COLORS[0];
  return action === numActions - 1 ? ACTION_COLORS[2] : ACTION_COLORS[1];
}

/** Each cell's value in [0, 1] for the colour scale, and what the scale's ends mean. */
export function cellScale(h: HeatmapSnapshot, mode: HeatmapMode): { t: number[]; low: string; high: string } {
  if (mode === 'prob') return { t: h.prob, low: '0', high: '1' };
  if (mode === 'greedy') return { t: h.greedy.map((g) => g / Math.max(1, h.actionNames.length - 1)), low: h.actionNames[0], high: h.actionNames[h.actionNames.length - 1] };
  const v = h.value ?? [];
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  return { t: v.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0.5)), low: lo.toPrecision(3), high: hi.toPrecision(3) };
}

interface Props {
  heatmap: HeatmapSnapshot;
  update: number;
  /** The state pointed at (its grid cell), or null. */
  onPoint(cell: { x: number; y: number } | null): void;
}

const CELL_PX = 8;

export function PolicyHeatmap({ heatmap: h, update, onPoint }: Props) {
  const [mode, setMode] = useState<HeatmapMode>('prob');
  const canvas = useRef<HTMLCanvasElement>(null);
  const shownMode: HeatmapMode = mode === 'value' && !h.value ? 'prob' : mode;
  const scale = cellScale(h, shownMode);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    const img = ctx.createImageData(h.n, h.n);
    for (let j = 0; j < h.n; j++) {
      for (let i = 0; i < h.n; i++) {
        const c = j * h.n + i;
        const rgb = shownMode === 'greedy' ? actionColor(h.greedy[c], h.actionNames.length) : divergingColor(scale.t[c]);
        // y grows upwards on screen: row j of the grid is drawn n - 1 - j pixels down.
        const p = ((h.n - 1 - j) * h.n + i) * 4;
        img.data.set([...rgb, 255], p);
      }
    }
    ctx.putImageData(img, 0, 0);
  }, [h, shownMode, scale.t]);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const fx = (e.clientX - r.left) / r.width;
    const fy = 1 - (e.clientY - r.top) / r.height;
    onPoint({ x: h.xRange[0] + fx * (h.xRange[1] - h.xRange[0]), y: h.yRange[0] + fy * (h.yRange[1] - h.yRange[0]) });
  };
  const title =
    shownMode === 'prob' ? `P(${h.actionNames[h.action]})` : shownMode === 'greedy' ? 'greedy action' : 'value V(s)';
  const fmt = (x: number) => Number(x.toPrecision(3));

  return (
    <figure className="policy-heatmap" data-testid="policy-heatmap" data-update={update}>
      <figcaption>
        <strong>{title}</strong> <span className="muted">over {h.xKey} × {h.yKey}, the rest of the state at the values below; update {update}</span>
      </figcaption>
      <div role="radiogroup" aria-label="What the heatmap shows" className="heatmap-modes">
        {(['prob', 'greedy', 'value'] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="heatmap-mode" value={m} checked={shownMode === m} disabled={m === 'value' && !h.value} onChange={() => setMode(m)} />{' '}
            {m === 'prob' ? `P(${h.actionNames[h.action]})` : m === 'greedy' ? 'greedy action' : 'value'}
          </label>
        ))}
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', alignItems: 'center', gap: 4 }}>
        <span className="muted" style={{ writingMode: 'vertical-rl', transform: 'rotate(180deg)', fontSize: 11 }}>
          {h.yKey} {fmt(h.yRange[0])} … {fmt(h.yRange[1])}
        </span>
        <canvas
          ref={canvas}
          width={h.n}
          height={h.n}
          role="img"
          aria-label={`${title} over ${h.xKey} and ${h.yKey}`}
          style={{ width: '100%', maxWidth: h.n * CELL_PX * 1.6, aspectRatio: '1', imageRendering: 'pixelated', cursor: 'crosshair' }}
          onPointerMove={point}
          onPointerLeave={() => onPoint(null)}
        />
      </div>
      <p className="muted" style={{ fontSize: 11, margin: '2px 0 0 20px' }}>
        {h.xKey} {fmt(h.xRange[0])} … {fmt(h.xRange[1])}; colour: {scale.low} (blue) to {scale.high} (orange)
      </p>
    </figure>
  );
}
