import 'fake-indexeddb/auto';
import { describe, it } from 'vitest';
import { runFileImportTarget } from '../../../src/cli/benchmarks/fuzz';
import { expectNoFailures } from './fuzzHelpers';

describe('fuzz: run-file importer', () => {
  it('refuses or imports every mutated file, and never changes the runs saved before', async () => {
    await expectNoFailures(runFileImportTarget(), 200);
  });
});
