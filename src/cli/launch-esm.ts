// `node dist/cli.js`, as scripts and older docs run it: the launcher (./launch.ts, built as
// CommonJS into dist/cli.cjs, the package's `bin`), required from this ES module. The `nqueens`
// command itself starts at dist/cli.cjs, without Node's ES module loader.
import { createRequire } from "node:module";

createRequire(import.meta.url)("./cli.cjs");
