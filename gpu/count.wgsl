// The full-symmetry counter of assembly/count.ts (takaken's corner/side split with
// bound1/bound2 and the rotation check at the leaves) as a WebGPU compute kernel.
//
// The host (src/engine/webgpu/count.ts) cuts the search into prefix tasks (src/count/tasks.ts,
// deeper than the CPU engines cut it) and dispatches this kernel again and again. Each
// invocation is a "slot": it takes a task from a shared atomic counter, searches it
// depth-first with an explicit stack (workgroup or private memory), and when the task is done takes the
// next one, until it has made `budget` steps in this dispatch; then it saves its stack
// (the candidates left per row and the board) to `state` and returns. The next dispatch
// resumes it where it stopped. So every dispatch is bounded (the host adapts `budget` so
// that one takes tens of milliseconds), and slots that finish early take more tasks (many
// more tasks than slots: the load is balanced by the queue, not by the split).
//
// Only u32 arithmetic: what a slot finds (kept in registers) is added once a dispatch to its own 96-bit counters in `results`
// (three u32 words, with carry: exact for any n <= 32); the host sums them exactly as
// bigints. `ctrl` holds the task queue, the tasks done and a running 96-bit total of the
// nodes (atomic, with carry) for progress reports, checked against the slots' sum at the end.
//
// Node counts are those of the CPU engines: the queens of a row are counted when the row is
// entered (all its candidates after the pruning rules), a last-row queen when it is placed.
//
// The `// @cost NAME` lines mark the blocks whose instruction costs the SIMT model of the
// kernel reads (gpu/model/simt.ts, gpu/model/costs.ts): test/gpu-model.test.ts fails
// when a block changes and the model's table does not. A change to the control flow needs
// the same change in the model's twin of the kernel (gpu/model/kernels.ts).

struct Params {
  n: u32,
  lastRow: u32,
  mask: u32,       // the n board columns
  topBit: u32,     // 1 << lastRow
  sideMask: u32,   // topBit | 1
  depth: u32,      // rows fixed by every task
  numTasks: u32,
  budget: u32,     // steps per invocation in this dispatch
  slots: u32,      // invocations that hold state
  _pad0: u32,      // (a uniform struct of 48 bytes)
  _pad1: u32,
  _pad2: u32,
}

struct Ctrl {
  next: atomic<u32>,     // next task to hand out
  done: atomic<u32>,     // tasks finished
  nodesLo: atomic<u32>,  // nodes so far, for progress (the exact figure is the sum of results)
  nodesMid: atomic<u32>,
  nodesHi: atomic<u32>,
}

@group(0) @binding(0) var<uniform> P: Params;
// Per task, TASK_WORDS words (below).
@group(0) @binding(1) var<storage, read> tasks: array<u32>;
// Per slot, 12 words: count8, count4, count2, nodes, each lo/mid/hi; word w of slot s at w * slots + s.
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
// Per slot, structure of arrays (field f of slot s at f * slots + s): 0: task + 1 (0: none),
// 1: current row, 2..33: candidates left per row, 34..65: the board (one bit per row).
@group(0) @binding(3) var<storage, read_write> state: array<u32>;
@group(0) @binding(4) var<storage, read_write> ctrl: Ctrl;

const NONE: u32 = 0u;
const NO_ROW: u32 = 0xffffffffu;
// Words per task: [kind (bit 0: 1 = side) | bound1 << 1 | columns 0..3 << 8 (5 bits each)],
// [columns 4..9 (5 bits each)], and the attacks on row depth: left diagonals, columns, right diagonals.
const TASK_WORDS: u32 = 5u;
const F_TASK: u32 = 0u;
const F_ROW: u32 = 1u;
const F_REM: u32 = 2u;
const F_BOARD: u32 = 34u;

// The stack of each invocation (a board row per stack row) and the attacks on the current row:
// gpu/stack.wgsl, spliced in by the host.
// @include stack.wgsl

// The task being searched (task + 1; NONE: none).
var<private> task: u32;
var<private> side: bool;
var<private> bound1: u32;
var<private> bound2: u32; // NO_ROW for a corner task
var<private> prefixSet: bool; // rows 0..depth-1 of the board are set (setPrefix)
var<private> lastMask: u32;
var<private> endBit: u32;
var<private> pruneMask: u32;

