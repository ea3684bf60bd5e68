/**
 * Heap snapshots for the soak (`--heap-snapshots true`): V8's .heapsnapshot (taken through the
 * Chrome DevTools Protocol), summed by constructor, and two of them compared, as DevTools'
 * "Comparison" view does: what kinds of objects the page gained, by count and by self size.
 *
 * The format: `nodes` is a flat array of `snapshot.meta.node_fields.length` numbers per node;
 * the field "type" indexes `snapshot.meta.node_types[0]`, "name" indexes `strings`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { CDPSession } from '@playwright/test';
import { markdownTable } from './types';

export interface HeapSnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapClass {
  count: number;
  selfBytes: number;
}

/** Kinds whose name is the value itself (a string's text, a number), so only the kind groups them. */
const GROUP_BY_TYPE_ONLY = new Set(['string', 'concatenated string', 'sliced string', 'number', 'bigint', 'code', 'symbol']);

/** Count and self size per constructor ("object Foo", "closure bar", "array (object elements)", "string"). */
export function summarizeHeap(snap: HeapSnapshotJson): Map<string, HeapClass> {
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  if (typeAt < 0 || nameAt < 0 || sizeAt < 0 || width === 0) throw new Error('heap snapshot: node_fields lacks type, name or self_size');
  const out = new Map<string, HeapClass>();
  for (let i = 0; i + width <= snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]] ?? 'unknown';
    const key = GROUP_BY_TYPE_ONLY.has(type) ? type : `${type} ${snap.strings[snap.nodes[i + nameAt]] ?? '?'}`;
    const c = out.get(key);
    if (c) {
      c.count += 1;
      c.selfBytes += snap.nodes[i + sizeAt];
    } else out.set(key, { count: 1, selfBytes: snap.nodes[i + sizeAt] });
  }
  return out;
}

export interface HeapGrowth {
  key: string;
  countBefore: number;
  countAfter: number;
  bytesBefore: number;
  bytesAfter: number;
}

/** The `top` constructors whose self size grew most from `before` to `after` (growth only). */
export function heapGrowth(before: Map<string, HeapClass>, after: Map<string, HeapClass>, top = 12): HeapGrowth[] {
  const rows: HeapGrowth[] = [];
  for (const [key, a] of after) {
    const b = before.get(key) ?? { count: 0, selfBytes: 0 };
    if (a.selfBytes > b.selfBytes) rows.push({ key, countBefore: b.count, countAfter: a.count, bytesBefore: b.selfBytes, bytesAfter: a.selfBytes });
  }
  return rows.sort((x, y) => y.bytesAfter - y.bytesBefore - (x.bytesAfter - x.bytesBefore)).slice(0, top);
}

export function heapGrowthTable(rows: readonly HeapGrowth[]): string {
  const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
  return markdownTable(
    ['constructor', 'count', 'self size', 'gained'],
    rows.map((r) => [r.key.replace(/\|/g, '\\|').slice(0, 80), `${r.countBefore} → ${r.countAfter}`, `${kib(r.bytesBefore)} → ${kib(r.bytesAfter)}`, kib(r.bytesAfter - r.bytesBefore)]),
  );
}

export function readHeapSnapshot(file: string): HeapSnapshotJson {
  return JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshotJson;
}

/** Takes a heap snapshot of the page behind `cdp` into `file`. */
export async function takeHeapSnapshot(cdp: CDPSession, file: string): Promise<void> {
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => void chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  writeFileSync(file, chunks.join(''));
}
