import { describe, expect, it } from 'vitest';
import { collectTransferables, MAX_DEPTH } from '../../../../src/core/remote/transfer';

describe('collectTransferables', () => {
  it('takes the buffer of a whole typed array', () => {
    const a = new Float32Array(8);
    expect(collectTransferables(a)).toEqual([a.buffer]);
    expect(collectTransferables(new DataView(new ArrayBuffer(4)))).toHaveLength(1);
  });

  it('finds arrays in plain objects and arrays, without duplicates', () => {
    const obs = new Float32Array(4);
    const act = new Int32Array(4);
    const out = collectTransferables({ obs, nested: { act, again: obs }, list: [act, 1, 'x'] });
    expect(out).toHaveLength(2);
    expect(out).toContain(obs.buffer);
    expect(out).toContain(act.buffer);
  });

  it('skips partial views, shared buffers, empty buffers and non-plain objects', () => {
    const big = new Float32Array(16);
    expect(collectTransferables(big.subarray(4, 8))).toEqual([]);
    expect(collectTransferables(new Float32Array(new SharedArrayBuffer(16)))).toEqual([]);
    expect(collectTransferables(new Float32Array(0))).toEqual([]);
    class Box {
      data = new Float32Array(4);
    }
    expect(collectTransferables(new Box())).toEqual([]);
    expect(collectTransferables(new Map([['a', new Float32Array(4)]]))).toEqual([]);
  });

  it(`looks at most ${MAX_DEPTH} levels deep`, () => {
    let deep: unknown = new Float32Array(4);
    for (let i = 0; i < MAX_DEPTH; i++) deep = { inner: deep };
    expect(collectTransferables(deep)).toHaveLength(1);
    expect(collectTransferables({ inner: deep })).toEqual([]);
  });
});
