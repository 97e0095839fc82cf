import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ViteDevServer } from "vite";
import type { FirstPageRendererModule, RenderFirstPage } from "@/contract/first-page";
import { PROJECT_ROOT } from "@/server/lib/project-root";

/** Where `npm run build` writes the web's server render (`vite build --ssr`, vite.config.ts). */
export const BUILT_RENDERER_FILE = path.join(PROJECT_ROOT, "dist/web-render/server-render.js");

/** The renderer's source, as Vite's root (web/) names it. */
const RENDERER_SOURCE = "/app/server-render.tsx";

/**
 * This module runs from its TypeScript source under tsx or Vitest (npm run dev, the tests, the e2e, fault and
 * cluster suites), and as JavaScript from the bundle in dist/server (npm start, the Docker image).
 */
const RUNS_FROM_SOURCES = import.meta.url.endsWith(".ts");

export interface FirstPageRenderer {
  render: RenderFirstPage;
  /** Stops the Vite server the source renderer runs in, if one was started. */
  close(): Promise<void>;
}

/**
 * The web's server render (web/app/server-render.tsx), loaded by path with the first page that needs it, so
 * the server never imports the web's source (decision 022) and an instance that serves only the API never
 * loads React. The compiled server imports the renderer's own build (dist/web-render, `npm run build`); from
 * the sources it is loaded through Vite's `ssrLoadModule`, with the web's own Vite config, so a change to a
 * component shows in the next drawing without a build (`watch`: in development, Vite reloads changed
 * modules; elsewhere nothing is watched).
 */
export function firstPageRenderer({ watch }: { watch: boolean }): FirstPageRenderer {
  if (!RUNS_FROM_SOURCES) {
    let loading: Promise<FirstPageRendererModule> | undefined;
    return {
      async render(input) {
        // A failed load (no build yet) is tried again by the next page rather than remembered.
        loading ??= loadBuiltRenderer().catch((err: unknown) => {
          loading = undefined;
          throw err;
        });
        return (await loading).renderFirstPage(input);
      },
      close: async () => {},
    };
  }
  let vite: Promise<ViteDevServer> | undefined;
  // Loads still running: a page no longer waits for one past its time limit (server/lib/spa.ts), so the app
  // may close meanwhile; Vite closes once they are done, not under them.
  const loads = new Set<Promise<unknown>>();
  return {
    async render(input) {
      vite ??= startVite(watch);
      const load = vite.then((server) => server.ssrLoadModule(RENDERER_SOURCE));
      loads.add(load);
      try {
        return ((await load) as FirstPageRendererModule).renderFirstPage(input);
      } finally {
        loads.delete(load);
      }
    },
    async close() {
      await Promise.allSettled(loads);
      await vite?.then(
        (server) => server.close(),
        () => {},
      );
    },
  };
}

async function loadBuiltRenderer(): Promise<FirstPageRendererModule> {
  try {
    return (await import(pathToFileURL(BUILT_RENDERER_FILE).href)) as FirstPageRendererModule;
  } catch (err) {
    throw new Error(`Could not load ${BUILT_RENDERER_FILE}: run npm run build (npm start builds it)`, {
      cause: err,
    });
  }
}

/** A Vite server with no HTTP of its own (middleware mode, no HMR socket), only to load modules for SSR. */
async function startVite(watch: boolean): Promise<ViteDevServer> {
  const { createServer } = await import("vite");
  return createServer({
    configFile: path.join(PROJECT_ROOT, "vite.config.ts"),
    root: path.join(PROJECT_ROOT, "web"),
    appType: "custom",
    clearScreen: false,
    logLevel: "warn",
    server: { middlewareMode: true, hmr: false, ws: false, watch: watch ? {} : null },
    // Nothing is served to a browser from here, so there is nothing to pre-bundle.
    optimizeDeps: { noDiscovery: true, include: [] },
  });
}
