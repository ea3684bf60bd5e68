import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('src/envs/swarm layering', () => {
  it('imports nothing but the Rng, the portable maths and the env layer itself', () => {
    const dir = join(__dirname, '../../../../src/envs/swarm');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const src = readFileSync(join(dir, f), 'utf8');
      for (const m of src.matchAll(/from\s+'([^']+)'/g)) {
        expect([`${f}: ${m[1]}`]).toEqual([
          expect.stringMatching(/: (\.\/[A-Za-z]+|\.\.\/types|\.\.\/\.\.\/core\/(rng|portableMath))$/),
        ]);
      }
      expect(src).not.toMatch(/Math\.random|tfjs|react/);
    }
  });
});
