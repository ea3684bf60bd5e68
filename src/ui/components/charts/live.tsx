/**
 * How the charts follow the store without blocking the page while training runs:
 *
 * - `useChartValue` reads a store value for a chart. It follows the store only while the chart is
 *   on screen (or near it), and applies changes in a React transition, so React renders them in
 *   slices between frames instead of in one long task. Off screen the chart holds still and
 *   catches up when it scrolls back into view.
 * - `forDisplay` thins a series for drawing (the store keeps up to 2,000 points a series; a chart a
 *   few hundred pixels wide shows no more than about 400), keeping the extremes, and returns the
 *   same array for the same input so memoised charts do not redraw.
 */
import { createContext, startTransition, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { decimateKeepingExtremes } from '../../../experiments/decimate';
import { usePlayground, type PlaygroundState } from '../../store';

const InViewContext = createContext(true);

/** Marks its chart as on screen or not (with a margin, so charts scrolled into view are ready). */
export function InView({ wide = false, children }: { wide?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([e]) => setVisible(e.isIntersecting), { rootMargin: '200px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className={wide ? 'chart-slot chart-wide' : 'chart-slot'}>
      <InViewContext.Provider value={visible}>{children}</InViewContext.Provider>
    </div>
  );
}

/**
 * A store value for a chart (see the file comment). `selector` must be stable (defined at module
 * level) and return values that keep their identity while unchanged (the store's own arrays).
 */
export function useChartValue<T>(selector: (s: PlaygroundState) => T): T {
  const visible = useContext(InViewContext);
  const [value, setValue] = useState(() => selector(usePlayground.getState()));
  useEffect(() => {
    if (!visible) return;
    const update = () => {
      const next = selector(usePlayground.getState());
      startTransition(() => setValue(() => next));
    };
    update();
    return usePlayground.subscribe((s, prev) => {
      if (!Object.is(selector(s), selector(prev))) update();
    });
  }, [visible, selector]);
  return value;
}

export const DISPLAY_POINTS = 400;
// input array -> (value function, cap) -> thinned array
const thinned = new WeakMap<object, Map<unknown, Map<number, unknown[]>>>();

/** `points` thinned to at most about `cap` for drawing, extremes kept; memoised per input array. */
export function forDisplay<T>(points: T[], value: (p: T) => number, cap = DISPLAY_POINTS): T[] {
  if (points.length <= cap) return points;
  let byValue = thinned.get(points);
  if (!byValue) thinned.set(points, (byValue = new Map()));
  let byCap = byValue.get(value);
  if (!byCap) byValue.set(value, (byCap = new Map()));
  const hit = byCap.get(cap);
  if (hit) return hit as T[];
  let out = points;
  while (out.length > cap) out = decimateKeepingExtremes(out, value, cap);
  byCap.set(cap, out);
  return out;
}
