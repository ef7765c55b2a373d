// The Wasm engine's exports: one file per algorithm, re-exported here. Upper-case
// names are the memory layout (immutable globals, read once by src/engine/wasm/).
export { allocate, resetMemory } from "./memory";
export { seedRandom, randomSequence } from "./rng";
export { countInit, countStart, countRun, countResult } from "./count";
export { solutionsInit, solutionsNext, solutionsNodes } from "./solutions";
export { backtrackInit, backtrackRun, backtrackStat } from "./backtrack";
export { lasVegasInit, lasVegasRun, lasVegasStat } from "./las-vegas";
export { hybridInit, hybridRun, hybridStat } from "./hybrid";
export { hillClimbInit, hillClimbRun, hillClimbStat } from "./hill-climb";
export { constructInit, constructRun, constructStat } from "./construct";
export { minConflictsInit, minConflictsRun, minConflictsStat } from "./min-conflicts";
export { verifyInput, verifyRepeats } from "./verify";
export { estimateInit, estimateRun } from "./estimate";
export { treeSizeInit, treeSizeTask, TREE_SIZE_COLUMNS } from "./tree-size";
export {
  lasVegasTrialsInit, lasVegasTrialsRun, lasVegasTrialsStat, lasVegasExactInit, lasVegasExactTask,
  LAS_VEGAS_EXACT_COLUMNS, LAS_VEGAS_EXACT_SUMS,
} from "./las-vegas-stats";
export { constraintsInput, constraintsClear } from "./constraints";
export { completeInit, completeRun, completeStat, completeSolutions } from "./complete";
