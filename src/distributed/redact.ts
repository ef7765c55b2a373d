// Credentials never printed: every message and log line of the queue and the CLI goes
// through redact (internal module; no dependencies, so the CLI can use it at no cost).

/** `text` with the password (and any user info without a user name) of every URL in it replaced by `***`. */
export function redact(text: string): string {
  // scheme://user:password@ -> scheme://user:***@ ; scheme://secret@ -> scheme://***@ .
  // The user info runs to the last '@' before a space or quote, so a password holding an
  // '@' is hidden whole.
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^\s"'`@]*@)+/gi, (_match, scheme: string, _last: string) => {
    const info = _match.slice(scheme.length, -1);
    const colon = info.indexOf(":");
    return `${scheme}${colon > 0 ? `${info.slice(0, colon)}:***` : "***"}@`;
  });
}

/** A Redis connection's password-free description for messages: the URL redacted, or host:port of an options object. */
export function describeTarget(connection: unknown): string {
  if (typeof connection === "string") return JSON.stringify(redact(connection));
  if (typeof connection === "object" && connection !== null) {
    const { host, port } = connection as { host?: unknown; port?: unknown };
    return `{ host: ${JSON.stringify(host ?? "127.0.0.1")}, port: ${JSON.stringify(port ?? 6379)}${"password" in connection ? ", password: ***" : ""} }`;
  }
  return String(connection);
}
