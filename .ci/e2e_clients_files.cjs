// Fails when a pattern of a package.json's "files" matches no file of the
// package's folder (a README that does not exist, a build output renamed).
// Usage: node .ci/e2e_clients_files.cjs PACKAGE_DIR
const fs = require("node:fs");
const path = require("node:path");

const dir = process.argv[2];
const { files } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
for (const pattern of files) {
  const folder = path.join(dir, path.dirname(pattern));
  const name = path.basename(pattern);
  const re = new RegExp(`^${name.replace(/[.]/g, "\\.").replace(/[*]/g, "[^/]*")}$`);
  if (!fs.existsSync(folder) || !fs.readdirSync(folder).some((file) => re.test(file))) {
    console.error(`package.json lists "${pattern}" in "files", which matches no file of ${dir}`);
    process.exit(1);
  }
}
console.log(`package.json's "files": ${files.length} patterns, each matching a file`);
