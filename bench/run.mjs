// npm run bench [-- --only count,solve] : prints tables and saves them as JSON
// under bench/results/. Timings are medians; ratios compare runs made in this
// same process, since the machines are shared and noisy.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { benchCount } from "./count.mjs";

const { values } = parseArgs({ options: { only: { type: "string" }, out: { type: "string" } } });
const sections = { count: benchCount };
const chosen = values.only ? values.only.split(",") : Object.keys(sections);
for (const name of chosen) if (!sections[name]) throw new Error(`unknown section ${name}; known: ${Object.keys(sections).join(", ")}`);

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model,
  cores: os.cpus().length,
  sections: {},
};
for (const name of chosen) results.sections[name] = await sections[name]();

mkdirSync(new URL("results/", import.meta.url), { recursive: true });
const file = values.out ?? new URL(`results/${results.date.slice(0, 19).replace(/:/g, "-")}.json`, import.meta.url).pathname;
writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
console.log(`\nsaved ${file}`);
