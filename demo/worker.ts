// The computing worker: every solve, verify and estimate of the page runs here, so the page
// never freezes. Stop terminates this worker (the page starts a fresh one).
import { estimate, solve, verify } from "nqueens-wasm";
import type { FromWorker, Job } from "./protocol";

const post = (message: FromWorker, transfer: Transferable[] = []) =>
  (self as unknown as { postMessage(m: unknown, t: Transferable[]): void }).postMessage(message, transfer);

async function run(job: Job): Promise<void> {
  if (job.kind === "solve") {
    const { id, n, method, seed, engine, stopVegas } = job;
    const r = await solve(n, {
      method, seed, engine, ...(method === "hybrid" && stopVegas !== undefined ? { stopVegas } : {}),
      onProgress: (p) => post({ id, type: "progress", phase: p.phase, conflicts: p.conflicts, nodes: p.nodes, tries: p.tries, steps: p.steps, elapsedMs: p.elapsedMs }),
    });
    let checked = null;
    if (r.columns) {
      const t0 = performance.now();
      const v = verify(r.columns, { engine, maxConflicts: 1000 });
      checked = { ...v, ms: performance.now() - t0 };
    }
    const { columns, ...rest } = r;
    post({ id, type: "solved", result: rest, columns, verify: checked }, columns ? [columns.buffer] : []);
  } else {
    // Knuth's estimate in batches of probes with consecutive seeds: the running mean of all
    // probes so far, after each batch, shows the estimate converging.
    const { id, n, seed, engine, batches, batchSamples } = job;
    const t0 = performance.now();
    let sum = 0, sumSq = 0, samples = 0;
    let last: Awaited<ReturnType<typeof estimate>> | null = null;
    for (let b = 0; b < batches; b++) {
      const e = await estimate(n, { samples: batchSamples, seed: (seed + b) >>> 0, engine });
      last = e;
      // combine the batches exactly: a batch's sample variance is stderr^2 * samples
      const variance = Number.isFinite(e.stderr) ? e.stderr * e.stderr * e.samples : 0;
      sum += e.mean * e.samples;
      sumSq += variance * (e.samples - 1) + e.mean * e.mean * e.samples; // this batch's sum of squares
      samples += e.samples;
      const mean = sum / samples;
      const sampleVar = samples > 1 ? (sumSq - samples * mean * mean) / (samples - 1) : NaN;
      post({ id, type: "estimate-progress", samples, mean, stderr: Math.sqrt(Math.max(0, sampleVar) / samples), elapsedMs: performance.now() - t0 });
    }
    const mean = sum / samples;
    const sampleVar = (sumSq - samples * mean * mean) / (samples - 1);
    post({ id, type: "estimated", result: {
      n, samples, seed, batches, engine: last?.engine ?? engine, mean, stderr: Math.sqrt(Math.max(0, sampleVar) / samples),
      perLevelLastBatch: last?.perLevel, ms: performance.now() - t0,
    } });
  }
}

self.onmessage = (event: MessageEvent<Job>) => {
  run(event.data).catch((error: unknown) => post({ id: event.data.id, type: "error", message: error instanceof Error ? error.message : String(error) }));
};
