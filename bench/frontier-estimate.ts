// Knuth's estimate of the work of the 64-bit solve search (the TS twin, with its lookahead from
// the root) on one Excluded Diagonals board: random probes down the search's own choice of row
// or column, each level weighed with the levels its lookahead builds (src/search/proof-estimate.ts,
// the probes `nqueens solve` forecasts a proof with), so that a change to the search is measured
// by nodes (deterministic) and not by seconds on a shared machine. Not part of `npm run bench`
// (it runs the source, not dist):
//
//   npx esbuild bench/frontier-estimate.ts --bundle --platform=node --format=esm --outfile=/tmp/fe.mjs
//   node /tmp/fe.mjs 32 34 1 2 1500     # n d minFree seed probes
//   node /tmp/fe.mjs 32 34 1 2 1500 0   # the same without the needed diagonals as lines
//
// Prints one JSON line: `work` (nodes and builds: the figure solve's 64-bit search would count),
// `nodes` (queens placed only), the relative standard error of `work`, and the root's builds.
// The draws are a fixed xorshift32 sequence, so two versions of the search take the same draws
// where their trees agree. Both figures are means over probes: with 1,500 probes their relative
// error on the hard boards is 9 to 20%, so read a change under 1.5 times as noise.
import { ProbedSolveSearch, probePicker } from "../src/search/proof-estimate.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import { normaliseConstraints } from "../src/board/constraints.js";

const [n, d, minFree, seed, probes = 1500, needed = 1] = process.argv.slice(2).map(Number);
const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
const search = new ProbedSolveSearch(n, normaliseConstraints(n, { blocked }, "frontier-estimate"), true, needed !== 0);
const pick = probePicker();
let sum = 0, squares = 0, placed = 0;
for (let p = 0; p < probes; p++) {
  const work = search.probeWork(pick);
  sum += work;
  squares += work * work;
  placed += search.probeQueens;
}
const mean = sum / probes;
const error = Math.sqrt(Math.max(0, squares / probes - mean * mean) / probes) / mean;
console.log(JSON.stringify({ n, d, minFree, seed, probes, needed: needed !== 0, root: search.depth === 0 ? "open" : "decided", rootBuilds: search.rootWork, work: mean.toExponential(2), nodes: (placed / probes).toExponential(2), relError: +error.toFixed(2) }));
