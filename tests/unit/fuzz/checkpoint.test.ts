import { describe, it } from 'vitest';
import { checkpointTarget } from '../../../bench/fuzz';
import { expectNoFailures } from './fuzzHelpers';

describe('fuzz: checkpoint decoder', () => {
  it('refuses damaged bytes with its own message, or decodes exactly what was written', async () => {
    await expectNoFailures(checkpointTarget(), 500);
  });
});
