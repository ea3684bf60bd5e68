/**
 * Checkpoints: a small binary format for model weights plus JSON metadata, and where to keep them
 * (a file in Node, IndexedDB in the browser).
 *
 * Layout (all integers little-endian uint32):
 *   0   magic  "PARLCKPT" (8 ASCII bytes)
 *   8   version (= 1)
 *   12  header length H in bytes
 *   16  header: UTF-8 JSON { lengths: number[], shapes?: number[][], names?: string[], meta: {...}, crc32: number }
 *   16+H  zero padding to a multiple of 4
 *   then the weights, one after the other, float32 little-endian, sum(lengths)*4 bytes,
 *   and nothing after them.
 * The bytes of each float are copied as they are, so a round trip is exact bit for bit.
 *
 * Checksum (header revision 2): `crc32` is the CRC-32 (IEEE 802.3, as in zip and PNG) of the
 * header's JSON written without its `crc32` key, then the weight bytes (the padding must be
 * zeros). A file with a flipped byte anywhere after the prefix is refused, and so is a file
 * without a checksum: a flipped bit in the key "crc32" must not turn the check off. Files written
 * before the checksum are refused with a message saying so. Decoding is bounded: the header, the number of arrays, each shape's rank and
 * dimensions and the total size have caps (CHECKPOINT_LIMITS), checked before anything big is
 * allocated or walked.
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

export const CHECKPOINT_LIMITS = {
  headerBytes: 1 << 20,
  arrays: 4_096,
  rank: 8,
  nameChars: 256,
  /** Floats over all arrays (1 GiB of weights). */
  totalFloats: 1 << 28,
} as const;

export interface DecodeOptions {
  /**
   * Refuse weights that are NaN or ±Infinity. Loaders that put weights into a model set it;
   * plain decoding keeps every float as it is (a round trip is bit-exact).
   */
  requireFinite?: boolean;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (reflected, polynomial 0xEDB88320), continued from `crc` over `bytes`. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
const PREFIX = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

interface Header {
  lengths: number[];
  shapes?: number[][];
  names?: string[];
  meta: Record<string, unknown>;
  /** Absent only in files written before the checksum (refused) or damaged ones. */
  crc32?: number;
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
  const unsigned = new TextEncoder().encode(JSON.stringify(header));
  const floats = header.lengths.reduce((a, b) => a + b, 0);
  const data = new Uint8Array(4 * floats);
  let off = 0;
  for (const w of weights) {
    copyFloatsOut(w, data, off);
    off += 4 * w.length;
  }
  header.crc32 = checksum(unsigned, data);
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = pad4(PREFIX + headerBytes.length);
  const out = new Uint8Array(dataStart + data.length);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, VERSION, true);
  dv.setUint32(12, headerBytes.length, true);
  out.set(headerBytes, PREFIX);
  out.set(data, dataStart);
  return out;
}

/** The checksum of a header written without its crc32 key, followed by the weight bytes. */
function checksum(unsignedHeader: Uint8Array, data: Uint8Array): number {
  return crc32(data, crc32(unsignedHeader));
}

