// The reference engine as a pool thread holds it: what a thread runs on engine 'ts' (the
// counters of a count's parts, the complete search of a constrained part or a solve task, and
// verify) and nothing else. tsup.worker.config.ts bundles it in the place of ts/index.ts, so
// that the threads' bundle, embedded as text in every entry, carries no other kernel; a call of
// one left out says so (a bug: no thread asks for one).
import { codingOutOfMemory, type Engine } from "./contract.js";
import { openComplete } from "./ts/complete.js";
import { openCounter } from "./ts/count.js";
import { openConstellationCounter } from "./ts/constellations.js";
import { verifyRepeats } from "./ts/verify.js";

const absent = (what: string) => (): never => {
  throw new Error(`${what} is not in a pool thread's reference engine (src/engine/thread-ts.ts)`);
};

/** The thread's reference engine: the same name and kernels as ts/index.ts's, those a thread runs. */
export const tsEngine: Engine = codingOutOfMemory({
  name: "ts",
  openCounter,
  openConstellationCounter,
  openSolutions: absent("openSolutions"),
  openSearch: (method, n, params) => (method === "complete" ? openComplete(n, params) : absent(`method ${method}`)()),
  verifyRepeats,
  randomSequence: absent("randomSequence"),
  openProbes: absent("openProbes"),
  openTreeCounter: absent("openTreeCounter"),
  openLasVegasTrials: absent("openLasVegasTrials"),
  openLasVegasExact: absent("openLasVegasExact"),
});
