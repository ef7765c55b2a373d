// Redis key names and queue names of the queue's runs (internal: countedKey is a test hook).
import { SPLIT_VERSION, defaultParts } from "../count/parts.js";
import { CONSTRAINED_MAX_N, CONSTRAINED_SPLIT_VERSION } from "../count/constrained.js";
import type { RecordedBoard } from "../count/split.js";
import { COUNT_MAX_N } from "../count/count.js";
import { invalid } from "../core/errors.js";
import { checkInteger, describe } from "../core/validate.js";

/** The Redis set that lists the queues of unfinished runs, for workers to find. */
export const ACTIVE_RUNS_KEY = "nqueens:runs";
/** A queue name a run can have: letters, digits, '.', '_' and '-' (BullMQ refuses ':'; anything else in Redis is someone else's). */
export const QUEUE_NAME = /^[A-Za-z0-9._-]{1,200}$/;
/** The Redis pub/sub channel on which coordinators announce that a run started or finished (message: the queue). */
export const RUNS_CHANNEL = "nqueens:runs:changed";
export const metaKey = (queue: string): string => `nqueens:meta:${queue}`;
/** Hash part -> how many times a worker finished counting it (tests read it: nothing is recounted). */
export const countedKey = (queue: string): string => `nqueens:counted:${queue}`;
/** A solve's distrusted workers (caught answering "none" where a task holds a solution): their answers are never taken again in that run. */
export const distrustKey = (queue: string): string => `nqueens:distrusted:${queue}`;

/**
 * The queue a run uses by default: its name says n, the number of parts and the split version;
 * a constrained board's run (given queens, blocked squares) also its board's digest
 * (`-b` and 32 hex digits, constrainedBoard's), and the constrained split's version, so two
 * boards never share a queue.
 */
export function queueName(n: number, parts: number, board?: string): string {
  checkInteger("n", n, 1, CONSTRAINED_MAX_N);
  checkInteger("parts", parts, 1, Number.MAX_SAFE_INTEGER);
  if (board !== undefined && (typeof board !== "string" || !/^[0-9a-f]{32}$/.test(board))) {
    throw invalid("board", ` must be a board's digest (32 hex digits, constrainedBoard's), got ${describe(board)}`, TypeError);
  }
  if (board !== undefined) return `nqueens-count-n${n}-b${board}-p${parts}-cv${CONSTRAINED_SPLIT_VERSION}`;
  return `nqueens-count-n${n}-p${parts}-v${SPLIT_VERSION}`;
}

/** Most parts of a constrained board's run (the workers re-derive a part from the whole split). */
export const CONSTRAINED_QUEUE_MAX_PARTS = 4096;

/** Default number of parts of a constrained board's run (as countParallel's; fewer when the board has fewer prefixes). */
export const CONSTRAINED_QUEUE_PARTS = 64;

/**
 * Default number of parts of a run on the queue: splitCount's, but fewer (so longer) from
 * n = 11 to 17. A part costs the queue about 2 ms of wall time however long it is (measured
 * with 2 workers, Redis on the same machine), a fifth of a part at n = 16 with 256 parts
 * (10 ms); from n = 18 a part takes seconds. Runs started before this default (n = 11 to 17)
 * are on queues named after splitCount's parts: 64 up to n = 14, 256 from n = 15.
 */
export function defaultQueueParts(n: number): number {
  checkInteger("n", n, 4, COUNT_MAX_N);
  return Math.min(defaultParts(n), n <= 16 ? 32 : n === 17 ? 64 : 256);
}

/** Job id of a part: derived from the part, so adding it twice adds nothing. */
export const jobId = (part: number): string => `part-${part}`;

/**
 * Most jobs of a plain run's first count: a run of more parts puts several consecutive parts in
 * each job (a job costs the queue about 1 to 2 ms of CPU, in BullMQ, Redis and the worker,
 * whatever it holds; the coordinator and the worker derive a job's parts in one walk). Each
 * part is still checked, tallied and audited on its own.
 */
