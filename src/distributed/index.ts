// Distributed counting and solving over Redis with BullMQ: the `nqueens-wasm/distributed` entry (Node
// only; never imported by src/index.ts so the browser bundle stays free of it). Public API
// only; the rooms behind it:
//   redis.ts         connections: URL parsing, bounded connect, lost-connection errors
//   keys.ts          Redis key and queue names of a run (internal)
//   coordinator.ts   countDistributed: puts the parts on a queue, waits, verifies and merges
//   solve-coordinator.ts  solveDistributed: the complete search's tasks on the same queue
//   runs.ts          listRuns / removeRun: the runs Redis holds
//   queue-worker.ts  startWorker: the long-running worker that counts parts and searches solve tasks
export { redisOptions, type Connection, type RedisConnectionOptions } from "./redis.js";
export { ACTIVE_RUNS_KEY, RUNS_CHANNEL, queueName, defaultQueueParts } from "./keys.js";
export { countDistributed, DEFAULT_AUDIT, type DistributedOptions, type DistributedProgress, type DistributedResult } from "./coordinator.js";
export {
  solveDistributed, type SolveDistributedOptions, type DistributedSolveProgress, type DistributedSolveResult, type DistributedSolveBase,
} from "./solve-coordinator.js";
export { solveQueueName } from "./solve-jobs.js";
export { threadSeconds, type RunPlan } from "./plan.js";
export { auditCatchChance } from "./audit.js";
export { listRuns, removeRun, type RunInfo } from "./runs.js";
export type { SolveEvent } from "./solve-worker.js";
export { startWorker, type WorkerEvent, type WorkerOptions, type DistributedWorker } from "./queue-worker.js";
export { identityText, readIdentity, type WorkerIdentity } from "./auth.js";
