import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The tests import the package by its name: here that is the source; in
// .ci/e2e-clients.sh, where they run in a project that installed the packed
// tarball, it is the installed package.
export default defineConfig({
  resolve: {
    alias: { "activity-site-client": fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
  },
  test: { include: ["test/**/*.test.ts"], testTimeout: 30_000 },
});
