import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EventPosition } from "@/contract/events";
import {
  DASHBOARD_FIRST_READS,
  EVENTS_FROM_ATTRIBUTE,
  FIRST_PAGE_SOURCES,
  FIRST_READS_ELEMENT_ID,
  type FirstPage,
  type FirstRead,
  firstPageFor,
  type RenderFirstPage,
  SERVER_RENDERED_ATTRIBUTE,
} from "@/contract/first-page";
import { SIGNED_IN_HINT_COOKIE } from "@/contract/session-hint";
import { AppError } from "@/server/lib/errors";

const API_PREFIXES = ["/api/", "/api", "/objects/", "/dev/"];

/**
 * A first load is never held longer than this for its markup: past it the browser draws the page itself. A
 * render takes a few ms; the first in a process also loads the renderer (~0.2 s compiled; from the sources
 * ~0.5–1 s more, as Vite starts first: server/lib/first-page-renderer.ts).
 */
const RENDER_TIMEOUT_MS = 2000;

/**
 * Serves the built SPA: hashed assets cached for a year, index.html for every client route, JSON 404 for the API.
 * `renderFirstPage` draws a signed-in first load's markup (web/app/server-render.tsx, loaded by path in
 * server/lib/first-page-renderer.ts: the server never imports the web).
 */
export async function registerSpa(
  app: FastifyInstance,
  webDir: string | undefined,
  renderFirstPage?: RenderFirstPage,
  renderTimeoutMs = RENDER_TIMEOUT_MS,
) {
  const indexFile = webDir ? path.join(webDir, "index.html") : undefined;
  const hasBuild = Boolean(indexFile && fs.existsSync(indexFile));
  if (hasBuild && webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts); serve those to browsers that accept them.
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? "public, max-age=31536000, immutable"
            : "no-cache",
        );
      },
    });
  }
  const indexHtml = hasBuild && indexFile ? fs.readFileSync(indexFile, "utf8") : undefined;
  const shells = indexHtml && webDir ? firstPageShells(indexHtml, webDir) : undefined;

  app.setNotFoundHandler(async (request, reply) => {
    const isApi = API_PREFIXES.some((p) => request.url === p || request.url.startsWith(p));
    const wantsPage = request.method === "GET" || request.method === "HEAD";
    const pathname = request.url.split("?")[0]!;
    // A missing file (an old hashed asset after a deploy, say) is a 404, never the app shell served as JS.
    const isFile = /\.[a-z0-9]+$/i.test(pathname);
    if (isApi || !wantsPage || isFile) {
      throw new AppError("NOT_FOUND", `No route for ${request.method} ${pathname}`);
    }
    if (!indexHtml) {
      return reply
        .status(503)
        .type("text/plain")
        .send("The web app has not been built. Run `npm run build`, or use `npm start` which builds it.");
    }
    const firstPage = firstPageFor(pathname, Boolean(request.cookies[SIGNED_IN_HINT_COOKIE]));
    const html = (firstPage && shells?.[firstPage]) ?? indexHtml;
    reply.type("text/html").header("vary", "cookie");
    const first =
      firstPage === "dashboard" && request.method === "GET"
        ? await readFirst(app, request, reply)
        : undefined;
    if (!first) return reply.header("cache-control", "no-cache").send(html);
    const { reads: answers, eventsFrom } = first;
    // With a customer's data inside, no cache may keep the page (the reads themselves are no-store too).
    reply.header("cache-control", "no-store");
    const markup = renderFirstPage
      ? await renderWithin(renderFirstPage, request, { path: pathname, answers, timeoutMs: renderTimeoutMs })
      : undefined;
    const page = markup === undefined ? html : withMarkup(shells?.drawnDashboard ?? html, markup);
    return reply.send(page.replace("</body>", `${answersElement(answers, eventsFrom)}</body>`));
  });
}

/**
 * The page's markup, or undefined when drawing it failed or took too long: the browser then draws the page
 * from the same embedded answers, as it does without a server render. The time limit holds from the request,
 * the renderer's first load included: the page does not wait for a load still running (a later page uses it),
 * where it used to wait for the whole load and then, the signal long aborted, draw nothing anyway.
 */
export async function renderWithin(
  render: RenderFirstPage,
  request: FastifyRequest,
  { path, answers, timeoutMs }: { path: string; answers: Record<string, FirstRead>; timeoutMs: number },
): Promise<string | undefined> {
  const signal = AbortSignal.timeout(timeoutMs);
  const drawing = render({ path, answers, cookies: request.headers.cookie ?? "", signal });
  // Settled past the limit, it is no one's answer: its failure must not surface as an unhandled rejection.
  drawing.catch(() => {});
  try {
    return await Promise.race([
      drawing,
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ]);
  } catch (err) {
    request.log.warn({ err }, "the server could not draw the first page; the browser will");
    return undefined;
  }
}

const ROOT_ELEMENT = '<div id="root">';

/** The shell with `#root`'s loading placeholder swapped for the drawn markup, marked for hydration. */
function withMarkup(html: string, markup: string): string {
  const start = html.indexOf(ROOT_ELEMENT);
  const end = html.lastIndexOf("</body>");
  if (start < 0 || end < start) return html;
  return `${html.slice(0, start)}<div id="root" ${SERVER_RENDERED_ATTRIBUTE}>${markup}</div>${html.slice(end)}`;
}

type Manifest = Record<string, { file: string; imports?: string[] }>;

