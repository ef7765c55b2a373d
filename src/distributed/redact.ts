// Credentials never printed: every message and log line of the queue and the CLI goes
// through redact (internal module; no dependencies, so the CLI can use it at no cost).

/**
 * `text` with the secrets of every URL in it replaced by `***`: the password (and any user
 * info without a user name), the ?query and the #fragment (where a password may be put too,
 * `?password=...`), and, in a redis:// or rediss:// URL, a path that is not a database
 * number (`/0`). What stays: the scheme, the user name, the host and the port.
 */
export function redact(text: string): string {
  // scheme://user:password@ -> scheme://user:***@ ; scheme://secret@ -> scheme://***@ .
  // The user info runs to the last '@' before a space or quote, so a password holding an
  // '@' is hidden whole.
  const hidden = text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^\s"'`@]*@)+/gi, (_match, scheme: string, _last: string) => {
    const info = _match.slice(scheme.length, -1);
    const colon = info.indexOf(":");
    return `${scheme}${colon > 0 ? `${info.slice(0, colon)}:***` : "***"}@`;
  });
  // Then what follows the host: ?query and #fragment hidden whole, a redis path kept only when it is a database number.
  return hidden.replace(/([a-z][a-z0-9+.-]*:\/\/)([^\s"'`/?#]*)([^\s"'`?#]*)([?#][^\s"'`]*)?/gi, (_m, scheme: string, authority: string, path: string, rest?: string) => {
    const redis = /^rediss?:\/\/$/i.test(scheme);
    const keptPath = redis && path !== "" && !/^\/\d{0,9}$/.test(path) ? "/***" : path;
    return `${scheme}${authority}${keptPath}${rest ? `${rest[0]}***` : ""}`;
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
