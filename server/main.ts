import { setSourceMapsSupport } from "node:module";

/**
 * The server's entry (`node dist/server/main.js`, `tsx server/main.ts`). Stack traces point into our own
 * TypeScript through its source maps, and only ours: `--enable-source-maps` also made Node read and keep the
 * map of every dependency that ships one, ~12 MiB of an idle instance (bench/HISTORY.md, "what
 * `--enable-source-maps` costs"). Node caches a module's map when it loads the module, so the setting comes
 * first and the server is imported after it.
 */
setSourceMapsSupport(true, { nodeModules: false });
await import("@/server/serve");
