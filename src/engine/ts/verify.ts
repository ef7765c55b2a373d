// Twin of assembly/verify.ts: O(n) check with one bit per column and diagonal.
export function verifyRepeats(columns: Int32Array): number {
  const n = columns.length;
  const bits = new Uint32Array((n * 5 + 31) >>> 5);
  const sumBase = n;
  const diffBase = 4 * n - 1;
  let repeats = 0;
  const testAndSet = (i: number): boolean => {
    const w = bits[i >>> 5];
    const b = 1 << (i & 31);
    bits[i >>> 5] = w | b;
    return (w & b) !== 0;
  };
  for (let r = 0; r < n; r++) {
    const c = columns[r];
    if (testAndSet(c)) repeats++;
    if (testAndSet(sumBase + r + c)) repeats++;
    if (testAndSet(diffBase + r - c)) repeats++;
  }
  return repeats;
}
