import { describe, it } from 'vitest';
import { cliArgsTarget } from '../../../bench/fuzz';
import { expectNoFailures } from './fuzzHelpers';

describe('fuzz: train CLI arguments', () => {
  it('gives a valid config or a ConfigError naming the field, never accepts a repeated flag', async () => {
    await expectNoFailures(cliArgsTarget(), 300);
  });
});
