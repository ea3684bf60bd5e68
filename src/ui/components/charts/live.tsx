/**
 * How the charts follow the store without blocking the page while training runs:
 *
 * - `useChartValue` reads a store value for a chart. It follows the store only while the chart is
 *   on screen (or near it); off screen the chart holds still and catches up when it scrolls back
 *   into view, or when the page is printed. Charts take their changes one at a time, each in its
 *   own task (see `pump`).
 * - `forDisplay` thins a series for drawing (the store keeps up to 2,000 points a series; a chart a
 *   few hundred pixels wide shows no more than about 400), keeping the extremes, and returns the
 *   same array for the same input so memoised charts do not redraw.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { decimateKeepingExtremes } from '../../../runs/decimate';
import { usePlayground, type PlaygroundState } from '../../store';

const InViewContext = createContext(true);

/** Marks its chart as on screen or not (with a margin, so charts scrolled into view are ready). */
export function InView({ wide = false, children }: { wide?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    // The newest entry decides (a busy page can batch an "out" and an "in" in one callback).
    const observer = new IntersectionObserver((entries) => setVisible(entries[entries.length - 1].isIntersecting), { rootMargin: '200px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className={wide ? 'chart-slot chart-wide' : 'chart-slot'}>
      <InViewContext.Provider value={visible}>
        <Deferred>{children}</Deferred>
      </InViewContext.Provider>
    </div>
  );
}

/**
 * Renders its children from its turn in `pump` on: mounting a recharts chart takes tens of
 * milliseconds, and several charts appear at once when a run's first records arrive.
 */
export function Deferred({ children }: { children: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    let live = true;
    const mount = () => {
      if (live) flushSync(() => setMounted(true));
    };
    request(mount);
    // A printout shows every chart, so none may still wait for its turn.
    window.addEventListener('beforeprint', mount);
    return () => {
      live = false;
      waiting.delete(mount);
      window.removeEventListener('beforeprint', mount);
    };
  }, []);
  return mounted ? children : null;
}

/** Charts with a store change to apply, in the order they asked; each applies the newest value. */
const waiting = new Set<() => void>();
let pumpTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Applies one chart's change per task. A recharts chart does not update in one render: its
 * effects copy the new data into recharts' own store, which re-renders the chart synchronously
 * (a transition cannot slice that), so a change to every chart at once was one long task. Here
 * each chart renders, commits and runs those effects inside `flushSync`, then the next chart
 * waits for the next task, so the page can paint and handle input between charts.
 */
function pump() {
  pumpTimer = null;
  const [next] = waiting;
  if (!next) return;
  waiting.delete(next);
  next();
  if (waiting.size > 0) pumpTimer = setTimeout(pump, 0);
}

function request(apply: () => void) {
  waiting.add(apply);
  // Always from a task of its own: flushSync must not run inside a React render or effect.
  pumpTimer ??= setTimeout(pump, 0);
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
    let live = true;
    const apply = () => {
      if (!live) return;
      const next = selector(usePlayground.getState());
      flushSync(() => setValue(() => next));
    };
    request(apply);
    const unsubscribe = usePlayground.subscribe((s, prev) => {
      if (!Object.is(selector(s), selector(prev))) request(apply);
    });
    return () => {
      live = false;
      waiting.delete(apply);
      unsubscribe();
    };
  }, [visible, selector]);
  useEffect(() => {
    // Off-screen charts hold still, but a printout shows them all: bring each up to date first.
    const current = () => flushSync(() => setValue(() => selector(usePlayground.getState())));
    window.addEventListener('beforeprint', current);
    return () => window.removeEventListener('beforeprint', current);
  }, [selector]);
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
