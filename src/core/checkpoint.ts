/**
 * Checkpoints: a small binary format for model weights plus JSON metadata, and where to keep them
 * (a file in Node, IndexedDB in the browser).
 *
 * Layout (all integers little-endian uint32):
 *   0   magic  "PARLCKPT" (8 ASCII bytes)
 *   8   version (= 1)
 *   12  header length H in bytes
 *   16  header: UTF-8 JSON { lengths: number[], shapes?: number[][], names?: string[], meta: {...} }
 *   16+H  zero padding to a multiple of 4
 *   then the weights, one after the other, float32 little-endian, sum(lengths)*4 bytes,
 *   and nothing after them.
 * The bytes of each float are copied as they are, so a round trip is exact bit for bit.
 */
import { openDB, type IDBPDatabase } from 'idb';

export interface Checkpoint {
  weights: Float32Array[];
  /** Anything JSON-serialisable: spec, seed, step, algorithm name, ... */
  meta: Record<string, unknown>;
  /** Optional variable shapes (checked against `weights` lengths on encode and decode). */
  shapes?: number[][];
  /** Optional variable names, for humans. */
  names?: string[];
}

const MAGIC = 'PARLCKPT';
const VERSION = 1;
const PREFIX = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

interface Header {
  lengths: number[];
  shapes?: number[][];
  names?: string[];
  meta: Record<string, unknown>;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

function copyFloatsOut(src: Float32Array, dst: Uint8Array, offset: number): void {
  if (LITTLE_ENDIAN) {
    dst.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), offset);
  } else {
    const dv = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
    for (let i = 0; i < src.length; i++) dv.setFloat32(offset + 4 * i, src[i], true);
  }
}

function copyFloatsIn(src: Uint8Array, offset: number, n: number): Float32Array {
  const out = new Float32Array(n);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(src.subarray(offset, offset + 4 * n));
  } else {
    const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
    for (let i = 0; i < n; i++) out[i] = dv.getFloat32(offset + 4 * i, true);
  }
  return out;
}

export function encodeCheckpoint(ckpt: Checkpoint): Uint8Array {
  const { weights, meta, shapes, names } = ckpt;
  if (!Array.isArray(weights) || weights.some((w) => !(w instanceof Float32Array))) {
    throw new Error('encodeCheckpoint: weights must be an array of Float32Array');
  }
  if (shapes) {
    if (shapes.length !== weights.length) throw new Error(`encodeCheckpoint: ${shapes.length} shapes for ${weights.length} weights`);
    shapes.forEach((s, i) => {
      const n = s.reduce((a, b) => a * b, 1);
      if (n !== weights[i].length) throw new Error(`encodeCheckpoint: weight ${i} has ${weights[i].length} values, shape [${s.join(', ')}] needs ${n}`);
    });
  }
  const header: Header = { lengths: weights.map((w) => w.length), meta };
  if (shapes) header.shapes = shapes;
  if (names) header.names = names;
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = pad4(PREFIX + headerBytes.length);
  const total = dataStart + 4 * header.lengths.reduce((a, b) => a + b, 0);
  const out = new Uint8Array(total);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, VERSION, true);
  dv.setUint32(12, headerBytes.length, true);
  out.set(headerBytes, PREFIX);
  let off = dataStart;
  for (const w of weights) {
    copyFloatsOut(w, out, off);
    off += 4 * w.length;
  }
  return out;
}

