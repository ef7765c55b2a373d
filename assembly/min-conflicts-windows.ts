// Min-conflicts' windowed group draws (assembly/min-conflicts.ts, step 2a; its header says why),
// apart so that file stays readable. Twin: src/engine/ts/min-conflicts-windows.ts.
//
// The groups of 32 columns are dealt evenly to round(groups / WINDOW_GROUPS) windows (sizes
// differ by one group at most). A block of rows draws its groups in one window: of two windows
// drawn, the one whose every WINDOW_SAMPLE-th group holds more open squares (column and both
// diagonals free) for the block's first row, which keeps the diagonals as evenly used as draws
// anywhere do (a window fixes which diagonals a row reaches; taken by turns, they did not).
import { draw, openColumns } from "./min-conflicts-bits";
import { WINDOW_GROUPS, WINDOW_SAMPLE } from "./min-conflicts-params";

/** The windows (1: no windows, every row draws from every group). */
export let windows: i32 = 1;
/** The block's window: its first column (32 times its first group) and its groups. */
export let windowFirst: i32 = 0;
export let windowGroups: u32 = 0;
let groups: i32 = 0;

/** The windows of a board of `groupCount` groups, windowed or not. */
export function windowsInit(groupCount: i32, windowed: bool): void {
  groups = groupCount;
  windows = windowed ? max(1, (groups + (WINDOW_GROUPS >> 1)) / WINDOW_GROUPS) : 1;
  windowFirst = 0;
  windowGroups = <u32>groups;
}

/** The first group of window w (w = windows: one past the last group). */
@inline function windowStart(w: i32): i32 {
  return <i32>(<i64>w * groups / windows);
}

/** Row r's open squares on every WINDOW_SAMPLE-th group of window w (the bitsets of min-conflicts.ts; diff diagonal c + n - 1 - r). */
function windowOpen(w: i32, r: i32, n: i32, used: usize, sum: usize, diff: usize): i32 {
  const diffBase = n - 1 - r;
  let open = 0;
  for (let g = windowStart(w), next = windowStart(w + 1); g < next; g += WINDOW_SAMPLE) {
    const f = g << 5;
    open += popcnt(openColumns(used, f, sum, r + f, diff, f + diffBase));
  }
  return open;
}

/** The next block's window, for its first row r (windowFirst, windowGroups); the draws it made. */
export function nextWindow(r: i32, n: i32, used: usize, sum: usize, diff: usize): i32 {
  const a = <i32>draw(<u32>windows), b = <i32>draw(<u32>windows);
  const w = windowOpen(b, r, n, used, sum, diff) > windowOpen(a, r, n, used, sum, diff) ? b : a;
  windowFirst = windowStart(w) << 5;
  windowGroups = <u32>(windowStart(w + 1) - windowStart(w));
  return 2;
}
