/**
 * Connects the store to the learner worker: run control in, batched records out. The worker is
 * started once with the page and probes its backend right away, so the page can say which
 * backend training will use before anything starts.
 */
import { createLearner, type LearnerHandle } from '../experiments/learnerClient';
import type { RunRecord } from '../experiments/records';
import { usePlayground } from './store';

let learner: LearnerHandle | null = null;

function handle(): LearnerHandle {
  if (!learner) {
    learner = createLearner((message) => {
      const s = usePlayground.getState();
      s.notify('error', `The learner worker crashed: ${message}. Your settings are kept; press Start to try again.`);
      s.setStatus('error');
      learner?.terminate();
      learner = null;
    });
  }
  return learner;
}

export async function probeBackend(): Promise<void> {
  const s = usePlayground.getState();
  try {
    s.setBackend(await handle().api.probe(s.config.settings.backend));
  } catch (err) {
    s.notify('error', `Could not start tfjs: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export async function startRun(): Promise<void> {
  const s = usePlayground.getState();
  if (!['idle', 'done', 'error'].includes(s.status)) return;
  s.clearMetrics();
  s.setStatus('starting');
  const h = handle();
  const onRecords = h.proxy((records: RunRecord[]) => {
    const st = usePlayground.getState();
    st.ingest(records);
    if (st.status === 'starting' && records.some((r) => r.type === 'update' || r.type === 'actors')) st.setStatus('running');
  });
  try {
    const summary = await h.api.start(s.config, onRecords);
    const st = usePlayground.getState();
    st.setStatus(summary.stopReason === 'error' ? 'error' : 'done');
    if (summary.error) st.notify('error', summary.error);
  } catch (err) {
    const st = usePlayground.getState();
    st.setStatus('error');
    st.notify('error', `Training failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function pauseRun(): void {
  void learner?.api.pause();
  // 'paused' comes from the learner once the update in flight has finished.
  usePlayground.getState().setStatus('pausing');
}

export function resumeRun(): void {
  void learner?.api.resume();
  usePlayground.getState().setStatus('running');
}

export function stepRun(): void {
  void learner?.api.step();
}

export function stopRun(): void {
  void learner?.api.stop();
  usePlayground.getState().setStatus('stopping');
}
