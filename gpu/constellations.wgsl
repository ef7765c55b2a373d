// The start-constellation counter of assembly/constellations.ts (and its twin
// src/engine/ts/constellations.ts) as a WebGPU compute kernel, the package's one GPU kernel:
// it counts constellation tasks (src/count/tasks.ts: ConstellationTask) on the GPU, the whole
// board's for count(n, { engine: 'webgpu' }) and the parts of a split.
//
// The host (src/engine/webgpu/constellations.ts) takes the constellation tasks, places
// the queens of a few more free rows itself (counting those nodes), and hands the kernel one
// "start" for each placement: a state with some rows already taken. The rows the border
// queens hold (k and l) are no rows of the search: each constellation has a table, per free
// row, of the border queens' diagonals on that row and how far to shift the diagonals to
// reach the next free row (1, 2 or 3), so the loop steps over the taken rows with one shift
// and has no branch for them. Every start of a constellation reads the same table.
//
// The dispatch scheme: a fixed number of slots take starts from a shared
// atomic counter, search them depth first with an explicit stack (workgroup or private
// memory), stop after `budget` steps a dispatch, save their stack to `state` and resume in
// the next dispatch. Only u32 arithmetic: what a slot finds is added once a dispatch to its
// own 96-bit counters (lo/mid/hi with carry); `ctrl` holds the queue, the starts done and a
// running 96-bit node total checked against the slots' sum at the end.
//
// Counted as the CPU counter counts them: the solutions, by the symmetry class of the start's
// constellation (counter 0: no symmetry, 1: a half turn maps it to itself, 2: a quarter turn;
// the host tells classes of 8, 4 and 2 from these with the turn-symmetric solutions it counts
// itself), and the nodes: a row's candidates when the row is entered (its start row's too),
// the last free row's candidates being solutions. With the host's nodes for the rows it
// placed, that is node for node the CPU counter's figure for the same tasks.
//
// The `// @cost NAME` lines mark the blocks whose costs the SIMT model reads
// (gpu/model/costs.ts, CONSTELLATION_COSTS; test/gpu-model.test.ts checks the table).

struct Params {
  n: u32,
  mask: u32,       // the n board columns
  numTasks: u32,   // starts
  budget: u32,     // steps per invocation in this dispatch
  slots: u32,      // invocations that hold state
  _pad0: u32,      // (a uniform struct of 48 bytes, as the host writes it)
  _pad1: u32,
  _pad2: u32,
  _pad3: u32,
  _pad4: u32,
  _pad5: u32,
  _pad6: u32,
}

struct Ctrl {
  next: atomic<u32>,
  done: atomic<u32>,
  nodesLo: atomic<u32>,
  nodesMid: atomic<u32>,
  nodesHi: atomic<u32>,
}

@group(0) @binding(0) var<uniform> P: Params;
// Per start, TASK_WORDS words: [where its constellation's table starts in this buffer],
// [its first free row | class << 8 | the last free row << 16], and the attacks on its first
// free row: left diagonals, columns (the border queens' included), right diagonals. After the
// starts, the tables: per constellation, TABLE_WORDS words: the border queens' diagonals on
// free row d at + d, the shift from free row d to the next at + 32 + d.
@group(0) @binding(1) var<storage, read> tasks: array<u32>;
// Per slot, 12 words: solutions of class 0, 1, 2, and nodes, each lo/mid/hi; word w of slot s at w * slots + s.
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
// Per slot, structure of arrays (field f of slot s at f * slots + s): 0: start + 1 (0: none),
// 1: current stack row, 2..33: candidates left per stack row, 34..65: the queen per stack row.
@group(0) @binding(3) var<storage, read_write> state: array<u32>;
@group(0) @binding(4) var<storage, read_write> ctrl: Ctrl;

const NONE: u32 = 0u;
const TASK_WORDS: u32 = 5u;
const F_TASK: u32 = 0u;
const F_ROW: u32 = 1u;
const F_REM: u32 = 2u;
const F_BOARD: u32 = 34u;

// The stack: stack row y holds free row y - 1 (stack row `first` is the sentinel above a
// start's first free row, `first` being that row's index): the candidates left, the queen,
// and the diagonals on that row (the column attacks are undone exactly: down & ~queen).
// Its layout and the attacks on the current row: gpu/stack.wgsl, spliced in by the host.
// @include stack.wgsl

var<private> task: u32;   // the start being searched + 1 (NONE: none)
var<private> table: u32;  // where its constellation's table starts in `tasks`
var<private> first: u32;  // its first free row (its sentinel's stack row)
var<private> last: u32;   // the constellation's last free row (its solutions' row)
var<private> cls: u32;    // its constellation's symmetry class (the counter of its solutions)

// Found in this dispatch (flushed to the slot's counters when it leaves the loop).
var<private> sols: u32;
var<private> nodes: u32;

// The border queens' diagonals on free row d, and the shift from free row d to the next.
fn border(d: u32) -> u32 { return tasks[table + d]; }
fn shift(d: u32) -> u32 { return tasks[table + 32u + d]; }

