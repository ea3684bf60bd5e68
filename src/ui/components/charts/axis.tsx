/**
 * Axis ticks drawn as one plain SVG `<text>` each, at a fixed interval. recharts' defaults (tick
 * labels through its `Text` component, `interval="preserveEnd"`) measure every tick label in the
 * DOM on every render, to wrap it and to drop labels that would overlap: a forced style and layout
 * per label, which was about half of the main thread's long tasks while training.
 */
import type { BaseTickContentProps } from 'recharts';
import { AXIS_TICK } from './theme';

const DY = { start: '0.71em', middle: '0.355em', end: '0' } as const;

function PlainTick(p: BaseTickContentProps) {
  const value = p.payload.value;
  const text = p.tickFormatter ? p.tickFormatter(value, p.index) : String(value);
  return (
    <text x={p.x} y={p.y} dy={DY[p.verticalAnchor]} textAnchor={p.textAnchor} fill={AXIS_TICK.fill} fontSize={AXIS_TICK.fontSize} className={p.className}>
      {text}
    </text>
  );
}

/** Spread on a number axis: every tick of recharts' nice scale (5 by default) is labelled. */
export const NUMBER_AXIS = { tick: PlainTick, interval: 0 } as const;

/** The same for an axis of counts (episodes, steps, updates): whole-number ticks only. */
export const COUNT_AXIS = { ...NUMBER_AXIS, allowDecimals: false } as const;

/** Spread on a category axis of `count` categories: at most about 12 labels. */
export function categoryAxis(count: number) {
  return { tick: PlainTick, interval: Math.max(0, Math.ceil(count / 12) - 1) } as const;
}

/** 1, 2, 2.5 or 5 times a power of ten: the step of about `span / target`. */
function niceStep(span: number, target: number): number {
  const raw = span / Math.max(1, target);
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

/**
 * Ticks for a count axis from `min` to `max`: round multiples of one step inside the range, whole
 * numbers only, about `target` of them. The range's ends are not ticks of their own, so the last
 * two labels never collide ("451477" was 450 and the data's end, 477).
 */
export function countTicks(min: number, max: number, target = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max <= min) return [Math.round(min)];
  const step = Math.max(1, niceStep(max - min, target));
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) if (Number.isInteger(v)) out.push(v);
  return out.length > 0 ? out : [Math.round(min)];
}

/** 1,234 / 45.6k / 1.2M: short labels for counts on an axis. */
export function formatCount(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  return v.toLocaleString('en-US');
}

/** Spread on an x axis of counts: numeric domain from the data's ends, `countTicks` between them. */
export function countXAxis(values: readonly number[]) {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!Number.isFinite(min)) return { ...COUNT_AXIS, type: 'number' as const, domain: ['dataMin', 'dataMax'] as [string, string], tickFormatter: formatCount };
  return { ...COUNT_AXIS, type: 'number' as const, domain: [min, max] as [number, number], ticks: countTicks(min, max), tickFormatter: formatCount };
}
