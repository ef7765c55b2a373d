// Input checks, done once in src/ before anything reaches a kernel. Every message
// names the parameter, the value it got and what is allowed.
import { invalid, typeError } from "./errors.js";

/** A short, readable rendering of a bad value for an error message. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** A value as JSON for a message, at most `max` characters: bigints as 12n, never a throw (cycles, BigInt). */
export function shown(value: unknown, max = 200): string {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
    return text === undefined ? describe(value) : text.slice(0, max);
  } catch {
    return describe(value);
  }
}

/** An integer in [min, max]; a TypeError for a non-number, a RangeError otherwise. */
export function checkInteger(name: string, value: unknown, min: number, max: number): number {
  const allowed = max >= Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  if (typeof value !== "number") throw invalid(name, ` must be ${allowed}, got ${typeof value} ${describe(value)}`, TypeError);
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(name, ` must be ${allowed}, got ${describe(value)}`);
  return value;
}

/** An optional integer in [min, max] (undefined gives `fallback`). */
export function optionalInteger(name: string, value: unknown, min: number, max: number, fallback: number): number {
  return value === undefined ? fallback : checkInteger(name, value, min, max);
}

/**
 * The options object: undefined or an object whose keys are all known. Only its own
 * enumerable keys count: the result is a copy without a prototype, so an inherited key
 * (Object.create({ timeoutMs: 0 }), or a polluted Object.prototype) is never applied.
 */
export function checkOptions<T extends object>(what: string, options: unknown, known: readonly string[]): Partial<T> {
  return ownKeys(options, known, "options", ` of ${what}`, (key) => `unknown option ${JSON.stringify(key)} for ${what}`);
}

/**
 * A plain record argument (a board, givens): an object whose own keys are all known, copied
 * without a prototype as checkOptions does; `name` is the parameter in messages.
 * Undefined gives an empty record.
 */
export function checkRecord<T extends object>(name: string, value: unknown, known: readonly string[]): Partial<T> {
  return ownKeys(value, known, name, "", (key) => `unknown key ${JSON.stringify(key)} in ${name}`);
}

/** `name` + `of` is the record in messages ("options" + " of count"); an unknown key is that key's error (its param). */
function ownKeys<T extends object>(value: unknown, known: readonly string[], name: string, of: string, unknownKey: (key: string) => string): Partial<T> {
  const own = Object.create(null) as Record<string, unknown>;
  if (value === undefined) return own as Partial<T>;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid(name, `${of} must be an object, got ${describe(value)}`, TypeError);
  }
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw typeError(`${unknownKey(key)} (known: ${known.join(", ")})`);
    own[key] = (value as Record<string, unknown>)[key];
  }
  return own as Partial<T>;
}

export function optionalFunction<F>(name: string, value: unknown): F | undefined {
  if (value !== undefined && typeof value !== "function") throw invalid(name, ` must be a function, got ${describe(value)}`, TypeError);
  return value as F | undefined;
}

/** An AbortSignal (a real one: `instanceof AbortSignal` where the platform has the class). */
export function optionalSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  const real = typeof AbortSignal === "function"
    ? value instanceof AbortSignal
    : typeof value === "object" && value !== null && typeof (value as AbortSignal).aborted === "boolean" &&
      typeof (value as AbortSignal).addEventListener === "function";
  if (!real) throw invalid("signal", ` must be an AbortSignal (from an AbortController), got ${describe(value)}`, TypeError);
  return value as AbortSignal;
}

/** One of a fixed list of strings. */
export function checkChoice<T extends string>(name: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== "string" || !choices.includes(value as T)) {
    throw invalid(name, ` must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}, got ${describe(value)}`,
      typeof value === "string" ? RangeError : TypeError);
  }
  return value as T;
}

/** The typed arrays that hold integers (and numbers, not bigints): a board may come in any of them. */
const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array] as const;

/** A board as columns by row: an array or integer typed array of integers in [0, n) (not a DataView, a float or bigint array). */
export function checkColumns(name: string, value: unknown): Int32Array {
  if (!Array.isArray(value) && !INTEGER_ARRAYS.some((kind) => value instanceof kind)) {
    const what = ArrayBuffer.isView(value) ? `a ${value.constructor.name}` : describe(value);
    throw invalid(name, ` must be an array of column numbers or an integer typed array (Int32Array, Uint8Array, ...), got ${what}`, TypeError);
  }
  const list = value as ArrayLike<unknown>;
  const n = list.length;
  if (n < 1) throw invalid(name, " must hold at least one queen, got an empty list");
  for (let i = 0; i < n; i++) {
    const c = list[i];
    if (typeof c !== "number" || !Number.isInteger(c) || c < 0 || c >= n) {
      throw invalid(name, `[${i}] must be an integer from 0 to ${n - 1} (a column of the ${n} x ${n} board), got ${describe(c)}`);
    }
  }
  return value instanceof Int32Array ? value : Int32Array.from(list as ArrayLike<number>);
}

/** The default seed, used when none is given (never the clock unless `seed: 'random'`). */
export const DEFAULT_SEED = 1;

/** A u32 seed: undefined gives DEFAULT_SEED, 'random' one drawn from Math.random. */
export function checkSeed(value: unknown): number {
  if (value === undefined) return DEFAULT_SEED;
  if (value === "random") return (Math.random() * 2 ** 32) >>> 0;
  return checkInteger("seed", value, 0, 0xffffffff);
}
