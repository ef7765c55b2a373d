/** Error codes set as `.code` on the errors this package throws. */
export const ErrorCode = {
  /** A parameter has the wrong type or is out of range (a TypeError or RangeError). */
  invalidArgument: "NQ_INVALID_ARGUMENT",
  /** `timeoutMs` ran out on an operation that has no partial answer (count). */
  timeout: "NQ_TIMEOUT",
  /** The engine was asked for but cannot run here (no WebAssembly). */
  engineUnavailable: "NQ_ENGINE_UNAVAILABLE",
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

function withCode<E extends Error>(error: E, code: ErrorCodeValue): E & { code: ErrorCodeValue } {
  return Object.assign(error, { code });
}

export function rangeError(message: string): RangeError & { code: ErrorCodeValue } {
  return withCode(new RangeError(message), ErrorCode.invalidArgument);
}

export function typeError(message: string): TypeError & { code: ErrorCodeValue } {
  return withCode(new TypeError(message), ErrorCode.invalidArgument);
}

export function timeoutError(what: string, ms: number): Error & { code: ErrorCodeValue } {
  const error = withCode(new Error(`${what} did not finish within timeoutMs = ${ms}`), ErrorCode.timeout);
  error.name = "TimeoutError";
  return error;
}

export function engineUnavailable(message: string): Error & { code: ErrorCodeValue } {
  return withCode(new Error(message), ErrorCode.engineUnavailable);
}
