// The form at the top of the page: n, method, seed, stopVegas, engine and workers, read the
// same way by every action and by the step-through.
import type { EngineName } from "nqueens-wasm";
import { input, select } from "./dom";

/** n as typed: an integer, 1e6, 10^6 or 1_000_000; at most 10^8 in this demo. */
export function parseN(): number {
  const raw = input("n").value.trim().replace(/_/g, "").replace(/\s/g, "");
  const pow = raw.match(/^(\d+)\^(\d+)$/);
  const n = pow ? Number(pow[1]) ** Number(pow[2]) : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got "${input("n").value}"`);
  if (n > 1e8) throw new RangeError("this demo stops at n = 10^8 (the library goes further in Node)");
  return n;
}

export const engine = () => select("engine").value as EngineName;
export const seed = () => Number(input("seed").value) >>> 0;
/** The stopVegas field: "" when left to the default. */
export const stopVegasText = () => input("stopVegas").value.trim();
