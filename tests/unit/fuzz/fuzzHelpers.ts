import { expect } from 'vitest';
import type { FuzzReport, FuzzTarget } from '../../../bench/fuzz';

/** The seed CI uses, so a failure reproduces; `npm run bench -- fuzz` runs longer, with other seeds. */
export const FUZZ_SEED = 15;

export async function expectNoFailures(target: FuzzTarget, numRuns: number): Promise<FuzzReport> {
  const report = await target.run({ numRuns, seed: FUZZ_SEED });
  expect(report.error ?? null, report.counterexample).toBeNull();
  expect(report).toMatchObject({ failures: 0, runs: numRuns });
  // The bench holds inputs to 1 s; a shared CI machine gets twice that before it counts as a hang.
  expect(report.maxMs).toBeLessThan(2_000);
  return report;
}
