/**
 * The page's state: one zustand store combined from the slice creators in store/slices.ts (the
 * experiment being edited, the view options a link can set, the run's status, the metrics the
 * charts read through selectors, the saved runs and the notices). Training data arrives in
 * batches from the learner worker (`ingest`, at most about 4 times a second), applied by the pure
 * `applyRecords`.
 */
import { create } from 'zustand';
import { createExperimentSlice, createMetricsSlice, createNoticesSlice, createRunSlice, createRunsSlice, createViewSlice, type PageClock } from './store/slices';
import type { PlaygroundState } from './store/types';

export * from './store/types';
export { applyRecords, meanReturnCurve, shapedTerms, type RecordsState } from './store/applyRecords';
export { browserPresetActors, emptyMetrics, type PageClock } from './store/slices';
export { measuredRate, progressView, startingLine, type ProgressView } from './store/progress';

/** A fresh store (the page has one, `usePlayground`; tests make their own, with a fake clock where time matters). */
export function createPlaygroundStore(now?: PageClock) {
  return create<PlaygroundState>()((...a) => ({
    ...createExperimentSlice(...a),
    ...createViewSlice(...a),
    ...createRunSlice(now)(...a),
    ...createMetricsSlice(now)(...a),
    ...createRunsSlice(...a),
    ...createNoticesSlice(...a),
  }));
}

export const usePlayground = createPlaygroundStore();
