// The order of the wide path's candidates (complete-wide.ts): each candidate's sort key (its
// score, then after a restart a hash of it and the restart, then itself), the sort of a
// level's keys, and the rotation of the root's candidates that ROTATE's restarts dive by.
// Apart so that complete-wide.ts stays a room a reader holds in mind; the key and the hash
// are inlined where branch calls them, as before. Twin: src/engine/ts/complete-wide-order.ts.

const GAPS: usize = memory.data<i32>([701, 301, 132, 57, 23, 10, 4, 1]);

@inline function f64At(base: usize, i: i32): usize {
  return base + (<usize>i << 3);
}

/** Sort key of a candidate: its score, then (after a restart) a hash of it and the restart, then itself; exact in an f64. */
@inline export function key(score: i32, candidate: i32, restarts: i32): f64 {
  const t: u32 = restarts != 0 ? tie(candidate, restarts) : 0;
  return <f64>score * 1099511627776.0 + <f64>t * 1048576.0 + <f64>candidate;
}

/** After a restart, ties go by a hash of the candidate and the restart (20 bits). */
@inline export function tie(candidate: i32, restarts: i32): u32 {
  let h = <u32>restarts * 0x9e3779b9 ^ <u32>(candidate + 1) * 0x85ebca6b;
  h ^= h >> 16;
  h *= 0x7feb352d;
  h ^= h >> 15;
  return h & 0xfffff;
}

/** Shell sort (Ciura's gaps) of `count` distinct f64 keys at `at`, ascending. */
export function sortKeys(at: usize, count: i32): void {
  for (let g = 0; g < 8; g++) {
    const gap = load<i32>(GAPS + (<usize>g << 2));
    for (let i = gap; i < count; i++) {
      const k = load<f64>(f64At(at, i));
      let j = i;
      while (j >= gap && load<f64>(f64At(at, j - gap)) > k) {
        store<f64>(f64At(at, j), load<f64>(f64At(at, j - gap)));
        j -= gap;
      }
      store<f64>(f64At(at, j), k);
    }
  }
}

/** The `count` f64s at `at` rotated left by `by` (0 < by < count): three reversals. */
export function rotateLeft(at: usize, count: i32, by: i32): void {
  reverse(at, 0, by - 1);
  reverse(at, by, count - 1);
  reverse(at, 0, count - 1);
}

function reverse(at: usize, i: i32, j: i32): void {
  while (i < j) {
    const x = load<f64>(f64At(at, i));
    store<f64>(f64At(at, i), load<f64>(f64At(at, j)));
    store<f64>(f64At(at, j), x);
    i++;
    j--;
  }
}
