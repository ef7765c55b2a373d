// The queue solve tests' own workers (test helper): a BullMQ worker that answers every job of a
// solve's queue as the test says, signed as a worker of the package signs its answers (under
// the cluster key, or under a worker identity derived from it), so the coordinator's checks
// after the MAC are what a test exercises. And the tasks a board is cut into, so a test knows a
// task's square.
import { Worker as BullWorker, type ConnectionOptions, type Job } from "bullmq";
import type { Square } from "../src/index.js";
import { boardOf } from "../src/board/board.js";
import { SOLVE_TASKS, solveTasks, type SolvedTask } from "../src/count/solve-tasks.js";
import { RESULT_DOMAIN, identityKey, signed } from "../src/distributed/auth.js";
import type { SolveJob } from "../src/distributed/solve-jobs.js";

/** What a test's worker answers for a job: a solution's columns or none, the nodes, and whether its budget ran out. */
export type TestAnswer = Omit<SolvedTask, "columns"> & { columns: number[] | null };

/** The tasks solveDistributed cuts a board into. */
export const tasksOf = (n: number, givens: { fixed?: Square[]; blocked?: Square[] }) => solveTasks(boardOf(n, givens, { caller: "test", plain: [1, 1000], givens: [1, 1000] }), SOLVE_TASKS);

/**
 * A worker answering every job of `queue` with `answer(job data, job)`, as worker `who(...)`:
 * a name signed under the cluster `key`, or `{ identity: name }` signed under that identity's key.
 */
export function solveAnswerer(
  connection: ConnectionOptions, queue: string, key: Uint8Array,
  answer: (d: SolveJob, job: Job<SolveJob>) => TestAnswer | Promise<TestAnswer>,
  who: (d: SolveJob, job: Job<SolveJob>) => string | { identity: string },
  concurrency = 1,
): BullWorker {
  const worker = new BullWorker(queue, async (job: Job<SolveJob>) => {
    const d = job.data, signer = who(d, job);
    const body = { kind: "solve", task: d.index, tasks: d.tasks, digest: d.digest, ...(await answer(d, job)), run: d.run, job: job.id };
    return typeof signer === "string"
      ? signed(key, RESULT_DOMAIN, queue, { ...body, worker: signer })
      : signed(identityKey(key, signer.identity), RESULT_DOMAIN, queue, { ...body, worker: signer.identity, identity: true });
  }, { connection, concurrency });
  worker.on("error", () => {});
  return worker;
}
