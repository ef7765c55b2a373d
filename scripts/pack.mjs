// `npm pack` / `npm publish` hooks (prepack, postpack): what a user installs is built fresh and
// installs silently.
// - prepack builds into dist.next/ and swaps it for dist/ (two renames), so that anything
//   running from dist/ meanwhile (a test, a CLI) never finds it deleted or half written;
// - it packs a package.json without the `prepare` script (kept aside, put back by postpack):
//   `prepare` is what builds a clone on `npm install`, but in a tarball npm lists it as an
//   install script to approve ("install-scripts not yet covered by allowScripts"), and a
//   built package has nothing to prepare. (The pattern of pinst, done here in a few lines.)
// A pack that failed between the two leaves the backup: the next prepack restores it first.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { packedManifest } from "./pack-manifest.mjs";

const MANIFEST = "package.json";
const BACKUP = ".package.json.prepack";
const run = (cmd, args, env = {}) => execFileSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });

function restore() {
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST);
}

const step = process.argv[2];
if (step === "prepack") {
  restore();
  run("npm", ["run", "asbuild"]);
  run("npx", ["tsup", "--config", "tsup.worker.config.ts"]);
  run("node", ["scripts/embed-worker.mjs"]);
  rmSync("dist.next", { recursive: true, force: true });
  run("npx", ["tsup"], { NQ_OUT_DIR: "dist.next" });
  rmSync("dist.old", { recursive: true, force: true });
  if (existsSync("dist")) renameSync("dist", "dist.old");
  renameSync("dist.next", "dist");
  rmSync("dist.old", { recursive: true, force: true });
  const text = readFileSync(MANIFEST, "utf8");
  const packed = packedManifest(text);
  if (packed !== text) {
    writeFileSync(BACKUP, text);
    writeFileSync(MANIFEST, packed);
  }
} else if (step === "postpack") {
  restore();
} else {
  console.error(`usage: node scripts/pack.mjs prepack|postpack, got ${step}`);
  process.exit(2);
}
