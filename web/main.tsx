import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { SERVER_RENDERED_ATTRIBUTE } from "@/contract/first-page";
import { App } from "@/web/app/app";
import "@/web/styles.css";

// Zod's JIT probes `new Function`, which the CSP (script-src 'self') refuses and Chromium reports as an issue.
// Zod reads its config from this global (what `z.config()` writes); setting it here keeps zod out of the entry chunk.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = Object.assign(zodGlobal.__zod_globalConfig ?? {}, { jitless: true });

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A signed-in first load arrives drawn by the server (web/app/server-render.tsx): React adopts that markup
// instead of drawing it again, as a transition so the work is cut into slices the browser can answer input
// between (hydration is otherwise one task: ~100 ms on a phone-class CPU, the dashboard's longest).
// Anywhere else #root holds the static loading shell, which React replaces.
if (root.hasAttribute(SERVER_RENDERED_ATTRIBUTE)) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
