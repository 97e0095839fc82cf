import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
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

function helmetOptions(secureCookies: boolean): HelmetOptions {
  return {
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
  };
}

/**
 * The headers helmet sets, computed once: they depend on the options only (no nonces), and building helmet's
 * middleware per request (as @fastify/helmet does) cost a tenth of a dashboard poll's CPU.
 */
export function securityHeaders(secureCookies: boolean): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => void headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  helmet(helmetOptions(secureCookies))(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

/** Helmet headers with a CSP the built app satisfies, CSRF refusal of cross-site mutations, no-store on the API. */
export async function registerSecurity(app: FastifyInstance, { secureCookies }: { secureCookies: boolean }) {
  const headers = securityHeaders(secureCookies);
  app.addHook("onRequest", (_request, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of headers) res.setHeader(name, value);
    done();
  });

  // Only JSON bodies are accepted, so a plain HTML form from another site cannot post to the API.
  app.removeContentTypeParser("text/plain");

  app.addHook("onRequest", (request, _reply, done) => {
    if (MUTATING.has(request.method) && isCrossSite(request)) {
      done(new AppError("FORBIDDEN", "Cross-site request refused"));
      return;
    }
    done();
  });

  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    if (request.url.startsWith("/api/") || request.url.startsWith("/objects/")) {
      reply.header("cache-control", "no-store");
    }
    done(null, payload);
  });
}
