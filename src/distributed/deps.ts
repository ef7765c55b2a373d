// The queue's libraries, bullmq and ioredis, are optional peer dependencies: loaded here,
// on first use, so the library and the CLI work without them; missing, they are an
// NQ_MISSING_DEPENDENCY error that says what to install (internal module).
import { ErrorCode, withCode } from "../core/errors.js";

export type Bullmq = typeof import("bullmq");
export type Ioredis = typeof import("ioredis");
export type QueueLibraries = { bullmq: Bullmq; ioredis: Ioredis };

/** The packages the queue needs, as `npm install` takes them. */
export const QUEUE_PACKAGES = ["bullmq", "ioredis"] as const;

type Importer = { bullmq: () => Promise<Bullmq>; ioredis: () => Promise<Ioredis> };
const defaultImporter: Importer = { bullmq: () => import("bullmq"), ioredis: () => import("ioredis") };
let importer: Importer = defaultImporter;
let loaded: Promise<QueueLibraries> | undefined;

/** Tests: load the libraries through `replacement` (a missing package simulated), or the real ones again (undefined). */
export function setQueueImporter(replacement: Importer | undefined): void {
  importer = replacement ?? defaultImporter;
  loaded = undefined;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

async function load(): Promise<QueueLibraries> {
  const missing: string[] = [];
  const one = async <T>(name: (typeof QUEUE_PACKAGES)[number], get: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await get();
    } catch (error) {
      if (!isMissing(error)) throw error;
      missing.push(name);
      return undefined;
    }
  };
  const [bullmq, ioredis] = await Promise.all([one("bullmq", importer.bullmq), one("ioredis", importer.ioredis)]);
  if (missing.length > 0 || !bullmq || !ioredis) {
    throw withCode(
      new Error(`the Redis queue needs the optional package${missing.length > 1 ? "s" : ""} ${missing.join(" and ")}: npm install ${QUEUE_PACKAGES.join(" ")}`),
      ErrorCode.missingDependency,
    );
  }
  return { bullmq, ioredis };
}

/** bullmq and ioredis, loaded once; NQ_MISSING_DEPENDENCY naming the packages when they are not installed. */
export function queueLibraries(): Promise<QueueLibraries> {
  loaded ??= load().catch((error) => {
    loaded = undefined; // a later call tries again (the package may have been installed meanwhile)
    throw error;
  });
  return loaded;
}
