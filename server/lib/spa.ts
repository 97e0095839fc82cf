import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  DASHBOARD_FIRST_READS,
  FIRST_PAGE_SOURCES,
  FIRST_READS_ELEMENT_ID,
  type FirstPage,
  type FirstRead,
  firstPageFor,
} from "@/contract/first-page";
import { SIGNED_IN_HINT_COOKIE } from "@/contract/session-hint";
import { AppError } from "@/server/lib/errors";

const API_PREFIXES = ["/api/", "/api", "/objects/", "/dev/"];

/** Serves the built SPA: hashed assets cached for a year, index.html for every client route, JSON 404 for the API. */
export async function registerSpa(app: FastifyInstance, webDir: string | undefined) {
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
  const firstPageHtml = indexHtml && webDir ? withFirstPagePreloads(indexHtml, webDir) : undefined;

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
    const html = (firstPage && firstPageHtml?.[firstPage]) ?? indexHtml;
    reply.type("text/html").header("vary", "cookie");
    const reads =
      firstPage === "dashboard" && request.method === "GET" ? await readFirst(app, request, reply) : "";
    // With a customer's data inside, no cache may keep the page (the reads themselves are no-store too).
    reply.header("cache-control", reads ? "no-store" : "no-cache");
    return reply.send(reads ? html.replace("</body>", `${reads}</body>`) : html);
  });
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

/**
 * The app shell once per first page (contract/first-page.ts), with that page's chunks as modulepreload links.
 * The browser fetches them while it parses the HTML, instead of after the entry chunk has run; and the
 * entry's preload helper finds them present, so it does not add ~45 links from script (~35 ms of main
 * thread on a phone-class CPU). Without the build's manifest (a hand-made web dir) every path gets the shell.
 */
function withFirstPagePreloads(indexHtml: string, webDir: string): Record<FirstPage, string> | undefined {
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
  return { dashboard: html("dashboard"), landing: html("landing") };
}

/**
 * The dashboard's first reads, answered in-process with the visitor's own cookies, as a JSON script element
 * (never executed, so the CSP allows it): the page renders its data without six more round trips. Nothing
 * when the session check does not answer 200 (a stale hint), so the web then asks as usual; only 200 answers
 * are carried. Cookies a read sets (a renewed session) are passed on. `<` is escaped so no text a customer
 * wrote can close the element.
 */
async function readFirst(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  if (!request.headers.cookie) return "";
  const answers = await Promise.all(
    DASHBOARD_FIRST_READS.map((url) =>
      app.inject({
        method: "GET",
        url,
        remoteAddress: request.socket.remoteAddress,
        headers: {
          cookie: request.headers.cookie,
          ...(request.headers["user-agent"] ? { "user-agent": request.headers["user-agent"] } : {}),
          ...(request.headers["x-forwarded-for"]
            ? { "x-forwarded-for": request.headers["x-forwarded-for"] }
            : {}),
        },
      }),
    ),
  );
  const sessionCheck = answers[DASHBOARD_FIRST_READS.indexOf("/api/auth/user")];
  if (sessionCheck?.statusCode !== 200) return "";
  const reads: Record<string, FirstRead> = {};
  answers.forEach((answer, i) => {
    const setCookie = answer.headers["set-cookie"];
    if (setCookie) reply.header("set-cookie", setCookie);
    if (answer.statusCode !== 200 || !String(answer.headers["content-type"]).includes("application/json"))
      return;
    const etag = answer.headers.etag;
    reads[DASHBOARD_FIRST_READS[i]] = { body: answer.json(), ...(typeof etag === "string" ? { etag } : {}) };
  });
  const json = JSON.stringify(reads).replace(/</g, "\\u003c");
  return `<script type="application/json" id="${FIRST_READS_ELEMENT_ID}">${json}</script>`;
}
