/**
 * The loader of a page the server has drawn (server/lib/spa.ts, web/app/server-render.tsx). That page is
 * complete without script, so its JavaScript waits until the page has painted: on a phone's slow link the
 * ~200 KB of it would otherwise share the bandwidth with the page's own CSS and font, and its evaluation the
 * main thread with the first paint. Then the app's entry loads, imports the page's chunk (`data-page`, read by
 * web/app/router.tsx) and hydrates the markup. This script imports nothing and reads the entry chunk's URL
 * from its own element's `data-entry`.
 */

/** A page that never paints (opened in a background tab) still becomes interactive. */
const FALLBACK_MS = 2000;

const entry = document.querySelector<HTMLScriptElement>("script[data-entry]")?.dataset.entry;
let isStarted = false;

function start(): void {
  if (isStarted || !entry) return;
  isStarted = true;
  const script = document.createElement("script");
  script.type = "module";
  script.crossOrigin = "";
  script.src = entry;
  document.head.append(script);
}

if (PerformanceObserver.supportedEntryTypes?.includes("paint")) {
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName("first-contentful-paint").length) return;
    observer.disconnect();
    start();
  });
  observer.observe({ type: "paint", buffered: true });
  window.setTimeout(start, FALLBACK_MS);
} else {
  // Without paint timing: after the next frame has been drawn.
  requestAnimationFrame(() => window.setTimeout(start, 0));
}
