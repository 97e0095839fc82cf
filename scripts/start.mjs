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

// CHAIN=local: a development chain on anvil with the token deployed, and the server in chain settlement.
let chainEnv = {};
let stopChain = async () => {};
if (process.env.CHAIN === "local") {
  const { startLocalChain } = await import("./local-chain.mjs");
  const local = await startLocalChain(path.resolve(process.env.DATA_DIR ?? "./data"));
  chainEnv = local.env;
  stopChain = local.stop;
} else if (process.env.CHAIN) {
  console.error(`CHAIN=${process.env.CHAIN}: only CHAIN=local is known (unset it for manual settlement)`);
  process.exit(1);
}

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, serverMain], {
  cwd: root,
  stdio: "inherit",
  // Two malloc arenas instead of one per thread: the wasm compile and file threads of PGlite's first start
  // otherwise leave ~100 MiB of freed memory resident in arenas of their own.
  env: {
    MALLOC_ARENA_MAX: "2",
    ...process.env,
    ...chainEnv,
    NODE_ENV: process.env.NODE_ENV ?? "development",
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => void stopChain().then(() => process.exit(code ?? (signal ? 1 : 0))));
