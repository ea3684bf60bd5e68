import { describe, it } from 'vitest';
import { linkDecoderTarget } from '../../../bench/fuzz';
import { expectNoFailures } from './fuzzHelpers';

describe('fuzz: the link decoder', () => {
  it('decodes any text, old or new version, to a config that passes the schema, never throwing', async () => {
    await expectNoFailures(linkDecoderTarget(), 400);
  });
});
