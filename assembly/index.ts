// The Wasm engine's exports: one file per algorithm, re-exported here. Upper-case
// names are the memory layout, the stat slots, and the status and phase codes
// (immutable globals, read once per module by src/engine/wasm/, never copied there).
export { allocate, resetMemory } from "./memory";
export { seedRandom, randomSequence } from "./rng";
export {
  RUNNING, FOUND, EXHAUSTED, MAX_NODES, MAX_STEPS, MAX_TRIES,
  STAT_WORK, STAT_NODES, STAT_TRIES, STAT_STEPS, STAT_CONFLICTS, STAT_PHASE,
  PHASE_SEARCH, PHASE_CONSTRUCT, PHASE_REPAIR,
} from "./status";
export {
  countInit, countStart, countRun, countResult,
  COUNT_RESULT_COUNT8, COUNT_RESULT_COUNT4, COUNT_RESULT_COUNT2, COUNT_RESULT_NODES,
} from "./count";
export { consInit, consStart, consRun, consResult } from "./constellations";
export { solutionsInit, solutionsNext, solutionsNodes } from "./solutions";
export { backtrackInit, backtrackRun, backtrackStat } from "./backtrack";
export { lasVegasInit, lasVegasRun, lasVegasStat } from "./las-vegas";
export { hybridInit, hybridRun, hybridStat } from "./hybrid";
export { hillClimbInit, hillClimbRun, hillClimbStat } from "./hill-climb";
export { constructInit, constructRun, constructStat } from "./construct";
export { minConflictsInit, minConflictsRun, minConflictsStat } from "./min-conflicts";
export { verifyInput, verifyRepeats } from "./verify";
export { estimateInit, estimateRun, ESTIMATE_TOTAL, ESTIMATE_SQUARES } from "./estimate";
export { treeSizeInit, treeSizeTask, TREE_SIZE_COLUMNS } from "./tree-size";
export {
  lasVegasTrialsInit, lasVegasTrialsRun, lasVegasTrialsStat, lasVegasExactInit, lasVegasExactTask,
  LAS_VEGAS_TRIALS_TRIES, LAS_VEGAS_TRIALS_SUCCESSES, LAS_VEGAS_TRIALS_SUCCESS_NODES, LAS_VEGAS_TRIALS_SUCCESS_SQUARES,
  LAS_VEGAS_TRIALS_FAILURE_NODES, LAS_VEGAS_TRIALS_FAILURE_SQUARES, LAS_VEGAS_TRIALS_WORK,
  LAS_VEGAS_EXACT_COLUMNS, LAS_VEGAS_EXACT_SUMS,
} from "./las-vegas-stats";
export { constraintsInput, constraintsClear } from "./constraints";
export { completeInit, completeRun, completeStat, completeSolutions, completeSplit, completeSplitOut } from "./complete";
