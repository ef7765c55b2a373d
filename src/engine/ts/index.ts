// The pure-TypeScript reference engine: one file per kernel, each the twin of
// the file of the same name in assembly/.
import { codingOutOfMemory, type Engine, type Search, type SearchMethod, type SearchParams } from "../contract.js";
import { openBacktrack } from "./backtrack.js";
import { openComplete } from "./complete.js";
import { openConstruct } from "./construct.js";
import { openHillClimb } from "./hill-climb.js";
import { openHybrid } from "./hybrid.js";
import { openLasVegas } from "./las-vegas.js";
import { openMinConflicts } from "./min-conflicts.js";
import { openCounter } from "./count.js";
import { openConstellationCounter } from "./constellations.js";
import { randomSequence } from "./rng.js";
import { openSolutions } from "./solutions.js";
import { verifyRepeats } from "./verify.js";
import { openProbes } from "./estimate.js";
import { openTreeCounter } from "./tree-size.js";
import { openLasVegasExact, openLasVegasTrials } from "./las-vegas-stats.js";

const searches: Record<SearchMethod, (n: number, params: SearchParams) => Search> = {
  backtrack: openBacktrack,
  "min-conflicts": openMinConflicts,
  "las-vegas": openLasVegas,
  hybrid: openHybrid,
  "hill-climb": openHillClimb,
  construct: openConstruct,
  complete: openComplete,
};

/** The reference engine; an allocation that fails in it is NQ_OUT_OF_MEMORY (codingOutOfMemory). */
export const tsEngine: Engine = codingOutOfMemory({
  name: "ts",
  openCounter,
  openConstellationCounter,
  openSolutions,
  openSearch: (method, n, params) => searches[method](n, params),
  verifyRepeats,
  randomSequence,
  openProbes,
  openTreeCounter,
  openLasVegasTrials,
  openLasVegasExact,
});
