// What a search costs: estimate probes/s and lasVegasStats tries/s on both engines,
// and the time of the exact lasVegasTable for n = 8, 10, 12.
import { estimate, lasVegasStats, lasVegasTable } from "../dist/index.js";
import { printTable, round, time } from "./lib.mjs";

export async function benchAnalysis() {
  const probes = [];
  for (const n of [8, 12, 16, 32]) {
    const row = { n };
    for (const engine of ["wasm", "ts"]) {
      const samples = 200_000;
      await estimate(n, { samples: 1000, engine });
      const { ms } = await time(() => estimate(n, { samples, seed: 1, engine }), 3);
      row[`${engine}_probes_per_s`] = Math.round(samples / (ms / 1000));
    }
    row.wasm_over_ts = round(row.wasm_probes_per_s / row.ts_probes_per_s, 2);
    probes.push(row);
  }
  printTable("estimate: probes per second (median of 3 runs of 200,000 probes)", probes);

  const tries = [];
  for (const [n, stopVegas] of [[8, 3], [12, 5], [20, 10]]) {
    const row = { n, stopVegas };
    for (const engine of ["wasm", "ts"]) {
      const trials = 100_000;
      await lasVegasStats(n, { stopVegas, trials: 1000, engine });
      const { ms } = await time(() => lasVegasStats(n, { stopVegas, trials, seed: 1, engine }), 3);
      row[`${engine}_tries_per_s`] = Math.round(trials / (ms / 1000));
    }
    row.wasm_over_ts = round(row.wasm_tries_per_s / row.ts_tries_per_s, 2);
    tries.push(row);
  }
  printTable("lasVegasStats (Monte Carlo): tries per second (median of 3 runs of 100,000 tries)", tries);

  const exact = [];
  for (const n of [8, 10, 12]) {
    const row = { n };
    for (const engine of ["wasm", "ts"]) {
      const { ms, result } = await time(() => lasVegasTable(n, { exact: true, engine }), 3);
      row[`${engine}_ms`] = round(ms, 1);
      row.best_stopVegas = result.best;
    }
    exact.push(row);
  }
  printTable("lasVegasTable(n, { exact: true }): median ms of 3 runs (every stopVegas 0..n)", exact);
  return { probes, tries, exact };
}
