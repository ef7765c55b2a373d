// Status codes shared by every resumable search (mirrored in src/engine.ts).
export const RUNNING: i32 = 0;
export const FOUND: i32 = 1;
export const EXHAUSTED: i32 = 2;
