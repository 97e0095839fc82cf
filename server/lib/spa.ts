import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
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

  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((p) => request.url === p || request.url.startsWith(p));
    const wantsPage = request.method === "GET" || request.method === "HEAD";
    // A missing file (an old hashed asset after a deploy, say) is a 404, never the app shell served as JS.
    const isFile = /\.[a-z0-9]+$/i.test(request.url.split("?")[0]);
    if (isApi || !wantsPage || isFile) {
      throw new AppError("NOT_FOUND", `No route for ${request.method} ${request.url.split("?")[0]}`);
    }
    if (!indexHtml) {
      return reply
        .status(503)
        .type("text/plain")
        .send("The web app has not been built. Run `npm run build`, or use `npm start` which builds it.");
    }
    return reply.type("text/html").header("cache-control", "no-cache").send(indexHtml);
  });
}
