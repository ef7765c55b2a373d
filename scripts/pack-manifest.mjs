// The package.json that `npm pack` ships (scripts/pack.mjs): the repository's, without the
// `prepare` script, which builds a clone on `npm install` but which npm lists, in a tarball,
// as an install script to approve. Everything else, formatting included, as it is.

/** The packed manifest's text from the repository's (unchanged when there is no prepare script). */
export function packedManifest(text) {
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare === undefined) return text;
  delete manifest.scripts.prepare;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
