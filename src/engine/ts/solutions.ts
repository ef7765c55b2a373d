// Twin of assembly/solutions.ts: lexicographic enumeration with an explicit stack.
import type { SolutionStream } from "../contract.js";

export function openSolutions(n: number): SolutionStream {
  const full = n === 32 ? 0xffffffff : (1 << n) - 1;
  const avail = new Uint32Array(32);
  const downs = new Uint32Array(33);
  const lefts = new Uint32Array(33);
  const rights = new Uint32Array(33);
  const cols = new Int32Array(32);
  let depth = 0;
  let nodes = 0;
  avail[0] = full;

  function next(max: number): Int32Array[] {
    const out: Int32Array[] = [];
    while (depth >= 0 && out.length < max) {
      const y = depth;
      const a = avail[y];
      if (a === 0) { depth--; continue; }
      const bit = (a & -a) >>> 0;
      avail[y] = a ^ bit;
      cols[y] = 31 - Math.clz32(bit);
      nodes++;
      if (y === n - 1) {
        out.push(cols.slice(0, n));
        continue;
      }
      const d = downs[y] | bit;
      const l = (lefts[y] | bit) << 1;
      const r = (rights[y] | bit) >>> 1;
      downs[y + 1] = d;
      lefts[y + 1] = l;
      rights[y + 1] = r;
      avail[y + 1] = full & ~(d | l | r);
      depth = y + 1;
    }
    return out;
  }

  return { next, nodes: () => nodes, close() {} };
}
