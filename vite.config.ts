import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib, { constants } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { type ConfigEnv, defineConfig, type Plugin, type UserConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const gzip = promisify(zlib.gzip);
const brotliCompress = promisify(zlib.brotliCompress);

/** The browser build (dist/web), not the renderer's (`vite build --ssr`) nor the dev server. */
const browserBuild = (_config: UserConfig, env: ConfigEnv) => env.command === "build" && !env.isSsrBuild;

/**
 * Writes .vite/chunk-modules.json (output file → source modules it contains, relative to the repository) so
 * scripts/report-bundle.mjs can prove admin code never lands in a chunk a non-admin route loads eagerly —
 * the manifest alone names only each chunk's entry module, not what was merged into shared chunks.
 */
function chunkModulesManifest(): Plugin {
  return {
    name: "pillar:chunk-modules",
    apply: browserBuild,
    generateBundle(_options, bundle) {
      const modules: Record<string, string[]> = {};
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== "chunk") continue;
        modules[file] = output.moduleIds
          .filter((id) => id.startsWith(root))
          .map((id) => path.relative(root, id).split(path.sep).join("/"));
      }
      this.emitFile({
        type: "asset",
        fileName: ".vite/chunk-modules.json",
        source: JSON.stringify(modules, null, 1),
      });
    },
  };
}

/**
 * Writes .br and .gz next to every compressible output file, served by @fastify/static's preCompressed
 * (server/lib/spa.ts): the server never compresses on the fly, and brotli at full quality costs only build time.
 */
function precompress(): Plugin {
  return {
    name: "pillar:precompress",
    apply: browserBuild,
    async writeBundle(options, bundle) {
      const files = Object.keys(bundle).filter(
        (f) => /\.(js|css|svg|html|json)$/.test(f) && !f.startsWith(".vite/"),
      );
      // The async zlib calls run on libuv's thread pool, so the files compress in parallel.
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(options.dir ?? "", file);
          const data = await fs.promises.readFile(full);
          if (data.length < 1024) return;
          // Chunks over 300 KB are lazy (charts, password dictionaries): quality 9 keeps the build fast for them.
          const quality = data.length > 300_000 ? 9 : constants.BROTLI_MAX_QUALITY;
          const [gz, br] = await Promise.all([
            gzip(data, { level: 9 }),
            brotliCompress(data, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
          ]);
          await Promise.all([
            fs.promises.writeFile(`${full}.gz`, gz),
            fs.promises.writeFile(`${full}.br`, br),
          ]);
        }),
      );
    },
  };
}

/** Preloads Inter's basic subset, which every page needs, so text does not wait for the CSS to discover it. */
function preloadFont(): Plugin {
  return {
    name: "pillar:preload-font",
    apply: browserBuild,
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((f) => /inter-basic-wght-[^/]*\.woff2$/.test(f));
        if (!font) return [];
        return [
          {
            tag: "link",
            attrs: { rel: "preload", href: `/${font}`, as: "font", type: "font/woff2", crossorigin: "" },
            injectTo: "head",
          },
        ];
      },
    },
  };
}

/**
 * `vite build --ssr`: the dashboard's server render (web/app/server-render.tsx) as dist/web-render/, which the
 * compiled server loads by path (server/lib/first-page-renderer.ts, decision 022). Its npm packages are bundled
 * in and tree-shaken, React's production build: left as imports of node_modules they cost ~0.5 s and ~50 MiB
 * on the first signed-in page (all of lucide-react's icons, React's development build unless NODE_ENV is
 * "production"). Each page stays its own chunk, loaded the first time the server draws it.
 */
const rendererBuild: UserConfig = {
  root: "web",
  publicDir: false,
  plugins: [react()],
  resolve: { alias: { "@": root } },
  define: { "process.env.NODE_ENV": '"production"' },
  ssr: { noExternal: true, target: "node" },
  build: {
    outDir: "../dist/web-render",
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      input: { "server-render": path.join(root, "web/app/server-render.tsx") },
      output: { chunkFileNames: "chunks/[name]-[hash].js" },
    },
  },
};

const appConfig: UserConfig = {
  root: "web",
  publicDir: "public",
  plugins: [react(), tailwindcss(), chunkModulesManifest(), preloadFont(), precompress()],
  resolve: { alias: { "@": root } },
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    // The password-strength dictionaries (~850 KB, loaded only while typing a new password) are one chunk by design.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      // after-paint.ts loads the entry of a page the server has drawn, once it has painted (server/lib/spa.ts).
      input: {
        index: path.join(root, "web/index.html"),
        "after-paint": path.join(root, "web/after-paint.ts"),
      },
      output: {
        codeSplitting: {
          groups: [
            // Each lucide icon (~0.3 KB) used by a different set of pages was its own chunk: ~20 of the
            // dashboard's 45 requests. On a phone's six HTTP/1.1 connections each costs a round trip and
            // they starve the entry chunk; grouped by the pages that use them, with tiny groups merged into a
            // neighbour, a page downloads a few KB more icons it may not show but makes ~20 fewer requests
            // (Lighthouse's simulated LCP on /dashboard: 3.3–3.6 s → 2.9 s). Merged at under 1.6 KB, not 4 KB: with
            // the notification pages a 4 KB threshold folded icons the landing page never shows into its groups
            // (119.3 → 123.1 KB, over its 120 KB budget); with the schedules, requests and Settlement pages 2 KB did
            // too (120.0 KB). At 1.6 KB: landing 118.6 KB, /features 131.7 KB, /dashboard 132.6 KB in 46 files.
            // Savings' icons (the dashboard's savings line, the savings page) regrouped them again: at 1.6 KB
            // landing 119.6 → 120.0 KB; at 1.4 KB landing 119.6, /features 132.5, /dashboard 136.4 KB in 52 files.
            {
              name: "icons",
              test: /node_modules[\\/]lucide-react/,
              entriesAware: true,
              entriesAwareMergeThreshold: 1400,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      "/api": "http://127.0.0.1:5000",
      "/objects": "http://127.0.0.1:5000",
      "/dev": "http://127.0.0.1:5000",
      "/healthz": "http://127.0.0.1:5000",
    },
  },
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? rendererBuild : appConfig));
