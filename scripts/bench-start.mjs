#!/usr/bin/env node
// `npm run bench:start`: start time (process spawn → /readyz 200) and idle RSS of the server run through tsx
// versus the compiled bundle (dist/server/main.js), on embedded PGlite with a fresh and with an existing
// DATA_DIR, and on PostgreSQL when DATABASE_URL is set. BENCH_RUNS (default 3) starts each.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort, rssMiB, stopProcess } from "./bench/processes.mjs";
import { buildServer, serverOutDir } from "./build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const IDLE_MS = 3_000;
// Production mode as deployed; the same secrets on every start so an existing DATA_DIR stays readable.
const SECRETS = {
  SESSION_SECRET: randomBytes(32).toString("hex"),
  DATA_KEY: randomBytes(32).toString("hex"),
};
const RUNNERS = {
  tsx: ["--import", "tsx", "server/main.ts"],
  compiled: [path.join(serverOutDir, "main.js")],
};

/** One start: ms from spawn to the first 200 from /readyz, then RSS after IDLE_MS of idling. */
async function measureStart(args, env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      SMTP_URL: "",
      ...SECRETS,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (c) => (log += c));
  child.stderr.on("data", (c) => (log += c));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log}`);
      if (performance.now() - started > 180_000) throw new Error(`not ready within 180 s:\n${log}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { readyMs, rss: rssMiB(child.pid) };
  } finally {
    await stopProcess(child);
  }
}

async function withScratchPostgres(serverUrl, use) {
  const name = `pillar_bench_start_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await use(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
async function scenario(label, envForRun) {
  for (const [runner, args] of Object.entries(RUNNERS)) {
    const results = [];
    for (let i = 0; i < RUNS; i++) results.push(await measureStart(args, await envForRun()));
    const ready = results.map((r) => r.readyMs);
    const rss = results.map((r) => r.rss ?? 0);
    rows.push(
      `| ${label} | ${runner} | ${Math.round(median(ready))} | ${ready.map((x) => Math.round(x)).join(", ")} | ${Math.round(median(rss))} | ${rss.map((x) => Math.round(x)).join(", ")} |`,
    );
    console.info(rows.at(-1));
  }
}

await buildServer();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-bench-start-"));
try {
  const freshDir = () => ({ DATABASE_URL: "", DATA_DIR: fs.mkdtempSync(path.join(tmp, "fresh-")) });
  await scenario("PGlite, fresh DATA_DIR", async () => freshDir());
  const existing = freshDir();
  await measureStart(RUNNERS.compiled, existing); // creates and migrates it; not counted
  await scenario("PGlite, existing DATA_DIR", async () => existing);
  if (process.env.DATABASE_URL) {
    await withScratchPostgres(process.env.DATABASE_URL, async (url) => {
      await measureStart(RUNNERS.compiled, { DATABASE_URL: url }); // migrates it; not counted
      await scenario("PostgreSQL (migrated)", async () => ({ DATABASE_URL: url }));
    });
  } else {
    console.info("PostgreSQL skipped: DATABASE_URL is not set");
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

console.info(
  `\n| database | runner | ready ms (median) | runs | idle RSS MiB (median) | runs |\n|---|---|---:|---|---:|---|\n${rows.join("\n")}`,
);
