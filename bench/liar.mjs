// A keyed liar against the default audit (npm run bench -- --only liar; its own redis-server
// unless --queue URL): a worker that holds the cluster key, counts every part truly, and
// returns lies chosen to pass the coordinator's checks (every range check, and the plausibility
// ranking as the docs describe it), signed as an honest worker signs. For each run (n = 12 in
// 32 parts, 14 in 64, 16 in 32; --liar-trials T, default 100, a strategy a trial in turn) it
// records the total the coordinator returned against the truth: the largest such ratio is what
// a liar can get past the audit. Strategies:
// - one-max: one part's nodes, then its count8, raised to what its range checks allow (the old worst case);
// - one-1.2x, few-1.2x: one part, or three, raised 1.2 times (small lies, inside the estimate's noise);
// - scale-C: every part but one (a random one, kept honest) raised C times (C = 1.15, 1.3, 1.6, 2);
// - few-3x: three random parts raised 3 times;
// - level: every part raised to the largest honest part's total (counts of similar parts);
// - nodes-too: as scale-1.3, with nodes raised as much, so counts and nodes keep their ratio.
// The MAC is made here from the documented rule (HMAC-SHA-256 under the key, of the domain, a
// NUL and the canonical JSON of the result with the queue's name), as an attacker would.
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "bullmq";
import { countTask, derivePart } from "../dist/index.js";
import { countDistributed, removeRun } from "../dist/distributed.js";
import { printTable, round } from "./lib.mjs";

const KEY = "the liar bench's cluster key, which the liar holds";
const A000170 = { 12: 14200n, 14: 365596n, 16: 14772512n };
const STRATEGIES = ["one-max", "one-1.2x", "few-1.2x", "scale-1.15", "scale-1.3", "scale-1.6", "scale-2", "few-3x", "level", "nodes-too"];

const canonical = (v) => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.keys(v).sort().filter((k) => v[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
};
const signedResult = (queue, value) => ({ ...value, mac: createHmac("sha256", Buffer.from(KEY)).update(`nqueens-queue-result-v1\0${canonical({ queue, ...value })}`).digest("hex") });

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.once("error", reject);
  server.listen(0, "127.0.0.1", () => { const { port } = server.address(); server.close(() => resolve(port)); });
});

/** The largest value of `field` that part's range checks take, the other fields as in `result` (found by asking the checker). */
function rangeMax(part, result, field) {
  let lo = BigInt(result[field]), hi = 1n << 80n;
  for (let i = 0; i < 100 && lo < hi; i++) {
    const mid = (lo + hi + 1n) / 2n;
    try {
      countTaskCheck(part, { ...result, [field]: String(mid) });
      lo = mid;
    } catch {
      hi = mid - 1n;
    }
  }
  return lo;
}
let countTaskCheck;

/** The lies of one trial: part -> result (strings), given every part's honest result. */
function lies(strategy, parts, honest) {
  const P = parts.length, out = honest.map((h) => ({ ...h }));
  const raise = (p, c, nodesToo = false) => {
    out[p].count8 = String(BigInt(Math.round(Number(honest[p].count8) * c)));
    if (nodesToo) out[p].nodes = String(BigInt(Math.round(Number(honest[p].nodes) * c)));
  };
  const keep = randomInt(P);
  if (strategy === "one-max") {
    const p = randomInt(P);
    out[p].nodes = String(rangeMax(parts[p], out[p], "nodes"));
    out[p].count8 = String(rangeMax(parts[p], out[p], "count8"));
  } else if (strategy === "one-1.2x") raise(randomInt(P), 1.2);
  else if (strategy === "few-1.2x") { const picked = new Set(); while (picked.size < Math.min(3, P)) picked.add(randomInt(P)); for (const p of picked) raise(p, 1.2); }
  else if (strategy.startsWith("scale-")) { const c = Number(strategy.slice(6)); for (let p = 0; p < P; p++) if (p !== keep) raise(p, c); }
  else if (strategy === "few-3x") { const picked = new Set(); while (picked.size < Math.min(3, P)) picked.add(randomInt(P)); for (const p of picked) raise(p, 3); }
  else if (strategy === "level") {
    const totals = honest.map((h) => 8 * Number(h.count8) + 4 * Number(h.count4) + 2 * Number(h.count2));
    const top = Math.max(...totals);
    for (let p = 0; p < P; p++) out[p].count8 = String(Math.max(Number(honest[p].count8), Math.floor((top - 4 * Number(honest[p].count4) - 2 * Number(honest[p].count2)) / 8)));
  } else if (strategy === "nodes-too") { for (let p = 0; p < P; p++) if (p !== keep) raise(p, 1.3, true); }
  return out;
}

