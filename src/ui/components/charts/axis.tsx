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
