// The CLI's errors and exit codes.

export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/** Raised for bad command-line input: printed as one line, exit code 2. */
export class UsageError extends Error {}
