/**
 * A counter bumped on every start, reset and opened run: whatever was begun under an older
 * generation (a run's records, a Watch) no longer owns the charts.
 */
export interface Generations {
  next(): number;
  current(): number;
  isCurrent(gen: number): boolean;
}

export function createGenerations(): Generations {
  let gen = 0;
  return { next: () => ++gen, current: () => gen, isCurrent: (g) => g === gen };
}
