// Messages between the page (main.ts) and the computing worker (worker.ts).
import type { EngineName, Method } from "nqueens-wasm";

export type SolveJob = {
  kind: "solve"; id: number; n: number; method: Method; seed: number; engine: EngineName; stopVegas?: number;
  /** Constrained boards (demo/constraints.ts): given queens and blocked squares, absent for the plain problem. */
  fixed?: [number, number][]; blocked?: [number, number][];
};
/** Count of a constrained board (count() with fixed/blocked, in the worker; plain boards use countParallel). */
export type CountJob = {
  kind: "count"; id: number; n: number; engine: EngineName; fixed?: [number, number][]; blocked?: [number, number][];
};
export type EstimateJob = {
  kind: "estimate"; id: number; n: number; seed: number; engine: EngineName; batches: number; batchSamples: number;
};
/** Brassard & Bratley's table: t against stopVegas = 0..n, exact for n <= LAS_VEGAS_EXACT_MAX_N, else Monte Carlo. */
export type LasVegasJob = {
  kind: "lv-table"; id: number; n: number; seed: number; engine: EngineName; trials: number;
};
export type Job = SolveJob | EstimateJob | LasVegasJob | CountJob;

/** Up to this n the estimate plot also shows the exact tree size (treeSize: n = 14 is 27 million nodes, well under a second). */
export const ESTIMATE_EXACT_MAX_N = 14;

/** One row of the table: what one try of hybrid with this stopVegas costs (lasVegasStats). */
export type LasVegasRow = { stopVegas: number; p: number; s: number; e: number; t: number; stderrT: number };

/** A JSON-safe copy of a SolveResult without its columns (they travel as a transferred Int32Array). */
export type SolveSummary = {
  n: number; method: string; stopVegas?: number; engine: string; seed: number | null; found: boolean;
  nodes: number; tries: number; steps: number; ms: number; reason?: string;
  /** reason 'conflict': the given queens that attack each other (or the given queen on a blocked square). */
  conflict?: { reason: string; squares: readonly (readonly [number, number])[] };
};
export type VerifySummary = { ok: boolean; conflicts: [number, number][]; conflictCount: number; ms: number };

export type FromWorker =
  | { id: number; type: "progress"; phase: string; conflicts: number; nodes: number; tries: number; steps: number; elapsedMs: number }
  | { id: number; type: "solved"; result: SolveSummary; columns: Int32Array | null; verify: VerifySummary | null }
  | { id: number; type: "estimate-exact"; total: number; ms: number }
  | { id: number; type: "estimate-progress"; samples: number; mean: number; stderr: number; elapsedMs: number }
  | { id: number; type: "estimated"; result: Record<string, unknown> }
  | { id: number; type: "lv-row"; row: LasVegasRow; exact: boolean; elapsedMs: number }
  | { id: number; type: "lv-done"; result: { n: number; exact: boolean; trials: number | null; seed: number | null; engine: string; rows: LasVegasRow[]; best: number; ms: number } }
  | { id: number; type: "counted"; result: { n: number; total: string; nodes: string; ms: number; engine: string } }
  | { id: number; type: "error"; message: string };
