import { describe, expect, it } from 'vitest';
import { shellWords } from '../../../src/cli/commandLine';

describe('shellWords', () => {
  it('leaves plain words as they are and quotes the rest so a shell reads them back as one word each', () => {
    expect(shellWords(['swarm-story', '--seeds', '1,2,3', '--lr', '1e-3', '--json', 'out/a.json'])).toBe('swarm-story --seeds 1,2,3 --lr 1e-3 --json out/a.json');
    expect(shellWords(['--level', 'context 0.6', '--rows', "it's", '--x', ''])).toBe("--level 'context 0.6' --rows 'it'\\''s' --x ''");
  });
});
