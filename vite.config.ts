import path from "node:path";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Writes .vite/chunk-modules.json (output file → source modules it contains, relative to the repository) so
 * scripts/report-bundle.mjs can prove admin code never lands in a chunk a non-admin route loads eagerly —
 * the manifest alone names only each chunk's entry module, not what was merged into shared chunks.
 */
function chunkModulesManifest(): Plugin {
  return {
    name: "pillar:chunk-modules",
    apply: "build",
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

export default defineConfig({
  root: "web",
  publicDir: "public",
  plugins: [react(), tailwindcss(), chunkModulesManifest()],
  resolve: { alias: { "@": root } },
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    // The password-strength dictionaries (~850 KB, loaded only while typing a new password) are one chunk by design.
    chunkSizeWarningLimit: 2000,
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
});
