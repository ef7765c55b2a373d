// Temporary files being written right now (a checkpoint's, before its rename): a process that
// must exit at once (a second Ctrl-C) removes them first, so no `.tmp` outlives it.

const live = new Set<string>();

/** Marks `path` as a temporary file this process is writing; returns what unmarks it. */
export function liveTemporary(path: string): () => void {
  live.add(path);
  return () => { live.delete(path); };
}

/** Removes every temporary file being written, synchronously, with `remove` (which throws for a missing file): how many it removed. */
export function removeLiveTemporaries(remove: (path: string) => void): number {
  let removed = 0;
  for (const path of live) {
    try { remove(path); removed++; } catch { /* not made yet, already renamed, or cannot be removed: nothing more to do on the way out */ }
  }
  live.clear();
  return removed;
}
