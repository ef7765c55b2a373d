/** Error codes set as `.code` on the errors this package throws. */
export const ErrorCode = {
  /** A parameter has the wrong type or is out of range (a TypeError or RangeError). */
  invalidArgument: "NQ_INVALID_ARGUMENT",
  /** `timeoutMs` ran out on an operation that has no partial answer (count). */
  timeout: "NQ_TIMEOUT",
  /** The engine was asked for but cannot run here (no WebAssembly, no WebGPU adapter, a missing optional package). */
  engineUnavailable: "NQ_ENGINE_UNAVAILABLE",
  /** Memory for the job could not be had (Wasm memory could not grow, an allocation failed). */
  outOfMemory: "NQ_OUT_OF_MEMORY",
  /** A count part or its result does not match what it claims to be (identity, digest, ranges); never summed. */
  partMismatch: "NQ_PART_MISMATCH",
  /** A set of part results is not exactly one per part (missing, duplicated or foreign parts). */
  partsIncomplete: "NQ_PARTS_INCOMPLETE",
  /** A checkpoint file is unreadable, malformed, of another run, or holds an entry that is not its part's count (its MAC failing is NQ_TAMPERED). */
  checkpointCorrupt: "NQ_CHECKPOINT_CORRUPT",
  /** A file could not be read or written (missing directory, not writable, a directory, disk full). */
  io: "NQ_IO",
  /** The GPU device was lost during the job; no count is reported from it. */
  deviceLost: "NQ_DEVICE_LOST",
  /**
   * A kernel failed (a bug, or a broken driver; never a count): a Wasm kernel's own check (the
   * message names the file and line), or a GPU count whose kernel did not compile, whose
   * dispatch the GPU refused, that made no progress, or whose results failed the host's checks.
   */
  kernelAbort: "NQ_KERNEL_ABORT",
  /** Redis could not be reached (or was lost) within the time allowed. */
  queueUnreachable: "NQ_QUEUE_UNREACHABLE",
  /** The queue holds another run (another n, number of parts or split version) or foreign jobs; or a solve's stored "no solution" was reached under weaker checks than asked for. */
  queueMismatch: "NQ_QUEUE_MISMATCH",
  /** The worker threads running a job kept dying (crashed or killed) though it was run again on fresh ones: given up (out of memory is NQ_OUT_OF_MEMORY). */
  threadFailed: "NQ_THREAD_FAILED",
  /** A part failed on the workers more times than allowed. */
  queuePartFailed: "NQ_QUEUE_PART_FAILED",
  /** The run's keys vanished from Redis mid-run (Redis restarted empty, or someone removed them). */
  queueLost: "NQ_QUEUE_LOST",
  /** An optional package this feature needs is not installed (the message names what to install). */
  missingDependency: "NQ_MISSING_DEPENDENCY",
  /** A key (NQUEENS_KEY, a key file, the local key) cannot be read, or is empty. */
  key: "NQ_KEY",
  /** A MAC does not verify under the key: a checkpoint, a queue job, result or run record was changed, or made under another key. */
  tampered: "NQ_TAMPERED",
  /** A queue worker's "no solution here" for a solve's task was shown false: the coordinator's own search (the audit), or another worker's solution checked on the board, found one there. */
  auditMismatch: "NQ_AUDIT_MISMATCH",
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Sets `.code` on an error (the one way every module of this package tags its errors). */
export function withCode<E extends Error>(error: E, code: ErrorCodeValue): E & { code: ErrorCodeValue } {
  return Object.assign(error, { code });
}

/**
 * The facts a coded error carries as fields, besides `code` and `message`, so that a caller (the
 * CLI, say) can word the failure its own way without reading the message.
 */
export interface ErrorFacts {
  /**
   * The parameter or option the error is about, as the API spells it (`"timeoutMs"`, `"workers"`,
   * `"n"`, `"connection"`; `"checkpoint"` on a refused checkpoint, `"timeoutMs"` on a timeout,
   * `"key"` on a queue run without a key).
   */
  param?: string;
  /**
   * The message after the parameter's name, exactly: `message === param + detail` (`" must be an
   * integer >= 0, got -1"`, `"[2] must be ..."`, `"'s database must be ..."`). For a refused
   * checkpoint or a queue run without a key, the reason without the way out (`"checkpoint c.json
   * belongs to n = 9, not n = 10"`).
   */
  detail?: string;
  /** What to do about it, in the API's words (a refused checkpoint's `"delete it, or pass restart: true, to start over"`; a queue run's without a key). */
  hint?: string;
  /** On an NQ_TIMEOUT: the operation that ran out of time (`"count(20)"`). */
  operation?: string;
  /** On an NQ_TIMEOUT: the `timeoutMs` it ran under. */
  timeoutMs?: number;
}

/** An error this package throws on purpose: a code, and the facts of the failure as fields. */
export type CodedError<E extends Error = Error> = E & { code: ErrorCodeValue } & ErrorFacts;

/**
 * Bad input about one parameter (NQ_INVALID_ARGUMENT): the message is `param + detail`, and both
 * are kept as fields. `Kind` is RangeError (out of range, the default) or TypeError (wrong type).
 */
export function invalid(param: string, detail: string, Kind?: typeof RangeError): CodedError<RangeError>;
export function invalid(param: string, detail: string, Kind: typeof TypeError): CodedError<TypeError>;
export function invalid(param: string, detail: string, Kind: typeof RangeError | typeof TypeError = RangeError): CodedError {
  return Object.assign(withCode(new Kind(`${param}${detail}`), ErrorCode.invalidArgument), { param, detail });
}

/**
 * A coded error given another message (its file's or its queue's words in front): the facts that
 * were about the caller's parameter no longer fit it, so they go, and it is said as its message.
 */
export function rephrased<E extends Error>(error: E, message: string): E {
  error.message = message;
  for (const fact of ["param", "detail", "hint", "operation", "timeoutMs"] as const) delete (error as ErrorFacts)[fact];
  return error;
}

/** Bad input not about one parameter (a board text, two options together): NQ_INVALID_ARGUMENT without `param`. */
export function rangeError(message: string): CodedError<RangeError> {
  return withCode(new RangeError(message), ErrorCode.invalidArgument);
}

/** A wrong type not about one parameter: NQ_INVALID_ARGUMENT without `param`. */
export function typeError(message: string): CodedError<TypeError> {
  return withCode(new TypeError(message), ErrorCode.invalidArgument);
}

/** `timeoutMs` ran out on `operation`: NQ_TIMEOUT, named TimeoutError, with param, operation and timeoutMs as fields. */
export function timeoutError(operation: string, ms: number): CodedError {
  const error = withCode(new Error(`${operation} did not finish within timeoutMs = ${ms}`), ErrorCode.timeout);
  error.name = "TimeoutError";
  return Object.assign(error, { param: "timeoutMs", operation, timeoutMs: ms });
}

export function engineUnavailable(message: string): Error & { code: ErrorCodeValue } {
  return withCode(new Error(message), ErrorCode.engineUnavailable);
}

/**
 * Whether an error is the runtime saying memory could not be had: V8's "Array buffer
 * allocation failed", a typed array or buffer longer than it allows, Wasm memory that cannot
 * be made or grow.
 */
export function isOutOfMemory(error: unknown): error is RangeError {
  if (!(error instanceof RangeError)) return false;
  // "Invalid typed array length: N" is also what a negative or fractional length (a bug) gives:
  // out of memory only for a length no memory could hold (2^31 elements or more).
  const length = /invalid typed array length: (-?[\d.e+]+)/i.exec(error.message);
  if (length) return Number(length[1]) >= 2 ** 31;
  return /allocation failed|out of memory|(could not|cannot) allocate|invalid array buffer length|maximum memory size/i.test(error.message);
}

/**
 * An out-of-memory RangeError (see isOutOfMemory) gets code NQ_OUT_OF_MEMORY and a message
 * naming `what` could not be had, the runtime's words kept in brackets; an error that has a
 * code already (the Wasm engine's own outOfMemory) or is something else passes as it is.
 */
export function codeOutOfMemory(error: unknown, what: string): unknown {
  if (isOutOfMemory(error) && !("code" in error)) {
    error.message = `out of memory for ${what} (${error.message})`;
    withCode(error, ErrorCode.outOfMemory);
  }
  return error;
}

/** Runs `job`, coding an allocation failure in it as NQ_OUT_OF_MEMORY that names `what()`. */
export function allocating<T>(what: () => string, job: () => T): T {
  try {
    return job();
  } catch (error) {
    throw codeOutOfMemory(error, what());
  }
}

/** A file that could not be read or written: NQ_IO, naming the file and the system's reason (ENOENT, EACCES, ...), the error as its cause. */
export function ioError(what: string, cause: unknown): Error & { code: ErrorCodeValue } {
  const errno = (cause as { code?: unknown })?.code;
  const why = typeof errno === "string" ? errno : cause instanceof Error ? cause.message : String(cause);
  return withCode(new Error(`${what} (${why})`, { cause }), ErrorCode.io);
}
