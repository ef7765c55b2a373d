// The two one-shot calls of the Wasm engine: the check of a board (assembly/verify.ts) and
// the shared random sequence (assembly/rng.ts).
import { acquire, allocate, newInstance, outOfMemory, release } from "./loader.js";
import type { KernelExports } from "./layout.js";

// Small checks reuse one instance; a large one gets its own, so its memory is freed after.
const SHARED_VERIFY_LIMIT = 1 << 16;
// Rows per call of the kernel, copied into its window: V8 starts a Wasm function in its
// baseline code and tiers it up in the background, but a call already running stays in the
// code it began with, so in slices the later ones run optimised (n = 10^8, one process: about
// 1.4 s less); and the instance maps 4 MB of columns at a time instead of 4n bytes.
const VERIFY_SLICE = 1 << 20;
let sharedVerifier: KernelExports | undefined;

export function verifyRepeats(columns: Int32Array): number {
  const n = columns.length;
  const k = n <= SHARED_VERIFY_LIMIT ? (sharedVerifier ??= newInstance()) : newInstance();
  const rows = Math.min(n, VERIFY_SLICE);
  const ptr = k.verifyInput(n, rows);
  if (ptr === 0) throw outOfMemory(`verifying ${n} queens`);
  const window = new Int32Array(k.memory.buffer, ptr, rows); // (the kernel's calls below grow no memory)
  let repeats = 0;
  for (let from = 0; from < n; from += rows) {
    const to = Math.min(n, from + rows);
    window.set(from === 0 && to === n ? columns : columns.subarray(from, to));
    repeats += k.verifyRepeats(n, from, to);
  }
  return repeats;
}

export function randomSequence(seed: number, bound: number, count: number): Uint32Array {
  const k = acquire();
  const out = allocate(k, count * 4, `${count} random draws`);
  k.randomSequence(seed, bound, out, count);
  const draws = new Uint32Array(k.memory.buffer, out, count).slice();
  release(k);
  return draws;
}
