import { describe, expect, it } from 'vitest';
import { heapGrowth, summarizeHeap, type HeapSnapshotJson } from '../../../bench/soakHeap';

/** A snapshot in V8's layout: 3 fields per node (type, name, self_size) here. */
function snapshot(nodes: [type: number, name: number, size: number][]): HeapSnapshotJson {
  return {
    snapshot: { meta: { node_fields: ['type', 'name', 'self_size'], node_types: [['hidden', 'array', 'string', 'object', 'closure']] } },
    nodes: nodes.flat(),
    strings: ['Foo', 'bar', 'hello', 'world', '(object elements)'],
  };
}

describe('summarizeHeap', () => {
  it('sums count and self size by type and constructor, strings by type only', () => {
    const s = summarizeHeap(
      snapshot([
        [3, 0, 32], // object Foo
        [3, 0, 48], // object Foo
        [4, 1, 64], // closure bar
        [2, 2, 20], // string "hello"
        [2, 3, 24], // string "world"
        [1, 4, 100], // array (object elements)
      ]),
    );
    expect(Object.fromEntries(s)).toEqual({
      'object Foo': { count: 2, selfBytes: 80 },
      'closure bar': { count: 1, selfBytes: 64 },
      string: { count: 2, selfBytes: 44 },
      'array (object elements)': { count: 1, selfBytes: 100 },
    });
  });

  it('refuses a snapshot without the fields it needs', () => {
    const bad = snapshot([]);
    bad.snapshot.meta.node_fields = ['type', 'name'];
    expect(() => summarizeHeap(bad)).toThrow(/self_size/);
  });
});

describe('heapGrowth', () => {
  it('lists what grew, most bytes first, including constructors new in the later snapshot', () => {
    const before = summarizeHeap(snapshot([[3, 0, 100], [4, 1, 10]]));
    // Foo: 100 -> 100 + 150 = 250 (+150); bar unchanged; a new array of 400 (+400).
    const after = summarizeHeap(snapshot([[3, 0, 100], [3, 0, 150], [4, 1, 10], [1, 4, 400]]));
    expect(heapGrowth(before, after)).toEqual([
      { key: 'array (object elements)', countBefore: 0, countAfter: 1, bytesBefore: 0, bytesAfter: 400 },
      { key: 'object Foo', countBefore: 1, countAfter: 2, bytesBefore: 100, bytesAfter: 250 },
    ]);
    expect(heapGrowth(after, before)).toEqual([]);
  });
});
