// Twin of assembly/complete-wide-order.ts: the order of the wide path's candidates
// (complete-wide.ts): their sort keys, the sort of a level's keys, and the rotation of the
// root's candidates that the rotating restarts dive by. See the kernel.

const GAPS = [701, 301, 132, 57, 23, 10, 4, 1];

/** After a restart, ties go by a hash of the candidate and the restart (20 bits). */
export function tie(candidate: number, restarts: number): number {
  let h = Math.imul(restarts, 0x9e3779b9 | 0) ^ Math.imul(candidate + 1, 0x85ebca6b | 0);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h & 0xfffff;
}

/** Sort key of a candidate: its score, then (after a restart) a hash of it and the restart, then itself; exact in a double (as the kernel). */
export function key(score: number, candidate: number, restarts: number): number {
  const t = restarts !== 0 ? tie(candidate, restarts) : 0;
  return score * 1099511627776 + t * 1048576 + candidate;
}

/** Shell sort (Ciura's gaps) of count distinct keys from `at`, ascending (as the kernel). */
export function sortKeys(a: Float64Array, at: number, count: number): void {
  for (const gap of GAPS) {
    for (let i = gap; i < count; i++) {
      const k = a[at + i];
      let j = i;
      while (j >= gap && a[at + j - gap] > k) {
        a[at + j] = a[at + j - gap];
        j -= gap;
      }
      a[at + j] = k;
    }
  }
}

/** The `count` keys of `a` from `at` rotated left by `by` (0 < by < count), as the kernel's rotateLeft. */
export function rotateLeft(a: Float64Array, at: number, count: number, by: number): void {
  const root = a.slice(at, at + count);
  for (let i = 0; i < count; i++) a[at + i] = root[(i + by) % count];
}
