// The layer rules in tests/eslint.config.js, checked through ESLint's Node API on small snippets.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: fileURLToPath(new URL('../../eslint.config.js', import.meta.url)) });

/** The no-restricted-imports messages for `code` as if it were the file at `filePath`. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const use = (specifier: string) => `import * as m from '${specifier}';\nexport const used = m;\n`;

const cases: { layer: string; file: string; bad: string[]; good: string[] }[] = [
  {
    layer: 'src/ui never imports tfjs or the engine',
    file: 'src/ui/x.tsx',
    bad: ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', '../engine/trainer', '../engine'],
    good: ['react', '../config/presets', '../runs/records', '../workers/learnerClient', './engineView'],
  },
  {
    layer: 'the same rules hold one folder down',
    file: 'src/ui/components/x.tsx',
    bad: ['../../engine/loops/common', '@tensorflow/tfjs'],
    good: ['../../config/settings', '../store', '../engine'],
  },
  {
    layer: 'src/envs imports only src/envs and src/core/rng',
    file: 'src/envs/x.ts',
    bad: ['../core/mlp', '../engine/segments', '@tensorflow/tfjs', 'zod', '../core/rng/../mlp'],
    good: ['../core/rng', './types', './swarm/tasks'],
  },
  {
    layer: 'a subfolder of src/envs may reach the rest of src/envs',
    file: 'src/envs/swarm/x.ts',
    bad: ['../../core/backend', '../../swarm/tasks', 'comlink'],
    good: ['../../core/rng', '../types', './orchestration'],
  },
  {
    layer: 'src/core never imports config, engine, runs or ui',
    file: 'src/core/remote/x.ts',
    bad: ['../../config/settings', '../../engine/trainer', '../../runs/records', '../../ui/store'],
    good: ['../rng', './errors', 'comlink', '@tensorflow/tfjs'],
  },
  {
    layer: 'src/config never imports tfjs',
    file: 'src/config/x.ts',
    bad: ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-webgpu'],
    good: ['zod', '../core/rng', '../envs/registry'],
  },
];

describe('layering lint rules (tests/eslint.config.js)', () => {
  for (const c of cases) {
    it(c.layer, async () => {
      for (const specifier of c.bad) {
        const errors = await layerErrors(c.file, use(specifier));
        expect(errors, `${c.file} importing '${specifier}' should fail`).toHaveLength(1);
      }
      for (const specifier of c.good) {
        expect(await layerErrors(c.file, use(specifier)), `${c.file} importing '${specifier}' should pass`).toEqual([]);
      }
    });
  }

  it('also catches re-exports and type-only imports', async () => {
    expect(await layerErrors('src/ui/x.ts', "export { TrainingRun } from '../engine/trainer';\n")).toHaveLength(1);
    expect(await layerErrors('src/core/x.ts', "import type { RunRecord } from '../runs/records';\nexport type R = RunRecord;\n")).toHaveLength(1);
  });

  it('src/ never imports bench/, from any folder or depth', async () => {
    const importers = ['src/index.ts', 'src/cli/x.ts', 'src/engine/loops/x.ts', 'src/ui/components/x.tsx', 'src/swarm/x.ts', 'src/envs/x.ts', 'src/core/remote/x.ts', 'src/config/algorithms/x.ts'];
    for (const file of importers) {
      const depth = file.split('/').length - 1;
      const toBench = `${'../'.repeat(depth)}bench/types`;
      const errors = await layerErrors(file, use(toBench));
      expect(errors.some((m) => m.includes('src/ never imports bench/')), `${file} importing '${toBench}' should fail`).toBe(true);
    }
    // bench/ itself may import the product.
    expect(await layerErrors('bench/x.ts', use('../src/engine/trainer'))).toEqual([]);
  });

  it('leaves the other layers alone', async () => {
    expect(await layerErrors('src/engine/x.ts', use('@tensorflow/tfjs'))).toEqual([]);
    expect(await layerErrors('src/workers/x.ts', use('../engine/trainer'))).toEqual([]);
  });
});
