/** The Wasm build, embedded as bytes by tsup's binary loader (and by a vitest plugin in tests). */
declare module "*.wasm" {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}
