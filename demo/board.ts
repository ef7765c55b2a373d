// Drawing a board on a canvas: a chessboard with queens for small n, a scaled picture of the
// permutation (one dot per queen, row down, column across) for large n.
export const CHESSBOARD_MAX_N = 64;

/**
 * What to mark on a chessboard: attacked queens (red), and for the step-through tinted rows
 * (the current row, a dead row, two rows being swapped) and small marks on squares
 * ('attacked': a red cross, why a column is skipped; 'choice': a green dot, a safe column
 * a random row draws from; 'placed': the square just taken).
 */
export type Highlight = {
  attacked: Set<number>;
  current?: { row: number; col: number; ok: boolean };
  rows?: { row: number; color: string }[];
  marks?: { row: number; col: number; kind: "attacked" | "choice" | "placed" }[];
  /** Constrained boards (demo/constraints.ts): given queens (tinted blue, their queen drawn even without a board) and blocked squares (dark). */
  given?: { row: number; col: number }[];
  blocked?: { row: number; col: number }[];
};

export function drawBoard(canvas: HTMLCanvasElement, columns: ArrayLike<number> | null, n: number, hl: Highlight): void {
  const css = canvas.clientWidth || 480;
  const dpr = window.devicePixelRatio || 1;
  const size = Math.round(css * dpr);
  if (canvas.width !== size) { canvas.width = size; canvas.height = size; }
  const g = canvas.getContext("2d")!;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.clearRect(0, 0, size, size);
  if (n <= CHESSBOARD_MAX_N) drawChessboard(g, size, columns, n, hl);
  else drawPermutation(g, size, columns, n, hl);
}

function drawChessboard(g: CanvasRenderingContext2D, size: number, columns: ArrayLike<number> | null, n: number, hl: Highlight): void {
  const cell = size / n;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      g.fillStyle = (r + c) % 2 === 0 ? "#f0d9b5" : "#b58863";
      g.fillRect(c * cell, r * cell, Math.ceil(cell), Math.ceil(cell));
    }
  }
  for (const { row, col } of hl.blocked ?? []) {
    g.fillStyle = "#3a3a3a";
    g.fillRect(col * cell, row * cell, Math.ceil(cell), Math.ceil(cell));
    g.strokeStyle = "#9a9a9a";
    g.lineWidth = Math.max(1, cell * 0.06);
    g.beginPath(); // hatched: a blocked square
    g.moveTo(col * cell, (row + 1) * cell); g.lineTo((col + 1) * cell, row * cell);
    g.moveTo(col * cell, (row + 0.5) * cell); g.lineTo((col + 0.5) * cell, row * cell);
    g.moveTo((col + 0.5) * cell, (row + 1) * cell); g.lineTo((col + 1) * cell, (row + 0.5) * cell);
    g.stroke();
  }
  for (const { row, col } of hl.given ?? []) {
    g.fillStyle = "rgba(40,90,220,0.55)";
    g.fillRect(col * cell, row * cell, Math.ceil(cell), Math.ceil(cell));
  }
  for (const { row, color } of hl.rows ?? []) {
    g.fillStyle = color;
    g.fillRect(0, row * cell, size, Math.ceil(cell));
  }
  for (const { row, col, kind } of hl.marks ?? []) {
    const x = (col + 0.5) * cell, y = (row + 0.5) * cell, r = cell * 0.18;
    if (kind === "attacked") {
      g.strokeStyle = "rgba(200,20,20,0.85)";
      g.lineWidth = Math.max(1.5, cell * 0.07);
      g.beginPath(); g.moveTo(x - r, y - r); g.lineTo(x + r, y + r); g.moveTo(x + r, y - r); g.lineTo(x - r, y + r); g.stroke();
    } else if (kind === "choice") {
      g.fillStyle = "rgba(20,140,50,0.85)";
      g.beginPath(); g.arc(x, y, r, 0, 2 * Math.PI); g.fill();
    } else {
      g.fillStyle = "rgba(40,170,70,0.6)";
      g.fillRect(col * cell, row * cell, Math.ceil(cell), Math.ceil(cell));
    }
  }
  if (hl.current) {
    g.fillStyle = hl.current.ok ? "rgba(40,160,60,0.55)" : "rgba(220,40,40,0.55)";
    g.fillRect(hl.current.col * cell, hl.current.row * cell, Math.ceil(cell), Math.ceil(cell));
  }
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.font = `${Math.max(6, cell * 0.8)}px "DejaVu Sans", "Segoe UI Symbol", serif`;
  for (const { row, col } of hl.given ?? []) {
    if (columns && columns[row] === col) continue; // drawn with the board's queens below
    g.fillStyle = "#0b1f66";
    g.fillText("\u265B", (col + 0.5) * cell, (row + 0.5) * cell + cell * 0.04);
  }
  if (!columns) return;
  for (let r = 0; r < columns.length; r++) {
    const c = columns[r];
    if (c < 0) continue; // a row without a queen (step-through)
    const attacked = hl.attacked.has(r);
    const x = (c + 0.5) * cell, y = (r + 0.5) * cell;
    if (attacked) {
      g.fillStyle = "rgba(220,30,30,0.75)";
      g.beginPath(); g.arc(x, y, cell * 0.45, 0, 2 * Math.PI); g.fill();
    }
    if (cell >= 10) {
      g.fillStyle = attacked ? "#fff" : "#111";
      g.fillText("\u265B", x, y + cell * 0.04);
    } else {
      g.fillStyle = attacked ? "#fff" : "#111";
      g.beginPath(); g.arc(x, y, cell * 0.35, 0, 2 * Math.PI); g.fill();
    }
  }
}

