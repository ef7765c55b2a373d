/** WGSL kernels (gpu/*.wgsl), embedded as text by tsup's text loader (and by a vitest plugin in tests). */
declare module "*.wgsl" {
  const source: string;
  export default source;
}
