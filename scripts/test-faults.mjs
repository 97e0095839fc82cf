#!/usr/bin/env node
// `npm run test:faults`: the server as a real process, killed mid-transfer, cut off from PostgreSQL and from
// SMTP. Needs a real PostgreSQL in DATABASE_URL; without one it skips, unless FAULTS=required (CI).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

if (!process.env.DATABASE_URL) {
  if (process.env.FAULTS === "required") {
    console.error(
      "FAULTS=required but DATABASE_URL is not set: the fault tests need a real PostgreSQL (e.g. DATABASE_URL=postgres://user@127.0.0.1:5432/postgres).",
    );
    process.exit(1);
  }
  console.info(
    "fault tests skipped: DATABASE_URL is not set. They need a real PostgreSQL server; set DATABASE_URL and run npm run test:faults again.",
  );
  process.exit(0);
}

console.info("\n▶ fault tests on PostgreSQL (DATABASE_URL)");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const result = spawnSync(process.execPath, [vitest, "run", "--project", "faults", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
