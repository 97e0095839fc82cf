import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: "web",
  publicDir: "public",
  plugins: [react(), tailwindcss()],
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
