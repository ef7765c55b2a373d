// FNV-1a 64 (Fowler-Noll-Vo, http://www.isthe.com/chongo/tech/comp/fnv/): a small,
// well-known, deterministic hash, synchronous in Node and browsers alike. It guards
// against corruption and mix-ups (a part that is not what it claims), not against
// someone who recomputes it on purpose: it is not a MAC (that is src/core/key.ts).
const encoder = new TextEncoder();

/** FNV-1a 64 of the UTF-8 bytes of `text`, as 16 lowercase hex digits. */
export function fnv1a64(text: string): string {
  const bytes = encoder.encode(text);
  let hi = 0xcbf29ce4, lo = 0x84222325; // offset basis 0xcbf29ce484222325
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    // h * 0x100000001b3 mod 2^64 = h * 0x1b3 + (h << 40), in 32-bit halves (exact in doubles).
    const low = lo * 0x1b3;
    const carry = Math.floor(low / 0x100000000);
    hi = (hi * 0x1b3 + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = low >>> 0;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}
