// Status codes shared by every resumable search, and the slots of the figures a search
// reports through its `<name>Stat` export. All are exported by the module (assembly/index.ts):
// src/engine/wasm reads them and maps them to src/engine/contract.ts's codes by name.
export const RUNNING: i32 = 0;
export const FOUND: i32 = 1;
export const EXHAUSTED: i32 = 2;
export const MAX_NODES: i32 = 3;
export const MAX_STEPS: i32 = 4;
export const MAX_TRIES: i32 = 5;

export const STAT_WORK: i32 = 0;
export const STAT_NODES: i32 = 1;
export const STAT_TRIES: i32 = 2;
export const STAT_STEPS: i32 = 3;
/** Diagonal conflicts left (local search), -1 where it does not apply. */
export const STAT_CONFLICTS: i32 = 4;
/** What the search is doing: PHASE_SEARCH, PHASE_CONSTRUCT or PHASE_REPAIR. */
export const STAT_PHASE: i32 = 5;

export const PHASE_SEARCH: i32 = 0;
export const PHASE_CONSTRUCT: i32 = 1;
export const PHASE_REPAIR: i32 = 2;
