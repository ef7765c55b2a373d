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

// Reused by every call (digests are made one at a time, synchronously): the padded message,
// the message schedule and the state.
let block = new Uint8Array(1024);
const w = new Uint32Array(64);
const h = new Uint32Array(8);

/** SHA-256 of the UTF-8 bytes of `text`, left in `h`. */
function sha256(text: string): void {
  // Encoded in place: at most 3 bytes a UTF-16 unit, and the padding's 9 to 72.
  if (block.length < 3 * text.length + 72) block = new Uint8Array(2 ** Math.ceil(Math.log2(3 * text.length + 72)));
  const m = block;
  const size = encoder.encodeInto(text, m).written;
  const length = Math.ceil((size + 9) / 64) * 64;
  m.fill(0, size, length);
  m[size] = 0x80;
  const bits = size * 8; // the length in bits, big-endian 64 (exact below 2^53)
  const high = Math.floor(bits / 2 ** 32), low = bits >>> 0;
  m[length - 8] = high >>> 24; m[length - 7] = (high >>> 16) & 255; m[length - 6] = (high >>> 8) & 255; m[length - 5] = high & 255;
  m[length - 4] = low >>> 24; m[length - 3] = (low >>> 16) & 255; m[length - 2] = (low >>> 8) & 255; m[length - 1] = low & 255;
  h[0] = 0x6a09e667; h[1] = 0xbb67ae85; h[2] = 0x3c6ef372; h[3] = 0xa54ff53a; h[4] = 0x510e527f; h[5] = 0x9b05688c; h[6] = 0x1f83d9ab; h[7] = 0x5be0cd19;
  for (let at = 0; at < length; at += 64) {
    for (let t = 0; t < 16; t++) {
      const i = at + 4 * t;
      w[t] = (m[i] << 24) | (m[i + 1] << 16) | (m[i + 2] << 8) | m[i + 3];
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15], y = w[t - 2];
      w[t] = (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)) + w[t - 7] + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + w[t - 16];
    }
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (let t = 0; t < 64; t++) {
      const t1 = (k + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
      const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
}

/** The content digest of the UTF-8 bytes of `text`: SHA-256, its first 16 bytes as 32 lowercase hex digits. */
export function contentDigest(text: string): string {
  sha256(text);
  let hex = "";
  for (let i = 0; i < DIGEST_HEX / 8; i++) hex += (h[i] >>> 0).toString(16).padStart(8, "0");
  return hex;
}
