// One coordinator of the queue-scale bench, in its own process so that its CPU time and peak
// memory are its own: node bench/queue-scale-child.mjs URL N PARTS QUEUE [KEY] prints one JSON line
// (keyed with KEY and the default audit; keyless without it).
import { performance } from "node:perf_hooks";
import { countDistributed } from "../dist/distributed.js";

const [url, n, parts, queue, key] = process.argv.slice(2);
let allSeen, heapAtEnd;
globalThis.gc?.();
const heapAtStart = process.memoryUsage().heapUsed;
// The peaks of what memory holds, sampled every 100 ms: the JS heap, memory outside it (typed arrays, buffers), and the RSS.
const peak = { heapUsedMB: 0, externalMB: 0, arrayBuffersMB: 0, rssMB: 0 };
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak.heapUsedMB = Math.max(peak.heapUsedMB, m.heapUsed / 2 ** 20);
  peak.externalMB = Math.max(peak.externalMB, m.external / 2 ** 20);
  peak.arrayBuffersMB = Math.max(peak.arrayBuffersMB, m.arrayBuffers / 2 ** 20);
  peak.rssMB = Math.max(peak.rssMB, m.rss / 2 ** 20);
}, 100);
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
clearInterval(sampler);
const usage = process.resourceUsage();
console.log(JSON.stringify({
  ms: t1 - t0, endMs: t1 - (allSeen ?? t1), total: String(r.total), parts: r.parts, perJob: r.partsPerJob, audited: r.audited,
  maxRssMB: usage.maxRSS / 1024, heapPerPart: heapAtEnd === undefined ? undefined : (heapAtEnd - heapAtStart) / r.parts, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, peak,
}));