const totalOf = (results) => results.reduce((s, r) => s + 8n * BigInt(r.count8) + 4n * BigInt(r.count4) + 2n * BigInt(r.count2), 0n);

export async function benchLiar({ url, trials = 100, configs = [[12, 32], [14, 64], [16, 32]] } = {}) {
  ({ checkPartCount: countTaskCheck } = await import("../dist/index.js"));
  let server, dir;
  if (!url) {
    if (spawnSync("redis-server", ["--version"]).status !== 0) throw new Error("the liar bench needs redis-server (or --queue URL)");
    const port = await freePort();
    dir = mkdtempSync(join(tmpdir(), "nq-liar-"));
    server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    url = `redis://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (spawnSync("redis-cli", ["-p", String(port), "ping"]).stdout?.toString().trim() === "PONG") break;
      if (i > 200) throw new Error("redis-server did not answer");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const { hostname, port } = new URL(url);
  const rows = [], runs = [];
  try {
    for (const [n, P] of configs) {
      const parts = Array.from({ length: P }, (_, p) => derivePart(n, P, p));
      const honest = parts.map((part) => countTask(part));
      const truth = totalOf(honest);
      if (truth !== A000170[n]) throw new Error(`n = ${n}: the honest parts sum to ${truth}, not ${A000170[n]}`);
      const byStrategy = new Map(STRATEGIES.map((s) => [s, { trials: 0, passed: 0, caught: 0, worst: 1, claimed: 0 }]));
      for (let t = 0; t < trials; t++) {
        const strategy = STRATEGIES[t % STRATEGIES.length];
        const told = lies(strategy, parts, honest);
        const claimed = Number(totalOf(told)) / Number(truth);
        const queue = `liar-${n}-${t}-${randomInt(1e9)}`;
        const liar = new Worker(queue, async (job) => {
          const d = job.data;
          return signedResult(queue, { ...told[d.index], worker: "liar", run: d.run, job: job.id });
        }, { connection: { host: hostname, port: Number(port) }, concurrency: 4 });
        liar.on("error", () => {});
        const notices = [];
        let result;
        try {
          result = await countDistributed(n, { connection: url, parts: P, queue, key: KEY, pollMs: 50, onNotice: (m) => notices.push(m) });
        } finally {
          await liar.close();
          await removeRun(queue, { connection: url }).catch(() => {});
        }
        const ratio = Number(result.total) / Number(truth);
        const s = byStrategy.get(strategy);
        s.trials++;
        s.claimed = Math.max(s.claimed, claimed);
        if (result.suspects.includes("liar")) s.caught++;
        if (result.total !== truth) { s.passed++; s.worst = Math.max(s.worst, ratio); }
        runs.push({ n, parts: P, trial: t, strategy, claimed: round(claimed, 4), ratio: round(ratio, 4), audited: result.audited, caught: result.suspects.includes("liar") });
      }
      for (const [strategy, s] of byStrategy) {
        rows.push({ n, parts: P, strategy, trials: s.trials, claimed_max: round(s.claimed, 3), caught: s.caught, wrong_totals: s.passed, worst_ratio: round(s.worst, 3) });
      }
      const worst = Math.max(...[...byStrategy.values()].map((s) => s.worst));
      rows.push({ n, parts: P, strategy: "(all)", trials, claimed_max: "", caught: [...byStrategy.values()].reduce((a, s) => a + s.caught, 0), wrong_totals: [...byStrategy.values()].reduce((a, s) => a + s.passed, 0), worst_ratio: round(worst, 3) });
    }
  } finally {
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  printTable("A keyed liar against the default audit: the largest total that got past it, against the truth", rows);
  return { rows, runs };
}