export function decodeCheckpoint(bytes: Uint8Array, options: DecodeOptions = {}): Checkpoint {
  if (!(bytes instanceof Uint8Array)) throw new Error('decodeCheckpoint: expected a Uint8Array');
  const bad = (why: string) => new Error(`Not a valid PARL Playground checkpoint: ${why}`);
  const L = CHECKPOINT_LIMITS;
  if (bytes.length < PREFIX) throw bad(`only ${bytes.length} bytes (truncated or empty file)`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC.charCodeAt(i)) throw bad(`wrong magic bytes (expected "${MAGIC}"); this is some other kind of file`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== VERSION) throw bad(`unsupported format version ${version} (this build reads version ${VERSION})`);
  const headerLen = dv.getUint32(12, true);
  if (headerLen > L.headerBytes) throw bad(`header of ${headerLen} bytes is larger than the ${L.headerBytes} allowed`);
  if (PREFIX + headerLen > bytes.length) throw bad(`header needs ${headerLen} bytes but the file ends after ${bytes.length - PREFIX} (truncated)`);
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + headerLen))) as Header;
  } catch (e) {
    throw new Error(`Not a valid PARL Playground checkpoint: header is not valid JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (header === null || typeof header !== 'object' || !Array.isArray(header.lengths) || header.meta === null || typeof header.meta !== 'object' || Array.isArray(header.meta)) {
    throw bad('header lacks a valid "lengths" array or "meta" object');
  }
  if (header.lengths.length > L.arrays) throw bad(`${header.lengths.length} arrays, more than the ${L.arrays} allowed`);
  let floats = 0;
  for (let i = 0; i < header.lengths.length; i++) {
    const n = header.lengths[i];
    if (!Number.isSafeInteger(n) || n < 0) throw bad(`length ${i} is not a non-negative integer`);
    floats += n;
    if (floats > L.totalFloats) throw bad(`more than ${L.totalFloats} weights in all`);
  }
  if (header.shapes !== undefined) checkShapes(header.shapes, header.lengths, bad);
  if (header.names !== undefined) {
    if (!Array.isArray(header.names) || header.names.length !== header.lengths.length || header.names.some((n) => typeof n !== 'string' || n.length > L.nameChars)) {
      throw bad(`"names" must be ${header.lengths.length} strings of at most ${L.nameChars} characters`);
    }
  }
  if (header.crc32 === undefined) throw bad(missingChecksum(header));
  if (!Number.isInteger(header.crc32) || header.crc32 < 0 || header.crc32 > 0xffffffff) throw bad('"crc32" is not a 32-bit checksum');
  const dataStart = pad4(PREFIX + headerLen);
  const need = 4 * floats;
  const have = bytes.length - dataStart;
  if (have < need) throw bad(`weights need ${need} bytes but only ${Math.max(0, have)} are present (truncated)`);
  if (have > need) throw bad(`${have - need} unexpected bytes after the weights`);
  for (let i = PREFIX + headerLen; i < dataStart; i++) if (bytes[i] !== 0) throw bad('the padding after the header is not zeros (damaged file)');
  const data = bytes.subarray(dataStart);
  const { crc32: stored, ...unsigned } = header;
  const actual = checksum(new TextEncoder().encode(JSON.stringify(unsigned)), data);
  if (actual !== stored) throw bad(`checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)}): the file is damaged`);
  const weights: Float32Array[] = [];
  let off = 0;
  for (const n of header.lengths) {
    weights.push(copyFloatsIn(data, off, n));
    off += 4 * n;
  }
  if (options.requireFinite) {
    weights.forEach((w, i) => {
      const j = w.findIndex((x) => !Number.isFinite(x));
      if (j >= 0) throw bad(`weight ${i}${header.names ? ` (${header.names[i]})` : ''} holds ${w[j]} at index ${j}; a model cannot load non-finite weights`);
    });
  }
  const out: Checkpoint = { weights, meta: header.meta };
  if (header.shapes) out.shapes = header.shapes;
  if (Array.isArray(header.names)) out.names = header.names;
  return out;
}

/** The header keys of the first version of the format, which wrote no checksum. */
const UNCHECKED_HEADER_KEYS: readonly string[] = ['lengths', 'shapes', 'names', 'meta'];

/**
 * Why a header without `crc32` is refused: one with only the first version's keys is an old file;
 * any other key means the checksum's own key was damaged (a flipped bit in "crc32").
 */
function missingChecksum(header: object): string {
  const other = Object.keys(header).find((k) => !UNCHECKED_HEADER_KEYS.includes(k));
  if (other !== undefined) return `no "crc32" checksum, and an unknown header key ${JSON.stringify(other.slice(0, 64))}: the file is damaged`;
  return 'no checksum: the file was written by an older version, before checkpoints carried one, and this version loads only weights it can check (train the run again for a new checkpoint)';
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;

/** Every shape a list of non-negative integer dimensions (rank capped) whose product is its array's length. */
function checkShapes(shapes: unknown, lengths: readonly number[], bad: (why: string) => Error): void {
  if (!Array.isArray(shapes) || shapes.length !== lengths.length) throw bad('"shapes" does not match "lengths"');
  shapes.forEach((s: unknown, i) => {
    if (!Array.isArray(s) || s.length > CHECKPOINT_LIMITS.rank) throw bad(`shape ${i} is not a list of at most ${CHECKPOINT_LIMITS.rank} dimensions`);
    let product = 1;
    s.forEach((d: unknown, k) => {
      if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) throw bad(`shape ${i} dimension ${k} is not a non-negative integer`);
      product *= d;
    });
    if (product !== lengths[i]) throw bad(`shape ${i} does not match its length ${lengths[i]}`);
  });
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

/** Read a checkpoint file for a model: damaged files and non-finite weights are refused. */
export async function loadCheckpointFile(filePath: string): Promise<Checkpoint> {
  const { fs } = await nodeModules();
  const buf = await fs.readFile(filePath);
  try {
    return decodeCheckpoint(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), { requireFinite: true });
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
    return decodeCheckpoint(value, { requireFinite: true });
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
