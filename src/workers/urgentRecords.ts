/**
 * The few records of a run that go to the page as soon as they exist, past the learner's and the
 * page's batching: the first actor states (the status turns from "starting" to "running"), the
 * first update (the learner sends it at once; the page renders it with its next batch, since a
 * first render of every chart in the middle of a short run slowed the run in the measurements), the
 * update that first shows the target reached (reachesTarget), and the summary. Every
 * other record waits for its batch (each batch re-renders every chart).
 */
import { reachesTarget, type RunRecord } from '../runs/records';

export interface UrgentOptions {
  /** Whether the run's first update is urgent (the learner's side: yes; the page's: no). */
  firstUpdate?: boolean;
}

/** Says, record by record in a run's order, which ones are urgent. One per run and side. */
export function urgentRecords(targetReturn: number, { firstUpdate = true }: UrgentOptions = {}): (record: RunRecord) => boolean {
  let actorsSeen = false;
  let updateSeen = false;
  let reached = false;
  return (record) => {
    switch (record.type) {
      case 'actors':
        if (actorsSeen) return false;
        actorsSeen = true;
        return true;
      case 'update': {
        const first = firstUpdate && !updateSeen;
        updateSeen = true;
        const hit = !reached && reachesTarget(record, targetReturn);
        if (hit) reached = true;
        return first || hit;
      }
      case 'summary':
        return true;
      default:
        return false;
    }
  };
}
