/** Ids for hosts and actors: random (not seeded: they only need to differ between processes), subject-safe hex. */
export function randomId(bytes = 8): string {
  const b = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
