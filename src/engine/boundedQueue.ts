/**
 * The experience queue between asynchronous actors and the learner. Bounded: a producer that
 * pushes into a full queue waits until the learner takes something (backpressure), so fast
 * actors cannot run arbitrarily far ahead of the learner. Nothing pushed is ever dropped.
 */
export class QueueClosedError extends Error {
  constructor() {
    super('the experience queue is closed');
    this.name = 'QueueClosedError';
  }
}

export class BoundedQueue<T> {
  private readonly items: T[] = [];
  private readonly spaceWaiters: (() => void)[] = [];
  private itemWaiter: (() => void) | null = null;
  private closed = false;
  /** Times a producer had to wait for space. */
  blockedPushes = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`BoundedQueue: capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.items.length;
  }

  /** Add an item, waiting while the queue is full. Rejects with QueueClosedError once closed. */
  async push(item: T): Promise<void> {
    if (this.items.length >= this.capacity) this.blockedPushes += 1;
    while (this.items.length >= this.capacity) {
      if (this.closed) throw new QueueClosedError();
      await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
    }
    if (this.closed) throw new QueueClosedError();
    this.items.push(item);
    const wake = this.itemWaiter;
    this.itemWaiter = null;
    wake?.();
  }

  /** Take exactly k items (oldest first), waiting until there are k. Null once closed. */
  async take(k: number): Promise<T[] | null> {
    while (this.items.length < k) {
      if (this.closed) return null;
      await new Promise<void>((resolve) => (this.itemWaiter = resolve));
    }
    const out = this.items.splice(0, k);
    for (const wake of this.spaceWaiters.splice(0, out.length)) wake();
    return out;
  }

  /** Wake every waiter; later pushes reject and takes return null. */
  close(): void {
    this.closed = true;
    for (const wake of this.spaceWaiters.splice(0)) wake();
    const wake = this.itemWaiter;
    this.itemWaiter = null;
    wake?.();
  }
}
