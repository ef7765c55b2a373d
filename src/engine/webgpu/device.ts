/// <reference types="@webgpu/types" />
// Where the GPU comes from: `navigator.gpu` in browsers; in Node the optional peer
// package `webgpu` (Dawn), imported only when a GPU count is asked for, so that a user
// who never asks installs nothing more. One device is kept and shared by the counts
// of this process; when it is lost it is dropped and the next count asks for a new one.
import { engineUnavailable } from "../../core/errors.js";
import { importModule, isNode } from "../../core/platform.js";

/** What `gpuInfo()` reports about the adapter a GPU count runs on. */
export type GpuInfo = {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** A software adapter (such as SwiftShader, a CPU implementation): correct, and slow. */
  fallback: boolean;
  /** Where the adapter came from: the browser's navigator.gpu, or the Node package `webgpu`. */
  source: "navigator.gpu" | "webgpu package";
};

/** Supplies a GPU object (navigator.gpu or the `webgpu` package's); replaceable for tests. */
export type GpuLoader = () => Promise<{ gpu: GPU; source: GpuInfo["source"] }>;


/**
 * Specifiers kept in top-level variables so that bundlers neither resolve nor bundle them: a
 * minifier inlines a function's own constants (a literal `import("webgpu")` then fails a
 * browser build), not these (test/bundle-size.test.ts checks the built entries).
 */
const WEBGPU_PACKAGE = "webgpu";
const NODE_FS = "node:fs";

/** `import("webgpu")`, hidden from bundlers (the name is a variable). */
async function importWebGpuPackage(): Promise<{ create(options: string[]): GPU }> {
  return importModule<{ create(options: string[]): GPU }>(WEBGPU_PACKAGE);
}

/** What a loader looks at; tests pass their own (a package that will not load, a browser without WebGPU). */
export type GpuEnvironment = {
  navigator?: { gpu?: GPU };
  isNode: boolean;
  importPackage: () => Promise<{ create(options: string[]): GPU }>;
  /**
   * Why Dawn would find no native backend here (undefined when it may): asked before the
   * package is loaded, so that Dawn's own multi-line diagnostics (with C++ source paths) are
   * never printed for a machine that cannot have an adapter. NQUEENS_DEBUG=1 loads it anyway.
   */
  nativeMissing?: () => Promise<string | undefined>;
};

/**
 * On Linux, Dawn's one backend there is Vulkan, through the loader libvulkan.so.1: it is
 * looked for where the dynamic loader would find it (LD_LIBRARY_PATH, then the ld.so cache and
 * the usual directories). Elsewhere (Metal, D3D) nothing is ruled out.
 */
async function vulkanMissing(): Promise<string | undefined> {
  if (process.platform !== "linux" || process.env.NQUEENS_DEBUG) return undefined;
  const fs = await importModule<typeof import("node:fs")>(NODE_FS);
  const dirs = [...(process.env.LD_LIBRARY_PATH ?? "").split(":").filter(Boolean),
    "/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib", `/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu`,
    `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu`];
  if (dirs.some((dir) => fs.existsSync(`${dir}/libvulkan.so.1`))) return undefined;
  try {
    if (fs.readFileSync("/etc/ld.so.cache").includes("libvulkan.so.1")) return undefined;
  } catch { /* no cache: the directories decided */ }
  return "no Vulkan loader (libvulkan.so.1) is installed, so Dawn has no backend";
}

/** navigator.gpu where there is one; else, in Node, the `webgpu` package (created once per loader). */
export function createLoader(env: () => GpuEnvironment): GpuLoader {
  let nodeGpu: GPU | undefined;
  return async () => {
    const { navigator: nav, isNode: node, importPackage } = env();
    if (nav?.gpu) return { gpu: nav.gpu, source: "navigator.gpu" };
    if (!node) {
      throw engineUnavailable(
        "engine 'webgpu' is not available: this browser has no WebGPU (navigator.gpu is missing; it needs a secure origin " +
          "such as https:// or http://127.0.0.1, and a browser with WebGPU enabled); use engine 'wasm'",
      );
    }
    if (!nodeGpu) {
      // The package first: where it is not installed, that is the cause to name, whatever the machine.
      let pkg: { create(options: string[]): GPU };
      try {
        pkg = await importPackage();
      } catch (error) {
        const notInstalled = (error as { code?: unknown })?.code === "ERR_MODULE_NOT_FOUND";
        throw engineUnavailable(
          "engine 'webgpu' in Node needs the optional package webgpu (Dawn), " +
            (notInstalled ? "which is not installed" : `which could not be loaded (${(error as Error)?.message ?? String(error)})`) +
            ": npm install webgpu; or use engine 'wasm'",
        );
      }
      const missing = await env().nativeMissing?.();
      if (missing) throw engineUnavailable(`${NO_ADAPTER} (${missing})`);
      nodeGpu = pkg.create([]);
    }
    return { gpu: nodeGpu, source: "webgpu package" };
  };
}

