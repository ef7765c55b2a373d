// The Wasm engine's loader: the AssemblyScript kernels of assembly/, embedded in the bundle
// as bytes (not in the counting threads' bundle: a thread is given the module its pool
// compiled, see adoptWasmModule), compiled once, and instantiated (through
// @assemblyscript/loader) for a job (a count, an enumeration, a search) so jobs never share
// state; small instances are pooled for the next job. The per-family wrappers (count.ts,
// search.ts, estimate.ts, checks.ts) take an instance here and copy their results out of
// Wasm memory before they return them.
import { instantiateSync, type ASUtil } from "@assemblyscript/loader";
import embeddedBytes from "../../../build/release.wasm";
import { ErrorCode, codeOutOfMemory, engineUnavailable, withCode } from "../../core/errors.js";
import { readLayout, type KernelExports, type Layout } from "./layout.js";

let compiled: WebAssembly.Module | undefined;

/**
 * The kernels' bytes; absent from the counting threads' bundle (tsup.worker.config.ts
 * replaces the .wasm import with nothing), where the module comes from the pool instead.
 */
function wasmBytes(): Uint8Array<ArrayBuffer> {
  const bytes = embeddedBytes as Uint8Array<ArrayBuffer> | undefined;
  if (bytes === undefined) {
    throw engineUnavailable("engine 'wasm' is not available in this counting thread: it was given no compiled module (WebAssembly was not available where the pool started it); use engine 'ts'");
  }
  return bytes;
}

/** The compiled module, compiled off the critical path (asynchronously, as browsers prefer) if it is not yet. */
export async function compileWasmModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const module = await WebAssembly.compile(wasmBytes());
    compiled ??= module;
  }
  return compiled;
}

/**
 * Compile the embedded module ahead of time and pool a first instance (optional; the first
 * job does both otherwise, and pays the loader's one-off cost of about 1 ms then).
 */
export async function compileWasm(): Promise<void> {
  await compileWasmModule();
  if (pool.length === 0) {
    try {
      release(newInstance());
    } catch (error) {
      throw codeOutOfMemory(error, "a first Wasm instance of the kernels (init)");
    }
  }
}

/**
 * A counting thread takes the module its pool compiled (compileWasmModule; a
 * WebAssembly.Module crosses threads without compiling again, and V8 shares its code,
 * optimised tiers included, so a fresh thread counts at once at full speed). Anything
 * else is ignored.
 */
export function adoptWasmModule(module: unknown): void {
  if (!compiled && typeof WebAssembly === "object" && module instanceof WebAssembly.Module) compiled = module;
}

// The layout (layout.ts), read from the first instance made: one module, one layout.
let layout: Layout | undefined;

/** The error a kernel's `abort` (a failed assert in assembly/) becomes: its message, file and line, coded. */
export function kernelAbort(message: string, file: string, line: number, column: number): Error & { code: string } {
  const error = withCode(new Error(`kernel abort: ${message} (${file}:${line}:${column})`), ErrorCode.kernelAbort);
  error.name = "KernelAbortError";
  return error;
}

/**
 * A fresh instance of the kernels, instantiated through @assemblyscript/loader: it
 * provides the `abort` import, whose message and file the loader's __getString reads
 * out of Wasm memory, so a kernel abort arrives as a coded JS error with file and line.
 * Jobs call the raw exports (numbers in, numbers out: bigint for i64), not the loader's
 * demangled wrappers, so its cost is one-off per instance and stays off the hot loops;
 * the pool below keeps even that off most jobs.
 */
export function newInstance(): KernelExports {
  if (!compiled) compiled = new WebAssembly.Module(wasmBytes());
  let util: ASUtil | undefined;
  const imports = {
    env: {
      abort(message: number, file: number, line: number, column: number): never {
        const text = (ptr: number) => (util && ptr ? util.__getString(ptr) : "?");
        throw kernelAbort(text(message), text(file), line, column);
      },
    },
  };
  // Memory for an instance that cannot be had is coded by the caller: the engine's boundary
  // (codingOutOfMemory) names the job, compileWasm the warm-up.
  const loaded = instantiateSync<KernelExports>(compiled, imports);
  util = loaded.exports;
  const k = loaded.instance.exports as unknown as KernelExports;
  layout ??= readLayout(k);
  return k;
}

/** The layout, read from the first instance made. */
export function offsets(): Layout {
  if (!layout) newInstance();
  return layout!;
}

// Finished jobs hand small instances back for the next job (instantiating costs
// about 0.1 ms, a large part of a small solve); memory cannot shrink, so an
// instance whose memory grew past POOL_MAX_BYTES is dropped and freed by the GC.
const POOL_MAX_BYTES = 16 << 20;
const POOL_SIZE = 4;
const pool: KernelExports[] = [];

/** An instance for one job: from the pool, or new. Every kernel's Init resets its own state. */
export function acquire(): KernelExports {
  const k = pool.pop() ?? newInstance();
  k.resetMemory();
  k.constraintsClear(); // a pooled instance may still hold an earlier job's constraints (now freed memory)
  return k;
}

/** Whether `k` may go back to the pool (its memory small enough); one that may not is never used again after its job. */
export function pooled(k: KernelExports): boolean {
  return k.memory.buffer.byteLength <= POOL_MAX_BYTES;
}

export function release(k: KernelExports): void {
  if (pool.length < POOL_SIZE && pooled(k)) pool.push(k);
}

/** A close function that hands `k` back to the pool once, however often it is called. */
export function closer(k: KernelExports): () => void {
  let open = true;
  return () => {
    if (open) {
      open = false;
      release(k);
    }
  };
}

/** Thrown when a kernel's allocation fails: Wasm memory cannot grow that far (code ErrorCode.outOfMemory). */
export function outOfMemory(what: string): RangeError & { code: string } {
  return withCode(new RangeError(`out of Wasm memory for ${what} (at most 4 GiB)`), ErrorCode.outOfMemory);
}

/**
 * `bytes` of zeroed kernel memory, or outOfMemory. The kernel's allocate takes a u32, so
 * 4 GiB or more is refused here (passed on, the size would wrap around to a small one).
 */
export function allocate(k: KernelExports, bytes: number, what: string): number {
  const ptr = bytes < 2 ** 32 ? k.allocate(bytes) : 0;
  if (ptr === 0) throw outOfMemory(what);
  return ptr;
}
