#!/usr/bin/env node
// `npm test`: unit + API tests (PGlite, or PostgreSQL when DATABASE_URL is set), then the browser journeys
// when Chromium is present. E2E=required (CI) makes a missing Chromium a failure instead of a skip.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;

const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
console.info(
  `\n▶ unit + API tests on ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite"}`,
);
const status = run([vitest, "run", "--project", "unit", "--project", "api"]);
if (status !== 0) process.exit(status);

if (!fs.existsSync(chromium)) {
  if (process.env.E2E === "required") {
    console.error(`E2E=required but Chromium is missing at ${chromium} (apt-get install -y chromium).`);
    process.exit(1);
  }
  console.info(
    `\ne2e skipped: Chromium not found at ${chromium}. Install it (apt-get install -y chromium) and run npm test again, or npm run test:e2e.`,
  );
  process.exit(0);
}
process.exit(run([path.join(root, "scripts/e2e.mjs")]));
