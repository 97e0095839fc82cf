#!/usr/bin/env node
// `npm run test:cluster`: three app processes behind HAProxy on one PostgreSQL database and one Redis.
// Needs /usr/sbin/haproxy (apt-get install -y haproxy), DATABASE_URL and Redis on TEST_REDIS_URL
// (redis://127.0.0.1:6379); without them it skips with the reason, unless CLUSTER=required (CI).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const haproxy = process.env.HAPROXY ?? "/usr/sbin/haproxy";
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.setTimeout(2000, () => resolve(socket.destroy() && false));
    socket.once("connect", () => resolve(socket.end() && true));
    socket.once("error", () => resolve(false));
  });
}

async function postgresProblem() {
  if (!process.env.DATABASE_URL)
    return "DATABASE_URL is not set (e.g. postgres://user@127.0.0.1:5432/postgres)";
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (err) {
    return `PostgreSQL at DATABASE_URL does not answer (${err.message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

const problems = [];
try {
  fs.accessSync(haproxy, fs.constants.X_OK);
} catch {
  problems.push(`${haproxy} is missing (apt-get install -y haproxy)`);
}
const pgProblem = await postgresProblem();
if (pgProblem) problems.push(pgProblem);
if (!(await reachable(redisUrl.hostname, Number(redisUrl.port || 6379)))) {
  problems.push(`Redis does not answer on ${redisUrl.host} (set TEST_REDIS_URL or start redis-server)`);
}

if (problems.length > 0) {
  const list = problems.map((p) => `  - ${p}`).join("\n");
  if (process.env.CLUSTER === "required") {
    console.error(`CLUSTER=required but the cluster tests cannot run:\n${list}`);
    process.exit(1);
  }
  console.info(`cluster tests skipped:\n${list}`);
  process.exit(0);
}

console.info("\n▶ cluster tests: 3 instances behind HAProxy, PostgreSQL (DATABASE_URL) and Redis");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const result = spawnSync(
  process.execPath,
  [vitest, "run", "--project", "cluster", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