function drawPermutation(g: CanvasRenderingContext2D, size: number, columns: ArrayLike<number> | null, n: number, hl: Highlight): void {
  g.fillStyle = "#fbfaf7";
  g.fillRect(0, 0, size, size);
  if (!columns) return;
  const scale = size / n;
  if (n <= size * 8) {
    // few enough queens: one dark square per queen, at least 2 pixels wide
    const dot = Math.max(2, scale);
    g.fillStyle = "#1b2a6b";
    for (let r = 0; r < columns.length; r++) g.fillRect(columns[r] * scale, r * scale, dot, dot);
    drawAttacked(g, size, columns, scale, hl);
    return;
  }
  // Density picture: each pixel counts the queens that fall in it; darker = more.
  const img = g.createImageData(size, size);
  const hits = new Uint32Array(size * size);
  let max = 1;
  for (let r = 0; r < columns.length; r++) {
    const i = Math.min(size - 1, Math.floor(r * scale)) * size + Math.min(size - 1, Math.floor(columns[r] * scale));
    const h = ++hits[i];
    if (h > max) max = h;
  }
  const d = img.data;
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i];
    const shade = h === 0 ? 0 : 0.7 + 0.3 * Math.min(1, Math.log1p(h) / Math.log1p(max));
    const p = i * 4;
    d[p] = 251 - shade * 220; d[p + 1] = 250 - shade * 200; d[p + 2] = 247 - shade * 120; d[p + 3] = 255;
  }
  g.putImageData(img, 0, 0);
  drawAttacked(g, size, columns, scale, hl);
}

function drawAttacked(g: CanvasRenderingContext2D, size: number, columns: ArrayLike<number>, scale: number, hl: Highlight): void {
  // attacked queens as red rings, so they show at any scale
  g.strokeStyle = "#d21f1f";
  g.lineWidth = Math.max(1.5, size / 300);
  for (const r of hl.attacked) {
    g.beginPath();
    g.arc((columns[r] + 0.5) * scale, (r + 0.5) * scale, Math.max(4, size / 120), 0, 2 * Math.PI);
    g.stroke();
  }
}

/** The row and column under a click, for the chessboard. */
export function cellAt(canvas: HTMLCanvasElement, n: number, event: MouseEvent): { row: number; col: number } {
  const rect = canvas.getBoundingClientRect();
  const col = Math.floor(((event.clientX - rect.left) / rect.width) * n);
  const row = Math.floor(((event.clientY - rect.top) / rect.height) * n);
  return { row: Math.max(0, Math.min(n - 1, row)), col: Math.max(0, Math.min(n - 1, col)) };
}