/** Manifest keys of a chunk and everything it imports statically. */
function staticClosure(manifest: Manifest, key: string): Set<string> {
  const seen = new Set<string>();
  const stack = [key];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (seen.has(next) || !manifest[next]) continue;
    seen.add(next);
    stack.push(...(manifest[next].imports ?? []));
  }
  return seen;
}

interface FirstPageShells extends Record<FirstPage, string> {
  /** The dashboard's shell for a page the server has drawn: its script waits for the first paint. */
  drawnDashboard: string;
}

/**
 * The app shell once per first page (contract/first-page.ts), with that page's chunks as modulepreload links.
 * The browser fetches them while it parses the HTML, instead of after the entry chunk has run; and the
 * entry's preload helper finds them present, so it does not add ~45 links from script (~35 ms of main
 * thread on a phone-class CPU). Without the build's manifest (a hand-made web dir) every path gets the shell.
 *
 * A dashboard the server has drawn needs no script to be seen: its shell loads only web/after-paint.ts,
 * which adds the entry once the page has painted; the router then imports the page's chunk by the URL the
 * shell names, and the browser fetches its imports as it reads them (no preload links to add from script).
 */
function firstPageShells(indexHtml: string, webDir: string): FirstPageShells | undefined {
  const manifestFile = path.join(webDir, ".vite/manifest.json");
  if (!fs.existsSync(manifestFile)) return undefined;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
  const inShell = staticClosure(manifest, "index.html");
  const html = (page: FirstPage) => {
    const links = [...staticClosure(manifest, FIRST_PAGE_SOURCES[page])]
      .filter((key) => !inShell.has(key) && manifest[key].file.endsWith(".js"))
      .map(
        (key) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${manifest[key].file}">`,
      )
      .join("");
    return indexHtml.replace("</head>", `${links}</head>`);
  };
  const shells = { dashboard: html("dashboard"), landing: html("landing") };
  const afterPaint = manifest[AFTER_PAINT_SOURCE]?.file;
  const entry = manifest["index.html"]?.file;
  if (!afterPaint || !entry || !manifest[FIRST_PAGE_SOURCES.dashboard]) {
    return { ...shells, drawnDashboard: shells.dashboard };
  }
  const page = manifest[FIRST_PAGE_SOURCES.dashboard]!.file;
  const loader = `<script type="module" crossorigin src="/${afterPaint}" data-entry="/${entry}" data-page="/${page}"></script>`;
  const withoutScripts = indexHtml
    .replace(/<script type="module"[^>]*><\/script>\s*/g, "")
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, "");
  return { ...shells, drawnDashboard: withoutScripts.replace("</head>", `${loader}</head>`) };
}

/** The build's loader for a page the server has drawn (vite.config.ts, web/after-paint.ts). */
const AFTER_PAINT_SOURCE = "after-paint.ts";

/**
 * The dashboard's first reads, answered in-process with the visitor's own cookies: the page renders its data
 * without six more round trips. Undefined when the session check does not answer 200 (a stale hint), so the
 * web then asks as usual; only 200 answers are carried. Cookies a read sets (a renewed session) are passed on.
 */
async function readFirst(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ reads: Record<string, FirstRead>; eventsFrom: string | undefined } | undefined> {
  const cookie = request.headers.cookie;
  if (!cookie) return undefined;
  const ask = (url: string) =>
    app.inject({
      method: "GET",
      url,
      remoteAddress: request.socket.remoteAddress,
      headers: {
        cookie,
        ...(request.headers["user-agent"] ? { "user-agent": request.headers["user-agent"] } : {}),
        ...(request.headers["x-forwarded-for"]
          ? { "x-forwarded-for": request.headers["x-forwarded-for"] }
          : {}),
      },
    });
  // The customer's notice number before the reads: their stream replays anything committed after it, so a
  // change made while the page is on its way shows without the page asking its reads a second time.
  const position = await ask("/api/events/position");
  const eventsFrom = position.statusCode === 200 ? (position.json() as EventPosition).lastId : undefined;
  const answers = await Promise.all(DASHBOARD_FIRST_READS.map(ask));
  const sessionCheck = answers[DASHBOARD_FIRST_READS.indexOf("/api/auth/user")];
  if (sessionCheck?.statusCode !== 200) return undefined;
  const reads: Record<string, FirstRead> = {};
  answers.forEach((answer, i) => {
    const setCookie = answer.headers["set-cookie"];
    if (setCookie) reply.header("set-cookie", setCookie);
    if (answer.statusCode !== 200 || !String(answer.headers["content-type"]).includes("application/json"))
      return;
    const etag = answer.headers.etag;
    reads[DASHBOARD_FIRST_READS[i]] = { body: answer.json(), ...(typeof etag === "string" ? { etag } : {}) };
  });
  return { reads, eventsFrom };
}

/**
 * The answers as a JSON script element (never executed, so the CSP allows it). `<` is escaped so no text a
 * customer wrote can close the element.
 */
function answersElement(reads: Record<string, FirstRead>, eventsFrom: string | undefined): string {
  const json = JSON.stringify(reads).replace(/</g, "\\u003c");
  // Digits only (eventPositionResponse), so safe inside the attribute.
  const from = eventsFrom ? ` ${EVENTS_FROM_ATTRIBUTE}="${eventsFrom}"` : "";
  return `<script type="application/json" id="${FIRST_READS_ELEMENT_ID}"${from}>${json}</script>`;
}
