// A bump allocator over linear memory. Every job runs in an instance of its own
// (reused for later jobs when small, see src/engine/wasm/index.ts), so memory is
// never freed piecemeal: `resetMemory` releases everything at once between jobs.
// `allocate` returns 0 instead of trapping when memory cannot grow, so the TS side
// can report a clear error.

const base: usize = (__heap_base + 15) & ~(<usize>15);
let top: usize = base;
/** Memory above this has never been handed out, so it is still zero. */
let used: usize = base;

/** Reserve `bytes` of zeroed memory (16-byte aligned); 0 if memory cannot grow that far. */
export function allocate(bytes: usize): usize {
  const start = top;
  const end = (<u64>start + <u64>bytes + 15) & ~(<u64>15);
  if (end > 0xFFFF_0000) return 0;
  const needPages = <i32>((end + 0xFFFF) >> 16) - memory.size();
  if (needPages > 0 && memory.grow(needPages) < 0) return 0;
  top = <usize>end;
  if (start < used) memory.fill(start, 0, min(used, top) - start); // reused memory: clear it
  if (top > used) used = top;
  return start;
}

/** Forget every allocation (the next job starts from an empty heap). */
export function resetMemory(): void {
  top = base;
}
