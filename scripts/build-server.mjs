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

/** The web's server render (server/app.ts imports it), built on its own: see buildServer. */
const WEB_RENDER_SOURCE = "@/web/app/server-render";
const WEB_RENDER_FILE = "web-render.js";

/**
 * Builds dist/server/main.js and dist/server/cli.js (shared code in chunk files beside them), and
 * dist/server/web-render.js: the dashboard's server render with the npm packages it uses bundled in and
 * tree-shaken. Left as imports of node_modules they cost ~0.5 s and ~50 MiB on the first signed-in page
 * (all of lucide-react's icons, React's development build when NODE_ENV is not "production").
 */
export async function buildServer({ logLevel = "warning" } = {}) {
  fs.rmSync(serverOutDir, { recursive: true, force: true });
  const common = {
    absWorkingDir: root,
    outdir: serverOutDir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    sourcemap: true,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel,
  };
  await build({
    ...common,
    entryPoints: { main: "server/main.ts", cli: "scripts/cli.ts" },
    // Packages stay in node_modules (native addons, PGlite's wasm, files they read beside themselves).
    packages: "external",
    // Keeps lazily imported code (the password-strength dictionaries) out of the start-up path.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    plugins: [
      {
        // server/app.ts imports the render lazily; in the bundle that import loads web-render.js, found from
        // the project root (the importing chunk's own folder depends on how esbuild splits the code).
        name: "web-render-beside",
        setup(b) {
          b.onResolve({ filter: /^@\/web\/app\/server-render$/ }, () => ({
            path: WEB_RENDER_FILE,
            namespace: "web-render",
          }));
          b.onLoad({ filter: /.*/, namespace: "web-render" }, () => ({
            resolveDir: root,
            loader: "js",
            contents: `
              import path from "node:path";
              import { pathToFileURL } from "node:url";
              import { PROJECT_ROOT } from "./server/lib/project-root.ts";
              const file = path.join(PROJECT_ROOT, "dist/server/${WEB_RENDER_FILE}");
              export const renderFirstPage = async (input) =>
                (await import(pathToFileURL(file).href)).renderFirstPage(input);
            `,
          }));
        },
      },
    ],
  });
  await build({
    ...common,
    entryPoints: { [WEB_RENDER_FILE.replace(/\.js$/, "")]: WEB_RENDER_SOURCE },
    define: { "process.env.NODE_ENV": '"production"' },
    // ES module builds of the packages, so the icons and helpers no page draws are left out.
    mainFields: ["module", "main"],
    // Each page stays its own chunk, loaded the first time the server draws it (today only the dashboard).
    splitting: true,
    chunkNames: "web-chunks/[name]-[hash]",
    // React's CommonJS files require Node's built-ins; an ES module has no `require` of its own.
    banner: {
      js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    },
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
    // The signed-in first page is drawn by the web's own components (dist/server/web-render.js).
    newestMtime(path.join(root, "web")),
    fs.statSync(path.join(root, "scripts/cli.ts")).mtimeMs,
    fs.statSync(path.join(root, "tsconfig.json")).mtimeMs,
    fs.statSync(path.join(root, "package-lock.json")).mtimeMs,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer({ logLevel: "info" });
}
