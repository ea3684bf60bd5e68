/**
 * A comlink transfer handler that TRANSFERS typed-array payloads instead of copying them.
 *
 * It handles a value when the value is a typed array (Float32Array, Int32Array, Uint8Array, ...)
 * or a DataView, or a plain object / array that holds such views up to {@link MAX_DEPTH} levels
 * deep. It collects the distinct ArrayBuffers behind those views and passes them as the transfer
 * list, so they move to the other thread in O(1).
 *
 * Ownership rules (read these before sending):
 * - A buffer is transferred only when a view covers it ENTIRELY (byteOffset 0, byteLength equal to
 *   the buffer's). Views on part of a larger buffer (`subarray`, Node's pooled `Buffer`s, tfjs
 *   internals) are copied, so other views on that buffer are never detached behind your back.
 * - SharedArrayBuffers are never transferred (they are shared anyway).
 * - After a send, the sender's transferred arrays are DETACHED: `byteLength` is 0 and reads give
 *   nothing. Pass only arrays you no longer need (or pass a `.slice()`). This applies to call
 *   arguments, constructor arguments, and to values an actor method returns.
 *
 * The handler must be registered on both sides (the actor host and the caller) under the same
 * name; {@link registerTransferHandlers} is idempotent and is called by the remote layer itself.
 */
import * as Comlink from 'comlink';

export const TRANSFER_HANDLER_NAME = 'parl-typed-arrays';

/** How deep into plain objects / arrays to look for typed arrays. */
export const MAX_DEPTH = 4;

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isTransferableBuffer(buf: ArrayBufferLike): buf is ArrayBuffer {
  return buf instanceof ArrayBuffer && buf.byteLength > 0;
}

function visit(value: unknown, depth: number, out: Set<ArrayBuffer>): void {
  if (value === null || typeof value !== 'object') return;
  if (ArrayBuffer.isView(value)) {
    const buf = value.buffer;
    if (isTransferableBuffer(buf) && value.byteOffset === 0 && value.byteLength === buf.byteLength) out.add(buf);
    return;
  }
  if (depth >= MAX_DEPTH || !isPlainContainer(value)) return;
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && typeof item === 'object') visit(item, depth + 1, out);
  } else {
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item !== null && typeof item === 'object') visit(item, depth + 1, out);
    }
  }
}

/**
 * The distinct, fully owned ArrayBuffers behind the typed arrays in `value` (a view, or plain
 * objects / arrays holding views up to {@link MAX_DEPTH} levels deep).
 */
export function collectTransferables(value: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  visit(value, 0, out);
  return [...out];
}

// canHandle() computes the buffer list; serialize() (called right after, same value) reuses it.
const pending = new WeakMap<object, ArrayBuffer[]>();

const typedArrayHandler: Comlink.TransferHandler<object, object> = {
  canHandle(value: unknown): value is object {
    if (value === null || typeof value !== 'object') return false;
    if (!ArrayBuffer.isView(value) && !isPlainContainer(value)) return false;
    const buffers = collectTransferables(value);
    if (buffers.length === 0) return false;
    pending.set(value, buffers);
    return true;
  },
  serialize(value: object): [object, Transferable[]] {
    const buffers = pending.get(value) ?? collectTransferables(value);
    pending.delete(value);
    return [value, buffers];
  },
  deserialize(value: object): object {
    return value;
  },
};

/** Registers the typed-array transfer handler with comlink (idempotent; call on both sides). */
export function registerTransferHandlers(): void {
  if (Comlink.transferHandlers.get(TRANSFER_HANDLER_NAME) !== typedArrayHandler) {
    Comlink.transferHandlers.set(TRANSFER_HANDLER_NAME, typedArrayHandler as Comlink.TransferHandler<unknown, unknown>);
  }
}
