/**
 * The binary frame every cluster message travels in. Nothing in a frame is ever evaluated: the
 * header is JSON, typed arrays ride after it as raw bytes.
 *
 *   'PRL1' | u32 headerBytes (LE) | header (UTF-8 JSON) | blob 0 | blob 1 | ...
 *
 * The header is `{ s: seq, v: value, b: [[kind, byteLength], ...] }`. Inside `v`:
 *   - a typed array is `{ "$ta": index }` (its bytes are blob `index`, its kind is `b[index][0]`);
 *   - `undefined` is `{ "$u": 1 }`, a non-finite number is `{ "$n": "NaN" | "Infinity" | "-Infinity" }`;
 *   - a key of a plain object that starts with '$' gets one more '$' (so user data never looks like a tag).
 *
 * Decoding enforces caps before anything is used: total size, header size, depth, node count,
 * string length, blob count; any violation throws a {@link FrameError} with its kind.
 */

export const FRAME_MAGIC = 0x314c5250; // 'PRL1' read as a little-endian u32

export interface FrameCaps {
  /** Whole frame, bytes (the NATS max_payload is 1 MiB by default). */
  maxBytes: number;
  /** The JSON header, bytes. */
  maxHeaderBytes: number;
  /** Nesting depth of the value. */
  maxDepth: number;
  /** Objects, arrays and leaves in the value. */
  maxNodes: number;
  maxStringLength: number;
  maxBlobs: number;
}

export const DEFAULT_CAPS: FrameCaps = {
  maxBytes: 1024 * 1024,
  maxHeaderBytes: 256 * 1024,
  maxDepth: 24,
  maxNodes: 50_000,
  maxStringLength: 64 * 1024,
  maxBlobs: 256,
};

export type FrameProblem = 'oversized' | 'malformed';

export class FrameError extends Error {
  override name = 'FrameError';
  constructor(
    readonly kind: FrameProblem,
    message: string,
  ) {
    super(message);
  }
}

const KINDS = {
  f32: Float32Array,
  f64: Float64Array,
  i32: Int32Array,
  u32: Uint32Array,
  i16: Int16Array,
  u16: Uint16Array,
  i8: Int8Array,
  u8: Uint8Array,
} as const;
type Kind = keyof typeof KINDS;
type AnyTypedArray = InstanceType<(typeof KINDS)[Kind]>;

