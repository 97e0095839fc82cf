#!/usr/bin/env node
// `npm run test:e2e`: builds the app, then drives it in Debian's Chromium through whole journeys.
// PILLAR_BUILT=1 (set by .ci/run after its build stage) uses the web build already in dist/web instead.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;

if (process.env.PILLAR_BUILT === "1") {
  if (!fs.existsSync(path.join(root, "dist/web/index.html"))) {
    console.error("PILLAR_BUILT=1 but dist/web/index.html is missing: run npm run build first.");
    process.exit(1);
  }
  console.info("\n▶ browser journeys on the web build in dist/web (PILLAR_BUILT=1)");
} else {
  console.info("\n▶ building the app for the browser journeys");
  let status = run([path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"]);
  if (status === 0) status = run([path.join(root, "scripts/report-bundle.mjs")]);
  if (status !== 0) process.exit(status);
}
console.info("\n▶ e2e in headless Chromium");
process.exit(
  run([
    path.join(root, "node_modules/vitest/vitest.mjs"),
    "run",
    "--project",
    "e2e",
    ...process.argv.slice(2),
  ]),
);
