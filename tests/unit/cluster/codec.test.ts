import { describe, expect, it } from 'vitest';
import { decodeFrame, DEFAULT_CAPS, encodeFrame, FrameError } from '../../../src/cluster/codec';

function kindOf(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (err) {
    return err instanceof FrameError ? err.kind : 'other';
  }
}

describe('cluster frames', () => {
  it('round-trips JSON data, typed arrays, undefined, non-finite numbers and $-keys', () => {
    const value = { a: 1, s: 'x', n: null, u: undefined, inf: -Infinity, nan: NaN, $ta: 5, arr: [new Int32Array([1, -2]), new Uint8Array([255])], f: new Float32Array([0.5, 3]) };
    const back = decodeFrame(encodeFrame(3, value));
    expect(back.seq).toBe(3);
    const v = back.value as typeof value;
    expect(v.a).toBe(1);
    expect('u' in v && v.u === undefined).toBe(true);
    expect(v.inf).toBe(-Infinity);
    expect(Number.isNaN(v.nan)).toBe(true);
    expect(v.$ta).toBe(5);
    expect(v.arr[0]).toBeInstanceOf(Int32Array);
    expect(Array.from(v.arr[0])).toEqual([1, -2]);
    expect(Array.from(v.f)).toEqual([0.5, 3]);
  });

  it('decodes from a Node Buffer view into a shared pool (copies, never reads the pool from 0)', () => {
    const frame = encodeFrame(1, { x: new Float32Array([1, 2, 3.5]) });
    const pool = Buffer.alloc(frame.byteLength + 100, 7);
    pool.set(frame, 37);
    const v = decodeFrame(pool.subarray(37, 37 + frame.byteLength)).value as { x: Float32Array };
    expect(Array.from(v.x)).toEqual([1, 2, 3.5]);
  });

  it('rejects oversized and malformed frames with the kind', () => {
    const caps = { ...DEFAULT_CAPS, maxBytes: 1000, maxDepth: 5 };
    expect(kindOf(() => decodeFrame(encodeFrame(1, new Float32Array(300)), caps))).toBe('oversized');
    let deep: unknown = 0;
    for (let i = 0; i < 8; i++) deep = { d: deep };
    expect(kindOf(() => decodeFrame(encodeFrame(1, deep), caps))).toBe('oversized');
    expect(kindOf(() => decodeFrame(new Uint8Array([1, 2, 3])))).toBe('malformed');
    const good = encodeFrame(1, { a: new Uint8Array(4) });
    expect(kindOf(() => decodeFrame(good.subarray(0, good.byteLength - 1)))).toBe('malformed');
    const bad = (json: string): Uint8Array => {
      const h = new TextEncoder().encode(json);
      const f = new Uint8Array(8 + h.byteLength);
      new DataView(f.buffer).setUint32(0, 0x314c5250, true);
      new DataView(f.buffer).setUint32(4, h.byteLength, true);
      f.set(h, 8);
      return f;
    };
    expect(kindOf(() => decodeFrame(bad('{"s":1,"v":{"$ta":0},"b":[]}')))).toBe('malformed');
    expect(kindOf(() => decodeFrame(bad('{"s":1,"v":{"$eval":"x"},"b":[]}')))).toBe('malformed');
    expect(kindOf(() => decodeFrame(bad('{"s":1,"v":{"__proto__":{"polluted":1}},"b":[]}')))).toBe('malformed');
    expect(kindOf(() => decodeFrame(bad('{"s":-1,"v":0,"b":[]}')))).toBe('malformed');
    expect(kindOf(() => decodeFrame(bad('{"s":1,"v":0,"b":[]}')))).toBe('ok');
  });
});
