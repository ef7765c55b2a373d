// The two one-shot calls of the Wasm engine: the check of a board (assembly/verify.ts) and
// the shared random sequence (assembly/rng.ts).
import { acquire, allocate, newInstance, outOfMemory, release } from "./loader.js";
import type { KernelExports } from "./layout.js";

// Small checks reuse one instance; a large one gets its own, so its memory is freed after.
const SHARED_VERIFY_LIMIT = 1 << 16;
let sharedVerifier: KernelExports | undefined;

export function verifyRepeats(columns: Int32Array): number {
  const n = columns.length;
  const k = n <= SHARED_VERIFY_LIMIT ? (sharedVerifier ??= newInstance()) : newInstance();
  const ptr = k.verifyInput(n);
  if (ptr === 0) throw outOfMemory(`verifying ${n} queens`);
  new Int32Array(k.memory.buffer, ptr, n).set(columns);
  return k.verifyRepeats(n);
}

export function randomSequence(seed: number, bound: number, count: number): Uint32Array {
  const k = acquire();
  const out = allocate(k, count * 4, `${count} random draws`);
  k.randomSequence(seed, bound, out, count);
  const draws = new Uint32Array(k.memory.buffer, out, count).slice();
  release(k);
  return draws;
}