function kindOf(v: ArrayBufferView): Kind | undefined {
  for (const [k, C] of Object.entries(KINDS) as [Kind, (typeof KINDS)[Kind]][]) if (v instanceof C) return k;
  return undefined;
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Encodes `value` (JSON-like data with typed arrays) with sequence number `seq`. Throws on what it cannot carry. */
export function encodeFrame(seq: number, value: unknown): Uint8Array {
  const blobs: { kind: Kind; bytes: Uint8Array }[] = [];
  const walk = (v: unknown, depth: number): unknown => {
    if (depth > DEFAULT_CAPS.maxDepth) throw new FrameError('malformed', 'value nested too deep to send');
    if (v === undefined) return { $u: 1 };
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : { $n: String(v) };
    if (typeof v !== 'object') throw new TypeError(`cannot send a ${typeof v} to a cluster actor`);
    if (ArrayBuffer.isView(v)) {
      const kind = kindOf(v);
      if (!kind) throw new TypeError('cannot send this kind of typed array to a cluster actor');
      blobs.push({ kind, bytes: new Uint8Array(v.buffer, v.byteOffset, v.byteLength) });
      return { $ta: blobs.length - 1 };
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (!isPlainObject(v)) throw new TypeError('cannot send a class instance to a cluster actor (plain objects, arrays and typed arrays only)');
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k.startsWith('$') ? `$${k}` : k] = walk(x, depth + 1);
    return out;
  };
  const header = new TextEncoder().encode(JSON.stringify({ s: seq, v: walk(value, 0), b: blobs.map((b) => [b.kind, b.bytes.byteLength]) }));
  const total = 8 + header.byteLength + blobs.reduce((a, b) => a + b.bytes.byteLength, 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, FRAME_MAGIC, true);
  dv.setUint32(4, header.byteLength, true);
  out.set(header, 8);
  let at = 8 + header.byteLength;
  for (const b of blobs) {
    out.set(b.bytes, at);
    at += b.bytes.byteLength;
  }
  return out;
}

export interface DecodedFrame {
  seq: number;
  value: unknown;
}

/** Decodes and checks a frame against `caps`. Throws FrameError ('oversized' or 'malformed'). */
export function decodeFrame(data: Uint8Array, caps: FrameCaps = DEFAULT_CAPS): DecodedFrame {
  if (data.byteLength > caps.maxBytes) throw new FrameError('oversized', `frame of ${data.byteLength} bytes exceeds ${caps.maxBytes}`);
  if (data.byteLength < 8) throw new FrameError('malformed', 'frame shorter than its prefix');
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (dv.getUint32(0, true) !== FRAME_MAGIC) throw new FrameError('malformed', 'bad frame magic');
  const headerBytes = dv.getUint32(4, true);
  if (headerBytes > caps.maxHeaderBytes) throw new FrameError('oversized', `header of ${headerBytes} bytes exceeds ${caps.maxHeaderBytes}`);
  if (8 + headerBytes > data.byteLength) throw new FrameError('malformed', 'header runs past the frame');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(8, 8 + headerBytes)));
  } catch {
    throw new FrameError('malformed', 'header is not UTF-8 JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new FrameError('malformed', 'header is not an object');
  const { s, v, b } = header as { s?: unknown; v?: unknown; b?: unknown };
  if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0) throw new FrameError('malformed', 'bad sequence number');
  if (!Array.isArray(b)) throw new FrameError('malformed', 'bad blob table');
  if (b.length > caps.maxBlobs) throw new FrameError('oversized', `${b.length} blobs exceed ${caps.maxBlobs}`);
  const arrays: AnyTypedArray[] = [];
  let at = 8 + headerBytes;
  for (const entry of b) {
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || !Object.hasOwn(KINDS, entry[0])) throw new FrameError('malformed', 'bad blob entry');
    const kind = entry[0] as Kind;
    const len: unknown = entry[1];
    const C = KINDS[kind];
    if (typeof len !== 'number' || !Number.isSafeInteger(len) || len < 0 || len % C.BYTES_PER_ELEMENT !== 0) throw new FrameError('malformed', 'bad blob length');
    if (at + len > data.byteLength) throw new FrameError('malformed', 'blob runs past the frame');
    // A copy into a buffer of its own: the frame's bytes are not aligned for the element size and
    // may be reused by the client (and a Node Buffer's slice() would not copy).
    const copy = new Uint8Array(len);
    copy.set(data.subarray(at, at + len));
    arrays.push(new C(copy.buffer, 0, len / C.BYTES_PER_ELEMENT));
    at += len;
  }
  if (at !== data.byteLength) throw new FrameError('malformed', 'trailing bytes after the last blob');
  let nodes = 0;
  const used = new Set<number>();
  const walk = (x: unknown, depth: number): unknown => {
    if (++nodes > caps.maxNodes) throw new FrameError('oversized', `value has more than ${caps.maxNodes} nodes`);
    if (depth > caps.maxDepth) throw new FrameError('oversized', `value nested deeper than ${caps.maxDepth}`);
    if (x === null || typeof x === 'number' || typeof x === 'boolean') return x;
    if (typeof x === 'string') {
      if (x.length > caps.maxStringLength) throw new FrameError('oversized', `string longer than ${caps.maxStringLength}`);
      return x;
    }
    if (Array.isArray(x)) return x.map((y) => walk(y, depth + 1));
    if (typeof x !== 'object') throw new FrameError('malformed', 'unexpected JSON value');
    const obj = x as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 1) {
      const [k] = keys;
      if (k === '$u' && obj.$u === 1) return undefined;
      if (k === '$n') {
        if (obj.$n === 'NaN') return NaN;
        if (obj.$n === 'Infinity') return Infinity;
        if (obj.$n === '-Infinity') return -Infinity;
        throw new FrameError('malformed', 'bad number tag');
      }
      if (k === '$ta') {
        const i = obj.$ta;
        if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= arrays.length || used.has(i)) throw new FrameError('malformed', 'bad typed-array reference');
        used.add(i);
        return arrays[i];
      }
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      if (k.startsWith('$') && !k.startsWith('$$')) throw new FrameError('malformed', `unknown tag ${JSON.stringify(k.slice(0, 16))}`);
      // Assigning '__proto__' would replace the object's prototype.
      if (k === '__proto__') throw new FrameError('malformed', 'key __proto__ is not allowed');
      out[k.startsWith('$') ? k.slice(1) : k] = walk(obj[k], depth + 1);
    }
    return out;
  };
  const value = walk(v, 0);
  return { seq: s, value };
}
