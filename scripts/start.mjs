#!/usr/bin/env node
// `npm start`: builds the web app (with its server render) and the server if missing or older than their
// sources, then runs the compiled server with plain node (no tsx at runtime, as in the Docker image).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer, buildWeb, newestSourceMtime, serverOutDir, webBuildIsStale } from "./build-server.mjs";
import { SERVER_NODE_FLAGS } from "./server-node-flags.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

if (webBuildIsStale()) {
  console.info("Building the web app…");
  const status = buildWeb();
  if (status !== 0) process.exit(status);
}

const serverMain = path.join(serverOutDir, "main.js");
if (!fs.existsSync(serverMain) || newestSourceMtime() > fs.statSync(serverMain).mtimeMs) {
  console.info("Building the server…");
  await buildServer();
}

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, serverMain], {
  cwd: root,
  stdio: "inherit",
  // Two malloc arenas instead of one per thread: the wasm compile and file threads of PGlite's first start
  // otherwise leave ~100 MiB of freed memory resident in arenas of their own.
  env: { MALLOC_ARENA_MAX: "2", ...process.env, NODE_ENV: process.env.NODE_ENV ?? "development" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
