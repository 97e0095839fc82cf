#!/usr/bin/env node
// `npm run test:e2e`: builds the app, then drives it in Debian's Chromium through whole journeys.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;

console.info("\n▶ building the app for the browser journeys");
let status = run([path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"]);
if (status === 0) status = run([path.join(root, "scripts/report-bundle.mjs")]);
if (status !== 0) process.exit(status);
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