/** The loader count() uses unless a test replaced it. */
export const defaultLoader: GpuLoader = createLoader(() => ({
  navigator: (globalThis as { navigator?: { gpu?: GPU } }).navigator,
  isNode,
  importPackage: importWebGpuPackage,
  nativeMissing: vulkanMissing,
}));

let loader: GpuLoader = defaultLoader;

/** Tests only: replace (or with no argument restore) how the GPU object is found; drops the shared device. */
export function setGpuLoader(next?: GpuLoader): void {
  loader = next ?? defaultLoader;
  shared = undefined;
}

export type GpuHandle = {
  device: GPUDevice;
  info: GpuInfo;
  lost: boolean;
  lostMessage: string;
  fallback: boolean;
  /** Called once with the reason if the device is lost (the counts running on it subscribe). */
  onLost: Set<(message: string) => void>;
};

let shared: Promise<GpuHandle> | undefined;

// Short, as the CLI prints it on one line; docs/gpu.md ("Without a GPU") gives the whole recipe.
const NO_ADAPTER =
  "engine 'webgpu' is not available: WebGPU found no adapter (no GPU, or no driver for it); use engine 'wasm', " +
  "or for a slow software adapter point VK_ICD_FILENAMES at SwiftShader's (docs/gpu.md, \"Without a GPU\")";

async function open(): Promise<GpuHandle> {
  const { gpu, source } = await loader();
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
  } catch (error) {
    throw engineUnavailable(`${NO_ADAPTER} (requestAdapter failed: ${(error as Error)?.message ?? String(error)})`);
  }
  if (!adapter) throw engineUnavailable(NO_ADAPTER);
  const a = adapter.info ?? ({} as GPUAdapterInfo);
  const vendor = a.vendor ?? "", architecture = a.architecture ?? "", device = a.device ?? "", description = a.description ?? "";
  const text = `${vendor} ${architecture} ${device} ${description}`.toLowerCase();
  const fallback =
    Boolean((a as { isFallbackAdapter?: boolean }).isFallbackAdapter) ||
    Boolean((adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter) ||
    /swiftshader|llvmpipe|lavapipe|software|warp/.test(text);
  const limits = adapter.limits;
  let gpuDevice: GPUDevice;
  try {
    gpuDevice = await adapter.requestDevice({
      requiredLimits: {
        maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
        maxBufferSize: limits.maxBufferSize,
      },
    });
  } catch (error) {
    throw engineUnavailable(`engine 'webgpu' is not available: the adapter refused a device (${(error as Error)?.message ?? String(error)})`);
  }
  const handle: GpuHandle = {
    device: gpuDevice,
    info: { vendor, architecture, device, description, fallback, source },
    lost: false,
    lostMessage: "",
    fallback,
    onLost: new Set(),
  };
  void gpuDevice.lost.then((info) => {
    handle.lost = true;
    handle.lostMessage = `${info.reason ?? "unknown"}: ${info.message ?? ""}`.trim();
    if (shared && current === handle) shared = undefined; // the next count asks for a new device
    for (const notify of handle.onLost) notify(handle.lostMessage);
    handle.onLost.clear();
  });
  current = handle;
  return handle;
}

let current: GpuHandle | undefined;

/** The shared device (asked for on first use). Rejects with NQ_ENGINE_UNAVAILABLE where there is none. */
export function acquireGpu(): Promise<GpuHandle> {
  if (!shared) {
    const opening = open();
    shared = opening;
    opening.catch(() => {
      if (shared === opening) shared = undefined; // a later call tries again (after `npm install webgpu`, say)
    });
  }
  return shared;
}

/**
 * The adapter that `count(n, { engine: 'webgpu' })` runs on. Rejects with NQ_ENGINE_UNAVAILABLE
 * and a message saying what is missing (the `webgpu` package in Node, WebGPU in the browser, an adapter).
 * @example const info = await gpuInfo(); // { vendor: 'nvidia', architecture: 'hopper', fallback: false, ... }
 */
export async function gpuInfo(): Promise<GpuInfo> {
  return { ...(await acquireGpu()).info };
}

/** Releases the shared device (a later count asks for a new one); lets a Node process exit at once. */
export async function releaseGpu(): Promise<void> {
  const s = shared;
  shared = undefined;
  current = undefined;
  if (s) {
    try {
      (await s).device.destroy();
    } catch {
      // it never opened: nothing to release
    }
  }
}
