// Twin of assembly/las-vegas.ts: pure Las Vegas (`queen_lv` of text 2 in docs/references.md). Each try
// fills rows from 0, placing each row's queen at index below(count) of its safe
// columns listed in increasing order; a row with none fails the try and the next
// starts from an empty board. Empty board of each try = 1 node, each queen = 1 node.
// That is the hybrid method with every row random (stopVegas = n), so it runs
// hybrid.ts's random rows with k = n rather than a copy of them.
import type { Search, SearchParams } from "../contract.js";
import { openHybrid } from "./hybrid.js";

export function openLasVegas(n: number, params: SearchParams): Search {
  return openHybrid(n, { ...params, param: n });
}
