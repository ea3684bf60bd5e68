import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { runFileImportTarget } from '../../../bench/fuzz';
import { expectNoFailures } from './fuzzHelpers';

describe('fuzz: run-file importer', () => {
  it('refuses or imports every mutated file, and never changes the runs saved before', async () => {
    const report = await expectNoFailures(runFileImportTarget(), 200);
    // Both sides are reached: files refused by the schema, and files that import.
    expect(report.outcomes.refused).toBeGreaterThan(0);
    expect(report.outcomes.imported).toBeGreaterThan(0);
  });
});
