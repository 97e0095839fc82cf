#!/usr/bin/env node
// Compiles the server (and the ops CLI) into dist/server with esbuild: our code is bundled into ES modules,
// the `@/…` alias resolved from tsconfig.json, every npm package left as a plain import of node_modules.
// Production runs `node dist/server/main.js` without tsx: no TypeScript transform on each start.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const serverOutDir = path.join(root, "dist/server");

/** Builds dist/server/main.js and dist/server/cli.js (shared code in chunk files beside them). */
export async function buildServer({ logLevel = "warning" } = {}) {
  fs.rmSync(serverOutDir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: "server/main.ts", cli: "scripts/cli.ts" },
    outdir: serverOutDir,
    bundle: true,
    // Packages stay in node_modules (native addons, PGlite's wasm, files they read beside themselves).
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20.19",
    // Keeps lazily imported code (the password-strength dictionaries) out of the start-up path.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: true,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel,
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

/** True when dist/web is missing or older than a file under web/ or contract/ (`npm start`, the web bench). */
export function webBuildIsStale() {
  const builtIndex = path.join(root, "dist/web/index.html");
  if (!fs.existsSync(builtIndex)) return true;
  const built = fs.statSync(builtIndex).mtimeMs;
  return ["web", "contract"].some((dir) => newestMtime(path.join(root, dir)) > built);
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
