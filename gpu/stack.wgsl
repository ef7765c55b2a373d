// The stack of each invocation and the attacks on its current row, gpu/constellations.wgsl's
// (it shared this file with the prefix kernel, gpu/count.wgsl, until that was removed): the
// host splices this file in at the kernel's `// @include stack.wgsl` line (kernelSource in src/engine/webgpu/dispatch.ts), then keeps one
// of the two layouts below (`// @stack NAME` ... `// @end`, tuning `stack`) and sets STACK_ROWS.
//
// Per stack row: the candidates left, the queen, and the left and right diagonal attacks on
// that row (the column attacks are undone exactly: down & ~queen). A stack row stands for a
// free row of the constellation (see gpu/constellations.wgsl).
// Workgroup memory (on-chip; 16 KiB for 32 invocations at 32 rows, the least every adapter
// offers; row k of invocation `lid` at k * 32 + lid, so that the invocations of a workgroup
// never share a bank) or private arrays (wherever the compiler puts them).
var<private> lid: u32;
// Rows of each stack: the host sets this line to the board's rows rounded up to 16, 20, 24,
// 28 or 32 (kernelSource), so a smaller board leaves more workgroup memory (and registers) for
// more resident workgroups. Every stack row a kernel uses is below n.
const STACK_ROWS: u32 = 32u;
// @stack workgroup
const WG: u32 = 32u;
var<workgroup> remAt: array<u32, STACK_ROWS * WG>;
var<workgroup> boardAt: array<u32, STACK_ROWS * WG>;
var<workgroup> leftAt: array<u32, STACK_ROWS * WG>;
var<workgroup> rightAt: array<u32, STACK_ROWS * WG>;
// Row k's index in the arrays (`at`), and the step from one row's index to the next.
fn at(k: u32) -> u32 { return k * WG + lid; }
const ROW_STEP: u32 = WG;
fn remI(i: u32) -> u32 { return remAt[i]; }
fn setRemI(i: u32, v: u32) { remAt[i] = v; }
fn boardI(i: u32) -> u32 { return boardAt[i]; }
fn setBoardI(i: u32, v: u32) { boardAt[i] = v; }
fn leftI(i: u32) -> u32 { return leftAt[i]; }
fn rightI(i: u32) -> u32 { return rightAt[i]; }
fn setDiagonalsI(i: u32, l: u32, r: u32) { leftAt[i] = l; rightAt[i] = r; }
// @end
// @stack private
var<private> remP: array<u32, STACK_ROWS>;
var<private> boardP: array<u32, STACK_ROWS>;
var<private> leftP: array<u32, STACK_ROWS>;
var<private> rightP: array<u32, STACK_ROWS>;
fn at(k: u32) -> u32 { return k; }
const ROW_STEP: u32 = 1u;
fn remI(i: u32) -> u32 { return remP[i]; }
fn setRemI(i: u32, v: u32) { remP[i] = v; }
fn boardI(i: u32) -> u32 { return boardP[i]; }
fn setBoardI(i: u32, v: u32) { boardP[i] = v; }
fn leftI(i: u32) -> u32 { return leftP[i]; }
fn rightI(i: u32) -> u32 { return rightP[i]; }
fn setDiagonalsI(i: u32, l: u32, r: u32) { leftP[i] = l; rightP[i] = r; }
// @end
// Row k of the stack (the loop keeps its row's index `yi` instead: one add a row, no multiply).
fn rem(k: u32) -> u32 { return remI(at(k)); }
fn setRem(k: u32, v: u32) { setRemI(at(k), v); }
fn board(k: u32) -> u32 { return boardI(at(k)); }
fn setBoard(k: u32, v: u32) { setBoardI(at(k), v); }
fn setDiagonals(k: u32, l: u32, r: u32) { setDiagonalsI(at(k), l, r); }

// Attacks on the current row: left diagonals, columns, right diagonals.
var<private> al: u32;
var<private> ad: u32;
var<private> ar: u32;
