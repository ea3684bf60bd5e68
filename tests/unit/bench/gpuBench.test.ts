import { describe, expect, it } from 'vitest';
import { gpuTable, positiveList, probeOptions } from '../../../bench/gpu';

describe('npm run bench -- gpu: flags and table', () => {
  it('reads its flags, with defaults, and refuses bad ones with a clear message', () => {
    expect(probeOptions({})).toEqual({ backends: ['wasm', 'webgpu'], hidden: [64, 256], batches: [256, 1024, 4096, 16384], repeats: 5, cellBudgetMs: 5000 });
    expect(probeOptions({ batches: '512, 2048', hidden: '32', backends: 'wasm' })).toMatchObject({ backends: ['wasm'], hidden: [32], batches: [512, 2048] });
    expect(() => probeOptions({ batches: '256,-1' })).toThrow(/--batches takes positive integers/);
    expect(() => probeOptions({ backends: 'wasm,cuda' })).toThrow(/unknown backend "cuda"/);
    expect(() => positiveList('1.5', 'repeats', [5])).toThrow(/--repeats/);
  });

  it('puts each width and batch on one row with webgpu against wasm, and marks skipped cells and backends that did not run', () => {
    const table = gpuTable(
      [
        { backend: 'wasm', hidden: 64, batch: 256, learnMs: 10, inferMs: 4 },
        { backend: 'webgpu', hidden: 64, batch: 256, learnMs: 5, inferMs: 8 },
        { backend: 'wasm', hidden: 64, batch: 16384, learnMs: 400, inferMs: 100 },
        { backend: 'webgpu', hidden: 64, batch: 16384, learnMs: null, inferMs: null },
        { backend: 'wasm', hidden: 256, batch: 256, learnMs: 20, inferMs: 6 },
      ],
      ['wasm', 'webgpu'],
    );
    const rows = table.split('\n').slice(2);
    expect(rows).toEqual(['| 2×64 | 256 | 10.0 | 5.00 | 0.50 | 4.00 | 8.00 | 2.00 |', '| 2×64 | 16,384 | 400.0 | skipped | – | 100.0 | skipped | – |', '| 2×256 | 256 | 20.0 | not run | – | 6.00 | not run | – |']);
  });
});