export function decodeCheckpoint(bytes: Uint8Array): Checkpoint {
  if (!(bytes instanceof Uint8Array)) throw new Error('decodeCheckpoint: expected a Uint8Array');
  const bad = (why: string) => new Error(`Not a valid PARL Playground checkpoint: ${why}`);
  if (bytes.length < PREFIX) throw bad(`only ${bytes.length} bytes (truncated or empty file)`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC.charCodeAt(i)) throw bad(`wrong magic bytes (expected "${MAGIC}"); this is some other kind of file`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== VERSION) throw bad(`unsupported format version ${version} (this build reads version ${VERSION})`);
  const headerLen = dv.getUint32(12, true);
  if (PREFIX + headerLen > bytes.length) throw bad(`header needs ${headerLen} bytes but the file ends after ${bytes.length - PREFIX} (truncated)`);
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + headerLen))) as Header;
  } catch (e) {
    throw new Error(`Not a valid PARL Playground checkpoint: header is not valid JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (
    header === null ||
    typeof header !== 'object' ||
    !Array.isArray(header.lengths) ||
    header.lengths.some((n) => !Number.isInteger(n) || n < 0) ||
    header.meta === null ||
    typeof header.meta !== 'object'
  ) {
    throw bad('header lacks a valid "lengths" array or "meta" object');
  }
  if (header.shapes !== undefined) {
    if (!Array.isArray(header.shapes) || header.shapes.length !== header.lengths.length) throw bad('"shapes" does not match "lengths"');
    header.shapes.forEach((s, i) => {
      if (!Array.isArray(s) || s.reduce((a, b) => a * b, 1) !== header.lengths[i]) throw bad(`shape ${i} does not match its length ${header.lengths[i]}`);
    });
  }
  const dataStart = pad4(PREFIX + headerLen);
  const need = 4 * header.lengths.reduce((a, b) => a + b, 0);
  const have = bytes.length - dataStart;
  if (have < need) throw bad(`weights need ${need} bytes but only ${Math.max(0, have)} are present (truncated)`);
  if (have > need) throw bad(`${have - need} unexpected bytes after the weights`);
  const weights: Float32Array[] = [];
  let off = dataStart;
  for (const n of header.lengths) {
    weights.push(copyFloatsIn(bytes, off, n));
    off += 4 * n;
  }
  const out: Checkpoint = { weights, meta: header.meta };
  if (header.shapes) out.shapes = header.shapes;
  if (Array.isArray(header.names)) out.names = header.names;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Node: files. node:fs is imported dynamically through a variable so the browser bundle never
// sees it.

type FsPromises = typeof import('node:fs/promises');
type NodePath = typeof import('node:path');

async function nodeModules(): Promise<{ fs: FsPromises; path: NodePath }> {
  const fsName = 'node:fs/promises';
  const pathName = 'node:path';
  const [fs, path] = await Promise.all([
    import(/* @vite-ignore */ fsName) as Promise<FsPromises>,
    import(/* @vite-ignore */ pathName) as Promise<NodePath>,
  ]);
  return { fs, path };
}

/** Write a checkpoint to a file (creating parent folders; atomic via a temporary file + rename). */
export async function saveCheckpointFile(filePath: string, ckpt: Checkpoint): Promise<void> {
  const { fs, path } = await nodeModules();
  const bytes = encodeCheckpoint(ckpt);
  await fs.mkdir(path.dirname(path.resolve(filePath)), { recursive: true });
  const tmp = `${filePath}.tmp-${process.pid}`;
  await fs.writeFile(tmp, bytes);
  await fs.rename(tmp, filePath);
}

export async function loadCheckpointFile(filePath: string): Promise<Checkpoint> {
  const { fs } = await nodeModules();
  const buf = await fs.readFile(filePath);
  try {
    return decodeCheckpoint(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  } catch (e) {
    throw new Error(`${filePath}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

// ---------------------------------------------------------------------------------------------
// Browser (page or worker): IndexedDB, database 'parl-playground', object store 'checkpoints',
// values are the encoded bytes (same format as files), keys are strings.

export const IDB_NAME = 'parl-playground';
export const IDB_STORE = 'checkpoints';

/**
 * Open the shared database and make sure our store exists. Other parts of the app may use the
 * same database with other stores and their own versions, so never pin a version: open at the
 * current one and bump it only when our store is missing.
 */
async function openCheckpointDb(): Promise<IDBPDatabase> {
  if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available here (use a file path in Node)');
  let db = await openDB(IDB_NAME);
  if (db.objectStoreNames.contains(IDB_STORE)) return db;
  const next = db.version + 1;
  db.close();
  db = await openDB(IDB_NAME, next, {
    upgrade(up) {
      if (!up.objectStoreNames.contains(IDB_STORE)) up.createObjectStore(IDB_STORE);
    },
  });
  return db;
}

export async function saveCheckpointIdb(key: string, ckpt: Checkpoint): Promise<void> {
  const bytes = encodeCheckpoint(ckpt);
  const db = await openCheckpointDb();
  try {
    await db.put(IDB_STORE, bytes, key);
  } finally {
    db.close();
  }
}

export async function loadCheckpointIdb(key: string): Promise<Checkpoint> {
  const db = await openCheckpointDb();
  let value: unknown;
  try {
    value = await db.get(IDB_STORE, key);
  } finally {
    db.close();
  }
  if (value === undefined) throw new Error(`No checkpoint "${key}" in IndexedDB ${IDB_NAME}/${IDB_STORE}`);
  if (!(value instanceof Uint8Array)) throw new Error(`IndexedDB entry "${key}" is not a checkpoint (not bytes)`);
  try {
    return decodeCheckpoint(value);
  } catch (e) {
    throw new Error(`IndexedDB "${key}": ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

export async function listCheckpointsIdb(): Promise<string[]> {
  const db = await openCheckpointDb();
  try {
    return (await db.getAllKeys(IDB_STORE)).map(String);
  } finally {
    db.close();
  }
}