// Found in this dispatch (flushed to the slot's counters when it leaves the loop).
var<private> c8: u32;
var<private> c4: u32;
var<private> c2: u32;
var<private> nodes: u32;

// @cost prefix
// Sets rows 0..depth-1 of the board from the task's packed columns. Only the rotation check
// reads them (a back-up reads rows from depth on, which the pushes wrote), so a side task
// sets them at its first leaf, and most tasks (no solution) never do.
fn setPrefix() {
  let t = task - 1u;
  var cols = tasks[TASK_WORDS * t] >> 8u; // columns 0..3, then 4..9
  // @cost prefix.row
  for (var y = 0u; y < P.depth; y++) {
    if (y == 4u) { cols = tasks[TASK_WORDS * t + 1u]; }
    setBoard(y, 1u << (cols & 31u));
    cols = cols >> 5u;
  }
  // @cost prefix.end
  prefixSet = true;
}

// @cost-end
// @cost queenAt
// Row k's queen at a side leaf: the stack's, or (a row of the prefix not set yet) the task's packed column.
fn queenAt(k: u32) -> u32 {
  if (k >= P.depth || prefixSet) { return board(k); }
  // @cost queenAt.prefix
  let t = task - 1u;
  var cols = tasks[TASK_WORDS * t] >> 8u;
  var at = 5u * k;
  if (k >= 4u) {
    cols = tasks[TASK_WORDS * t + 1u];
    at = at - 20u;
  }
  return 1u << ((cols >> at) & 31u);
}

// @cost-end
// Sets the per-task rules and the attacks on row depth (the host made them: no walk of the prefix).
fn openTask(t: u32) {
  // @cost open
  let head = tasks[TASK_WORDS * t];
  side = (head & 1u) != 0u;
  bound1 = (head >> 1u) & 31u;
  al = tasks[TASK_WORDS * t + 2u];
  ad = tasks[TASK_WORDS * t + 3u];
  ar = tasks[TASK_WORDS * t + 4u];
  prefixSet = false;
  if (side) {
    bound2 = P.lastRow - bound1;
    let low = (1u << bound1) - 1u;
    lastMask = low | (low << (P.n - bound1));
    endBit = P.topBit >> bound1;
    pruneMask = ~P.sideMask;
  } else {
    bound2 = NO_ROW;
    lastMask = 0u;
    endBit = 0u;
    pruneMask = ~2u;
  }
}

// @cost-end
// The queens row y (below the last row) may take given its attacks, after the pruning rules of the task.
fn candidates(y: u32, l: u32, d: u32, r: u32) -> u32 {
  // @cost candidates
  var c = P.mask & ~(l | d | r);
  if (y < bound1) {
    // @cost candidates.upper
    c = c & pruneMask;
  } else if (y == bound2) {
    // @cost candidates.bound2
    let edges = d & P.sideMask;
    if (edges == 0u) { return 0u; }
    if (edges != P.sideMask) { c = c & P.sideMask; }
  }
  // @cost candidates.return
  return c;
}

