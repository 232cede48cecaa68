// Builds dist/: the ES module (dist/*.js, tsconfig.json) and the CommonJS
// one `require` loads (dist/cjs/*.js, tsconfig.cjs.json), each with its
// declarations. dist/ is committed, so that `npm install <folder>` and
// `npm pack` in a fresh copy (no devDependencies, so no tsc) have the package.
//
//   node scripts/build.mjs            rebuild dist/
//   node scripts/build.mjs --check    exit 1 when dist/ is not what src/ builds to
//   node scripts/build.mjs --prepack  rebuild when TypeScript is installed, else
//                                     pack the committed dist/ (npm pack's hook)
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const mode = process.argv[2];

/** The path of tsc when TypeScript is installed here, else undefined. */
function tsc() {
  try {
    return createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    return undefined;
  }
}

/** Builds both modules into `out` (a fresh folder). */
function build(out, compiler) {
  rmSync(out, { recursive: true, force: true });
  for (const [config, dir] of [["tsconfig.json", out], ["tsconfig.cjs.json", join(out, "cjs")]]) {
    execFileSync(process.execPath, [compiler, "-p", join(root, config), "--outDir", dir], { stdio: "inherit" });
  }
  // The files under dist/cjs are CommonJS although the package is "type": "module".
  mkdirSync(join(out, "cjs"), { recursive: true });
  writeFileSync(join(out, "cjs", "package.json"), '{ "type": "commonjs" }\n');
}

/** Every file under `dir`, relative to it, sorted. */
function files(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

const dist = join(root, "dist");
const compiler = tsc();
if (mode === "--prepack" && !compiler) {
  if (!existsSync(join(dist, "index.js")) || !existsSync(join(dist, "cjs", "index.js"))) {
    console.error("dist/ is missing and TypeScript is not installed: run `npm ci` first");
    process.exit(1);
  }
  console.error("TypeScript is not installed: packing the committed dist/ (`npm run build` makes it from src/)");
} else if (!compiler) {
  console.error("TypeScript is not installed: run `npm ci` first");
  process.exit(1);
} else if (mode === "--check") {
  const fresh = mkdtempSync(join(tmpdir(), "activity-site-client-dist-"));
  try {
    build(fresh, compiler);
    const want = files(fresh);
    const have = existsSync(dist) ? files(dist) : [];
    const differ = [...new Set([...want, ...have])].filter(
      (name) => !want.includes(name) || !have.includes(name) || !readFileSync(join(fresh, name)).equals(readFileSync(join(dist, name))),
    );
    if (differ.length > 0) {
      console.error(`dist/ is not what src/ builds to (${differ.join(", ")}): run \`npm run build\` and commit dist/`);
      process.exit(1);
    }
    console.log(`dist/ is what src/ builds to (${want.length} files)`);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
} else {
  build(dist, compiler);
  console.log(`built dist/ (${files(dist).length} files)`);
}
