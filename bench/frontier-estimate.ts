// Knuth's estimate of the work of the 64-bit solve search (the TS twin, with its lookahead from
// the root) on one Excluded Diagonals board: random probes down the search's own choice of row
// or column, each level weighed with the levels its lookahead builds, so that a change to the
// search is measured by nodes (deterministic) and not by seconds on a shared machine. Not part
// of `npm run bench` (it runs the source, not dist):
//
//   npx esbuild bench/frontier-estimate.ts --bundle --platform=node --format=esm --outfile=/tmp/fe.mjs
//   node /tmp/fe.mjs 32 34 1 2 1500     # n d minFree seed probes
//
// Prints one JSON line: `work` (nodes and builds: the figure solve's 64-bit search would count),
// `nodes` (queens placed only), the relative standard error of `work`, and the root's builds.
// The draws are a fixed xorshift32 sequence, so two versions of the search take the same draws
// where their trees agree. Both figures are means over probes: with 1,500 probes their relative
// error on the hard boards is 9 to 20%, so read a change under 1.5 times as noise.
import { CompleteSearch } from "../src/engine/ts/complete.js";
import { BY_ROW, OPEN, ctz32, popcount32 } from "../src/engine/ts/complete-state.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import { normaliseConstraints } from "../src/board/constraints.js";

const [n, d, minFree, seed, probes = 1500] = process.argv.slice(2).map(Number);
const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
const search = new CompleteSearch(n, normaliseConstraints(n, { blocked }, "frontier-estimate"), 0, Infinity);
// expand (private) builds a level and runs the lookahead where the search would.
const s = search;
const expand = (search as unknown as { expand(src: number, dst: number, r: number, c: number): number }).expand.bind(search);
const rootBuilds = s.nodes;
let draw = 0x12345678;
let sum = 0, squares = 0, placed = 0;
for (let p = 0; p < probes; p++) {
  let work = rootBuilds, nodes = 1, product = 1;
  for (let level = 0; s.depth === 0; level++) {
    const lo = s.restLo[level], hi = s.restHi[level];
    const k = popcount32(lo) + popcount32(hi);
    if (k === 0) break;
    product *= k;
    draw ^= draw << 13;
    draw ^= draw >>> 17;
    draw ^= draw << 5;
    draw >>>= 0;
    // The (draw mod k)-th branch of the level, lowest first.
    let j = draw % k, x = lo, half = 0;
    if (j >= popcount32(lo)) {
      j -= popcount32(lo);
      x = hi;
      half = 32;
    }
    for (; j > 0; j--) x &= x - 1;
    const b = half + ctz32(x);
    const byRow = s.kind[level] === BY_ROW;
    const before = s.nodes;
    const result = expand(level, level + 1, byRow ? s.index[level] : b, byRow ? b : s.index[level]);
    work += product * (1 + s.nodes - before);
    nodes += product;
    if (result !== OPEN) break;
  }
  sum += work;
  squares += work * work;
  placed += nodes;
}
const mean = sum / probes;
const error = Math.sqrt(Math.max(0, squares / probes - mean * mean) / probes) / mean;
console.log(JSON.stringify({ n, d, minFree, seed, probes, root: s.depth === 0 ? "open" : "decided", rootBuilds, work: mean.toExponential(2), nodes: (placed / probes).toExponential(2), relError: +error.toFixed(2) }));