// @cost-end
// A side solution: which rotations map it to itself (as checkSymmetry in src/engine/ts/count.ts).
fn checkSymmetry() {
  let lastRow = P.lastRow;
  var own: u32;
  var you: u32;
  var bit: u32;
  var ptn: u32;
  // 90 degrees
  // @cost sym90.test
  if (board(bound2) == 1u) {
    // @cost sym90.start
    own = 1u;
    ptn = 2u;
    loop {
      // @cost sym90.outer
      if (own > lastRow) { break; }
      bit = 1u;
      you = lastRow;
      loop {
        // @cost sym90.inner
        if (board(you) == ptn || board(own) < bit) { break; }
        you = you - 1u;
        bit = bit << 1u;
      }
      // @cost sym90.outer
      if (board(own) > bit) { return; }
      if (board(own) < bit) { break; }
      own = own + 1u;
      ptn = ptn << 1u;
    }
    // @cost sym90.end
    if (own > lastRow) { c2 = c2 + 1u; return; }
  }
  // 180 degrees
  // @cost sym180.test
  if (board(lastRow) == endBit) {
    // @cost sym180.start
    own = 1u;
    you = lastRow - 1u;
    loop {
      // @cost sym180.outer
      if (own > lastRow) { break; }
      bit = 1u;
      ptn = P.topBit;
      loop {
        // @cost sym180.inner
        if (ptn == board(you) || board(own) < bit) { break; }
        ptn = ptn >> 1u;
        bit = bit << 1u;
      }
      // @cost sym180.outer
      if (board(own) > bit) { return; }
      if (board(own) < bit) { break; }
      own = own + 1u;
      you = you - 1u;
    }
    // @cost sym180.end
    if (own > lastRow) { c4 = c4 + 1u; return; }
  }
  // 270 degrees
  // @cost sym270.test
  if (board(bound1) == P.topBit) {
    // @cost sym270.start
    own = 1u;
    ptn = P.topBit >> 1u;
    loop {
      // @cost sym270.outer
      if (own > lastRow) { break; }
      bit = 1u;
      you = 0u;
      loop {
        // @cost sym270.inner
        if (board(you) == ptn || board(own) < bit) { break; }
        you = you + 1u;
        bit = bit << 1u;
      }
      // @cost sym270.outer
      if (board(own) > bit) { return; }
      if (board(own) < bit) { break; }
      own = own + 1u;
      ptn = ptn >> 1u;
    }
  }
  // @cost sym.c8
  c8 = c8 + 1u;
}
// @cost-end

// A queen in the last row (`c` is its one free column, already checked).
fn leaf(c: u32) {
  // @cost leaf
  nodes = nodes + 1u;
  if (!side) {
    // @cost leaf.corner
    c8 = c8 + 1u;
  } else {
    // @cost leaf.side
    // The rotation check's three first tests (rows bound2, lastRow and bound1; see
    // checkSymmetry): most side leaves fail all three and count 8, with no prefix set.
    setBoard(P.lastRow, c);
    if (queenAt(bound2) != 1u && c != endBit && queenAt(bound1) != P.topBit) {
      c8 = c8 + 1u;
      return;
    }
    // @cost leaf.check
    if (!prefixSet) { setPrefix(); }
    checkSymmetry();
  }
}
// @cost-end

var<private> slotId: u32;

// Adds v to counter k (0..3) of this slot: lo, mid, hi with carry.
fn add96(k: u32, v: u32) {
  // @cost add96
  let S = P.slots;
  let i = 3u * k * S + slotId;
  let lo = results[i];
  let sum = lo + v;
  results[i] = sum;
  if (sum < lo) {
    let mid = results[i + S] + 1u;
    results[i + S] = mid;
    if (mid == 0u) { results[i + 2u * S] = results[i + 2u * S] + 1u; }
  }
}
// @cost-end

