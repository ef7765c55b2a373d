// One coordinator of the queue-scale bench, in its own process so that its CPU time and peak
// memory are its own: node bench/queue-scale-child.mjs URL N PARTS QUEUE [KEY] prints one JSON line
// (keyed with KEY and the default audit; keyless without it).
import { performance } from "node:perf_hooks";
import { countDistributed } from "../dist/distributed.js";

const [url, n, parts, queue, key] = process.argv.slice(2);
let allSeen, heapAtEnd;
globalThis.gc?.();
const heapAtStart = process.memoryUsage().heapUsed;
const t0 = performance.now();
const r = await countDistributed(Number(n), {
  connection: url, parts: Number(parts), queue, pollMs: 100, ...(key ? { key } : { unauthenticated: true }),
  onProgress: (p) => {
    if (p.tasksDone < p.tasksTotal || allSeen !== undefined) return;
    allSeen = performance.now();
    globalThis.gc?.(); // what the run holds while it is alive, every part in (run with --expose-gc)
    heapAtEnd = process.memoryUsage().heapUsed;
    allSeen = performance.now(); // from after the gc: its time is not the run's
  },
});
const t1 = performance.now();
const usage = process.resourceUsage();
console.log(JSON.stringify({
  ms: t1 - t0, endMs: t1 - (allSeen ?? t1), total: String(r.total), parts: r.parts, audited: r.audited,
  maxRssMB: usage.maxRSS / 1024, heapPerPart: heapAtEnd === undefined ? undefined : (heapAtEnd - heapAtStart) / r.parts, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
}));
