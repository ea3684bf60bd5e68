import { describe, it } from 'vitest';
import { episodeBatchTarget, segmentTarget } from '../../../bench/fuzz';
import { expectNoFailures } from './fuzzHelpers';

describe('fuzz: segment checks', () => {
  it('validateSegment accepts only segments of the declared kinds, lengths and finite values', async () => {
    await expectNoFailures(segmentTarget(), 500);
  });

  it('validateEpisodeBatch accepts only whole, finite episode batches', async () => {
    await expectNoFailures(episodeBatchTarget(), 500);
  });
});
