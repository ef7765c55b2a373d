// The content digest: SHA-256 (FIPS 180-4) truncated to 128 bits (32 lowercase hex digits),
// synchronous in Node and browsers alike. It names a part, a task, a board: what a queue job or
// a checkpoint entry says it is, re-derived and compared by whoever takes it. It is not a MAC
// (that is src/core/key.ts): anyone can compute it. What it adds over a checksum is that nobody
// can find a second content with the same digest (2^128 work), so an answer signed for a
// digest is an answer for that content, whoever wrote the job it came from.
//
// Written here rather than taken from @noble/hashes: that library's sha256 added 10.7 KB to
// each bundle (twice: the worker source embeds it again), past their budgets; this is 1 KB,
// and test/integrity.test.ts holds it to FIPS 180-4's vectors and to node:crypto.

const encoder = new TextEncoder();

/** Hex digits in a content digest. */
export const DIGEST_HEX = 32;

/** SHA-256's round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Uint32Array(64);
{
  let found = 0;
  for (let p = 2; found < 64; p++) {
    let prime = true;
    for (let d = 2; d * d <= p; d++) if (p % d === 0) { prime = false; break; }
    if (prime) K[found++] = ((Math.cbrt(p) % 1) * 2 ** 32) >>> 0;
  }
}

/** SHA-256 of `bytes` (32 bytes). */
function sha256(bytes: Uint8Array): Uint8Array {
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const m = new Uint8Array(blocks * 64);
  m.set(bytes);
  m[bytes.length] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 8, Math.floor(bytes.length / 2 ** 29)); // the length in bits, big-endian 64
  view.setUint32(m.length - 4, (bytes.length * 8) >>> 0);
  const h = Uint32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
  const w = new Uint32Array(64);
  const rotr = (x: number, r: number): number => (x >>> r) | (x << (32 - r));
  for (let at = 0; at < m.length; at += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(at + 4 * t);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15], b = w[t - 2];
      w[t] = (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10)) + w[t - 7] + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[t - 16];
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
  return out;
}

/** The content digest of the UTF-8 bytes of `text`: SHA-256, its first 16 bytes as 32 lowercase hex digits. */
export function contentDigest(text: string): string {
  const hash = sha256(encoder.encode(text));
  let hex = "";
  for (let i = 0; i < DIGEST_HEX / 2; i++) hex += hash[i].toString(16).padStart(2, "0");
  return hex;
}
