// The one seam between the platform and the rest of the package: whether this is Node, and
// how a Node built-in (or an optional package) is reached without an import that a browser
// bundler would try to resolve. Everything else is the same code in Node and in browsers.
//
// The specifier always comes in as a parameter: a bundler sees `import(specifier)` with a
// variable, which it leaves alone (Vite is told so by its comment), and a minifier cannot
// inline a literal into it (test/bundle-size.test.ts and test/bundler.test.ts check the
// built entries in a browser build).

/** True in Node (and where Node's `process.versions.node` is), false in browsers and workers of theirs. */
export const isNode: boolean = typeof process !== "undefined" && typeof process.versions?.node === "string";

/**
 * A monotonic clock in milliseconds: in Node `process.hrtime` (reading `performance` there
 * loads perf_hooks, about 1 ms of a fresh CLI process), elsewhere `performance.now()`.
 */
export const monotonicMs: () => number = isNode && typeof process.hrtime?.bigint === "function"
  ? () => Number(process.hrtime.bigint()) / 1e6
  : typeof performance !== "undefined" ? () => performance.now() : () => Date.now();

/** `import(specifier)` that bundlers leave alone: a Node built-in ("node:fs") or an optional package ("webgpu"). */
export function importModule<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<T>;
}

/** A Node built-in, synchronously (process.getBuiltinModule, Node 20.16 or later); undefined where there is none. */
export function builtinModule<T>(id: string): T | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  return typeof get === "function" ? (get(id) as T | undefined) : undefined;
}
