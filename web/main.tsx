import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/web/app/app";
import "@/web/styles.css";

// Zod's JIT probes `new Function`, which the CSP (script-src 'self') refuses and Chromium reports as an issue.
// Zod reads its config from this global (what `z.config()` writes); setting it here keeps zod out of the entry chunk.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = Object.assign(zodGlobal.__zod_globalConfig ?? {}, { jitless: true });

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
