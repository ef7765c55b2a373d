// The pure-TypeScript reference engine: one file per kernel, each the twin of
// the file of the same name in assembly/.
import type { Engine } from "../engine.js";
import { openBacktrack } from "./backtrack.js";
import { openCounter } from "./count.js";
import { randomSequence } from "./rng.js";
import { openSolutions } from "./solutions.js";
import { verifyRepeats } from "./verify.js";

export const tsEngine: Engine = {
  name: "ts",
  openCounter,
  openSolutions,
  openBacktrack,
  verifyRepeats,
  randomSequence,
};
