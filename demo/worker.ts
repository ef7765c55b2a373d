// The computing worker: every solve, verify and estimate of the page runs here, so the page
// never freezes. Stop terminates this worker (the page starts a fresh one).
import { estimate, LAS_VEGAS_EXACT_MAX_N, lasVegasStats, solve, treeSize, verify } from "nqueens-wasm";
import { ESTIMATE_EXACT_MAX_N, type FromWorker, type Job, type LasVegasRow } from "./protocol";

const post = (message: FromWorker, transfer: Transferable[] = []) =>
  (self as unknown as { postMessage(m: unknown, t: Transferable[]): void }).postMessage(message, transfer);

async function run(job: Job): Promise<void> {
  if (job.kind === "solve") {
    const { id, n, method, seed, engine, stopVegas } = job;
    const r = await solve(n, {
      method, seed, engine, ...(method === "hybrid" && stopVegas !== undefined ? { stopVegas } : {}),
      // A report after every chunk of work (about 10 ms), so the page plots a point per chunk
      // from the start, also for runs that take only a few chunks.
      progressIntervalMs: 0,
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
  } else if (job.kind === "lv-table") {
    // t against stopVegas, one row at a time so the plot grows as they come: exact (every
    // random choice walked with its probability) up to LAS_VEGAS_EXACT_MAX_N, else Monte
    // Carlo over seeded tries (lasVegasStats runs one try for stopVegas 0: plain backtracking, the same every try).
    const { id, n, seed, engine, trials } = job;
    const exact = n <= LAS_VEGAS_EXACT_MAX_N;
    const t0 = performance.now();
    const rows: LasVegasRow[] = [];
    for (let stopVegas = 0; stopVegas <= n; stopVegas++) {
      const r = await lasVegasStats(n, exact ? { stopVegas, exact, engine } : { stopVegas, trials, seed, engine });
      const row = { stopVegas, p: r.p, s: r.s, e: r.e, t: r.t, stderrT: r.stderr.t };
      rows.push(row);
      post({ id, type: "lv-row", row, exact, elapsedMs: performance.now() - t0 });
    }
    let best = 0; // the smallest t, the first on ties (as lasVegasTable picks it)
    for (const row of rows) if (row.t < rows[best].t) best = row.stopVegas;
    post({ id, type: "lv-done", result: {
      n, exact, trials: exact ? null : trials, seed: exact ? null : seed, engine, rows, best, ms: performance.now() - t0,
    } });
  } else {
    // Knuth's estimate in batches of probes with consecutive seeds: the running mean of all
    // probes so far, after each batch, shows the estimate converging.
    const { id, n, seed, engine, batches, batchSamples } = job;
    // The exact tree size where it is quick to get (treeSize walks the whole tree: n = 14
    // is 27 million nodes, a fraction of a second), so the plot shows what the probes aim at.
    let exact: number | null = null;
    if (n <= ESTIMATE_EXACT_MAX_N) {
      const tree = await treeSize(n, { engine });
      exact = Number(tree.total);
      post({ id, type: "estimate-exact", total: exact, ms: tree.ms });
    }
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
      n, samples, seed, batches, engine: last?.engine ?? engine, mean, stderr: Math.sqrt(Math.max(0, sampleVar) / samples), exact,
      perLevelLastBatch: last?.perLevel, ms: performance.now() - t0,
    } });
  }
}

self.onmessage = (event: MessageEvent<Job>) => {
  run(event.data).catch((error: unknown) => post({ id: event.data.id, type: "error", message: error instanceof Error ? error.message : String(error) }));
};
