// What the queue's integrity costs: n = 16 in 128 parts on two local `nqueens worker
// --concurrency 1` processes, counted three ways, interleaved run by run so a shared machine's
// load hits each alike: without a key (no MACs, audit 0), under a cluster key (every job,
// result and the run record MACed, audit 0), and under the key with the default audit (the
// coordinator recounts about DEFAULT_AUDIT of the parts, at least one per worker). Keyless and
// keyed runs need workers of their own (a keyed worker joins only runs signed with its key), so
// four workers run, two of them idle at any time. Runs only with `--queue redis://HOST:PORT`.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { countDistributed, removeRun, DEFAULT_AUDIT } from "../dist/distributed.js";
import { median, printTable } from "./lib.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const KEY = "nqueens-bench-cluster-key";

function worker(url, key) {
  const env = { ...process.env };
  if (key === undefined) delete env.NQUEENS_KEY;
  else env.NQUEENS_KEY = key;
  const args = [CLI, "worker", "--queue", url, "--concurrency", "1", ...(key === undefined ? ["--unauthenticated"] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env });
  let stderr = "";
  const ready = new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      stderr += d;
      if (stderr.includes("ready")) resolve();
    });
    child.once("exit", (code, signal) => reject(new Error(`nqueens worker exited (${code ?? signal}) before it was ready:\n${stderr}`)));
  });
  return { child, ready };
}

export async function benchQueueCost({ url, repeats = 3, n = 16, parts = 128 }) {
  if (!url) throw new Error("the queue-cost section needs --queue redis://HOST:PORT");
  const workers = [worker(url), worker(url), worker(url, KEY), worker(url, KEY)];
  const modes = [
    { name: "no key, audit 0", options: { unauthenticated: true, audit: 0 } },
    { name: "keyed, audit 0", options: { key: KEY, audit: 0 } },
    { name: `keyed, audit ${DEFAULT_AUDIT} (default)`, options: { key: KEY } },
  ];
  const times = modes.map(() => []);
  const audited = modes.map(() => []);
  try {
    await Promise.all(workers.map((w) => w.ready));
    for (let r = 0; r < repeats; r++) {
      for (const [i, mode] of modes.entries()) {
        const queue = `nqueens-bench-cost-${process.pid}-${r}-${i}`;
        const result = await countDistributed(n, { connection: url, queue, parts, ...mode.options });
        times[i].push(result.ms);
        audited[i].push(result.audited);
        await removeRun(queue, { connection: url }).catch(() => {});
      }
    }
  } finally {
    for (const w of workers) w.child.kill("SIGTERM");
  }
  const base = median(times[0]);
  const rows = modes.map((mode, i) => ({
    mode: mode.name, ms: Math.round(median(times[i])), ratio: +(median(times[i]) / base).toFixed(3), audited: median(audited[i]),
  }));
  printTable(`the queue's integrity, n = ${n} in ${parts} parts, 2 workers (medians of ${repeats}, interleaved)`, rows);
  return { n, parts, repeats, rows };
}
