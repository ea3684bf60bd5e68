import { describe, expect, it } from 'vitest';
import { SegmentRoom } from '../../../src/engine/streamRoom';

/** Lets pending promise callbacks run. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** Reserves `n` and records, in `started`, `name` once the reservation went through. */
function ask(room: SegmentRoom, n: number, name: string, started: string[]): Promise<void> {
  return room.reserve(n).then(() => void started.push(name));
}

describe('SegmentRoom', () => {
  it('a request starts while fewer than the capacity are asked for: a pack above it runs one at a time', async () => {
    const room = new SegmentRoom(4, 8);
    const started: string[] = [];
    void ask(room, 8, 'a', started);
    void ask(room, 8, 'b', started);
    await settle();
    expect(started).toEqual(['a']);
    expect(room.asked).toBe(8);
    room.taken(4); // 4 still asked for: not below the capacity
    await settle();
    expect(started).toEqual(['a']);
    room.taken(1);
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(room.asked).toBe(3 + 8);
  });

  it('requests waiting for room start in the order they asked; a failed one frees its room', async () => {
    const room = new SegmentRoom(1);
    const started: string[] = [];
    void ask(room, 1, 'first', started);
    for (const name of ['x', 'y', 'z']) void ask(room, 1, name, started);
    await settle();
    room.release(1); // the first request failed
    await settle();
    room.taken(1);
    await settle();
    expect(started).toEqual(['first', 'x', 'y']);
  });

  it('openAll lets every waiting request go (the loop is stopping)', async () => {
    const room = new SegmentRoom(1);
    const started: string[] = [];
    void ask(room, 1, 'held', started);
    void ask(room, 1, 'w1', started);
    void ask(room, 1, 'w2', started);
    room.openAll();
    await settle();
    expect(started).toEqual(['held', 'w1', 'w2']);
  });
});