// Adds what this invocation found since the last flush to its slot's counters and to the running node total.
fn flush() {
  // @cost flush
  if (c8 != 0u) { add96(0u, c8); }
  if (c4 != 0u) { add96(1u, c4); }
  if (c2 != 0u) { add96(2u, c2); }
  if (nodes != 0u) {
    add96(3u, nodes);
    let old = atomicAdd(&ctrl.nodesLo, nodes);
    if (old + nodes < old) {
      let mid = atomicAdd(&ctrl.nodesMid, 1u);
      if (mid == 0xffffffffu) { atomicAdd(&ctrl.nodesHi, 1u); }
    }
  }
  c8 = 0u;
  c4 = 0u;
  c2 = 0u;
  nodes = 0u;
}
// @cost-end

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  // No barriers below: each invocation touches only its own column of the workgroup arrays.
  lid = local;
  let slot = gid.x;
  if (slot >= P.slots) { return; }
  slotId = slot;
  let S = P.slots;
  task = state[F_TASK * S + slot];
  var y = state[F_ROW * S + slot];
  c8 = 0u;
  c4 = 0u;
  c2 = 0u;
  nodes = 0u;
  if (task != NONE) { // resume: the board and candidates were saved, the attacks are rebuilt
    openTask(task - 1u);
    setRem(P.depth - 1u, 1u); // the sentinel (as a task's take sets it)
    for (var k = P.depth; k < y; k++) {
      setBoard(k, state[(F_BOARD + k) * S + slot]);
    }
    for (var k = P.depth; k <= y; k++) {
      setRem(k, state[(F_REM + k) * S + slot]);
    }
    for (var k = P.depth; k < y; k++) { // the diagonals of the rows above, as the pushes stored them
      setDiagonals(k, al, ar);
      let bit = board(k);
      al = (al | bit) << 1u;
      ad = ad | bit;
      ar = (ar | bit) >> 1u;
    }
  }
  // One iteration is one step: back up past the rows with no candidates left (if any), then
  // place the next queen of the row, and push the row below unless it is the last or has no
  // candidates. (Backing up and placing in one iteration: the lanes of a warp that back up and
  // those that place run the same iteration together.)
  var yi = at(y); // row y's index in the stack
  var budget = P.budget;
  loop {
    // @cost loop
    if (task == NONE) {
      // @cost take
      if (atomicLoad(&ctrl.next) >= P.numTasks) { break; } // (keeps `next` from growing without bound)
      let t = atomicAdd(&ctrl.next, 1u);
      if (t >= P.numTasks) { break; }
      task = t + 1u;
      openTask(t);
      y = P.depth;
      yi = at(y);
      setRemI(yi - ROW_STEP, 1u); // the sentinel above the task's first row (never placed: the back-up stops there)
      if (y == P.lastRow) { // the task is one leaf (a prefix of n - 1 rows)
        // @cost take.leaf
        let c = P.mask & ~(al | ad | ar);
        if (c != 0u && (c & lastMask) == 0u) { leaf(c); }
        setRemI(yi, 0u);
      } else {
        // @cost take.row
        let c = candidates(y, al, ad, ar);
        nodes = nodes + countOneBits(c);
        setRemI(yi, c);
      }
    }
    // @cost step
    if (budget == 0u) { break; }
    budget = budget - 1u;
    var r = remI(yi);
    if (r == 0u) { // back up one row: undo its queen's attacks (the bits shifted out of the diagonals matter to no later row)
      // @cost back
      y = y - 1u;
      yi = yi - ROW_STEP;
      r = remI(yi);
      if (y < P.depth) { // the task is done (rem(depth - 1) is the sentinel)
        // @cost done
        atomicAdd(&ctrl.done, 1u);
        task = NONE;
        continue;
      }
      // @cost back.restore
      ad = ad & ~boardI(yi);
      al = leftI(yi);
      ar = rightI(yi);
      if (r == 0u) { continue; } // (and the row above, in the next iteration)
    }
    // @cost place
    let bit = r & (0u - r);
    setRemI(yi, r ^ bit);
    let l = (al | bit) << 1u;
    let d = ad | bit;
    let rr = (ar | bit) >> 1u;
    let ny = y + 1u;
    if (ny == P.lastRow) {
      // @cost place.leaf
      let c = P.mask & ~(l | d | rr);
      if (c == 0u || (c & lastMask) != 0u) { continue; } // (lastMask: 0 for a corner task)
      // @cost place.leaf.found
      setBoardI(yi, bit);
      leaf(c);
      continue;
    }
    // @cost place.row
    let c = candidates(ny, l, d, rr);
    if (c == 0u) { continue; }
    // @cost push
    setBoardI(yi, bit);
    setDiagonalsI(yi, al, ar);
    nodes = nodes + countOneBits(c);
    y = ny;
    yi = yi + ROW_STEP;
    setRemI(yi, c);
    al = l;
    ad = d;
    ar = rr;
  }
  // @cost-end
  flush();
  if (task != NONE) {
    for (var k = P.depth; k < y; k++) {
      state[(F_BOARD + k) * S + slot] = board(k);
    }
    for (var k = P.depth; k <= y; k++) {
      state[(F_REM + k) * S + slot] = rem(k);
    }
  }
  state[F_TASK * S + slot] = task;
  state[F_ROW * S + slot] = y;
}
