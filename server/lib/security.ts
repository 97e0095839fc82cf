import helmet from "@fastify/helmet";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "@/server/lib/errors";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function isCrossSite(request: FastifyRequest): boolean {
  if (request.headers["sec-fetch-site"] === "cross-site") return true;
  const origin = request.headers.origin;
  if (!origin || origin === "null") return origin === "null";
  try {
    const from = new URL(origin);
    // Normalise the Host header through URL so "localhost:80" and "http://localhost" compare equal.
    return from.host !== new URL(`${from.protocol}//${request.headers.host ?? ""}`).host;
  } catch {
    return true;
  }
}

/** Helmet headers with a CSP the built app satisfies, CSRF refusal of cross-site mutations, no-store on the API. */
export async function registerSecurity(app: FastifyInstance, { secureCookies }: { secureCookies: boolean }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: secureCookies ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: secureCookies ? undefined : false,
  });

  // Only JSON bodies are accepted, so a plain HTML form from another site cannot post to the API.
  app.removeContentTypeParser("text/plain");

  app.addHook("onRequest", async (request) => {
    if (MUTATING.has(request.method) && isCrossSite(request)) {
      throw new AppError("FORBIDDEN", "Cross-site request refused");
    }
  });

  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (request.url.startsWith("/api/") || request.url.startsWith("/objects/")) {
      reply.header("cache-control", "no-store");
    }
  });
}
