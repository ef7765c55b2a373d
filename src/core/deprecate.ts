// Deprecated spellings still work for a minor version, said once per process: a
// DeprecationWarning in Node (process.emitWarning, so --no-deprecation silences it), a
// console warning elsewhere.
const said = new Set<string>();

/** Says `message` once per `what`, as a deprecation. */
export function deprecated(what: string, message: string): void {
  if (said.has(what)) return;
  said.add(what);
  const proc = (globalThis as { process?: { emitWarning?: (message: string, options: { type: string; code: string }) => void } }).process;
  if (typeof proc?.emitWarning === "function") proc.emitWarning(message, { type: "DeprecationWarning", code: "NQUEENS_DEPRECATED" });
  else console.warn(`DeprecationWarning: ${message}`);
}
