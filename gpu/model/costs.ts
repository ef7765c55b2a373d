// The instruction costs of gpu/constellations.wgsl's blocks, read from the WGSL: the kernel marks its
// blocks with `// @cost NAME` lines (a block runs to the next marker or `// @cost-end`; one
// name may cover several pieces, their costs add up), and `blockCosts` counts in each block,
// comments left out: every operator (arithmetic, bitwise, comparison, logic, compound
// assignment), every array access (a load or a store), every branch (`if`, `loop`, `for`,
// `break`, `continue`, `return`), every builtin (countOneBits, the atomics: one issue each,
// whatever their latency), and the body of each stack accessor it calls (the workgroup
// layout's: remAt[k * WG + lid] is a multiply, an add and an access). Plain assignments,
// declarations and uniform reads (P.x) count 0: registers and constants. So a cost is a
// count of warp instructions issued, roughly what the compiler makes of the block, not a
// measured figure.
//
// The table below keeps, per block, its cost and a hash of its text. test/gpu-model.test.ts
// fails when the WGSL's blocks and this table differ (a block changed, added or removed),
// and prints the table to paste here: the model (gpu/model/simt.ts) never runs on costs
// the kernel no longer has. (The former prefix kernel's table, frozen with its file's
// removal, is gpu/model/prefix.ts's PREFIX_COSTS.)

/** Per block: the cost (warp instructions a pass) and a hash of its normalized text. */
export type CostTable = Record<string, { cost: number; hash: string }>;

/** The stack accessors a block may call, with their bodies' costs (filled from the WGSL). */
const ACCESSORS = ["at", "remI", "setRemI", "boardI", "setBoardI", "leftI", "rightI", "setDiagonalsI", "rem", "setRem", "board", "setBoard", "leftOf", "rightOf", "setDiagonals", "border", "shift"];

function stripComments(text: string): string {
  return text.replace(/\/\/.*$/gm, "");
}

/** The WGSL's marked blocks: name to text (the pieces of one name joined). */
export function kernelBlocks(wgsl: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let name: string | undefined;
  let body: string[] = [];
  const close = () => {
    if (name !== undefined) blocks.set(name, (blocks.has(name) ? blocks.get(name)! + "\n" : "") + body.join("\n"));
    name = undefined;
    body = [];
  };
  for (const line of wgsl.split("\n")) {
    const m = /^\s*\/\/ @cost(?: (\S+)|-end)\s*$/.exec(line);
    if (m) {
      close();
      name = m[1];
    } else if (name !== undefined) body.push(line);
  }
  close();
  return blocks;
}

/** The operators, accesses, branches and builtins of a piece of WGSL (see the header). */
function rawCost(code: string, accessors: Map<string, number>): number {
  let text = stripComments(code).replace(/\bP\.\w+/g, "p").replace(/\(&/g, "(");
  let cost = 0;
  text = text.replace(/\b(\w+)\s*\(/g, (all, fn: string) => {
    if (accessors.has(fn)) cost += accessors.get(fn)!;
    else if (["countOneBits", "atomicAdd", "atomicLoad", "atomicSub", "firstTrailingBit", "select"].includes(fn)) cost += 1;
    else if (["if", "for", "loop"].includes(fn)) cost += 1;
    return " (";
  });
  cost += (text.match(/\b(loop|break|continue|return)\b/g) ?? []).length;
  cost += (text.match(/\[/g) ?? []).length;
  cost += (text.match(/<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|&=|\|=|\^=|\+\+|--|[-+*%&|^~!<>]/g) ?? []).length;
  return cost;
}

function hash(text: string): string {
  // FNV-1a over the normalized text (comments out, whitespace collapsed), as 8 hex digits
  let h = 0x811c9dc5;
  const norm = stripComments(text).replace(/\s+/g, " ").trim();
  for (let i = 0; i < norm.length; i++) h = Math.imul(h ^ norm.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** The stack accessors' costs, from the workgroup layout's bodies (`fn rem(k: u32) -> u32 { return remAt[k * WG + lid]; }`). */
function accessorCosts(wgsl: string): Map<string, number> {
  // the workgroup layout's bodies, then the shared ones (which may call them), in the file's order
  const layout = /\/\/ @stack workgroup\n([\s\S]*?)\/\/ @end\n/.exec(wgsl)?.[1] ?? "";
  const shared = wgsl.replace(/\/\/ @stack (\w+)\n[\s\S]*?\/\/ @end\n/g, "");
  const costs = new Map<string, number>();
  for (const text of [layout, shared]) {
    for (const fn of ACCESSORS) {
      const m = new RegExp(`fn ${fn}\\([^)]*\\)[^{]*\\{([^}]*)\\}`).exec(text);
      if (m && !costs.has(fn)) costs.set(fn, rawCost(m[1].replace(/\breturn\b/g, ""), costs));
    }
  }
  return costs;
}

/** Every marked block's cost and hash, read from the WGSL. */
export function blockCosts(wgsl: string): CostTable {
  const accessors = accessorCosts(wgsl);
  const table: CostTable = {};
  for (const [name, text] of kernelBlocks(wgsl)) table[name] = { cost: rawCost(text, accessors), hash: hash(text) };
  return table;
}

/** gpu/constellations.wgsl's blocks as the table has them (test/gpu-model.test.ts checks it against the file). */
export const CONSTELLATION_COSTS: CostTable = {
  "open": { cost: 14, hash: "90b73734" },
  "add96": { cost: 22, hash: "21040f5c" },
  "flush": { cost: 12, hash: "48499283" },
  "loop": { cost: 2, hash: "263c3c77" },
  "take": { cost: 27, hash: "56153288" },
  "take.leaf": { cost: 2, hash: "40a7b86c" },
  "take.row": { cost: 1, hash: "edaa75eb" },
  "step": { cost: 7, hash: "899a93d5" },
  "back": { cost: 5, hash: "a5400a5f" },
  "done": { cost: 2, hash: "9e459a20" },
  "back.restore": { cost: 8, hash: "a79935b6" },
  "place": { cost: 27, hash: "03bc4d9c" },
  "place.leaf": { cost: 2, hash: "773213c8" },
  "place.ahead": { cost: 16, hash: "7c511dbd" },
  "push": { cost: 6, hash: "68a0210b" },
};
