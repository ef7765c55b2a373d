// A constrained N-Queens board as CNF for a SAT solver (CaDiCaL, beside the complete
// search in bench/constrained.mjs): a variable per square (row-major, 1-based); exactly
// one queen per row and per column (an at-least-one clause and a sequential-counter
// at-most-one, Sinz 2005), at most one per diagonal (sequential counter), blocked
// squares as negative unit clauses, given queens as positive ones.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** DIMACS text of the board. */
export function boardCnf(n, { blocked = [], fixed = [] } = {}) {
  const clauses = [];
  let vars = n * n;
  const x = (r, c) => r * n + c + 1;
  // Sequential counter: at most one of lits true (k - 1 auxiliaries, 3k - 4 clauses).
  const atMostOne = (lits) => {
    const k = lits.length;
    if (k < 2) return;
    const s = (i) => vars + 1 + i; // s_i: some of lits[0..i] is true
    clauses.push(`-${lits[0]} ${s(0)}`);
    for (let i = 1; i < k - 1; i++) {
      clauses.push(`-${lits[i]} ${s(i)}`, `-${s(i - 1)} ${s(i)}`, `-${lits[i]} -${s(i - 1)}`);
    }
    clauses.push(`-${lits[k - 1]} -${s(k - 2)}`);
    vars += k - 1;
  };
  for (let r = 0; r < n; r++) {
    const row = Array.from({ length: n }, (_, c) => x(r, c));
    clauses.push(row.join(" "));
    atMostOne(row);
  }
  for (let c = 0; c < n; c++) {
    const col = Array.from({ length: n }, (_, r) => x(r, c));
    clauses.push(col.join(" "));
    atMostOne(col);
  }
  for (let k = 0; k <= 2 * n - 2; k++) {
    const sum = [], diff = [];
    for (let r = 0; r < n; r++) {
      if (k - r >= 0 && k - r < n) sum.push(x(r, k - r));
      const c = r - (k - (n - 1));
      if (c >= 0 && c < n) diff.push(x(r, c));
    }
    atMostOne(sum);
    atMostOne(diff);
  }
  for (const [r, c] of blocked) clauses.push(`-${x(r, c)}`);
  for (const [r, c] of fixed) clauses.push(`${x(r, c)}`);
  return `p cnf ${vars} ${clauses.length}\n${clauses.join(" 0\n")} 0\n`;
}

/** Whether the cadical binary is on the PATH. */
export function haveCadical() {
  return spawnSync("sh", ["-c", "command -v cadical"], { encoding: "utf8" }).status === 0;
}

/** CaDiCaL on the board: { sat: true | false | undefined (timed out), ms } (wall clock, CNF writing excluded). */
export function cadical(n, givens, timeoutMs) {
  const dir = mkdtempSync(join(tmpdir(), "nq-cnf-"));
  try {
    const file = join(dir, "board.cnf");
    writeFileSync(file, boardCnf(n, givens));
    const t0 = performance.now();
    const run = spawnSync("cadical", ["-q", "-n", file], { timeout: timeoutMs, encoding: "utf8", maxBuffer: 1 << 28 });
    const ms = performance.now() - t0;
    return { sat: run.status === 10 ? true : run.status === 20 ? false : undefined, ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
