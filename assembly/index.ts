// The Wasm engine's exports: one file per algorithm, re-exported here.
export { allocate } from "./memory";
export { seedRandom, randomSequence } from "./rng";
export { countInit, countTask, countResult } from "./count";
export { solutionsInit, solutionsNext, solutionsNodes } from "./solutions";
export { backtrackInit, backtrackRun, backtrackStat } from "./backtrack";
export { verifyInput, verifyRepeats } from "./verify";
