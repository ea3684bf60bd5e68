/**
 * Calls `run` once the page has painted its first content (the 'first-contentful-paint' entry),
 * or after `fallbackMs` where the browser never reports one. A requestAnimationFrame alone is not
 * enough: the paint's presentation can come after the next task, so work started there (the
 * learner worker's script) could still be fetched before the first paint. Returns a cancel.
 */
export function afterFirstPaint(run: () => void, fallbackMs = 1500): () => void {
  let done = false;
  let observer: PerformanceObserver | null = null;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    clearTimeout(fallback);
    pending = setTimeout(run, 0);
  };
  const fallback = setTimeout(fire, fallbackMs);
  if (performance.getEntriesByName('first-contentful-paint').length > 0) fire();
  else if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('paint')) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) fire();
    });
    observer.observe({ type: 'paint', buffered: true });
  }
  return () => {
    done = true;
    observer?.disconnect();
    clearTimeout(fallback);
    clearTimeout(pending);
  };
}
