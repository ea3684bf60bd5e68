import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDB } from 'idb';
import { chooseBackend } from '../../../src/core/backend';
import {
  crc32,
  decodeCheckpoint,
  encodeCheckpoint,
  listCheckpointsIdb,
  loadCheckpointFile,
  loadCheckpointIdb,
  saveCheckpointFile,
  saveCheckpointIdb,
} from '../../../src/core/checkpoint';
import { Agent } from '../../../src/core/agent';
import { buildPolicyModel as buildModel, type MlpSpec } from '../../../src/core/mlp';
import { Reinforce } from '../../../src/algorithms/reinforce';
import { REINFORCE_PARAMS } from '../algorithms/descriptorParams';

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const spec: MlpSpec = { obsDim: 4, numActions: 3, hidden: [8], activation: 'relu' };

let dir = '';
beforeAll(async () => {
  await chooseBackend();
  dir = await mkdtemp(join(tmpdir(), 'parl-ckpt-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('encode / decode', () => {
  const sample = {
    weights: [new Float32Array([1, -0, 1e-45, Number.NaN, Infinity]), new Float32Array(0), new Float32Array([0.1, 0.2])],
    meta: { step: 12, spec, note: 'ünïcode' },
    shapes: [[5], [0], [1, 2]],
  };

  it('round-trips exactly (bit for bit, NaN and -0 included) with meta and shapes', () => {
    const bytes = encodeCheckpoint(sample);
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe('PARLCKPT');
    const back = decodeCheckpoint(bytes);
    expect(back.weights.map(bits)).toEqual(sample.weights.map(bits));
    expect(back.meta).toEqual(sample.meta);
    expect(back.shapes).toEqual(sample.shapes);
    // decode works on an unaligned view too
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(decodeCheckpoint(shifted.subarray(1)).weights.map(bits)).toEqual(sample.weights.map(bits));
  });

  it('rejects truncated, garbage and foreign bytes with clear messages', () => {
    const bytes = encodeCheckpoint(sample);
    expect(() => decodeCheckpoint(bytes.subarray(0, bytes.length - 1))).toThrow(/Not a valid PARL Playground checkpoint: weights need 28 bytes but only 27 are present \(truncated\)/);
    expect(() => decodeCheckpoint(bytes.subarray(0, 20))).toThrow(/header needs \d+ bytes .*\(truncated\)/);
    expect(() => decodeCheckpoint(bytes.subarray(0, 5))).toThrow(/only 5 bytes \(truncated or empty file\)/);
    expect(() => decodeCheckpoint(new Uint8Array(0))).toThrow(/truncated or empty/);
    expect(() => decodeCheckpoint(new TextEncoder().encode('{"hello": "this is json, not a checkpoint"}'))).toThrow(/wrong magic bytes/);
    const padded = new Uint8Array(bytes.length + 4);
    padded.set(bytes);
    expect(() => decodeCheckpoint(padded)).toThrow(/4 unexpected bytes after the weights/);
    const v2 = bytes.slice();
    v2[8] = 2;
    expect(() => decodeCheckpoint(v2)).toThrow(/unsupported format version 2/);
    const badJson = bytes.slice();
    badJson[16] = 0x41; // 'A' where '{' was
    expect(() => decodeCheckpoint(badJson)).toThrow(/header is not valid JSON/);
  });

  it('refuses to encode shapes that do not match the weights', () => {
    expect(() => encodeCheckpoint({ weights: [new Float32Array(3)], meta: {}, shapes: [[2, 2]] })).toThrow(/shape \[2, 2\] needs 4/);
  });
});

// Issue 15, item 7: no checksum, no caps, shapes checked only by their product.
describe('checksum and caps', () => {
  const ckpt = { weights: [new Float32Array([1, 2, 3, 4]), new Float32Array([5])], shapes: [[2, 2], [1]], meta: { step: 1 } };

  /** The bytes of a checkpoint as the first version of the format wrote them (no crc32). */
  function oldFormat(header: object, floats: number[]): Uint8Array {
    const json = new TextEncoder().encode(JSON.stringify(header));
    const start = (16 + json.length + 3) & ~3;
    const out = new Uint8Array(start + 4 * floats.length);
    out.set(new TextEncoder().encode('PARLCKPT'));
    const dv = new DataView(out.buffer);
    dv.setUint32(8, 1, true);
    dv.setUint32(12, json.length, true);
    out.set(json, 16);
    floats.forEach((f, i) => dv.setFloat32(start + 4 * i, f, true));
    return out;
  }

  it('computes the standard CRC-32', () => {
    // The check value of CRC-32/ISO-HDLC: crc("123456789") = 0xCBF43926.
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('refuses a flipped weight byte or a changed header value', () => {
    const bytes = encodeCheckpoint(ckpt);
    const flipped = bytes.slice();
    flipped[bytes.length - 2] ^= 0x01;
    expect(() => decodeCheckpoint(flipped)).toThrow(/^Not a valid PARL Playground checkpoint: checksum mismatch \(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\): the file is damaged$/);
    const text = new TextDecoder().decode(bytes);
    const at = text.indexOf('"step":1');
    const changed = bytes.slice();
    changed[at + 7] = '7'.charCodeAt(0);
    expect(() => decodeCheckpoint(changed)).toThrow(/checksum mismatch/);
  });

  it('refuses a checkpoint written before the checksum, with a message saying so', () => {
    expect(() => decodeCheckpoint(oldFormat({ lengths: [2], shapes: [[2]], meta: { old: true } }, [0.5, -2]))).toThrow(
      /^Not a valid PARL Playground checkpoint: no checksum: the file was written by an older version, before checkpoints carried one/,
    );
  });

  it('refuses every bit flip in the "crc32" key, alone or with a changed weight: damage to the key never turns the check off', () => {
    const bytes = encodeCheckpoint(ckpt);
    const key = new TextDecoder().decode(bytes).indexOf('"crc32"');
    expect(key).toBeGreaterThan(16);
    const weightByte = bytes.length - 3;
    let tried = 0;
    for (let at = key; at < key + '"crc32"'.length; at++) {
      for (let bit = 0; bit < 8; bit++) {
        const flipped = bytes.slice();
        flipped[at] ^= 1 << bit;
        expect(() => decodeCheckpoint(flipped), `byte ${at} bit ${bit}`).toThrow(/^Not a valid PARL Playground checkpoint: /);
        flipped[weightByte] ^= 0x10;
        expect(() => decodeCheckpoint(flipped), `byte ${at} bit ${bit} and a weight`).toThrow(/^Not a valid PARL Playground checkpoint: /);
        tried++;
      }
    }
    expect(tried).toBe(7 * 8);
  });

  it('a header whose checksum key was renamed by damage is called damaged, not old', () => {
    const bytes = encodeCheckpoint(ckpt);
    const at = new TextDecoder().decode(bytes).indexOf('"crc32"') + 2;
    const flipped = bytes.slice();
    flipped[at] ^= 0x01; // "crc32" becomes "csc32"
    expect(() => decodeCheckpoint(flipped)).toThrow(/no "crc32" checksum, and an unknown header key "csc32": the file is damaged$/);
  });

  it('loads every checkpoint shipped with the app, each carrying its checksum', async () => {
    const folder = new URL('../../../public/subagents/', import.meta.url).pathname;
    const names = (await readdir(folder)).filter((n) => n.endsWith('.ckpt'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const bytes = new Uint8Array(await readFile(join(folder, name)));
      const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true)))) as { crc32?: unknown };
      expect(typeof header.crc32, name).toBe('number');
      await expect(loadCheckpointFile(join(folder, name))).resolves.toMatchObject({ meta: expect.any(Object) });
    }
  });

  it('refuses NaN weights where they would go into a model', async () => {
    const bytes = encodeCheckpoint({ weights: [new Float32Array([1, Number.NaN])], names: ['dense/kernel'], meta: {} });
    expect(() => decodeCheckpoint(bytes, { requireFinite: true })).toThrow(/weight 0 \(dense\/kernel\) holds NaN at index 1; a model cannot load non-finite weights/);
    const path = join(dir, 'nan.parlckpt');
    await writeFile(path, bytes);
    await expect(loadCheckpointFile(path)).rejects.toThrow(/nan\.parlckpt: .*holds NaN at index 1/);
  });

  it('checks shapes dimension by dimension, not only their product', () => {
    expect(() => decodeCheckpoint(oldFormat({ lengths: [4], shapes: [[-2, -2]], meta: {} }, [1, 2, 3, 4]))).toThrow(/shape 0 dimension 0 is not a non-negative integer/);
    expect(() => decodeCheckpoint(oldFormat({ lengths: [4], shapes: [['2', 2]], meta: {} }, [1, 2, 3, 4]))).toThrow(/shape 0 dimension 0 is not a non-negative integer/);
    expect(() => decodeCheckpoint(oldFormat({ lengths: [1], shapes: [[1, 1, 1, 1, 1, 1, 1, 1, 1]], meta: {} }, [1]))).toThrow(/shape 0 is not a list of at most 8 dimensions/);
  });

  it('refuses a header declaring a million empty arrays at once, and a header past its cap', () => {
    const million = oldFormat({ lengths: new Array(1_000_000).fill(0), meta: {} }, []);
    const many = oldFormat({ lengths: new Array(100_000).fill(0), meta: {} }, []);
    // Refused by the caps, before anything is allocated per array.
    expect(() => decodeCheckpoint(million)).toThrow(/header of 2000023 bytes is larger than the 1048576 allowed/);
    expect(() => decodeCheckpoint(many)).toThrow(/100000 arrays, more than the 4096 allowed/);
    const big = oldFormat({ lengths: [], meta: { pad: 'x'.repeat(2 ** 20) } }, []);
    expect(() => decodeCheckpoint(big)).toThrow(/header of \d+ bytes is larger than the 1048576 allowed/);
  });
});

describe('files and IndexedDB', () => {
  it('file round trip (creates folders)', async () => {
    const path = join(dir, 'a', 'b', 'x.ckpt');
    await saveCheckpointFile(path, { weights: [new Float32Array([1, 2, 3])], meta: { k: 1 } });
    const back = await loadCheckpointFile(path);
    expect(Array.from(back.weights[0])).toEqual([1, 2, 3]);
    expect(back.meta).toEqual({ k: 1 });
  });

  it('loading a foreign file names the file and the problem', async () => {
    const path = join(dir, 'foreign.bin');
    await writeFile(path, 'PK\u0003\u0004 this is a zip, not a checkpoint');
    await expect(loadCheckpointFile(path)).rejects.toThrow(/foreign\.bin: Not a valid PARL Playground checkpoint: wrong magic bytes/);
  });

  it('IndexedDB round trip, and the store is added to an existing database of a newer version', async () => {
    // someone else already created the database with another store, at version 3
    const other = await openDB('parl-playground', 3, { upgrade: (db) => void db.createObjectStore('experiments') });
    other.close();
    await saveCheckpointIdb('run-1', { weights: [new Float32Array([0.5, -0.25])], meta: { step: 3 } });
    const back = await loadCheckpointIdb('run-1');
    expect(Array.from(back.weights[0])).toEqual([0.5, -0.25]);
    expect(back.meta).toEqual({ step: 3 });
    expect(await listCheckpointsIdb()).toEqual(['run-1']);
    await expect(loadCheckpointIdb('missing')).rejects.toThrow(/No checkpoint "missing"/);
    const db = await openDB('parl-playground');
    expect([...db.objectStoreNames].sort()).toEqual(['checkpoints', 'experiments']);
    db.close();
  });
});

describe('Agent.save / restore', () => {
  const make = (seed: number) => new Agent(new Reinforce(buildModel(spec, seed), REINFORCE_PARAMS));

  it('restores exactly from a file', async () => {
    const a = make(1);
    const b = make(2);
    const path = join(dir, 'agent.ckpt');
    await a.save(path, { meta: { step: 100 } });
    const meta = await b.restore(path);
    expect(b.getWeights().map(bits)).toEqual(a.getWeights().map(bits));
    expect(meta).toMatchObject({ step: 100, algorithm: 'Reinforce', model: 'PolicyMlp', numParams: 4 * 8 + 8 + 8 * 3 + 3 });
    expect((await readFile(path)).subarray(0, 8).toString()).toBe('PARLCKPT');
    a.dispose();
    b.dispose();
  });

  it('restores exactly from IndexedDB', async () => {
    const a = make(3);
    const b = make(4);
    await a.save('agent-key', { store: 'idb' });
    await b.restore('agent-key', { store: 'idb' });
    expect(b.getWeights().map(bits)).toEqual(a.getWeights().map(bits));
    a.dispose();
    b.dispose();
  });

  it('refuses a checkpoint of another architecture', async () => {
    const a = make(1);
    const other = new Agent(new Reinforce(buildModel({ ...spec, hidden: [9] }, 1), REINFORCE_PARAMS));
    const path = join(dir, 'other.ckpt');
    await other.save(path);
    await expect(a.restore(path)).rejects.toThrow(/checkpoint shapes .* do not match the model's/);
    a.dispose();
    other.dispose();
  });
});
