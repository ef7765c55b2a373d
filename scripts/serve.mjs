// A tiny static server on 127.0.0.1 for the plain pages (demo/crosscheck.html) and the
// browser tests: `npm run serve` prints the URL. No dependencies, loopback only.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".png": "image/png",
};

/** Serves `root` on 127.0.0.1:`port` (0: any free port); resolves to { server, url }. */
export function serve(root, port = 0) {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
    const file = join(root, path.endsWith("/") ? `${path}index.html` : path);
    if (!file.startsWith(root)) return response.writeHead(403).end();
    try {
      if (!statSync(file).isFile()) throw new Error("not a file");
    } catch {
      return response.writeHead(404).end("not found");
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const { url } = await serve(root, Number(process.env.PORT ?? 8080));
  console.log(`serving ${root} at ${url}/`);
  console.log(`cross-check page: ${url}/demo/crosscheck.html`);
}