export const MAX_RUN_JOBS = 16_384;

/** The parts one job holds in a run of `parts` parts: 1 up to MAX_RUN_JOBS parts (and for a constrained board), else enough for MAX_RUN_JOBS jobs. */
export function partsPerJob(parts: number, constrained: boolean): number {
  return constrained || parts <= MAX_RUN_JOBS ? 1 : Math.ceil(parts / MAX_RUN_JOBS);
}

/** Job id of the job of `perJob` parts from part `first`: `part-I` where a job holds one part, `parts-F` (from part F on) where it holds several. */
export const groupJobId = (first: number, perJob: number): string => (perJob === 1 ? jobId(first) : `parts-${first}`);

/**
 * A run's record (`nqueens:meta:QUEUE`). A constrained board's run has `board`: its givens
 * (normalised), digest, and the depth of its split; its splitVersion is the constrained
 * split's, and once merged it has a total but no unique (the givens break the symmetry).
 */
export type RunMeta = CountRunMeta | SolveRunMeta;

/** A count's record. */
export type CountRunMeta = {
  format: "nqueens-count-run"; n: number; parts: number; splitVersion: number; total?: string; unique?: string;
  board?: RunBoard;
  /** Consecutive parts a job holds (partsPerJob), when more than one. */
  perJob?: number;
  /** The run's random identity (16 bytes, hex), in every job's and result's MAC. */
  run?: string;
  /** HMAC-SHA-256 of the record under the cluster key (absent in a run without a key). */
  mac?: string;
};

/**
 * A solve's record (solveDistributed, ./solve-jobs.ts): the board (its normal-form givens and
 * digest), its tasks (how many, and the version of their cut), and once decided the answer:
 * `found`, with the solution's columns when true, and the nodes of every search.
 */
export type SolveRunMeta = {
  format: "nqueens-solve-run"; n: number; tasks: number; tasksVersion: number;
  board: { n: number; fixed: [number, number][]; blocked: [number, number][]; digest: string };
  run?: string; mac?: string;
  found?: boolean; columns?: number[]; nodes?: number;
  /** With "no solution": the checks it was reached under, and the workers whose "none" answers it took. */
  checks?: { audit: number; replicas: number; identities: "allowed" | "required" }; noneBy?: string[];
};

/** A constrained run's board as its record holds it. */
export type RunBoard = RecordedBoard;

/**
 * What a job carries besides its part's identity: the run's id, the job's own id, the workers
 * that must not count it (a replica's second count), and its MAC under the cluster key.
 */
export type JobSeal = { run?: string; job?: string; not?: string[]; mac?: string };

/** A job's data: only the identity of its part (workers re-derive the part and check the digest). */
export type PartJob = { n: number; parts: number; index: number; splitVersion: number; digest: string } & JobSeal;

/**
 * A constrained part's job: its identity only, the board named by digest (workers re-derive
 * the part from the board the run's record holds, and check both digests).
 */
export type ConstrainedPartJob = { kind: "constrained"; n: number; board: string; depth: number; parts: number; index: number; splitVersion: number; digest: string } & JobSeal;

/**
 * The job id of a part's count: `part-I` (the first), `part-I-r1` (a replica's second),
 * `part-I-xK` (a further count); in a run whose jobs hold several parts, `parts-F...` alike,
 * F the job's first part (a multiple of perJob). `part` is that first part.
 */
export function partOfJobId(id: string, parts: number, perJob = 1): { part: number; slot: "r0" | "r1" | "x" } | undefined {
  const m = /^(parts?)-(0|[1-9]\d{0,8})(?:-(r1|x[1-9]\d{0,3}))?$/.exec(id);
  if (!m || (m[1] === "parts") !== (perJob > 1)) return undefined;
  const part = Number(m[2]);
  if (part >= parts || part % perJob !== 0) return undefined;
  return { part, slot: m[3] === undefined ? "r0" : m[3] === "r1" ? "r1" : "x" };
}
