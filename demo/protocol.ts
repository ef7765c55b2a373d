// Messages between the page (main.ts) and the computing worker (worker.ts).
import type { EngineName, Method } from "nqueens-wasm";

export type SolveJob = {
  kind: "solve"; id: number; n: number; method: Method; seed: number; engine: EngineName; stopVegas?: number;
};
export type EstimateJob = {
  kind: "estimate"; id: number; n: number; seed: number; engine: EngineName; batches: number; batchSamples: number;
};
export type Job = SolveJob | EstimateJob;

/** A JSON-safe copy of a SolveResult without its columns (they travel as a transferred Int32Array). */
export type SolveSummary = {
  n: number; method: string; stopVegas?: number; engine: string; seed: number | null; found: boolean;
  nodes: number; tries: number; steps: number; ms: number; reason?: string;
};
export type VerifySummary = { ok: boolean; conflicts: [number, number][]; conflictCount: number; ms: number };

export type FromWorker =
  | { id: number; type: "progress"; phase: string; conflicts: number; nodes: number; tries: number; steps: number; elapsedMs: number }
  | { id: number; type: "solved"; result: SolveSummary; columns: Int32Array | null; verify: VerifySummary | null }
  | { id: number; type: "estimate-progress"; samples: number; mean: number; stderr: number; elapsedMs: number }
  | { id: number; type: "estimated"; result: Record<string, unknown> }
  | { id: number; type: "error"; message: string };