fn openTask(t: u32) {
  // @cost open
  let o = TASK_WORDS * t;
  table = tasks[o];
  let rows = tasks[o + 1u];
  first = rows & 255u;
  cls = (rows >> 8u) & 255u;
  last = rows >> 16u;
  al = tasks[o + 2u];
  ad = tasks[o + 3u];
  ar = tasks[o + 4u];
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

// Adds what this invocation found since the last flush (and the start's class, so a slot
// flushes before it takes a start of another class).
fn flush() {
  // @cost flush
  if (sols != 0u) { add96(cls, sols); }
  if (nodes != 0u) {
    add96(3u, nodes);
    let old = atomicAdd(&ctrl.nodesLo, nodes);
    if (old + nodes < old) {
      let mid = atomicAdd(&ctrl.nodesMid, 1u);
      if (mid == 0xffffffffu) { atomicAdd(&ctrl.nodesHi, 1u); }
    }
  }
  sols = 0u;
  nodes = 0u;
}
// @cost-end

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  lid = local;
  let slot = gid.x;
  if (slot >= P.slots) { return; }
  slotId = slot;
  let S = P.slots;
  task = state[F_TASK * S + slot];
  var y = state[F_ROW * S + slot];
  sols = 0u;
  nodes = 0u;
  if (task != NONE) { // resume: the queens and candidates were saved, the diagonals are rebuilt
    openTask(task - 1u);
    setRem(first, 1u); // the sentinel
    for (var k = first + 1u; k < y; k++) {
      setBoard(k, state[(F_BOARD + k) * S + slot]);
    }
    for (var k = first + 1u; k <= y; k++) {
      setRem(k, state[(F_REM + k) * S + slot]);
    }
    for (var k = first + 1u; k < y; k++) {
      setDiagonals(k, al, ar);
      let bit = board(k);
      let s = shift(k - 1u);
      al = (al | bit) << s;
      ad = ad | bit;
      ar = (ar | bit) >> s;
    }
  }
  var yi = at(y);
  var budget = P.budget;
  loop {
    // @cost loop
    if (task == NONE) {
      // @cost take
      if (atomicLoad(&ctrl.next) >= P.numTasks) { break; }
      let t = atomicAdd(&ctrl.next, 1u);
      if (t >= P.numTasks) { break; }
      let before = cls;
      openTask(t);
      if (cls != before) { // (the solutions found so far are of the class before)
        let now = cls;
        cls = before;
        flush();
        cls = now;
      }
      task = t + 1u;
      y = first + 1u;
      yi = at(y);
      setRemI(yi - ROW_STEP, 1u); // the sentinel above the start's first row
      let c = P.mask & ~(al | ad | ar | border(first));
      let k = countOneBits(c);
      nodes = nodes + k;
      if (first == last) { // the start's row is the last: its candidates are solutions
        // @cost take.leaf
        sols = sols + k;
        setRemI(yi, 0u);
      } else {
        // @cost take.row
        setRemI(yi, c);
      }
    }
    // @cost step
    if (budget == 0u) { break; }
    budget = budget - 1u;
    var r = remI(yi);
    if (r == 0u) { // back up one row
      // @cost back
      y = y - 1u;
      yi = yi - ROW_STEP;
      r = remI(yi);
      if (y <= first) { // the start is done (its sentinel)
        // @cost done
        atomicAdd(&ctrl.done, 1u);
        task = NONE;
        continue;
      }
      // @cost back.restore
      ad = ad & ~boardI(yi);
      al = leftI(yi);
      ar = rightI(yi);
      if (r == 0u) { continue; }
    }
    // @cost place
    let bit = r & (0u - r);
    setRemI(yi, r ^ bit);
    let s = shift(y - 1u); // from free row y - 1 to free row y
    let l = (al | bit) << s;
    let d = ad | bit;
    let rr = (ar | bit) >> s;
    let c = P.mask & ~(l | d | rr | border(y));
    if (c == 0u) { continue; }
    let k = countOneBits(c);
    nodes = nodes + k;
    if (y == last) { // free row y is the last: its candidates are solutions
      // @cost place.leaf
      sols = sols + k;
      continue;
    }
    // @cost place.ahead
    // The free row after it is full even before a queen goes on row y: no candidate there
    // has a child (as the CPU counter: the nodes are the same without this).
    let s2 = shift(y);
    if ((P.mask & ~((l << s2) | d | (rr >> s2) | border(y + 1u))) == 0u) { continue; }
    // @cost push
    setBoardI(yi, bit);
    setDiagonalsI(yi, al, ar);
    y = y + 1u;
    yi = yi + ROW_STEP;
    setRemI(yi, c);
    al = l;
    ad = d;
    ar = rr;
  }
  // @cost-end
  flush();
  if (task != NONE) {
    for (var k = first + 1u; k < y; k++) {
      state[(F_BOARD + k) * S + slot] = board(k);
    }
    for (var k = first + 1u; k <= y; k++) {
      state[(F_REM + k) * S + slot] = rem(k);
    }
  }
  state[F_TASK * S + slot] = task;
  state[F_ROW * S + slot] = y;
}
