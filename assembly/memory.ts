// A bump allocator over linear memory. Every job runs in its own instance, so
// memory is never freed: the instance (and its memory) is dropped when the job ends.
// `allocate` returns 0 instead of trapping when memory cannot grow, so the TS side
// can report a clear error.

let top: usize = (__heap_base + 15) & ~(<usize>15);

/** Reserve `bytes` of zeroed memory (16-byte aligned); 0 if memory cannot grow that far. */
export function allocate(bytes: usize): usize {
  const start = top;
  const end = (<u64>start + <u64>bytes + 15) & ~(<u64>15);
  if (end > 0xFFFF_0000) return 0;
  const needPages = <i32>((end + 0xFFFF) >> 16) - memory.size();
  if (needPages > 0 && memory.grow(needPages) < 0) return 0;
  top = <usize>end;
  return start;
}
