// The pure-TypeScript reference engine: one file per kernel, each the twin of
// the file of the same name in assembly/.
import type { Engine, Search, SearchMethod, SearchParams } from "../engine.js";
import { openBacktrack } from "./backtrack.js";
import { openCounter } from "./count.js";
import { randomSequence } from "./rng.js";
import { openSolutions } from "./solutions.js";
import { verifyRepeats } from "./verify.js";

const searches: Record<SearchMethod, (n: number, params: SearchParams) => Search> = {
  backtrack: openBacktrack,
};

export const tsEngine: Engine = {
  name: "ts",
  openCounter,
  openSolutions,
  openSearch: (method, n, params) => searches[method](n, params),
  verifyRepeats,
  randomSequence,
};
