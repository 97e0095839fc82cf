#!/usr/bin/env node
// Compiles the server (and the ops CLI) into dist/server with esbuild: our code is bundled into ES modules,
// the `@/…` alias resolved from tsconfig.json, every npm package left as a plain import of node_modules.
// Production runs `node dist/server/main.js` without tsx: no TypeScript transform on each start.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const serverOutDir = path.join(root, "dist/server");

/**
 * Builds dist/server/main.js and dist/server/cli.js (shared code in chunk files beside them). The server never
 * imports the web: the dashboard's server render is the web's own build (`vite build --ssr`, dist/web-render),
 * loaded by path at run time (server/lib/first-page-renderer.ts, decision 022).
 */
export async function buildServer({ logLevel = "warning" } = {}) {
  fs.rmSync(serverOutDir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    outdir: serverOutDir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    sourcemap: true,
    // A stack trace needs the mappings, not a copy of every source file inside the map.
    sourcesContent: false,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel,
    entryPoints: { main: "server/main.ts", cli: "scripts/cli.ts" },
    // Packages stay in node_modules (native addons, PGlite's wasm, files they read beside themselves).
    packages: "external",
    // Keeps lazily imported code (the password-strength dictionaries) out of the start-up path.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
  });
}

/** Newest modification time of any file under `dir`. */
export function newestMtime(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

/** The web's two builds: the browser's (dist/web) and the dashboard's server render (dist/web-render). */
const WEB_BUILD_OUTPUTS = ["dist/web/index.html", "dist/web-render/server-render.js"];

/**
 * True when either web build is missing or older than a file under web/ or contract/ (`npm start`, the web
 * bench): both are then built again (buildWeb).
 */
export function webBuildIsStale() {
  const outputs = WEB_BUILD_OUTPUTS.map((file) => path.join(root, file));
  if (!outputs.every((file) => fs.existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => fs.statSync(file).mtimeMs));
  return ["web", "contract"].some((dir) => newestMtime(path.join(root, dir)) > built);
}

/** `vite build` then `vite build --ssr` (both read vite.config.ts); the exit status of the first that fails. */
export function buildWeb() {
  const vite = path.join(root, "node_modules/vite/bin/vite.js");
  for (const args of [["build"], ["build", "--ssr"]]) {
    const { status } = spawnSync(process.execPath, [vite, ...args, "--logLevel", "warn"], {
      cwd: root,
      stdio: "inherit",
    });
    if (status !== 0) return status ?? 1;
  }
  return 0;
}

/** Newest modification time of any file under the server's sources, for `npm start`'s staleness check. */
export function newestSourceMtime() {
  return Math.max(
    newestMtime(path.join(root, "server")),
    newestMtime(path.join(root, "contract")),
    fs.statSync(path.join(root, "scripts/cli.ts")).mtimeMs,
    fs.statSync(path.join(root, "tsconfig.json")).mtimeMs,
    fs.statSync(path.join(root, "package-lock.json")).mtimeMs,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer({ logLevel: "info" });
}
